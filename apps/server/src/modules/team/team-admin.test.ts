import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEST_MSG as M, TEAM_WORKFLOW, actionsFrom, stepOf, type BatchResult, type Page, type TeamAdminDetail, type TeamAdminRow } from '@contest/shared';
import { accounts, messageRecipients, messages, noticeOutbox, operationRecords, reminders, statusHistory, teams } from '../../db/schema.js';
import { api, completeTeam, seedDictionary, setSetting, withContest } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

let t: TestApp;
let auditor: SignedIn;
let viewer: SignedIn;
let exporter: SignedIn;
let drafts: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  await seedDictionary(t);
  auditor = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view', 'qualification:audit'], name: '审核员乙' });
  viewer = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view'] });
  exporter = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view', 'qualification:export'] });
  drafts = await signIn(t, { realm: 'ADMIN', buttons: ['qualification-draft:remind'] });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const tag = () => randomBytes(4).toString('hex');

/**
 * Teams written straight into the database (hundreds per test would take minutes through the
 * sign-up calls, which team.test.ts covers). Each gets its own participant account.
 */
async function seedTeams(n: number, values: Partial<typeof teams.$inferInsert> = {}, phone = false): Promise<string[]> {
  const prefix = tag();
  const owners = await db()
    .insert(accounts)
    .values(
      Array.from({ length: n }, (_, i) => ({
        realm: 'USER' as const,
        username: `s${prefix}${i}`,
        phone: phone ? `137${String(parseInt(prefix, 16) % 1e4).padStart(4, '0')}${String(i).padStart(4, '0')}` : null,
        roleCode: 'USER' as const,
        passwordHash: 'x',
      })),
    )
    .returning({ id: accounts.id });
  const base = Date.now() - 86_400_000;
  const rows = await db()
    .insert(teams)
    .values(
      owners.map((o, i) => ({
        ownerId: o.id,
        status: 'SUBMITTED' as const,
        orgName: `机构${prefix}-${i}`,
        teamName: `队${prefix}-${i}`,
        orgType: 'MEDICAL_INSTITUTION',
        region: 'P01',
        track: 'SMART_SUPERVISION',
        leader: { name: '李四', phone: '13800000002', email: 'l@example.com', title: 'SENIOR' },
        members: [{ name: '王五', organization: '某医院', title: 'SENIOR', phone: '', email: '', role: 'DEVELOPER' }],
        submittedAt: new Date(base + i * 1000),
        ...values,
      })),
    )
    .returning({ id: teams.id });
  return rows.map((r) => r.id);
}

const list = (query: string, who: SignedIn = viewer) => api<Page<TeamAdminRow>>(t, 'GET', `/api/admin/team/list?${query}`, { headers: who.headers });
const detail = (id: string, who: SignedIn = viewer) => api<TeamAdminDetail>(t, 'GET', `/api/admin/team/${id}`, { headers: who.headers });
const audit = (id: string, body: unknown, who: SignedIn = auditor) => api<TeamAdminDetail>(t, 'POST', `/api/admin/team/${id}/audit`, { headers: who.headers, body });
const historyOf = (id: string) => db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'TEAM'), eq(statusHistory.subjectId, id)));

describe('the team workflow as data', () => {
  it('allows exactly the documented steps, each to the right realm', () => {
    expect(stepOf(TEAM_WORKFLOW, 'SUBMIT', null, 'USER')).toMatchObject({ ok: true, to: 'SUBMITTED' });
    expect(stepOf(TEAM_WORKFLOW, 'SAVE', 'REVISING', 'USER')).toMatchObject({ ok: true, to: 'REVISING' });
    expect(stepOf(TEAM_WORKFLOW, 'SAVE', 'SUBMITTED', 'USER')).toMatchObject({ ok: false, message: M.teamNotEditable });
    expect(stepOf(TEAM_WORKFLOW, 'APPROVE', 'SUBMITTED', 'USER')).toMatchObject({ ok: false, reason: 'FORBIDDEN' });
    expect(stepOf(TEAM_WORKFLOW, 'APPROVE', 'DRAFT', 'ADMIN')).toMatchObject({ ok: false, message: M.auditOnlySubmitted });
    expect(actionsFrom(TEAM_WORKFLOW, 'SUBMITTED', 'ADMIN')).toEqual(['APPROVE', 'RETURN', 'REJECT']);
    for (const s of ['DRAFT', 'APPROVED', 'REVISING', 'REJECTED'] as const) expect(actionsFrom(TEAM_WORKFLOW, s, 'ADMIN')).toEqual([]);
    expect(actionsFrom(TEAM_WORKFLOW, 'APPROVED', 'USER')).toEqual([]);
  });

  it('refuses a status outside the machine at the database (CHECK constraint)', async () => {
    const [id] = await seedTeams(1);
    await expect(db().execute(sql`update teams set status = 'BOGUS' where id = ${id}`)).rejects.toThrow();
  });
});

