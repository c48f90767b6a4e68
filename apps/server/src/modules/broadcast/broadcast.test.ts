import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { and, eq, inArray, sql } from 'drizzle-orm';
import {
  ADMIN_MSG,
  BROADCAST_MSG as M,
  PRELIM_DOC_STATUSES,
  RESULT_SEGMENT_VALUES,
  TEAM_STATUSES,
  seededUnitRandom,
  segmentSchema,
  type BroadcastBatch,
  type BroadcastDetail,
  type BroadcastPreview,
  type BroadcastSent,
  type Page,
  type Segment,
} from '@contest/shared';
import {
  accounts,
  dictItems,
  dictTypes,
  finalEntries,
  jobs,
  messageBatches,
  messageRecipients,
  messageTemplates,
  messages,
  noticeOutbox,
  operationRecords,
  prelimDocs,
  resultEntries,
  resultVersions,
  teams,
} from '../../db/schema.js';
import type { Db } from '../../db/client.js';
import { createJobRunner, type JobRunner } from '../../lib/jobs.js';
import { hashPassword } from '../../lib/password.js';
import { registerIdentity } from '../auth/identity.module.js';
import { registerContent } from '../content/content.module.js';
import { registerFiles } from '../files/files.module.js';
import { createNoticeOutbox, type NoticeOutbox } from '../notices/notice-outbox.js';
import type { SmsMessage, SmsProvider } from '../sms/sms.provider.js';
import { takeDailyPhoneSlot } from '../sms/sms.service.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { countSegment, segmentSlice } from './segment.js';

const DAILY_CAP = 3;
const SLICE = 7;

let t: TestApp;
let runner: JobRunner;
let outbox: NoticeOutbox;
/** Throws before slice `at` of the batch (a kill half-way); cleared to let the next run finish. */
let killAt: { batchId?: string; at: number } | null = null;
let superAdmin: SignedIn;

const gateway: SmsProvider & { sent: SmsMessage[]; refuse: Set<string> } = {
  name: 'fake',
  sent: [],
  refuse: new Set(),
  async send(message) {
    if (this.refuse.has(message.phone)) throw new Error('E_REFUSED: 号码无效');
    this.sent.push(message);
  },
};

const db = (): Db => t.database.db;

