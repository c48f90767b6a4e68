import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, inArray, like } from 'drizzle-orm';
import JSZip from 'jszip';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RETENTION_MSG, SETTINGS_MSG, type DataRequestItem, type RetentionOverview, type RetentionRunItem } from '@contest/shared';
import {
  accounts,
  appeals,
  attachments,
  dataRequests,
  jobs,
  loginRecords,
  operationRecords,
  prelimDocs,
  resultVersions,
  retentionItems,
  retentionPseudonyms,
  retentionRuns,
  scoreLog,
  teams,
} from '../../db/schema.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import { appendScoreLog, verifyScoreLog } from '../score-log/score-log.js';
import { api } from '../../../test/admin-helpers.js';
import { setSetting, withContest } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { executeRun } from './retention.executor.js';
import { createRetentionService } from './retention.service.js';

/**
 * Retention and personal data requests (docs/retention.md) on the whole app: the dry run's plan is
 * exactly what the run removes, the score log still verifies, a run killed half-way resumes
 * without losing or repeating anything, exports are their owner's only, deletions wait while
 * something of theirs is open, and two admins deciding at once anonymise once.
 */

let t: TestApp;
let admin: SignedIn;
let storage: Storage;
const db = () => t.database.db;
const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN', name: '保留管理员' });
  storage = createStorage(t.config.files.storage);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

/** The contest ended `daysAgo` days ago (every phase closed). */
async function contestEnded(daysAgo: number): Promise<void> {
  const end = new Date(Date.now() - daysAgo * DAY);
  const w = { start: new Date(end.getTime() - 30 * DAY).toISOString(), end: end.toISOString() };
  await setSetting(t, 'contest.phases', { signUp: w, prelimSubmission: w, prelimReview: w, finalReview: w });
}

/** A stored file of `ownerId` (row and object). */
async function storedFile(ownerId: string, origin: 'TEAM' | 'PRELIM', name = `${origin.toLowerCase()}.pdf`): Promise<{ id: string; storageKey: string }> {
  const content = randomBytes(64);
  const sha256 = createHash('sha256').update(content).digest('hex');
  const id = randomUUID();
  const storageKey = `2025/01/${id}`;
  await storage.put(storageKey, Readable.from(content), { size: content.length, sha256, contentType: 'application/pdf' });
  await db().insert(attachments).values({ id, uniqueNo: randomBytes(16).toString('base64url'), ownerId, origin, originalName: name, extension: 'pdf', mimeType: 'application/pdf', size: content.length, sha256, storageKey });
  return { id, storageKey };
}

/** A participant with a sign-up (two people), materials and a file of each kind. */
async function participant(tag = randomBytes(3).toString('hex')) {
  const user = await signIn(t, { realm: 'USER', name: `张三${tag}` });
  const [team] = await db()
    .insert(teams)
    .values({
      ownerId: user.accountId,
      status: 'APPROVED',
      teamName: `团队${tag}`,
      orgName: '示例医院',
      creditCode: '91110000MA01ABCD2X',
      leader: { name: `张三${tag}`, phone: '13800000001', email: 'l@example.com', title: 'SENIOR' },
      members: [{ name: `李四${tag}`, phone: '13800000002', email: 'm@example.com', role: 'DEVELOPER' }],
    })
    .returning({ id: teams.id });
  const [doc] = await db().insert(prelimDocs).values({ teamId: team!.id, ownerId: user.accountId, status: 'APPROVED', projectName: `项目${tag}` }).returning({ id: prelimDocs.id });
  const teamFile = await storedFile(user.accountId, 'TEAM');
  const prelimFile = await storedFile(user.accountId, 'PRELIM');
  return { user, teamId: team!.id, prelimId: doc!.id, teamFile, prelimFile };
}

const fileRows = async (ids: string[]) => (ids.length ? db().select({ id: attachments.id }).from(attachments).where(inArray(attachments.id, ids)) : []);
const exists = async (key: string) => (await storage.head(key)) !== null;

