import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTEST_MSG as M, FINAL_WORKFLOW, stepOf, type BatchResult, type FinalAdminRow, type Page, type PrelimAdminDetail, type PrelimAdminRow } from '@contest/shared';
import { accounts, finalEntries, operationRecords, prelimDocs, reminders, statusHistory, teams } from '../../db/schema.js';
import { api, seedDictionary, setSetting, withContest } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

let t: TestApp;
let auditor: SignedIn;
let promoter: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  await seedDictionary(t);
  auditor = await signIn(t, { realm: 'ADMIN', buttons: ['preliminary:view', 'preliminary:audit', 'preliminary:export', 'preliminary-draft:remind'], name: '形审员' });
  promoter = await signIn(t, { realm: 'ADMIN', buttons: ['final:promote', 'final:export'] });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const tag = () => randomBytes(4).toString('hex');

/** Approved teams with materials, written straight into the database. */
async function seedDocs(n: number, values: Partial<typeof prelimDocs.$inferInsert> = {}): Promise<string[]> {
  const k = tag();
  const owners = await db()
    .insert(accounts)
    .values(Array.from({ length: n }, (_, i) => ({ realm: 'USER' as const, username: `p${k}${i}`, roleCode: 'USER' as const, passwordHash: 'x' })))
    .returning({ id: accounts.id });
  const teamRows = await db()
    .insert(teams)
    .values(owners.map((o, i) => ({ ownerId: o.id, status: 'APPROVED' as const, orgName: `单位${k}-${i}`, teamName: `团队${k}-${i}`, track: 'SMART_SUPERVISION' })))
    .returning({ id: teams.id, ownerId: teams.ownerId });
  const rows = await db()
    .insert(prelimDocs)
    .values(
      teamRows.map((team, i) => ({
        teamId: team.id,
        ownerId: team.ownerId,
        status: 'SUBMITTED' as const,
        projectName: `项目${k}-${i}`,
        track: 'SMART_SUPERVISION',
        summary: '简介',
        keywords: ['医保', '监管'],
        applicationChars: 1000 + i,
        submittedAt: new Date(Date.now() - 3_600_000 + i * 1000),
        ...values,
      })),
    )
    .returning({ id: prelimDocs.id });
  return rows.map((r) => r.id);
}

const audit = (id: string, body: unknown, who: SignedIn = auditor) => api<PrelimAdminDetail>(t, 'POST', `/api/admin/prelim-doc/${id}/audit`, { headers: who.headers, body });
const final = (id: string, action: 'add' | 'remove', body: unknown, who: SignedIn = promoter) => api<PrelimAdminDetail>(t, 'POST', `/api/admin/final/${id}/${action}`, { headers: who.headers, body });