describe('access', () => {
  it.each([
    ['GET', '/api/admin/team/list'],
    ['GET', '/api/admin/team/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/team/queue/next'],
    ['POST', '/api/admin/team/audit/batch'],
    ['GET', '/api/admin/team/export'],
    ['GET', '/api/admin/team/draft/list'],
    ['POST', '/api/admin/team/draft/remind'],
  ] as const)('%s %s: 401 anonymous, participant or expert; 403 without the permission', async (method, url) => {
    const user = await signIn(t, { realm: 'USER' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    const nobody = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    expect((await api(t, method, url, { body: { items: 'x' } })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: user.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: expert.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: nobody.headers, body: {} })).statusCode).toBe(403);
  });

  it('a viewer reads but cannot audit, export or remind', async () => {
    const [id] = await seedTeams(1);
    expect((await detail(id!)).statusCode).toBe(200);
    expect((await audit(id!, { outcome: 'APPROVED' }, viewer)).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/team/export', { headers: viewer.headers })).statusCode).toBe(403);
    expect((await api(t, 'POST', '/api/admin/team/draft/remind', { headers: viewer.headers, body: { all: true } })).statusCode).toBe(403);
    expect((await db().select().from(teams).where(eq(teams.id, id!)))[0]!.status).toBe('SUBMITTED');
  });

  it('the drafts page reads drafts only, with its menu', async () => {
    const [draft] = await seedTeams(1, { status: 'DRAFT', submittedAt: null });
    const [submitted] = await seedTeams(1);
    const menuOnly = await signIn(t, { realm: 'ADMIN', menus: ['qualificationDraft'] });
    expect((await api(t, 'GET', `/api/admin/team/draft/${draft}`, { headers: menuOnly.headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', `/api/admin/team/draft/${submitted}`, { headers: menuOnly.headers })).statusCode).toBe(404);
    expect((await api(t, 'GET', `/api/admin/team/${draft}`, { headers: menuOnly.headers })).statusCode).toBe(403);
    const page = await api<Page<TeamAdminRow>>(t, 'GET', '/api/admin/team/draft/list?size=100&status=SUBMITTED', { headers: menuOnly.headers });
    expect(page.statusCode).toBe(200);
    expect(page.body.data.list.every((r) => r.status === 'DRAFT')).toBe(true);
    expect((await api(t, 'POST', '/api/admin/team/draft/remind', { headers: menuOnly.headers, body: { all: true } })).statusCode).toBe(403);
  });
});

describe('list: filters, sorting, paging', () => {
  it('filters by organisation, type, track, region, status and submit time', async () => {
    const k = tag();
    const [a] = await seedTeams(1, { teamName: `筛${k}a`, orgName: `北京协和${k}医院`, orgType: 'MEDICAL_INSTITUTION', track: 'SMART_SUPERVISION', region: 'P01', submittedAt: new Date('2025-06-10T02:00:00Z') });
    const [b] = await seedTeams(1, { teamName: `筛${k}b`, orgName: `上海${k}科技有限公司`, orgType: 'ENTERPRISE', track: 'PUBLIC_SERVICE', region: 'P09', submittedAt: new Date('2025-06-20T02:00:00Z') });
    const [c] = await seedTeams(1, { teamName: `筛${k}c`, orgName: `广州${k}大学`, orgType: 'UNIVERSITY', track: 'PUBLIC_SERVICE', region: 'P19', status: 'APPROVED', submittedAt: new Date('2025-06-25T02:00:00Z') });
    const ids = async (q: string) => (await list(`size=100&teamName=${encodeURIComponent(`筛${k}`)}&${q}`)).body.data.list.map((r) => r.id).sort();
    expect(await ids('')).toEqual([a, b, c].sort());
    expect(await ids(`orgName=${encodeURIComponent(`协和${k}`)}`)).toEqual([a]);
    expect(await ids('orgType=ENTERPRISE')).toEqual([b]);
    expect(await ids('track=PUBLIC_SERVICE')).toEqual([b, c].sort());
    expect(await ids('region=P19')).toEqual([c]);
    expect(await ids('status=APPROVED')).toEqual([c]);
    expect(await ids('submittedFrom=2025-06-15&submittedTo=2025-06-20')).toEqual([b]);
    expect(await ids('submittedFrom=2025-06-20 10:00:01')).toEqual([c]);
    // % and _ are taken literally in contains-searches.
    expect((await list(`orgName=${encodeURIComponent('%')}`)).body.data.total).toBe(0);
  });

  it('sorts by the declared keys, both ways, and pages without overlap', async () => {
    const k = tag();
    await seedTeams(5, { orgName: `排序${k}` });
    await db().execute(sql`update teams set org_name = org_name || '-' || substr(id::text, 1, 4) where org_name like ${`排序${k}%`}`);
    const names = async (q: string) => (await list(`orgName=${encodeURIComponent(`排序${k}`)}&${q}`)).body.data.list.map((r) => r.orgName);
    const asc = await names('size=100&sort=orgName&order=asc');
    expect(asc).toEqual([...asc].sort());
    expect(await names('size=100&sort=orgName&order=desc')).toEqual([...asc].reverse());
    const pages = [...(await names('size=2&page=1&sort=orgName')), ...(await names('size=2&page=2&sort=orgName')), ...(await names('size=2&page=3&sort=orgName'))];
    expect(pages).toEqual(asc);
    const res = await list(`orgName=${k}&size=2`);
    expect(res.body.data).toMatchObject({ total: 5, page: 1, size: 2 });
  });

  it.each([
    ['sort=password', M.sortInvalid],
    ['order=sideways', M.sortInvalid],
    ['status=DONE', M.statusFilterInvalid],
    ['size=101', undefined],
    ['submittedFrom=2025-13-01', undefined],
  ])('refuses %s with 400', async (q, message) => {
    const res = await list(q);
    expect(res.statusCode).toBe(400);
    if (message) expect(res.body.message).toBe(message);
  });

  it('rows carry the version, names of the leader and the member count', async () => {
    const [id] = await seedTeams(1);
    const row = (await list(`orgName=${encodeURIComponent((await db().select().from(teams).where(eq(teams.id, id!)))[0]!.orgName)}`)).body.data.list[0]!;
    expect(row).toMatchObject({ id, version: 1, status: 'SUBMITTED', leaderName: '李四', memberCount: 1, lastRemindedOn: null });
  });
});

describe('audits with versions', () => {
  it('refuses a stale version with 已被他人处理 and writes nothing', async () => {
    const [id] = await seedTeams(1);
    const seen = (await detail(id!)).body.data;
    expect(seen.version).toBe(1);
    await db().update(teams).set({ version: 2 }).where(eq(teams.id, id!));
    const res = await audit(id!, { outcome: 'APPROVED', version: seen.version });
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(M.stale);
    expect(res.body.data).toMatchObject({ reason: 'STALE', status: 'SUBMITTED', version: 2 });
    expect(await historyOf(id!)).toHaveLength(0);
    const ok = await audit(id!, { outcome: 'REVISING', reason: '请补充材料', version: 2 });
    expect(ok.statusCode).toBe(200);
    expect(ok.body.data).toMatchObject({ status: 'REVISING', version: 3, auditReason: '请补充材料' });
  });

  it('a decision the state does not allow says so, with a reason key', async () => {
    const [id] = await seedTeams(1, { status: 'APPROVED' });
    const res = await audit(id!, { outcome: 'REJECTED', reason: 'x', version: 1 });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatchObject({ message: M.auditOnlySubmitted, data: { reason: 'NOT_ALLOWED', status: 'APPROVED' } });
    expect((await audit(id!, { outcome: 'APPROVED', version: 0 })).body.message).toBe(M.versionInvalid);
    expect((await audit(id!, { outcome: 'APPROVED', version: 'one' })).body.message).toBe(M.versionInvalid);
  });

  it('two operators deciding one team at once: exactly one wins, 50 times over', async () => {
    const ids = await seedTeams(50);
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:audit'] });
    for (const id of ids) {
      const [a, b] = await Promise.all([
        audit(id, { outcome: 'APPROVED', version: 1 }),
        audit(id, { outcome: 'REJECTED', reason: '不符合条件', version: 1 }, other),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
      const loser = a.statusCode === 400 ? a : b;
      expect(['STALE', 'NOT_ALLOWED']).toContain((loser.body.data as unknown as { reason: string }).reason);
    }
    const rows = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'TEAM'), inArray(statusHistory.subjectId, ids)));
    expect(rows).toHaveLength(50);
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.action, 'qualification:audit'), inArray(operationRecords.targetId, ids)));
    expect(ops).toHaveLength(50);
  });

  it('tells the participant in-site, and by SMS (through the outbox) only when SMS notices are on', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const team = (await api(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user) })).body.data;
    await setSetting(t, 'notify.sms', false);
    await audit(team.id, { outcome: 'REVISING', reason: '承诺书未盖章', version: team.version });
    expect(await db().select().from(noticeOutbox).where(eq(noticeOutbox.accountId, user.accountId))).toHaveLength(0);
    await api(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user) });
    await setSetting(t, 'notify.sms', true);
    const approved = await audit(team.id, { outcome: 'APPROVED' });
    expect(approved.statusCode).toBe(200);
    const queued = await db().select().from(noticeOutbox).where(eq(noticeOutbox.accountId, user.accountId));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ channel: 'SMS', templateKey: 'TEAM_AUDIT' });
    expect(queued[0]!.text).toContain('审核通过');
    await setSetting(t, 'notify.sms', undefined);
    const titles = (await db().select({ title: messages.title }).from(messageRecipients).innerJoin(messages, eq(messages.id, messageRecipients.messageId)).where(eq(messageRecipients.accountId, user.accountId))).map((m) => m.title);
    expect(titles).toContain('报名信息需修改');
    expect(titles).toContain('报名审核通过');
  });
});