async function runToEnd(runId: string): Promise<RetentionRunItem> {
  for (let i = 0; i < 50; i++) {
    await t.app.deps.jobs.runDue();
    const res = await api<RetentionRunItem>(t, 'GET', `/api/admin/retention/runs/${runId}`, { headers: admin.headers });
    if (res.body.data.status === 'DONE' || res.body.data.status === 'FAILED') return res.body.data;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('run did not finish');
}

describe('settings: retention periods', () => {
  it('defaults are served; a log period under 180 days or a bad number is refused 400 naming it; a save without them keeps them', async () => {
    const s = (await api(t, 'GET', '/api/admin/settings', { headers: admin.headers })).body.data;
    expect(s.retention.days).toEqual({ MATERIAL_FILES: 180, SIGNUP_FILES: 180, PARTICIPANT_DATA: 365, EXPERT_DATA: 365, LOGIN_RECORDS: 180, OPERATION_RECORDS: 1095 });
    const short = await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: { ...s, retention: { days: { ...s.retention.days, LOGIN_RECORDS: 30 } } } });
    expect(short.statusCode).toBe(400);
    expect(short.body.message).toBe(SETTINGS_MSG.retentionLogDaysTooShort);
    for (const bad of [-1, 1.5, 4000, '30']) {
      const res = await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: { ...s, retention: { days: { ...s.retention.days, MATERIAL_FILES: bad } } } });
      expect(res.statusCode, String(bad)).toBe(400);
      expect(res.body.message).toBe(SETTINGS_MSG.retentionDaysInvalid);
    }
    const saved = await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: { ...s, retention: { days: { ...s.retention.days, MATERIAL_FILES: 0 } } } });
    expect(saved.statusCode, JSON.stringify(saved.body)).toBe(200);
    const { retention: _r, ...without } = s;
    const kept = await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: without });
    expect(kept.body.data.retention.days.MATERIAL_FILES).toBe(0);
    await setSetting(t, 'retention.days', undefined);
  });
});