beforeAll(async () => {
  t = await createTestApp({ SMS_DAILY_LIMIT_PER_PHONE: String(DAILY_CAP) }, { bare: true });
  // A failed run waits a minute: the tests put it back in the queue themselves (`due`).
  runner = createJobRunner({ db: db(), backoffMs: () => 60_000, maxAttempts: 5 });
  outbox = createNoticeOutbox({ db: db(), sms: gateway });
  await t.app.register(
    async (api: FastifyInstance) => {
      const identity = await registerIdentity(api, t.app.deps);
      await registerFiles(api, t.app.deps, identity);
      await registerContent(api, t.app.deps, identity, {
        jobs: runner,
        broadcastJob: {
          sliceSize: SLICE,
          beforeSlice: (index, batchId) => {
            if (killAt && (!killAt.batchId || killAt.batchId === batchId) && index === killAt.at) throw new Error('killed half-way');
          },
        },
      });
    },
    { prefix: '/api' },
  );
  await t.app.ready();
  superAdmin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
  await seedRandom();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

// ---- Random data ------------------------------------------------------------------------------

const TRACKS = ['T_ALPHA', 'T_BETA', 'T_GAMMA', 'T_DELTA'];

/** Deterministic PRNG: a failing case replays the same data. */
const rand = seededUnitRandom(20250612);
const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;

/** ~200 participants (some disabled, some without phone or email), teams, materials; and a few staff accounts. */
async function seedRandom(): Promise<void> {
  await db().insert(dictTypes).values({ code: 'TRACK', name: '参赛方向' }).onConflictDoNothing();
  await db()
    .insert(dictItems)
    .values(TRACKS.map((code, sort) => ({ typeCode: 'TRACK', code, name: `方向${code.slice(2)}`, sort })))
    .onConflictDoNothing();
  const passwordHash = await hashPassword('Random@2025');
  await db().transaction(async (tx) => {
    for (let i = 0; i < 200; i++) {
      const [a] = await tx
        .insert(accounts)
        .values({
          realm: 'USER',
          username: `seg_${i}`,
          name: rand() < 0.2 ? null : `参赛者${i}`,
          phone: rand() < 0.85 ? `1580000${String(i).padStart(4, '0')}` : null,
          email: rand() < 0.7 ? `seg${i}@example.com` : null,
          roleCode: 'USER',
          passwordHash,
          enabled: rand() < 0.9,
        })
        .returning({ id: accounts.id });
      if (rand() < 0.3) continue;
      const status = pick(TEAM_STATUSES);
      const [team] = await tx
        .insert(teams)
        .values({ ownerId: a!.id, status, track: rand() < 0.9 ? pick(TRACKS) : null, teamName: `团队${i}`, orgName: `单位${i}` })
        .returning({ id: teams.id });
      if (status === 'APPROVED' && rand() < 0.6) {
        await tx.insert(prelimDocs).values({ teamId: team!.id, ownerId: a!.id, status: pick(TEAM_STATUSES), projectName: `项目${i}` });
      }
    }
    // The final round and published results: entries IN or OUT; a preliminary result whose older,
    // superseded version said otherwise (only the current version counts), and a final result.
    const docs = await tx.select({ id: prelimDocs.id, teamId: prelimDocs.teamId }).from(prelimDocs).orderBy(prelimDocs.id);
    for (const d of docs) if (rand() < 0.5) await tx.insert(finalEntries).values({ prelimId: d.id, status: rand() < 0.7 ? 'IN' : 'OUT', reason: '随机' });
    const at = new Date('2025-08-01T02:00:00Z');
    const version = async (round: 'PRELIMINARY' | 'FINAL', n: number, status: 'PUBLISHED' | 'SUPERSEDED') =>
      (await tx.insert(resultVersions).values({ round, version: n, status, rule: {}, actorName: '管理员', publishedAt: at, periodEndsAt: at, appealEndsAt: at }).returning({ id: resultVersions.id }))[0]!.id;
    const versions = [
      { id: await version('PRELIMINARY', 1, 'SUPERSEDED'), outcomes: ['PROMOTED', 'NOT_PROMOTED'] as const },
      { id: await version('PRELIMINARY', 2, 'PUBLISHED'), outcomes: ['PROMOTED', 'NOT_PROMOTED'] as const },
      { id: await version('FINAL', 1, 'PUBLISHED'), outcomes: ['AWARDED', 'NONE'] as const },
    ];
    for (const v of versions) {
      for (const d of docs) {
        if (rand() < 0.3) continue;
        await tx.insert(resultEntries).values({ versionId: v.id, prelimId: d.id, teamId: d.teamId, projectName: '项目', teamName: '团队', orgName: '单位', outcome: pick(v.outcomes) });
      }
    }
    // Staff are never participants, whatever they hold.
    for (const realm of ['ADMIN', 'EXPERT'] as const) {
      await tx.insert(accounts).values({ realm, username: `staff_${realm}`, phone: '15899999999', email: `staff_${realm}@example.com`, roleCode: realm === 'ADMIN' ? 'SYSTEM' : 'EXPERT', passwordHash });
    }
  });
}

const inList = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

/** The segment written as a plain query of its own (joins, not the module's exists): what must come out. */
async function directQuery(segment: Segment): Promise<string[]> {
  const base = sql`a.realm = 'USER' and a.enabled`;
  let query;
  switch (segment.kind) {
    case 'ALL':
      query = sql`select a.id from accounts a where ${base}`;
      break;
    case 'ACCOUNTS':
      query = sql`select a.id from accounts a where ${base} and a.id in (${inList(segment.values)})`;
      break;
    case 'TEAM_STATUS':
      query = sql`select a.id from accounts a join teams t on t.owner_id = a.id where ${base} and t.status in (${inList(segment.values)})`;
      break;
    case 'TRACK':
      query = sql`select a.id from accounts a join teams t on t.owner_id = a.id where ${base} and t.track in (${inList(segment.values)})`;
      break;
    case 'FINALIST':
      query = sql`select distinct a.id from accounts a join prelim_docs p on p.owner_id = a.id join final_entries f on f.prelim_id = p.id where ${base} and f.status = 'IN'`;
      break;
    case 'RESULT':
      query = sql`select distinct a.id from accounts a join teams t on t.owner_id = a.id join result_entries e on e.team_id = t.id join result_versions v on v.id = e.version_id
        where ${base} and v.status = 'PUBLISHED' and (v.round || ':' || e.outcome) in (${inList(segment.values)})`;
      break;
    case 'PRELIM_STATUS': {
      const saved = segment.values.filter((v) => v !== 'NOT_FILLED');
      const notFilled = segment.values.includes('NOT_FILLED');
      query = sql`select distinct a.id from accounts a join teams t on t.owner_id = a.id left join prelim_docs p on p.team_id = t.id
        where ${base} and (${saved.length ? sql`p.status in (${inList(saved)})` : sql`false`} or (${notFilled} and t.status = 'APPROVED' and p.id is null))`;
      break;
    }
  }
  const result = (await db().execute(query)) as unknown as { rows: Array<{ id: string }> };
  return result.rows.map((r) => r.id).sort();
}

function randomSegment(participantIds: string[]): Segment {
  const kind = pick(['ALL', 'TEAM_STATUS', 'PRELIM_STATUS', 'TRACK', 'FINALIST', 'RESULT', 'ACCOUNTS'] as const);
  const some = <T,>(list: readonly T[]) => {
    const out = list.filter(() => rand() < 0.4);
    return out.length ? out : [pick(list)];
  };
  const raw =
    kind === 'ALL' || kind === 'FINALIST'
      ? { kind }
      : kind === 'RESULT'
        ? { kind, values: some(RESULT_SEGMENT_VALUES) }
      : kind === 'TEAM_STATUS'
        ? { kind, values: some(TEAM_STATUSES) }
        : kind === 'PRELIM_STATUS'
          ? { kind, values: some(PRELIM_DOC_STATUSES) }
          : kind === 'TRACK'
            ? { kind, values: some(TRACKS) }
            : { kind, values: [...some(participantIds.slice(0, 60)), '00000000-0000-4000-8000-000000000000'] };
  return segmentSchema.parse(raw);
}

async function walk(segment: Segment, reach: 'ALL' | 'PHONE' | 'EMAIL' = 'ALL'): Promise<string[]> {
  const out: string[] = [];
  let after: string | null = null;
  for (;;) {
    const rows = await segmentSlice(db(), segment, { reach, afterId: after, limit: 13 });
    if (!rows.length) return out;
    out.push(...rows.map((r) => r.id));
    after = rows[rows.length - 1]!.id;
  }
}

// ---- Calls ------------------------------------------------------------------------------------

const call = (method: 'GET' | 'POST' | 'PUT', url: string, who: SignedIn | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: who?.headers ?? {}, ...(payload === undefined ? {} : { payload: payload as object }) });
const preview = (channel: string, body: unknown, who: SignedIn = superAdmin) => call('POST', `/api/admin/broadcast/${channel}/preview`, who, body);
const send = (channel: string, body: unknown, who: SignedIn = superAdmin) => call('POST', `/api/admin/broadcast/${channel}/send`, who, body);

async function sent(channel: string, body: unknown): Promise<BroadcastSent> {
  const res = await send(channel, body);
  expect(res.statusCode, res.body).toBe(200);
  expect(res.json().message).toBe(M.sent);
  return res.json().data as BroadcastSent;
}

const batchOf = async (id: string) => (await db().select().from(messageBatches).where(eq(messageBatches.id, id)))[0]!;
/** A job that failed (killed) is due again at once. */
const due = (jobId: string) => db().update(jobs).set({ runAt: new Date(0) }).where(eq(jobs.id, jobId));
const jobOf = async (id: string) => (await db().select().from(jobs).where(eq(jobs.id, id)))[0]!;

/** Recipient rows of the batch's message(s), per account: exactly one each when all is well. */
async function insiteDeliveries(batchId: string): Promise<{ messages: number; perAccount: Map<string, number> }> {
  const msgs = await db().select({ id: messages.id }).from(messages).where(eq(messages.batchId, batchId));
  const rows = msgs.length
    ? await db().select({ accountId: messageRecipients.accountId }).from(messageRecipients).where(inArray(messageRecipients.messageId, msgs.map((m) => m.id)))
    : [];
  const perAccount = new Map<string, number>();
  for (const r of rows) perAccount.set(r.accountId, (perAccount.get(r.accountId) ?? 0) + 1);
  return { messages: msgs.length, perAccount };
}

async function outboxRows(batchId: string) {
  return db().select().from(noticeOutbox).where(eq(noticeOutbox.batchId, batchId));
}

async function participantIds(): Promise<string[]> {
  return (await db().select({ id: accounts.id }).from(accounts).where(and(eq(accounts.realm, 'USER'), sql`${accounts.username} like 'seg_%'`))).map((r) => r.id).sort();
}

/** Enabled participants with a phone, sorted (the random data has some without, or disabled). */
async function smsReachableIds(): Promise<string[]> {
  const rows = await db()
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.realm, 'USER'), eq(accounts.enabled, true), sql`${accounts.username} like 'seg_%' and ${accounts.phone} is not null`));
  return rows.map((r) => r.id).sort();
}