describe('batch audit', () => {
  it('decides 200 per row; a record changed underneath fails alone with STALE', async () => {
    const ids = await seedTeams(200);
    const [changed, decided] = [ids[17]!, ids[42]!];
    await db().update(teams).set({ version: sql`${teams.version} + 1` }).where(eq(teams.id, changed));
    await db().update(teams).set({ status: 'APPROVED', version: sql`${teams.version} + 1` }).where(eq(teams.id, decided));
    const res = await api<BatchResult>(t, 'POST', '/api/admin/team/audit/batch', {
      headers: auditor.headers,
      body: { items: ids.map((id) => ({ id, version: 1 })), outcome: 'REVISING', reason: '请补充单位证明' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ succeeded: 198, failed: 2 });
    const failed = res.body.data.results.filter((r) => !r.ok);
    expect(failed.map((r) => [r.id, r.reason]).sort()).toEqual([[changed, 'STALE'], [decided, 'STALE']].sort());
    expect(failed[0]!.message).toBe(M.stale);
    const statuses = await db().select({ id: teams.id, status: teams.status }).from(teams).where(inArray(teams.id, ids));
    expect(statuses.filter((s) => s.status === 'REVISING')).toHaveLength(198);
    expect(statuses.find((s) => s.id === changed)!.status).toBe('SUBMITTED');
  });

  it.each([
    [{ items: [], outcome: 'APPROVED' }, M.batchEmpty],
    [{ items: Array.from({ length: 201 }, () => ({ id: '00000000-0000-4000-8000-000000000000', version: 1 })), outcome: 'APPROVED' }, M.batchTooLarge],
    [{ items: [{ id: '00000000-0000-4000-8000-000000000000', version: 1 }], outcome: 'REJECTED', reason: '' }, M.reasonRequired],
    [{ items: [{ id: 'x', version: 1 }], outcome: 'APPROVED' }, undefined],
  ])('refuses bad input with 400 and writes nothing', async (body, message) => {
    const before = await db().select({ n: sql<number>`count(*)::int` }).from(statusHistory);
    const res = await api(t, 'POST', '/api/admin/team/audit/batch', { headers: auditor.headers, body });
    expect(res.statusCode).toBe(400);
    if (message) expect(res.body.message).toBe(message);
    expect(await db().select({ n: sql<number>`count(*)::int` }).from(statusHistory)).toEqual(before);
  });

  it('decides a repeated id once', async () => {
    const [id] = await seedTeams(1);
    const res = await api<BatchResult>(t, 'POST', '/api/admin/team/audit/batch', {
      headers: auditor.headers,
      body: { items: [{ id, version: 1 }, { id, version: 1 }], outcome: 'APPROVED' },
    });
    expect(res.body.data).toMatchObject({ succeeded: 1, failed: 0 });
    expect(await historyOf(id!)).toHaveLength(1);
  });

  it('refuses more than 5,000 reminder ids and more than 500 skipped queue ids', async () => {
    const many = (n: number) => Array.from({ length: n }, () => '00000000-0000-4000-8000-000000000000');
    const remind = await api(t, 'POST', '/api/admin/team/draft/remind', { headers: drafts.headers, body: { ids: many(5001) } });
    expect(remind.body).toMatchObject({ status: 400, message: M.remindTooMany });
    const ids = Array.from({ length: 501 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    expect((await api(t, 'GET', `/api/admin/team/queue/next?exclude=${ids.join(',')}`, { headers: auditor.headers })).statusCode).toBe(400);
  });

  it('reports unknown ids as NOT_FOUND', async () => {
    const res = await api<BatchResult>(t, 'POST', '/api/admin/team/audit/batch', {
      headers: auditor.headers,
      body: { items: [{ id: '00000000-0000-4000-8000-00000000abcd', version: 1 }], outcome: 'APPROVED' },
    });
    expect(res.body.data.results).toEqual([expect.objectContaining({ ok: false, reason: 'NOT_FOUND', message: M.teamNotFound })]);
  });
});

describe('audit queue', () => {
  it('serves the oldest submitted sign-up not skipped, and counts what waits', async () => {
    // Earlier tests left submitted teams: take the queue's head as the baseline.
    const [first, second] = await seedTeams(2, { submittedAt: new Date('2000-01-01T00:00:00Z') });
    await db().update(teams).set({ submittedAt: new Date('2000-01-02T00:00:00Z') }).where(eq(teams.id, second!));
    const next = async (exclude: string[] = []) =>
      (await api(t, 'GET', `/api/admin/team/queue/next${exclude.length ? `?exclude=${exclude.join(',')}` : ''}`, { headers: auditor.headers })).body.data;
    const a = await next();
    expect(a.detail.id).toBe(first);
    expect(a.remaining).toBeGreaterThanOrEqual(2);
    expect((await next([first!])).detail.id).toBe(second);
    await audit(first!, { outcome: 'APPROVED', version: 1 });
    const b = await next();
    expect(b.detail.id).toBe(second);
    expect(b.remaining).toBe(a.remaining - 1);
    expect((await api(t, 'GET', '/api/admin/team/queue/next?exclude=nope', { headers: auditor.headers })).statusCode).toBe(400);
  });
});

describe('draft reminders', () => {
  it('reminds each draft once per Beijing day; in-site always, SMS when on', async () => {
    const ids = await seedTeams(3, { status: 'DRAFT', submittedAt: null }, true);
    await setSetting(t, 'notify.sms', true);
    const first = await api(t, 'POST', '/api/admin/team/draft/remind', { headers: drafts.headers, body: { ids: ids.slice(0, 2) } });
    expect(first.statusCode).toBe(200);
    expect(first.body.data).toEqual({ reminded: 2, skipped: 0, sms: true });
    const again = await api(t, 'POST', '/api/admin/team/draft/remind', { headers: drafts.headers, body: { ids } });
    expect(again.body.data).toEqual({ reminded: 1, skipped: 2, sms: true });
    await setSetting(t, 'notify.sms', undefined);
    expect(await db().select().from(reminders).where(inArray(reminders.subjectId, ids))).toHaveLength(3);
    const owners = (await db().select({ ownerId: teams.ownerId }).from(teams).where(inArray(teams.id, ids))).map((r) => r.ownerId);
    expect(await db().select().from(messageRecipients).where(inArray(messageRecipients.accountId, owners))).toHaveLength(3);
    expect(await db().select().from(noticeOutbox).where(inArray(noticeOutbox.accountId, owners))).toHaveLength(3);
    const row = (await api<Page<TeamAdminRow>>(t, 'GET', `/api/admin/team/draft/list?size=100`, { headers: drafts.headers })).body.data.list.find((r) => r.id === ids[0]);
    expect(row!.lastRemindedOn).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, drafts.accountId), eq(operationRecords.action, 'qualification-draft:remind')));
    expect(ops).toHaveLength(2);
  });

  it('two operators reminding at once remind a team once', async () => {
    const [id] = await seedTeams(1, { status: 'DRAFT', submittedAt: null });
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['qualification-draft:remind'] });
    const [a, b] = await Promise.all([
      api(t, 'POST', '/api/admin/team/draft/remind', { headers: drafts.headers, body: { ids: [id] } }),
      api(t, 'POST', '/api/admin/team/draft/remind', { headers: other.headers, body: { ids: [id] } }),
    ]);
    expect(a.body.data.reminded + b.body.data.reminded).toBe(1);
  });

  it('ignores ids that are not drafts and refuses an empty request', async () => {
    const [submitted] = await seedTeams(1);
    expect((await api(t, 'POST', '/api/admin/team/draft/remind', { headers: drafts.headers, body: { ids: [submitted] } })).body.data).toMatchObject({ reminded: 0, skipped: 0 });
    for (const body of [{}, { ids: [] }, { all: false }, { ids: ['x'] }]) {
      const res = await api(t, 'POST', '/api/admin/team/draft/remind', { headers: drafts.headers, body });
      expect(res.statusCode).toBe(400);
    }
  });
});