describe('dry run and run', () => {
  beforeEach(async () => {
    // Nothing of earlier tests' plans left queued.
    await db().update(retentionRuns).set({ status: 'DISCARDED' }).where(inArray(retentionRuns.status, ['PLANNED', 'QUEUED', 'RUNNING']));
  });

  it('without a contest end nothing is due and a dry run is refused 400', async () => {
    await setSetting(t, 'contest.phases', { signUp: { start: new Date().toISOString(), end: null }, prelimSubmission: null, prelimReview: null, finalReview: null });
    const overview = await api<RetentionOverview>(t, 'GET', '/api/admin/retention', { headers: admin.headers });
    expect(overview.body.data.contestEndsAt).toBeNull();
    expect(overview.body.data.kinds.every((k) => k.dueAt === null && !k.due)).toBe(true);
    const res = await api(t, 'POST', '/api/admin/retention/dry-run', { headers: admin.headers });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatchObject({ message: RETENTION_MSG.contestNotEnded, data: { reason: 'CONTEST_NOT_ENDED' } });
  });

  it('the run removes exactly what the dry run listed; later data stays; the score log verifies; people become pseudonyms', async () => {
    await contestEnded(400);
    await setSetting(t, 'retention.days', { MATERIAL_FILES: 0, SIGNUP_FILES: 0, PARTICIPANT_DATA: 0, EXPERT_DATA: 0, LOGIN_RECORDS: 180, OPERATION_RECORDS: 180 });
    const a = await participant();
    const expert = await signIn(t, { realm: 'EXPERT', name: '王专家' });
    const [code] = await db().select({ code: accounts.code }).from(accounts).where(eq(accounts.id, expert.accountId));
    await db().transaction(async (tx) => {
      await appendScoreLog(tx, { kind: 'APPEAL_DECIDED', round: 'PRELIMINARY', subjectType: 'appeal', subjectId: randomUUID(), actor: { id: expert.accountId, name: `王专家（${code!.code}）` }, payload: { decision: 'REJECTED' } });
    });
    const [oldLogin] = await db().insert(loginRecords).values({ realm: 'USER', accountId: a.user.accountId, identifier: '13912345678', method: 'PASSWORD', result: 'SUCCESS', createdAt: new Date(Date.now() - 200 * DAY) }).returning({ id: loginRecords.id });
    const [newLogin] = await db().insert(loginRecords).values({ realm: 'USER', accountId: a.user.accountId, identifier: '13912345678', method: 'PASSWORD', result: 'SUCCESS', createdAt: new Date(Date.now() - 10 * DAY) }).returning({ id: loginRecords.id });
    const [oldOp] = await db().insert(operationRecords).values({ realm: 'ADMIN', username: 'ops', action: 'team:audit', targetType: 'team', summary: '旧记录', createdAt: new Date(Date.now() - 200 * DAY) }).returning({ id: operationRecords.id });

    const dry = await api<RetentionRunItem>(t, 'POST', '/api/admin/retention/dry-run', { headers: admin.headers });
    expect(dry.statusCode, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.data.status).toBe('PLANNED');
    const planned = await db().select().from(retentionItems).where(eq(retentionItems.runId, dry.body.data.id));
    const plannedOf = (kind: string) => new Set(planned.filter((i) => i.kind === kind).map((i) => i.targetId));
    expect(plannedOf('SIGNUP_FILES').has(a.teamFile.id)).toBe(true);
    expect(plannedOf('MATERIAL_FILES').has(a.prelimFile.id)).toBe(true);
    expect(plannedOf('PARTICIPANT_DATA').has(a.user.accountId)).toBe(true);
    expect(plannedOf('EXPERT_DATA').has(expert.accountId)).toBe(true);
    expect(plannedOf('LOGIN_RECORDS').has(oldLogin!.id)).toBe(true);
    expect(plannedOf('LOGIN_RECORDS').has(newLogin!.id)).toBe(false);
    expect(plannedOf('OPERATION_RECORDS').has(oldOp!.id)).toBe(true);
    // Counts and samples per kind; the sample never shows a whole phone.
    for (const kind of ['SIGNUP_FILES', 'MATERIAL_FILES', 'PARTICIPANT_DATA', 'EXPERT_DATA', 'LOGIN_RECORDS', 'OPERATION_RECORDS'] as const) {
      expect(dry.body.data.counts[kind], kind).toBe(plannedOf(kind).size);
    }
    expect(JSON.stringify(dry.body.data.samples)).not.toMatch(/1\d{10}/);
    // A dry run removes nothing.
    expect(await fileRows([a.teamFile.id, a.prelimFile.id])).toHaveLength(2);
    expect(await exists(a.teamFile.storageKey)).toBe(true);
    expect((await db().select().from(accounts).where(eq(accounts.id, a.user.accountId)))[0]!.phone).not.toBeNull();

    // Data that arrives after the dry run is not in the plan and stays.
    const late = await participant();
    const allFilesBefore = (await db().select({ id: attachments.id }).from(attachments)).map((r) => r.id);

    const started = await api<RetentionRunItem>(t, 'POST', `/api/admin/retention/runs/${dry.body.data.id}/execute`, { headers: admin.headers });
    expect(started.statusCode, JSON.stringify(started.body)).toBe(200);
    const done = await runToEnd(dry.body.data.id);
    expect(done.status).toBe('DONE');

    const allFilesAfter = new Set((await db().select({ id: attachments.id }).from(attachments)).map((r) => r.id));
    const removed = new Set(allFilesBefore.filter((id) => !allFilesAfter.has(id)));
    expect(removed).toEqual(new Set([...plannedOf('SIGNUP_FILES'), ...plannedOf('MATERIAL_FILES')]));
    expect(await exists(a.teamFile.storageKey)).toBe(false);
    expect(await exists(a.prelimFile.storageKey)).toBe(false);
    expect(await exists(late.teamFile.storageKey)).toBe(true);
    expect(await fileRows([late.teamFile.id, late.prelimFile.id])).toHaveLength(2);
    expect((await db().select().from(accounts).where(eq(accounts.id, late.user.accountId)))[0]!.phone).not.toBeNull();
    // Records: the old ones gone, the recent login kept.
    expect(await db().select().from(loginRecords).where(eq(loginRecords.id, oldLogin!.id))).toHaveLength(0);
    expect(await db().select().from(operationRecords).where(eq(operationRecords.id, oldOp!.id))).toHaveLength(0);
    const [kept] = await db().select().from(loginRecords).where(eq(loginRecords.id, newLogin!.id));
    expect(kept!.identifier).toMatch(/^参赛者#\d+$/);
    // People: pseudonyms, no phone, no e-mail, disabled; team people too; credit code cleared.
    const [acc] = await db().select().from(accounts).where(eq(accounts.id, a.user.accountId));
    expect(acc).toMatchObject({ phone: null, email: null, enabled: false });
    expect(acc!.name).toMatch(/^参赛者#\d+$/);
    expect(acc!.username).toBe(acc!.name);
    const [team] = await db().select().from(teams).where(eq(teams.id, a.teamId));
    expect(team!.creditCode).toBeNull();
    expect(team!.leader).toEqual({ name: acc!.name, title: 'SENIOR' });
    expect(team!.members[0]).toEqual({ name: `${acc!.name}·成员1`, role: 'DEVELOPER' });
    expect(team!.teamName).toMatch(/^团队/);
    const [exp] = await db().select().from(accounts).where(eq(accounts.id, expert.accountId));
    expect(exp!.name).toMatch(/^专家#\d+$/);
    // The score log: the name replaced (v2 does not hash it), the code kept, the chain verifies.
    const [entry] = await db().select().from(scoreLog).where(eq(scoreLog.actorId, expert.accountId));
    expect(entry!.actorName).toBe(`${exp!.name}（${code!.code}）`);
    expect((await verifyScoreLog(db())).ok).toBe(true);
    // Stable pseudonym: one row per person, and the number says nothing of the phone.
    expect(await db().select().from(retentionPseudonyms).where(eq(retentionPseudonyms.accountId, a.user.accountId))).toHaveLength(1);

    // Recorded, and executing the same plan again is refused.
    const history = await api<{ list: RetentionRunItem[] }>(t, 'GET', '/api/admin/retention/runs', { headers: admin.headers });
    const mine = history.body.data.list.find((r) => r.id === dry.body.data.id)!;
    expect(mine).toMatchObject({ status: 'DONE', createdBy: admin.username, startedBy: admin.username });
    expect(mine.done.SIGNUP_FILES).toBe(plannedOf('SIGNUP_FILES').size);
    const again = await api(t, 'POST', `/api/admin/retention/runs/${dry.body.data.id}/execute`, { headers: admin.headers });
    expect(again.statusCode).toBe(400);
    expect(again.body.data.reason).toBe('STALE');
    // A fresh dry run no longer lists what is gone.
    const next = await api<RetentionRunItem>(t, 'POST', '/api/admin/retention/dry-run', { headers: admin.headers });
    const nextItems = await db().select().from(retentionItems).where(eq(retentionItems.runId, next.body.data.id));
    expect(nextItems.some((i) => i.targetId === a.user.accountId || i.targetId === a.teamFile.id)).toBe(false);
  }, 60_000);

  it('a plan older than a day, or a second run while one executes, is refused', async () => {
    await contestEnded(400);
    const dry = await api<RetentionRunItem>(t, 'POST', '/api/admin/retention/dry-run', { headers: admin.headers });
    await db().update(retentionRuns).set({ createdAt: new Date(Date.now() - 2 * DAY) }).where(eq(retentionRuns.id, dry.body.data.id));
    const stale = await api(t, 'POST', `/api/admin/retention/runs/${dry.body.data.id}/execute`, { headers: admin.headers });
    expect(stale.statusCode).toBe(400);
    expect(stale.body.data.reason).toBe('EXPIRED');
    expect((await db().select().from(retentionRuns).where(eq(retentionRuns.id, dry.body.data.id)))[0]!.status).toBe('PLANNED');
    const missing = await api(t, 'POST', `/api/admin/retention/runs/${randomUUID()}/execute`, { headers: admin.headers });
    expect(missing.statusCode).toBe(404);
    const badId = await api(t, 'POST', '/api/admin/retention/runs/not-an-id/execute', { headers: admin.headers });
    expect(badId.statusCode).toBe(400);
  });

  it('two admins executing one plan at once: one run', async () => {
    await contestEnded(400);
    const other = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const dry = await api<RetentionRunItem>(t, 'POST', '/api/admin/retention/dry-run', { headers: admin.headers });
    const [r1, r2] = await Promise.all([
      api(t, 'POST', `/api/admin/retention/runs/${dry.body.data.id}/execute`, { headers: admin.headers }),
      api(t, 'POST', `/api/admin/retention/runs/${dry.body.data.id}/execute`, { headers: other.headers }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 400]);
    await runToEnd(dry.body.data.id);
  });
});

describe('crash safety', () => {
  /** Storage that counts removals per key. */
  function countingStorage() {
    const deletes = new Map<string, number>();
    return {
      deletes,
      storage: {
        delete: async (key: string) => {
          deletes.set(key, (deletes.get(key) ?? 0) + 1);
          await storage.delete(key);
        },
      },
    };
  }

  for (const stage of ['marked', 'done'] as const) {
    it(`a run stopped after a ${stage} batch resumes: everything planned is removed, nothing twice, nothing lost`, async () => {
      await db().update(retentionRuns).set({ status: 'DISCARDED' }).where(inArray(retentionRuns.status, ['PLANNED', 'QUEUED', 'RUNNING']));
      await contestEnded(400);
      await setSetting(t, 'retention.days', { MATERIAL_FILES: 0, SIGNUP_FILES: 0, PARTICIPANT_DATA: 0, EXPERT_DATA: 0, LOGIN_RECORDS: 180, OPERATION_RECORDS: 180 });
      const people = [await participant(), await participant(), await participant()];
      const service = createRetentionService({ db: db(), kick: () => {} });
      const plan = await service.dryRun({ auth: { accountId: admin.accountId, realm: 'ADMIN', username: admin.username } });
      // Executed directly (no job): queued as the console would leave it.
      await db().update(retentionRuns).set({ status: 'QUEUED', dryRun: false }).where(eq(retentionRuns.id, plan.id));
      const planned = await db().select().from(retentionItems).where(eq(retentionItems.runId, plan.id));
      const fileKeys = new Map(planned.filter((i) => i.kind.endsWith('_FILES')).map((i) => [i.targetId, i.storageKey!]));
      expect(fileKeys.size).toBeGreaterThanOrEqual(6);

      const { deletes, storage: counted } = countingStorage();
      const kill = new Error('kill -9');
      await expect(
        executeRun(
          {
            db: db(),
            storage: counted,
            anonymisers: [],
            batchSize: 2,
            checkpoint: (s, n) => {
              if (s === stage && n >= 4) throw kill;
            },
          },
          plan.id,
        ),
      ).rejects.toBe(kill);
      const half = await db().select().from(retentionItems).where(eq(retentionItems.runId, plan.id));
      expect(half.filter((i) => i.state === 'PENDING').length).toBeGreaterThan(0);
      expect(half.filter((i) => i.state !== 'PENDING').length).toBe(4);

      await executeRun({ db: db(), storage: counted, anonymisers: [], batchSize: 2 }, plan.id);
      const after = await db().select().from(retentionItems).where(eq(retentionItems.runId, plan.id));
      expect(after.every((i) => i.state === 'DONE' || i.state === 'SKIPPED')).toBe(true);
      expect(after).toHaveLength(planned.length);
      for (const [id, key] of fileKeys) {
        expect(deletes.get(key), id).toBe(1);
        expect(await exists(key)).toBe(false);
      }
      expect(await fileRows([...fileKeys.keys()])).toHaveLength(0);
      for (const p of people) {
        const [acc] = await db().select().from(accounts).where(eq(accounts.id, p.user.accountId));
        expect(acc!.name).toMatch(/^参赛者#\d+$/);
        expect(await db().select().from(retentionPseudonyms).where(eq(retentionPseudonyms.accountId, p.user.accountId))).toHaveLength(1);
      }
      expect((await db().select().from(retentionRuns).where(eq(retentionRuns.id, plan.id)))[0]!.status).toBe('DONE');
      expect((await verifyScoreLog(db())).ok).toBe(true);
    }, 60_000);
  }
});

describe('personal data requests', () => {
  beforeEach(async () => {
    // Requests are judged against a contest that is over.
    await contestEnded(10);
  });

  it('export: made by a job, downloaded by its owner only (another participant 404), holding their data and files', async () => {
    const a = await participant();
    const b = await signIn(t, { realm: 'USER' });
    const asked = await api<DataRequestItem>(t, 'POST', '/api/my-data/export', { headers: a.user.headers });
    expect(asked.statusCode, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body.data.status).toBe('QUEUED');
    const early = await api(t, 'POST', '/api/my-data/export', { headers: a.user.headers });
    if (early.statusCode === 400) expect(early.body.data.reason).toBe('BUSY');
    await t.app.deps.jobs.runDue();
    const mine = await api<{ export: DataRequestItem }>(t, 'GET', '/api/my-data', { headers: a.user.headers });
    const exportId = mine.body.data.export.id;
    expect(mine.body.data.export.status).toBe('READY');

    expect((await api(t, 'GET', `/api/my-data/export/${exportId}/download`, { headers: b.headers })).statusCode).toBe(404);
    expect((await api(t, 'GET', `/api/my-data/export/${exportId}/download`, { headers: admin.headers })).statusCode).toBe(401);
    const res = await t.app.inject({ method: 'GET', url: `/api/my-data/export/${exportId}/download`, headers: a.user.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = await JSZip.loadAsync(res.rawPayload);
    const data = JSON.parse(await zip.file('my-data.json')!.async('string'));
    const [acc] = await db().select().from(accounts).where(eq(accounts.id, a.user.accountId));
    expect(data.account).toMatchObject({ phone: acc!.phone, name: acc!.name });
    expect(data.signUp[0].leader.phone).toBe('13800000001');
    expect(Object.values(zip.files).filter((f) => !f.dir && f.name.startsWith('files/'))).toHaveLength(2);

    // Expired: refused with its reason.
    await db().update(dataRequests).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(dataRequests.id, exportId));
    const expired = await api(t, 'GET', `/api/my-data/export/${exportId}/download`, { headers: a.user.headers });
    expect(expired.statusCode).toBe(400);
    expect(expired.body.data.reason).toBe('EXPIRED');
  });

  it('deletion: bad inputs 400 and nothing written; one open request at a time', async () => {
    const u = await signIn(t, { realm: 'USER' });
    for (const body of [{}, { reason: '' }, { reason: '   ' }, { reason: 'x'.repeat(501) }, { reason: 5 }]) {
      const res = await api(t, 'POST', '/api/my-data/deletion', { headers: u.headers, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect([RETENTION_MSG.requestReasonRequired, RETENTION_MSG.requestReasonTooLong]).toContain(res.body.message);
    }
    expect(await db().select().from(dataRequests).where(eq(dataRequests.accountId, u.accountId))).toHaveLength(0);
    const first = await api<DataRequestItem>(t, 'POST', '/api/my-data/deletion', { headers: u.headers, body: { reason: '不再参赛' } });
    expect(first.statusCode).toBe(200);
    const second = await api(t, 'POST', '/api/my-data/deletion', { headers: u.headers, body: { reason: '再次申请' } });
    expect(second.statusCode).toBe(400);
    expect(second.body.data.reason).toBe('PENDING');
    // The admin's decision: bad inputs 400, nothing changes.
    for (const body of [{}, { decision: 'MAYBE', reply: '好', version: 1 }, { decision: 'APPROVE', reply: '', version: 1 }, { decision: 'APPROVE', reply: 'x'.repeat(501), version: 1 }, { decision: 'APPROVE', reply: '好' }]) {
      const res = await api(t, 'POST', `/api/admin/data-requests/${first.body.data.id}/decide`, { headers: admin.headers, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
    }
    const stale = await api(t, 'POST', `/api/admin/data-requests/${first.body.data.id}/decide`, { headers: admin.headers, body: { decision: 'APPROVE', reply: '好', version: 99 } });
    expect(stale.statusCode).toBe(400);
    expect(stale.body.data.reason).toBe('STALE');
    expect((await db().select().from(dataRequests).where(eq(dataRequests.id, first.body.data.id)))[0]!.status).toBe('PENDING');
    const unknown = await api(t, 'POST', `/api/admin/data-requests/${randomUUID()}/decide`, { headers: admin.headers, body: { decision: 'APPROVE', reply: '好', version: 1 } });
    expect(unknown.statusCode).toBe(404);
  });

  it('approval waits while an appeal of theirs is open (reason key, both languages), then anonymises once it is settled', async () => {
    const a = await participant();
    const [version] = await db()
      .insert(resultVersions)
      .values({ round: 'PRELIMINARY', version: 900 + Math.floor(Math.random() * 1000), status: 'SUPERSEDED', rule: {} as never, actorName: 'x', publishedAt: new Date(), periodEndsAt: new Date(Date.now() - DAY), appealEndsAt: new Date(Date.now() - DAY) })
      .returning({ id: resultVersions.id });
    const [appeal] = await db()
      .insert(appeals)
      .values({ round: 'PRELIMINARY', resultVersionId: version!.id, resultVersion: 1, teamId: a.teamId, prelimId: a.prelimId, ownerId: a.user.accountId, reason: '复核', dueAt: new Date(Date.now() + DAY) })
      .returning({ id: appeals.id });
    const asked = await api<DataRequestItem>(t, 'POST', '/api/my-data/deletion', { headers: a.user.headers, body: { reason: '不再参赛' } });
    const decided = await api<DataRequestItem>(t, 'POST', `/api/admin/data-requests/${asked.body.data.id}/decide`, {
      headers: admin.headers,
      body: { decision: 'APPROVE', reply: '同意', version: asked.body.data.version },
    });
    expect(decided.statusCode, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body.data).toMatchObject({ status: 'WAITING', waitReason: 'APPEAL_OPEN' });
    expect(decided.body.message).toContain('您的申诉尚未处理完毕');
    await t.app.deps.jobs.runDue();
    const [still] = await db().select().from(accounts).where(eq(accounts.id, a.user.accountId));
    expect(still!.phone).not.toBeNull();
    expect(await exists(a.teamFile.storageKey)).toBe(true);
    expect(await db().select().from(retentionRuns).where(eq(retentionRuns.requestId, asked.body.data.id))).toHaveLength(0);
    // The participant's page says so.
    const mine = await api<{ deletion: DataRequestItem }>(t, 'GET', '/api/my-data', { headers: a.user.headers });
    expect(mine.body.data.deletion).toMatchObject({ status: 'WAITING', waitReason: 'APPEAL_OPEN', reply: '同意' });

    await db().update(appeals).set({ status: 'REJECTED' }).where(eq(appeals.id, appeal!.id));
    // The hourly job rechecks waiting deletions: made due now.
    await db().update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(and(eq(jobs.kind, 'retention.requests'), eq(jobs.status, 'QUEUED')));
    await t.app.deps.jobs.runDue();
    await t.app.deps.jobs.runDue();
    const [gone] = await db().select().from(accounts).where(eq(accounts.id, a.user.accountId));
    expect(gone).toMatchObject({ phone: null, email: null, enabled: false });
    expect(gone!.name).toMatch(/^参赛者#\d+$/);
    expect(await exists(a.teamFile.storageKey)).toBe(false);
    expect((await db().select().from(dataRequests).where(eq(dataRequests.id, asked.body.data.id)))[0]).toMatchObject({ status: 'DONE', waitReason: null });
    // Their appeal and results stay.
    expect(await db().select().from(appeals).where(eq(appeals.id, appeal!.id))).toHaveLength(1);
  });

  it('two admins approving at once: one decision, one anonymisation', async () => {
    const a = await participant();
    const other = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const asked = await api<DataRequestItem>(t, 'POST', '/api/my-data/deletion', { headers: a.user.headers, body: { reason: '不再参赛' } });
    const body = { decision: 'APPROVE', reply: '同意', version: asked.body.data.version };
    const [r1, r2] = await Promise.all([
      api(t, 'POST', `/api/admin/data-requests/${asked.body.data.id}/decide`, { headers: admin.headers, body }),
      api(t, 'POST', `/api/admin/data-requests/${asked.body.data.id}/decide`, { headers: other.headers, body }),
    ]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 400]);
    expect([r1, r2].find((r) => r.statusCode === 400)!.body.data.reason).toBe('STALE');
    const runs = await db().select().from(retentionRuns).where(eq(retentionRuns.requestId, asked.body.data.id));
    expect(runs).toHaveLength(1);
    await runToEnd(runs[0]!.id);
    expect(await db().select().from(retentionPseudonyms).where(eq(retentionPseudonyms.accountId, a.user.accountId))).toHaveLength(1);
    const ops = await db()
      .select()
      .from(operationRecords)
      .where(and(eq(operationRecords.targetId, asked.body.data.id), like(operationRecords.summary, '批准%')));
    expect(ops).toHaveLength(1);
    // The admin list shows it decided, with a masked (here: removed) phone.
    const list = await api<{ list: Array<{ id: string; status: string; account: { phone: string | null } }> }>(t, 'GET', '/api/admin/data-requests?kind=DELETE', { headers: admin.headers });
    expect(list.body.data.list.find((r) => r.id === asked.body.data.id)).toMatchObject({ status: 'DONE', account: { phone: null } });
    expect((await api(t, 'GET', '/api/admin/data-requests?status=NOPE', { headers: admin.headers })).statusCode).toBe(400);
  });
});