// ---- Tests ------------------------------------------------------------------------------------

describe('segments', () => {
  it('pick exactly the recipients a direct query over random data finds', async () => {
    const ids = await participantIds();
    expect(ids.length).toBe(200);
    const fixed: Segment[] = [
      segmentSchema.parse({ kind: 'ALL' }),
      segmentSchema.parse({ kind: 'PRELIM_STATUS', values: ['NOT_FILLED'] }),
      segmentSchema.parse({ kind: 'PRELIM_STATUS', values: ['NOT_FILLED', 'SUBMITTED'] }),
      segmentSchema.parse({ kind: 'TEAM_STATUS', values: ['REVISING'] }),
      segmentSchema.parse({ kind: 'TRACK', values: ['T_ALPHA', 'T_GAMMA'] }),
      segmentSchema.parse({ kind: 'FINALIST' }),
      segmentSchema.parse({ kind: 'RESULT', values: ['FINAL:AWARDED'] }),
      segmentSchema.parse({ kind: 'RESULT', values: ['PRELIMINARY:PROMOTED', 'FINAL:NONE'] }),
    ];
    const segments = [...fixed, ...Array.from({ length: 25 }, () => randomSegment(ids))];
    let nonEmpty = 0;
    for (const segment of segments) {
      const expected = await directQuery(segment);
      const label = JSON.stringify(segment).slice(0, 200);
      expect(await walk(segment), label).toEqual(expected);
      const counts = await countSegment(db(), segment);
      expect(counts.total, label).toBe(expected.length);
      const withPhone = (await db().select({ id: accounts.id, phone: accounts.phone }).from(accounts).where(expected.length ? inArray(accounts.id, expected) : sql`false`)).filter((r) => r.phone).map((r) => r.id).sort();
      expect(await walk(segment, 'PHONE'), label).toEqual(withPhone);
      expect(counts.withPhone, label).toBe(withPhone.length);
      if (expected.length) nonEmpty++;
    }
    // The data must make the comparison mean something: most segments hold someone, NOT_FILLED too.
    expect(nonEmpty).toBeGreaterThan(20);
    expect((await directQuery(fixed[1]!)).length).toBeGreaterThan(0);
    // Finalists and award winners exist in the data, and the superseded preliminary version is not
    // what the result segment reads (its lines differ from the current version's).
    for (const k of [5, 6, 7]) expect((await directQuery(fixed[k]!)).length, JSON.stringify(fixed[k])).toBeGreaterThan(0);
  });

  it('leave out staff, disabled accounts and unknown ids', async () => {
    const staff = (await db().select({ id: accounts.id }).from(accounts).where(inArray(accounts.username, ['staff_ADMIN', 'staff_EXPERT']))).map((r) => r.id);
    const disabled = (await db().select({ id: accounts.id }).from(accounts).where(and(eq(accounts.realm, 'USER'), eq(accounts.enabled, false)))).map((r) => r.id);
    expect(disabled.length).toBeGreaterThan(0);
    const all = await walk(segmentSchema.parse({ kind: 'ALL' }));
    for (const id of [...staff, ...disabled]) expect(all).not.toContain(id);
    const chosen = segmentSchema.parse({ kind: 'ACCOUNTS', values: [...staff, disabled[0]!, '00000000-0000-4000-8000-000000000000'] });
    expect(await walk(chosen)).toEqual([]);
  });
});