describe('access', () => {
  it.each([
    ['GET', '/api/admin/prelim-doc/list'],
    ['GET', '/api/admin/prelim-doc/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/prelim-doc/queue/next'],
    ['POST', '/api/admin/prelim-doc/audit/batch'],
    ['GET', '/api/admin/prelim-doc/export'],
    ['GET', '/api/admin/prelim-doc/draft/list'],
    ['POST', '/api/admin/prelim-doc/draft/remind'],
    ['GET', '/api/admin/final/list'],
    ['POST', '/api/admin/final/00000000-0000-4000-8000-000000000000/add'],
    ['GET', '/api/admin/final/export'],
  ] as const)('%s %s: 401 for other realms and anonymous, 403 without the permission', async (method, url) => {
    const user = await signIn(t, { realm: 'USER' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    const nobody = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view'] });
    expect((await api(t, method, url, { body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: user.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: expert.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: nobody.headers, body: {} })).statusCode).toBe(403);
  });
});

describe('materials list and detail', () => {
  it('filters by project, team, organisation, track and status; sorts by characters', async () => {
    const [a, b] = await seedDocs(2);
    await db().update(prelimDocs).set({ track: 'PUBLIC_SERVICE', status: 'APPROVED' }).where(eq(prelimDocs.id, b!));
    const [row] = await db().select().from(prelimDocs).where(eq(prelimDocs.id, a!));
    const k = row!.projectName.slice(2, 10);
    const ids = async (q: string) =>
      (await api<Page<PrelimAdminRow>>(t, 'GET', `/api/admin/prelim-doc/list?size=100&projectName=${k}&${q}`, { headers: auditor.headers })).body.data.list.map((r) => r.id);
    expect((await ids('')).sort()).toEqual([a, b].sort());
    expect(await ids('track=PUBLIC_SERVICE')).toEqual([b]);
    expect(await ids('status=SUBMITTED')).toEqual([a]);
    expect(await ids(`teamName=${encodeURIComponent(`团队${k}-1`)}`)).toEqual([b]);
    expect(await ids(`orgName=${encodeURIComponent(`单位${k}-0`)}`)).toEqual([a]);
    expect(await ids('sort=applicationChars&order=desc')).toEqual([b, a]);
    expect(await ids('sort=applicationChars&order=asc')).toEqual([a, b]);
    const list = (await api<Page<PrelimAdminRow>>(t, 'GET', `/api/admin/prelim-doc/list?projectName=${k}&sort=applicationChars`, { headers: auditor.headers })).body.data.list;
    expect(list[0]).toMatchObject({ id: a, version: 1, applicationChars: 1000, teamName: `团队${k}-0`, orgName: `单位${k}-0`, inFinal: false, maxApplicationChars: null });
    await setSetting(t, 'prelim.maxApplicationChars', 1500);
    const capped = (await api<Page<PrelimAdminRow>>(t, 'GET', `/api/admin/prelim-doc/list?projectName=${k}`, { headers: auditor.headers })).body.data.list;
    await setSetting(t, 'prelim.maxApplicationChars', undefined);
    expect(capped.every((r) => r.maxApplicationChars === 1500)).toBe(true);
    expect((await api(t, 'GET', '/api/admin/prelim-doc/list?sort=summary', { headers: auditor.headers })).body.message).toBe(M.sortInvalid);
  });

  it('details carry the version, the organisation and the character cap', async () => {
    const [id] = await seedDocs(1);
    await setSetting(t, 'prelim.maxApplicationChars', 900);
    const res = await api<PrelimAdminDetail>(t, 'GET', `/api/admin/prelim-doc/${id}`, { headers: auditor.headers });
    await setSetting(t, 'prelim.maxApplicationChars', undefined);
    expect(res.body.data).toMatchObject({ id, version: 1, applicationChars: 1000, maxApplicationChars: 900, final: null, finalHistory: [] });
    expect(res.body.data.orgName).toMatch(/^单位/);
    expect((await api(t, 'GET', '/api/admin/prelim-doc/00000000-0000-4000-8000-000000000000', { headers: auditor.headers })).statusCode).toBe(404);
  });
});

describe('formal check', () => {
  it('approves with the seen version, refuses a stale one, and keeps the history', async () => {
    const [id] = await seedDocs(1);
    await db().update(prelimDocs).set({ version: 2 }).where(eq(prelimDocs.id, id!));
    const stale = await audit(id!, { outcome: 'APPROVED', version: 1 });
    expect(stale.body).toMatchObject({ status: 400, message: M.stale, data: { reason: 'STALE' } });
    const ok = await audit(id!, { outcome: 'APPROVED', version: 2 });
    expect(ok.body.data).toMatchObject({ status: 'APPROVED', version: 3 });
    expect(ok.body.data.history.map((h) => `${h.fromStatus}->${h.toStatus}`)).toEqual(['SUBMITTED->APPROVED']);
    expect((await audit(id!, { outcome: 'REVISING', reason: 'x' })).body).toMatchObject({ message: M.auditOnlySubmitted, data: { reason: 'NOT_ALLOWED' } });
  });

  it('two operators at once: one wins, 20 times over', async () => {
    const ids = await seedDocs(20);
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['preliminary:audit'] });
    for (const id of ids) {
      const codes = (await Promise.all([audit(id, { outcome: 'APPROVED', version: 1 }), audit(id, { outcome: 'REVISING', reason: '补充', version: 1 }, other)])).map((r) => r.statusCode);
      expect(codes.sort()).toEqual([200, 400]);
    }
    expect(await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'PRELIM'), inArray(statusHistory.subjectId, ids)))).toHaveLength(20);
  });

  it('batches per row and queues the oldest first', async () => {
    const ids = await seedDocs(5, { submittedAt: new Date('2001-01-01T00:00:00Z') });
    await db().update(prelimDocs).set({ version: 5 }).where(eq(prelimDocs.id, ids[2]!));
    const next = (await api(t, 'GET', `/api/admin/prelim-doc/queue/next?exclude=${ids[0]}`, { headers: auditor.headers })).body.data;
    expect(ids).toContain(next.detail.id);
    expect(next.detail.id).not.toBe(ids[0]);
    const res = await api<BatchResult>(t, 'POST', '/api/admin/prelim-doc/audit/batch', {
      headers: auditor.headers,
      body: { items: ids.map((id) => ({ id, version: 1 })), outcome: 'REJECTED', reason: '申报书与方向不符' },
    });
    expect(res.body.data).toMatchObject({ succeeded: 4, failed: 1 });
    expect(res.body.data.results.find((r) => !r.ok)).toMatchObject({ id: ids[2], reason: 'STALE' });
  });

  it('reminds draft owners once a day', async () => {
    const ids = await seedDocs(2, { status: 'DRAFT', submittedAt: null });
    const a = await api(t, 'POST', '/api/admin/prelim-doc/draft/remind', { headers: auditor.headers, body: { ids } });
    const b = await api(t, 'POST', '/api/admin/prelim-doc/draft/remind', { headers: auditor.headers, body: { ids } });
    expect(a.body.data).toMatchObject({ reminded: 2, skipped: 0 });
    expect(b.body.data).toMatchObject({ reminded: 0, skipped: 2 });
    expect(await db().select().from(reminders).where(inArray(reminders.subjectId, ids))).toHaveLength(2);
    const drafts = (await api<Page<PrelimAdminRow>>(t, 'GET', '/api/admin/prelim-doc/draft/list?size=100', { headers: auditor.headers })).body.data.list;
    expect(drafts.every((r) => r.status === 'DRAFT')).toBe(true);
    expect(drafts.find((r) => r.id === ids[0])!.lastRemindedOn).not.toBeNull();
  });

  it('exports the filter with names', async () => {
    const [id] = await seedDocs(1);
    const [row] = await db().select().from(prelimDocs).where(eq(prelimDocs.id, id!));
    const res = await api(t, 'GET', `/api/admin/prelim-doc/export?projectName=${encodeURIComponent(row!.projectName)}`, { headers: auditor.headers });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.rowCount).toBe(2);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const cell = (h: string) => sheet.getRow(2).getCell(header.indexOf(h) + 1).value;
    expect(cell('项目名称')).toBe(row!.projectName);
    expect(cell('参赛方向')).toBe('智能监管与基金安全');
    expect(cell('申报书字数')).toBe(1000);
    expect(cell('关键词')).toBe('医保、监管');
    expect(cell('状态')).toBe('已提交');
  });
});