describe('export', () => {
  it('streams every field with dictionary names, and the members on their own sheet', async () => {
    const k = tag();
    const [id] = await seedTeams(1, {
      orgName: `导出${k}医院`,
      creditCode: '91350100M000100Y43',
      city: '北京',
      members: [
        { name: '成员甲', organization: '甲单位', title: 'SENIOR', phone: '13900000001', email: 'a@example.com', role: 'DEVELOPER' },
        { name: '成员乙', organization: '乙单位', title: 'SENIOR', phone: '', email: '', role: 'DEVELOPER' },
      ],
      advisor: { name: '导师丙', organization: '丙大学', title: 'SENIOR', phone: '', email: '' },
    });
    const res = await api(t, 'GET', `/api/admin/team/export?orgName=${encodeURIComponent(`导出${k}`)}`, { headers: exporter.headers });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('报名信息_'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const [info, members] = [wb.getWorksheet('报名信息')!, wb.getWorksheet('团队成员')!];
    const header = (info.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(['团队名称', '单位名称', '单位类型', '统一社会信用代码', '所在地区', '所在城市', '参赛方向', '负责人', '负责人职称', '负责人手机', '负责人邮箱', '成员人数', '指导老师', '状态', '审核意见', '提交时间', '审核时间', '注册账号', '创建时间', '更新时间']);
    expect(info.rowCount).toBe(2);
    const cell = (col: string) => info.getRow(2).getCell(header.indexOf(col) + 1).value;
    expect(cell('单位名称')).toBe(`导出${k}医院`);
    expect(cell('单位类型')).not.toBe('MEDICAL_INSTITUTION');
    expect(cell('所在地区')).toBe('北京市');
    expect(cell('参赛方向')).not.toBe('SMART_SUPERVISION');
    // The exporter does not hold pii:view: contacts and the credit code go out masked (docs/rules/admin.md, "Personal information").
    expect(cell('统一社会信用代码')).toBe('9135**********0Y43');
    expect(cell('成员人数')).toBe(2);
    expect(cell('状态')).toBe('已提交');
    expect(String(cell('指导老师'))).toContain('导师丙');
    expect(String(cell('提交时间'))).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(members.rowCount).toBe(3);
    expect((members.getRow(2).values as unknown[]).slice(1, 5)).toEqual([expect.any(String), `导出${k}医院`, 1, '成员甲']);
    expect(members.getRow(3).getCell(4).value).toBe('成员乙');
    const [op] = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, exporter.accountId), eq(operationRecords.action, 'qualification:export')));
    expect(op!.summary).toContain('1 条');
    expect(op!.summary).toContain('个人信息已脱敏');
    expect(id).toBeTruthy();
  });
});