describe('POST /api/admin/broadcast/{channel}/preview', () => {
  it('counts the segment and renders the first three messages with their recipients', async () => {
    const segment = { kind: 'TEAM_STATUS', values: ['SUBMITTED', 'REVISING'] };
    const expected = await directQuery(segmentSchema.parse(segment));
    const res = await preview('insite', { segment, title: '补充材料提醒', body: '请尽快补充材料。\n谢谢' });
    expect(res.statusCode, res.body).toBe(200);
    const p = res.json().data as BroadcastPreview;
    expect(p).toMatchObject({ channel: 'INSITE', total: expected.length, deliverable: expected.length });
    expect(p.samples).toHaveLength(3);
    expect(p.samples.map((s) => s.accountId)).toEqual(expected.slice(0, 3));
    expect(p.samples[0]).toMatchObject({ title: '补充材料提醒', body: '请尽快补充材料。\n谢谢', to: null });
    expect(p.samples[0]!.name).toBeTruthy();

    const sms = (await preview('sms', { segment, smsText: '{name}您好，{teamName}请登录系统查看审核意见。' })).json().data as BroadcastPreview;
    const rows = await db().select().from(accounts).where(inArray(accounts.id, expected));
    const phones = rows.filter((r) => r.phone);
    expect(sms).toMatchObject({ channel: 'SMS', total: expected.length, withPhone: phones.length, deliverable: phones.length, smsSegments: 1 });
    const first = rows.find((r) => r.id === sms.samples[0]!.accountId)!;
    const [team] = await db().select().from(teams).where(eq(teams.ownerId, first.id));
    expect(sms.samples[0]!.smsText).toBe(`${first.name || first.username}您好，${team!.teamName}请登录系统查看审核意见。`);
    expect(sms.samples[0]!.to).toBe(`${first.phone!.slice(0, 3)}****${first.phone!.slice(-4)}`);

    const email = (await preview('email', { segment, title: '{teamName} 的通知', body: '正文' })).json().data as BroadcastPreview;
    expect(email).toMatchObject({ channel: 'EMAIL', withEmail: rows.filter((r) => r.email).length });
    expect(email.samples[0]!.to).toMatch(/^s\*\*\*@example\.com$/);
  });

  it('counts billed SMS parts: 70 characters are one, 71 are two', async () => {
    const segment = { kind: 'ALL' };
    expect(((await preview('sms', { segment, smsText: '字'.repeat(70) })).json().data as BroadcastPreview).smsSegments).toBe(1);
    expect(((await preview('sms', { segment, smsText: '字'.repeat(71) })).json().data as BroadcastPreview).smsSegments).toBe(2);
  });
});