describe('final round entries', () => {
  it('the workflow: add from nothing or OUT, remove from IN, both with a reason', () => {
    expect(stepOf(FINAL_WORKFLOW, 'ADD', null, 'ADMIN')).toMatchObject({ ok: true, to: 'IN' });
    expect(stepOf(FINAL_WORKFLOW, 'ADD', 'IN', 'ADMIN')).toMatchObject({ ok: false, message: M.finalAlreadyIn });
    expect(stepOf(FINAL_WORKFLOW, 'REMOVE', null, 'ADMIN')).toMatchObject({ ok: false, message: M.finalNotIn });
    expect(stepOf(FINAL_WORKFLOW, 'ADD', null, 'EXPERT')).toMatchObject({ ok: false, reason: 'FORBIDDEN' });
  });

  it('adds approved materials with a reason, removes them, re-adds; history and operation records', async () => {
    const [id, notApproved] = await seedDocs(2, { status: 'APPROVED' });
    await db().update(prelimDocs).set({ status: 'REJECTED' }).where(eq(prelimDocs.id, notApproved!));
    expect((await final(id!, 'add', {})).body.message).toBe(M.finalReasonRequired);
    expect((await final(id!, 'add', { reason: '   ' })).body.message).toBe(M.finalReasonRequired);
    expect((await final(notApproved!, 'add', { reason: '特批' })).body.message).toBe(M.finalNeedsApproved);
    expect((await final(id!, 'remove', { reason: '误操作' })).body.message).toBe(M.finalNotIn);
    expect(await db().select().from(finalEntries).where(inArray(finalEntries.prelimId, [id!, notApproved!]))).toHaveLength(0);

    const added = await final(id!, 'add', { reason: '评审委员会特别推荐' });
    expect(added.statusCode).toBe(200);
    expect(added.body.message).toBe(M.finalAdded);
    expect(added.body.data.final).toMatchObject({ status: 'IN', version: 1, reason: '评审委员会特别推荐' });
    expect((await final(id!, 'add', { reason: '再加' })).body.message).toBe(M.finalAlreadyIn);

    const list = (await api<Page<FinalAdminRow>>(t, 'GET', '/api/admin/final/list?size=100', { headers: promoter.headers })).body.data.list;
    expect(list.find((r) => r.id === id)).toMatchObject({ inFinal: true, finalReason: '评审委员会特别推荐', finalVersion: 1 });
    // The add dialog lists approved materials not in the final: the filter leaves this one out.
    const [doc] = await db().select().from(prelimDocs).where(eq(prelimDocs.id, id!));
    const listed = async (inFinal: string) =>
      (await api<Page<PrelimAdminRow>>(t, 'GET', `/api/admin/prelim-doc/list?projectName=${encodeURIComponent(doc!.projectName)}&inFinal=${inFinal}`, { headers: auditor.headers })).body.data.list.map((r) => r.id);
    expect(await listed('true')).toEqual([id]);
    expect(await listed('false')).toEqual([]);
    expect((await api(t, 'GET', '/api/admin/prelim-doc/list?inFinal=maybe', { headers: auditor.headers })).statusCode).toBe(400);

    expect((await final(id!, 'remove', { reason: '材料造假', version: 7 })).body).toMatchObject({ message: M.stale, data: { reason: 'STALE' } });
    const removed = await final(id!, 'remove', { reason: '材料造假', version: 1 });
    expect(removed.body.data.final).toMatchObject({ status: 'OUT', version: 2 });
    expect((await api<Page<FinalAdminRow>>(t, 'GET', '/api/admin/final/list?size=100', { headers: promoter.headers })).body.data.list.some((r) => r.id === id)).toBe(false);
    const readded = await final(id!, 'add', { reason: '申诉成立' });
    expect(readded.body.data.finalHistory.map((h) => `${h.fromStatus}->${h.toStatus}:${h.reason}`)).toEqual([
      'null->IN:评审委员会特别推荐',
      'IN->OUT:材料造假',
      'OUT->IN:申诉成立',
    ]);
    const detail = await api<PrelimAdminDetail>(t, 'GET', `/api/admin/final/${id}`, { headers: promoter.headers });
    expect(detail.body.data.final!.status).toBe('IN');
    expect((await api(t, 'GET', `/api/admin/final/${notApproved}`, { headers: promoter.headers })).statusCode).toBe(404);
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.action, 'final:promote'), eq(operationRecords.targetId, id!)));
    expect(ops).toHaveLength(3);
  });

  it('two operators adding one project at once: one wins', async () => {
    const [id] = await seedDocs(1, { status: 'APPROVED' });
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['final:promote'] });
    const codes = (await Promise.all([final(id!, 'add', { reason: 'a' }), final(id!, 'add', { reason: 'b' }, other)])).map((r) => r.statusCode);
    expect(codes.sort()).toEqual([200, 400]);
    expect(await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'FINAL'), eq(statusHistory.subjectId, id!)))).toHaveLength(1);
  });

  it('exports the final list', async () => {
    const [id] = await seedDocs(1, { status: 'APPROVED' });
    await final(id!, 'add', { reason: '导出测试' });
    const [row] = await db().select().from(prelimDocs).where(eq(prelimDocs.id, id!));
    const res = await api(t, 'GET', `/api/admin/final/export?projectName=${encodeURIComponent(row!.projectName)}`, { headers: promoter.headers });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.raw as unknown as ArrayBuffer);
    expect(wb.worksheets[0]!.name).toBe('决赛项目');
    expect(wb.worksheets[0]!.rowCount).toBe(2);
    expect(sql).toBeTruthy();
  });
});