describe('sending: a job serves every recipient exactly once', () => {
  it('in-site: send -> job -> one message, one inbox row per recipient; running it again changes nothing', async () => {
    const segment = { kind: 'PRELIM_STATUS', values: ['NOT_FILLED', 'REVISING'] };
    const expected = await directQuery(segmentSchema.parse(segment));
    const before = (await db().select({ n: sql<number>`count(*)::int` }).from(operationRecords).where(eq(operationRecords.action, 'message:send')))[0]!.n;
    const { batchId, jobId, total } = await sent('insite', { segment, title: '材料提交提醒', body: '截止时间临近 <请注意>\n谢谢' });
    expect(total).toBe(expected.length);
    const queued = await batchOf(batchId);
    expect(queued).toMatchObject({ status: 'QUEUED', jobId, channel: 'INSITE', senderId: superAdmin.accountId });
    expect((await jobOf(jobId)).kind).toBe('broadcast');
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.action, 'message:send'), eq(operationRecords.targetId, batchId)));
    expect(ops).toHaveLength(1);
    expect(ops[0]!.summary).toContain('初赛材料状态：未填写、退回修改');
    expect((await db().select({ n: sql<number>`count(*)::int` }).from(operationRecords).where(eq(operationRecords.action, 'message:send')))[0]!.n).toBe(before + 1);

    await runner.runDue();
    const done = await batchOf(batchId);
    expect(done.status).toBe('DONE');
    expect(done.finishedAt).not.toBeNull();
    expect(await jobOf(jobId)).toMatchObject({ status: 'DONE', done: expected.length, total: expected.length });
    const first = await insiteDeliveries(batchId);
    expect(first.messages).toBe(1);
    expect([...first.perAccount.keys()].sort()).toEqual(expected);
    expect([...first.perAccount.values()].every((n) => n === 1)).toBe(true);
    const [msg] = await db().select().from(messages).where(eq(messages.batchId, batchId));
    expect(msg).toMatchObject({ kind: 'ADMIN', audience: 'SEGMENT', title: '材料提交提醒', body: '截止时间临近 &lt;请注意&gt;<br>谢谢', senderId: superAdmin.accountId });

    // The handler again over the finished batch, and again with the batch put back to RUNNING (a rerun after a kill).
    await db().update(jobs).set({ status: 'QUEUED', runAt: new Date(0) }).where(eq(jobs.id, jobId));
    await runner.runDue();
    await db().update(messageBatches).set({ status: 'RUNNING' }).where(eq(messageBatches.id, batchId));
    await db().update(jobs).set({ status: 'QUEUED', runAt: new Date(0) }).where(eq(jobs.id, jobId));
    await runner.runDue();
    const again = await insiteDeliveries(batchId);
    expect(again.messages).toBe(1);
    expect([...again.perAccount.keys()].sort()).toEqual(expected);
    expect([...again.perAccount.values()].every((n) => n === 1)).toBe(true);
    expect((await batchOf(batchId)).status).toBe('DONE');
  });

  it('in-site: a run killed half-way finishes on the next run without duplicates', async () => {
    const segment = { kind: 'ALL' };
    const expected = await directQuery(segmentSchema.parse(segment));
    const { batchId, jobId } = await sent('insite', { segment, title: '全体通知', body: '大赛日程调整' });
    killAt = { batchId, at: 3 };
    await runner.runDue();
    const job = await jobOf(jobId);
    expect(job).toMatchObject({ status: 'QUEUED', attempts: 1, lastError: 'killed half-way' });
    const half = await insiteDeliveries(batchId);
    expect(half.perAccount.size).toBe(3 * SLICE);
    expect((await batchOf(batchId)).status).toBe('RUNNING');

    killAt = null;
    await due(jobId);
    await runner.runDue();
    const all = await insiteDeliveries(batchId);
    expect(all.messages).toBe(1);
    expect([...all.perAccount.keys()].sort()).toEqual(expected);
    expect([...all.perAccount.values()].every((n) => n === 1)).toBe(true);
    expect(await jobOf(jobId)).toMatchObject({ status: 'DONE', attempts: 2 });
    expect((await batchOf(batchId)).status).toBe('DONE');
  });

  it('SMS: one outbox row per phone, killed half-way and rerun; phones at the daily cap are recorded FAILED, not sent', async () => {
    const segment = segmentSchema.parse({ kind: 'TRACK', values: ['T_ALPHA', 'T_BETA'] });
    const expected = await directQuery(segment);
    const people = await db().select().from(accounts).where(inArray(accounts.id, expected));
    const withPhone = people.filter((p) => p.phone).sort((a, b) => (a.id < b.id ? -1 : 1));
    expect(withPhone.length).toBeGreaterThan(3 * SLICE);
    // The first phone has used its whole day (verification codes), the last one one SMS of it.
    const full = withPhone[0]!;
    const late = withPhone[withPhone.length - 1]!;
    for (let i = 0; i < DAILY_CAP; i++) expect(await takeDailyPhoneSlot(t.app.deps.kv, full.phone!, DAILY_CAP).take()).toBe(true);
    expect(await takeDailyPhoneSlot(t.app.deps.kv, late.phone!, DAILY_CAP).take()).toBe(true);

    const { batchId, jobId, total } = await sent('sms', { segment, smsText: '{name}，您的团队{teamName}请于本周内提交材料。' });
    expect(total).toBe(withPhone.length);
    killAt = { batchId, at: 2 };
    await runner.runDue();
    expect((await outboxRows(batchId)).length).toBe(2 * SLICE);
    killAt = null;
    await due(jobId);
    await runner.runDue();
    expect((await jobOf(jobId)).status).toBe('DONE');
    expect((await batchOf(batchId)).status).toBe('DONE');

    const rows = await outboxRows(batchId);
    expect(rows.map((r) => r.accountId).sort()).toEqual(withPhone.map((p) => p.id));
    expect(new Set(rows.map((r) => r.recipient)).size).toBe(rows.length);
    const byAccount = new Map(rows.map((r) => [r.accountId, r]));
    expect(byAccount.get(full.id)).toMatchObject({ status: 'FAILED', lastError: M.dailyCapReached, channel: 'SMS' });
    expect(rows.filter((r) => r.status === 'FAILED')).toHaveLength(1);
    const [team] = await db().select().from(teams).where(eq(teams.ownerId, late.id));
    expect(byAccount.get(late.id)).toMatchObject({ status: 'QUEUED', text: `${late.name || late.username}，您的团队${team!.teamName}请于本周内提交材料。`, params: [late.name || late.username, team!.teamName], templateKey: 'BROADCAST' });
    // The late phone was counted once (1 before + 1 now), not again by the rerun: one more fits.
    expect(await takeDailyPhoneSlot(t.app.deps.kv, late.phone!, DAILY_CAP).take()).toBe(true);
    expect(await takeDailyPhoneSlot(t.app.deps.kv, late.phone!, DAILY_CAP).take()).toBe(false);

    // The dispatcher sends what is queued, once per phone; a refused phone ends FAILED with the gateway's answer.
    const refused = withPhone[1]!;
    gateway.refuse.add(refused.phone!);
    gateway.sent.length = 0;
    for (let i = 0; i < 5; i++) {
      await db().update(noticeOutbox).set({ nextAttemptAt: new Date(0) }).where(and(eq(noticeOutbox.batchId, batchId), eq(noticeOutbox.status, 'QUEUED')));
      await outbox.drain();
    }
    expect(gateway.sent.map((s) => s.phone).sort()).toEqual(withPhone.slice(2).map((p) => p.phone).sort());
    expect(gateway.sent.some((s) => s.phone === full.phone)).toBe(false);

    const detail = (await call('GET', `/api/admin/broadcast/${batchId}?size=100`, superAdmin)).json().data as BroadcastDetail;
    expect(detail.batch).toMatchObject({ channel: 'SMS', status: 'DONE', total: withPhone.length, delivered: withPhone.length - 2, failed: 2, pending: 0, read: null });
    expect(detail.batch.segmentText).toBe('参赛方向：方向ALPHA、方向BETA');
    expect(detail.records.total).toBe(withPhone.length);
    // Failures first, phones masked, with the reason.
    expect(detail.records.list.slice(0, 2).map((r) => r.status)).toEqual(['FAILED', 'FAILED']);
    const refusedRecord = detail.records.list.find((r) => r.accountId === refused.id)!;
    expect(refusedRecord).toMatchObject({ to: `${refused.phone!.slice(0, 3)}****${refused.phone!.slice(-4)}`, attempts: 5 });
    expect(refusedRecord.providerAnswer).toContain('E_REFUSED');
    expect(detail.records.list.find((r) => r.accountId === full.id)).toMatchObject({ status: 'FAILED', providerAnswer: M.dailyCapReached, attempts: 0 });
    const failedOnly = (await call('GET', `/api/admin/broadcast/${batchId}?status=FAILED`, superAdmin)).json().data as BroadcastDetail;
    expect(failedOnly.records.total).toBe(2);
  });

  it('email: one outbox row per address with the rendered subject', async () => {
    const segment = segmentSchema.parse({ kind: 'TEAM_STATUS', values: ['APPROVED'] });
    const people = await db().select().from(accounts).where(inArray(accounts.id, await directQuery(segment)));
    const { batchId } = await sent('email', { segment, title: '{name}，决赛安排', body: '{teamName}：请查看附件。' });
    await runner.runDue();
    const rows = await outboxRows(batchId);
    expect(rows.map((r) => r.accountId).sort()).toEqual(people.filter((p) => p.email).map((p) => p.id).sort());
    const someone = people.find((p) => p.email)!;
    const row = rows.find((r) => r.accountId === someone.id)!;
    expect(row).toMatchObject({ channel: 'EMAIL', recipient: someone.email, subject: `${someone.name || someone.username}，决赛安排` });
  });

  it('uses a bulk template for blank texts; refuses event templates and other channels', async () => {
    const [tpl] = await db().insert(messageTemplates).values({ code: null, name: '群发模板', channels: ['SMS'], smsText: '{name}您好，请查看通知。', smsTemplateId: 'GW-100' }).returning();
    const [event] = await db().insert(messageTemplates).values({ code: 'BROADCAST_TEST_EVENT', name: '事件', channels: ['SMS', 'INSITE'], subject: 's', body: 'b', smsText: 'x' }).returning();
    const segment = { kind: 'ACCOUNTS', values: (await smsReachableIds()).slice(0, 5) };
    const p = (await preview('sms', { segment, templateId: tpl!.id })).json().data as BroadcastPreview;
    expect(p.samples[0]!.smsText).toMatch(/您好，请查看通知。$/);
    const { batchId } = await sent('sms', { segment, templateId: tpl!.id });
    expect((await batchOf(batchId)).templateId).toBe(tpl!.id);
    await runner.runDue();
    expect((await outboxRows(batchId)).every((r) => r.templateKey === 'GW-100')).toBe(true);

    const refused = [
      [{ segment, templateId: event!.id }, M.templateInvalid],
      [{ segment, templateId: '00000000-0000-4000-8000-000000000000' }, M.templateInvalid],
    ] as const;
    for (const [body, message] of refused) {
      const res = await send('sms', body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const other = await send('insite', { segment, templateId: tpl!.id });
    expect(other.statusCode).toBe(400);
    expect(other.json().message).toBe(M.templateChannelMismatch);
  });
});

describe('the batches list, read counts and recall', () => {
  it('lists in-site batches with read counts; a recall hides the message and drops the badge', async () => {
    const reader = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    const segment = { kind: 'ACCOUNTS', values: [reader.accountId, other.accountId] };
    const { batchId } = await sent('insite', { segment, title: '误发的消息', body: '请忽略' });
    await runner.runDue();

    const summary = async (who: SignedIn) => (await call('GET', '/api/messages/summary', who)).json().data.unreadCount as number;
    expect(await summary(reader)).toBe(1);
    const [msg] = await db().select().from(messages).where(eq(messages.batchId, batchId));
    expect(msg!.audience).toBe('ACCOUNTS');
    expect((await call('GET', `/api/messages/${msg!.id}`, reader)).statusCode).toBe(200);
    expect(await summary(reader)).toBe(0);

    const list = (await call('GET', '/api/admin/broadcast?channel=INSITE&size=100', superAdmin)).json().data as Page<BroadcastBatch>;
    const row = list.list.find((b) => b.id === batchId)!;
    expect(row).toMatchObject({ title: '误发的消息', total: 2, delivered: 2, read: 1, failed: null, status: 'DONE', segmentText: '指定用户（2 人）', progress: { done: 2, total: 2 } });
    expect(row.sender).toMatchObject({ id: superAdmin.accountId });
    expect(list.list.every((b) => b.channel === 'INSITE')).toBe(true);
    const searched = (await call('GET', `/api/admin/broadcast?channel=INSITE&keyword=${encodeURIComponent('误发')}`, superAdmin)).json().data as Page<BroadcastBatch>;
    expect(searched.list.map((b) => b.id)).toEqual([batchId]);
    const readers = (await call('GET', `/api/admin/broadcast/${batchId}?status=READ`, superAdmin)).json().data as BroadcastDetail;
    expect(readers.records.list.map((r) => r.accountId)).toEqual([reader.accountId]);

    expect(await summary(other)).toBe(1);
    const accountRes = async (who: SignedIn) => (await call('GET', '/api/messages?size=50', who)).json().data as Page<{ id: string }>;
    expect((await accountRes(other)).list.map((m) => m.id)).toContain(msg!.id);

    // Two admins recall at once: one succeeds, the other is told it already was.
    const [a, b] = await Promise.all([call('POST', `/api/admin/broadcast/${batchId}/recall`, superAdmin), call('POST', `/api/admin/broadcast/${batchId}/recall`, superAdmin)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const okRes = a.statusCode === 200 ? a : b;
    const refused = a.statusCode === 200 ? b : a;
    expect(okRes.json().message).toBe(M.recalled);
    expect(okRes.json().data).toMatchObject({ id: batchId, status: 'RECALLED' });
    expect(okRes.json().data.recalledAt).not.toBeNull();
    expect(refused.json()).toMatchObject({ message: M.alreadyRecalled, data: { reason: 'RECALLED' } });
    expect((await db().select().from(operationRecords).where(and(eq(operationRecords.targetId, batchId), sql`${operationRecords.summary} like '撤回%'`))).length).toBe(1);

    expect(await summary(other)).toBe(0);
    expect((await accountRes(other)).list.map((m) => m.id)).not.toContain(msg!.id);
    expect((await accountRes(other)).total).toBe(0);
    expect((await call('GET', `/api/messages/${msg!.id}`, other)).statusCode).toBe(404);
    expect((await call('PUT', `/api/messages/read-all`, other)).json().data.updated).toBe(0);
    // Read counts stay readable for the console.
    const after = (await call('GET', `/api/admin/broadcast/${batchId}`, superAdmin)).json().data as BroadcastDetail;
    expect(after.batch).toMatchObject({ status: 'RECALLED', read: 1, delivered: 2 });
  });

  it('lists the sends of one Beijing month (发送月份); a malformed month is refused', async () => {
    const segment = { kind: 'ALL' };
    const { batchId: june } = await sent('sms', { segment, smsText: '六月的短信' });
    const { batchId: may } = await sent('sms', { segment, smsText: '五月的短信' });
    // Beijing 2025-06-01 00:00:00 and, one second earlier, 2025-05-31 23:59:59.
    await db().update(messageBatches).set({ createdAt: new Date('2025-05-31T16:00:00Z') }).where(eq(messageBatches.id, june));
    await db().update(messageBatches).set({ createdAt: new Date('2025-05-31T15:59:59Z') }).where(eq(messageBatches.id, may));
    const ids = async (month: string) =>
      ((await call('GET', `/api/admin/broadcast?channel=SMS&size=100&month=${month}`, superAdmin)).json().data as Page<BroadcastBatch>).list.map((b) => b.id);
    expect(await ids('2025-06')).toEqual([june]);
    expect(await ids('2025-05')).toEqual([may]);
    expect(await ids('2025-07')).toEqual([]);
    // December rolls over into the next year.
    await db().update(messageBatches).set({ createdAt: new Date('2025-12-31T15:59:59Z') }).where(eq(messageBatches.id, may));
    expect(await ids('2025-12')).toEqual([may]);
    expect(await ids('2026-01')).toEqual([]);
    for (const month of ['2025-13', '2025-6', '202506', '2025-06-01', 'june']) {
      const res = await call('GET', `/api/admin/broadcast?channel=SMS&month=${month}`, superAdmin);
      expect(res.statusCode, month).toBe(400);
      expect(res.json().message, month).toBe(ADMIN_MSG.monthInvalid);
    }
  });

  it('refuses to recall an SMS batch and unknown ids', async () => {
    const segment = { kind: 'ACCOUNTS', values: (await smsReachableIds()).slice(10, 12) };
    const { batchId } = await sent('sms', { segment, smsText: '测试' });
    const res = await call('POST', `/api/admin/broadcast/${batchId}/recall`, superAdmin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: M.notInsite, data: { reason: 'NOT_INSITE' } });
    const missing = await call('POST', '/api/admin/broadcast/00000000-0000-4000-8000-000000000000/recall', superAdmin);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(M.batchNotFound);
    expect((await call('GET', '/api/admin/broadcast/00000000-0000-4000-8000-000000000000', superAdmin)).statusCode).toBe(404);
  });

  it('a recall before the job ran: the job delivers nothing', async () => {
    const reader = await signIn(t, { realm: 'USER' });
    const { batchId, jobId } = await sent('insite', { segment: { kind: 'ACCOUNTS', values: [reader.accountId] }, title: '撤回', body: '正文' });
    expect((await call('POST', `/api/admin/broadcast/${batchId}/recall`, superAdmin)).statusCode).toBe(200);
    await runner.runDue();
    expect((await jobOf(jobId)).status).toBe('DONE');
    expect((await insiteDeliveries(batchId)).perAccount.size).toBe(0);
    expect((await batchOf(batchId)).status).toBe('RECALLED');
  });
});

describe('GET /api/admin/broadcast/accounts', () => {
  it('finds enabled participants by username, name or phone, phones masked', async () => {
    const res = await call('GET', '/api/admin/broadcast/accounts?keyword=seg_12&size=100', superAdmin);
    expect(res.statusCode).toBe(200);
    const found = res.json().data as Page<{ id: string; username: string; phone: string | null; teamName: string | null }>;
    const expected = await db()
      .select({ id: accounts.id })
      .from(accounts)
      .where(and(eq(accounts.realm, 'USER'), eq(accounts.enabled, true), sql`${accounts.username} like 'seg\\_12%'`));
    expect(found.list.map((a) => a.id).sort()).toEqual(expected.map((r) => r.id).sort());
    expect(found.total).toBe(expected.length);
    expect(found.list.every((a) => a.phone === null || /^\d{3}\*{4}\d{4}$/.test(a.phone))).toBe(true);
    const smsOnly = await signIn(t, { realm: 'ADMIN', buttons: ['sms:send'] });
    expect((await call('GET', '/api/admin/broadcast/accounts', smsOnly)).statusCode).toBe(200);
    expect((await call('GET', '/api/admin/broadcast/accounts', await signIn(t, { realm: 'ADMIN', buttons: [] }))).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/broadcast/accounts', null)).statusCode).toBe(401);
  });
});

describe('permissions', () => {
  const draft = { segment: { kind: 'ALL' }, title: '标题', body: '正文', smsText: '短信' };

  it('401 without a console session, 403 without the channel button or page', async () => {
    const participant = await signIn(t, { realm: 'USER' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    const nobody = await signIn(t, { realm: 'ADMIN', buttons: [] });
    const smsOnly = await signIn(t, { realm: 'ADMIN', buttons: ['sms:send'] });
    const insiteOnly = await signIn(t, { realm: 'ADMIN', buttons: ['message:send'] });
    const routes: Array<['GET' | 'POST', string]> = [
      ['POST', '/api/admin/broadcast/insite/preview'],
      ['POST', '/api/admin/broadcast/insite/send'],
      ['POST', '/api/admin/broadcast/sms/preview'],
      ['POST', '/api/admin/broadcast/sms/send'],
      ['POST', '/api/admin/broadcast/email/send'],
      ['GET', '/api/admin/broadcast?channel=INSITE'],
      ['GET', '/api/admin/broadcast/00000000-0000-4000-8000-000000000000'],
      ['POST', '/api/admin/broadcast/00000000-0000-4000-8000-000000000000/recall'],
    ];
    const batches = async () => (await db().select({ n: sql<number>`count(*)::int` }).from(messageBatches))[0]!.n;
    const before = await batches();
    for (const [method, url] of routes) {
      for (const who of [null, participant, expert]) expect((await call(method, url, who, method === 'POST' ? draft : undefined)).statusCode, `${method} ${url}`).toBe(401);
      expect((await call(method, url, nobody, method === 'POST' ? draft : undefined)).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await send('insite', draft, smsOnly)).statusCode).toBe(403);
    expect((await preview('email', draft, smsOnly)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/broadcast?channel=INSITE', smsOnly)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/broadcast?channel=SMS', smsOnly)).statusCode).toBe(200);
    expect((await send('sms', draft, insiteOnly)).statusCode).toBe(403);
    expect((await call('GET', '/api/admin/broadcast?channel=SMS', insiteOnly)).statusCode).toBe(403);
    expect(await batches()).toBe(before);

    // The channel's own page guards a batch's detail too.
    const { batchId } = await sent('insite', { segment: { kind: 'ACCOUNTS', values: [participant.accountId] }, title: 't', body: 'b' });
    expect((await call('GET', `/api/admin/broadcast/${batchId}`, smsOnly)).statusCode).toBe(403);
    expect((await call('GET', `/api/admin/broadcast/${batchId}`, insiteOnly)).statusCode).toBe(200);
    expect((await call('POST', `/api/admin/broadcast/${batchId}/recall`, smsOnly)).statusCode).toBe(403);
    const mine = await sent('sms', { segment: { kind: 'ACCOUNTS', values: [participant.accountId] }, smsText: 's' });
    expect(mine.total).toBe(1);
    expect((await preview('sms', draft, smsOnly)).statusCode).toBe(200);
    expect((await send('insite', { segment: { kind: 'ACCOUNTS', values: [participant.accountId] }, title: 't', body: 'b' }, insiteOnly)).statusCode).toBe(200);
  });
});

describe('bad input', () => {
  it('answers 400 with the shared text and writes nothing', async () => {
    const segment = { kind: 'ALL' };
    const cases: Array<[string, unknown, string]> = [
      ['insite', {}, M.segmentRequired],
      ['insite', { segment: { kind: 'EVERYONE' }, title: 't', body: 'b' }, M.segmentKindInvalid],
      ['insite', { segment: { kind: 'TEAM_STATUS' }, title: 't', body: 'b' }, M.segmentValuesRequired],
      ['insite', { segment: { kind: 'TEAM_STATUS', values: [] }, title: 't', body: 'b' }, M.segmentValuesRequired],
      ['insite', { segment: { kind: 'TEAM_STATUS', values: ['NOT_FILLED'] }, title: 't', body: 'b' }, M.segmentStatusInvalid],
      ['insite', { segment: { kind: 'PRELIM_STATUS', values: ['DONE'] }, title: 't', body: 'b' }, M.segmentStatusInvalid],
      ['insite', { segment: { kind: 'TRACK', values: ['NO_SUCH_TRACK'] }, title: 't', body: 'b' }, M.segmentTrackInvalid],
      ['insite', { segment: { kind: 'ACCOUNTS', values: ['not-an-id'] }, title: 't', body: 'b' }, M.segmentAccountInvalid],
      ['insite', { segment: { kind: 'ACCOUNTS', values: Array.from({ length: 1001 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`) }, title: 't', body: 'b' }, M.segmentAccountsTooMany],
      ['insite', { segment: { kind: 'ACCOUNTS', values: ['00000000-0000-4000-8000-000000000000'] }, title: 't', body: 'b' }, M.noRecipients],
      ['insite', { segment, body: 'b' }, M.titleRequired],
      ['insite', { segment, title: '   ', body: 'b' }, M.titleRequired],
      ['insite', { segment, title: '字'.repeat(101), body: 'b' }, M.titleTooLong],
      ['insite', { segment, title: 't' }, M.bodyRequired],
      ['insite', { segment, title: 't', body: 'x'.repeat(5001) }, M.bodyTooLong],
      ['insite', { segment, title: 't', body: '{name}您好' }, M.variableUnknown],
      ['sms', { segment }, M.smsTextRequired],
      ['sms', { segment, smsText: '字'.repeat(501) }, M.smsTextTooLong],
      ['sms', { segment, smsText: '{foo}您好' }, M.variableUnknown],
      ['email', { segment, title: 't', body: '{reason}' }, M.variableUnknown],
      ['sms', { segment, smsText: 'x', templateId: 'nope' }, ADMIN_MSG.idInvalid],
    ];
    const batches = async () => (await db().select({ n: sql<number>`count(*)::int` }).from(messageBatches))[0]!.n;
    const jobCount = async () => (await db().select({ n: sql<number>`count(*)::int` }).from(jobs))[0]!.n;
    const before = [await batches(), await jobCount()];
    for (const [channel, body, message] of cases) {
      for (const fn of [preview, send]) {
        if (message === M.noRecipients && fn === preview) continue;
        const res = await fn(channel, body);
        expect(res.statusCode, `${channel} ${JSON.stringify(body).slice(0, 120)}`).toBe(400);
        expect(res.json().message, `${channel} ${JSON.stringify(body).slice(0, 120)}`).toBe(message);
      }
    }
    expect([await batches(), await jobCount()]).toEqual(before);
    const unknown = await send('sms', { segment, smsText: '{foo}{name}{bar}' });
    expect(unknown.json().data).toMatchObject({ field: 'smsText', variables: ['foo', 'bar'] });

    for (const url of ['/api/admin/broadcast', '/api/admin/broadcast?channel=FAX', '/api/admin/broadcast?channel=SMS&status=NOPE']) {
      const res = await call('GET', url, superAdmin);
      expect(res.statusCode, url).toBe(400);
      expect([M.channelInvalid, M.statusInvalid]).toContain(res.json().message);
    }
    expect((await call('GET', '/api/admin/broadcast/not-an-id', superAdmin)).statusCode).toBe(400);
  });

  it('previewing an empty segment is fine (zero, no samples)', async () => {
    const res = await preview('insite', { segment: { kind: 'ACCOUNTS', values: ['00000000-0000-4000-8000-000000000000'] }, title: 't', body: 'b' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ total: 0, deliverable: 0, samples: [] });
  });
});
