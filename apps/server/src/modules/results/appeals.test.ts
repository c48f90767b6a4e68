import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CONTEST_MSG,
  RESULTS_MSG as M,
  REVIEW_MSG,
  type AppealDetail,
  type AppealRow,
  type MyAppeal,
  type MyResults,
  type NewVersionPreview,
  type Page,
  type PublishResult,
  type ResultEntryView,
  type ResultVersionList,
  type VersionCompare,
} from '@contest/shared';
import {
  appeals,
  finalEntries,
  messageRecipients,
  messages,
  news,
  operationRecords,
  resultEntries,
  resultVersions,
  scoreLog,
  scoreSheetRevisions,
  scoreSheets,
  statusHistory,
} from '../../db/schema.js';
import { api, openWindow, setSetting, upload } from '../../../test/contest-helpers.js';
import { fakeFile } from '../../../test/files-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { APPEAL_REREVIEW_REASON } from './appeals.service.js';
import { promote, rescore, seedExperts, seedScores, seedTeams, type SeededTeam } from './results.fixtures.js';

/**
 * Appeals and new versions (docs/rules/results.md) on a published preliminary round: A 90, B 85, C 80, D 75,
 * E 70, F 60 (three experts), G unscored; promotion TOP_OVERALL 3 (A, B, C). D appeals and is
 * re-reviewed to 88; version 2 promotes A, D, B and drops C.
 */

let t: TestApp;
let admin: SignedIn;
let admin2: SignedIn;
let viewer: SignedIn;
let T: Record<string, SeededTeam>;
let v1: PublishResult['version'];
let appealD: MyAppeal;
let appealE: MyAppeal;
let appealC: MyAppeal;

const db = () => t.database.db;
const asUser = (team: SeededTeam) => ({ token: '', accountId: team.ownerId, username: '', headers: team.headers });
const file = (team: SeededTeam, body: unknown) => api<MyAppeal>(t, 'POST', '/api/results/prelim/appeal', { headers: team.headers, body });
const mine = async (team: SeededTeam) => (await api<MyResults>(t, 'GET', '/api/results/mine', { headers: team.headers })).body.data.rounds[0]!;
const detail = async (id: string) => (await api<AppealDetail>(t, 'GET', `/api/admin/appeals/${id}`, { headers: admin.headers })).body.data;
const reject = (id: string, body: unknown, who: SignedIn = admin) => api<AppealDetail>(t, 'POST', `/api/admin/appeals/${id}/reject`, { headers: who.headers, body });
const accept = (id: string, body: unknown, who: SignedIn = admin) => api<AppealDetail>(t, 'POST', `/api/admin/appeals/${id}/accept`, { headers: who.headers, body });
const appealCount = async () => (await db().select({ n: count() }).from(appeals))[0]!.n;
const titlesOf = async (accountId: string) =>
  (
    await db()
      .select({ title: messages.title, body: messages.body })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(eq(messageRecipients.accountId, accountId))
      .orderBy(desc(messages.createdAt))
  ).map((m) => m.title);
const state = async () => ({
  appeals: await db().select({ id: appeals.id, status: appeals.status, version: appeals.version }).from(appeals).orderBy(appeals.id),
  versions: (await db().select({ n: count() }).from(resultVersions))[0]!.n,
  history: (await db().select({ n: count() }).from(statusHistory))[0]!.n,
  log: (await db().select({ n: count() }).from(scoreLog))[0]!.n,
  messages: (await db().select({ n: count() }).from(messages))[0]!.n,
  sheets: await db().select({ id: scoreSheets.id, status: scoreSheets.status }).from(scoreSheets).orderBy(scoreSheets.id),
  finals: await db().select().from(finalEntries).orderBy(finalEntries.prelimId),
});

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { realm: 'ADMIN', buttons: ['result:publish', 'appeal:decide', 'final:promote'], name: '申诉管理员' });
  admin2 = await signIn(t, { realm: 'ADMIN', buttons: ['appeal:decide'], name: '另一位管理员' });
  viewer = await signIn(t, { realm: 'ADMIN', buttons: [], menus: ['appealManage'] });
  T = await seedTeams(t, ['A', 'B', 'C', 'D', 'E', 'F', 'G']);
  await seedScores(t, 'PRELIMINARY', await seedExperts(t, 3), { A: 90, B: 85, C: 80, D: 75, E: 70, F: 60 }, T);
  await promote(t, admin, { mode: 'TOP_OVERALL', n: 3 });
  const res = await api<PublishResult>(t, 'POST', '/api/admin/results/prelim/publish', { headers: admin.headers, body: {} });
  expect(res.statusCode).toBe(200);
  v1 = res.body.data.version;
});
afterAll(async () => t?.close());

describe('filing an appeal', () => {
  it('is for participants only', async () => {
    expect((await api(t, 'POST', '/api/results/prelim/appeal', { body: { reason: 'x' } })).statusCode).toBe(401);
    expect((await api(t, 'POST', '/api/results/prelim/appeal', { headers: admin.headers, body: { reason: 'x' } })).statusCode).toBe(401);
    const [expert] = await seedExperts(t, 1);
    expect((await api(t, 'POST', '/api/results/prelim/appeal', { headers: expert!.headers, body: { reason: 'x' } })).statusCode).toBe(401);
  });

  it('refuses each bad input with its text and writes nothing', async () => {
    const own = await upload(t, asUser(T.D!), 'OTHER', '证明.pdf', fakeFile.pdf(600));
    const feedbackFile = await upload(t, asUser(T.D!), 'FEEDBACK', '截图.png', fakeFile.png(600));
    const othersFile = await upload(t, asUser(T.E!), 'OTHER', '别人的.pdf', fakeFile.pdf(600));
    const cases: [unknown, string][] = [
      [{}, M.appealReasonRequired],
      [{ reason: '   ' }, M.appealReasonRequired],
      [{ reason: 3 }, M.appealReasonRequired],
      [{ reason: '理'.repeat(1001) }, M.appealReasonTooLong],
      [{ reason: '理由', attachments: [own, own, own, own] }, M.appealAttachmentsTooMany],
      [{ reason: '理由', attachments: 'x' }, M.appealAttachmentInvalid],
      [{ reason: '理由', attachments: ['not a file ref'] }, M.appealAttachmentInvalid],
      [{ reason: '理由', attachments: [feedbackFile] }, M.appealAttachmentInvalid],
      [{ reason: '理由', attachments: [othersFile] }, M.appealAttachmentInvalid],
      [{ reason: '理由', attachments: ['/api/attachment/stream/UNKNOWN00000000'] }, M.appealAttachmentInvalid],
    ];
    for (const [body, message] of cases) expect((await file(T.D!, body)).body, JSON.stringify(body).slice(0, 60)).toMatchObject({ status: 400, message });
    expect(await appealCount()).toBe(0);
  });

  it('refuses a team outside the result (403) and a round not published (400)', async () => {
    const stranger = await signIn(t, { realm: 'USER' });
    expect((await api(t, 'POST', '/api/results/prelim/appeal', { headers: stranger.headers, body: { reason: '理由' } })).body).toMatchObject({
      status: 403,
      message: M.appealNotInRound,
      data: { reason: 'NOT_IN_ROUND' },
    });
    expect((await api(t, 'POST', '/api/results/final/appeal', { headers: T.A!.headers, body: { reason: '理由' } })).body).toMatchObject({
      status: 400,
      message: M.appealNotPublished,
      data: { reason: 'NOT_PUBLISHED' },
    });
    expect(await appealCount()).toBe(0);
  });

  it('files one appeal with attachments: history, the team told 申诉已受理', async () => {
    const f1 = await upload(t, asUser(T.D!), 'OTHER', '评分说明.pdf', fakeFile.pdf(700));
    const f2 = await upload(t, asUser(T.D!), 'OTHER', '附件二.png', fakeFile.png(700));
    const res = await file(T.D!, { reason: ' D 队认为创新性评分偏低 ', attachments: [f1, `/api/attachment/stream/${f2}`] });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.appealSubmitted);
    appealD = res.body.data;
    expect(appealD).toMatchObject({ round: 'PRELIMINARY', version: 1, status: 'SUBMITTED', reason: 'D 队认为创新性评分偏低', reply: null, dueAt: v1.periodEndsAt });
    expect(appealD.attachments.map((a) => a.name)).toEqual(['评分说明.pdf', '附件二.png']);
    const history = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'APPEAL'), eq(statusHistory.subjectId, appealD.id)));
    expect(history).toMatchObject([{ fromStatus: null, toStatus: 'SUBMITTED', actorRealm: 'USER' }]);
    expect((await titlesOf(T.D!.ownerId))[0]).toBe('申诉已受理');
    const round = await mine(T.D!);
    expect(round).toMatchObject({ canAppeal: false, appealBlocker: M.appealAlready, appeal: { id: appealD.id, status: 'SUBMITTED' } });
  });

  it('a second appeal of the team is refused', async () => {
    expect((await file(T.D!, { reason: '再次申诉' })).body).toMatchObject({ status: 400, message: M.appealAlready, data: { reason: 'ALREADY_APPEALED' } });
    expect(await appealCount()).toBe(1);
  });

  it('two appeals of one team at once: one is filed', async () => {
    const results = await Promise.all([file(T.E!, { reason: 'E 的申诉一' }), file(T.E!, { reason: 'E 的申诉二' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.body).toMatchObject({ message: M.appealAlready });
    appealE = results.find((r) => r.statusCode === 200)!.body.data;
    expect(await db().select({ n: count() }).from(appeals).where(eq(appeals.teamId, T.E!.teamId))).toEqual([{ n: 1 }]);
    appealC = (await file(T.C!, { reason: 'C 的申诉' })).body.data;
  });

  it('after the appeal window the button is gone and the call answers 400', async () => {
    await db().update(resultVersions).set({ appealEndsAt: new Date(Date.now() - 1000) }).where(eq(resultVersions.id, v1.id));
    try {
      expect(await mine(T.F!)).toMatchObject({ appealOpen: false, inPeriod: true, canAppeal: false, appealBlocker: M.appealClosed });
      expect((await file(T.F!, { reason: '晚了' })).body).toMatchObject({ status: 400, message: M.appealClosed, data: { reason: 'CLOSED' } });
      expect(await appealCount()).toBe(3);
    } finally {
      await db().update(resultVersions).set({ appealEndsAt: new Date(v1.appealEndsAt) }).where(eq(resultVersions.id, v1.id));
    }
  });
});

describe('admin: list and detail', () => {
  it('guards the calls', async () => {
    const nobody = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view'] });
    for (const [method, url] of [
      ['GET', '/api/admin/appeals'],
      ['GET', `/api/admin/appeals/${appealD.id}`],
      ['POST', `/api/admin/appeals/${appealD.id}/reject`],
      ['POST', `/api/admin/appeals/${appealD.id}/accept`],
    ] as const) {
      expect((await api(t, method, url, { body: {} })).statusCode).toBe(401);
      expect((await api(t, method, url, { headers: T.D!.headers, body: {} })).statusCode).toBe(401);
      expect((await api(t, method, url, { headers: nobody.headers, body: {} })).statusCode).toBe(403);
    }
    expect((await api(t, 'GET', '/api/admin/appeals', { headers: viewer.headers })).statusCode).toBe(200);
    expect((await reject(appealD.id, { reply: 'x', version: 1 }, viewer)).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/appeals/00000000-0000-4000-8000-000000000000', { headers: admin.headers })).body).toMatchObject({ status: 404, message: M.appealNotFound });
  });

  it('lists with due dates and filters', async () => {
    const page = (await api<Page<AppealRow>>(t, 'GET', '/api/admin/appeals?round=PRELIMINARY&status=SUBMITTED', { headers: viewer.headers })).body.data;
    expect(page.total).toBe(3);
    expect(page.list.map((r) => r.projectName).sort()).toEqual(['C', 'D', 'E']);
    expect(page.list[0]).toMatchObject({ dueAt: v1.periodEndsAt, overdue: false, version: 1, rowVersion: 1 });
    const byText = (await api<Page<AppealRow>>(t, 'GET', `/api/admin/appeals?keyword=${encodeURIComponent('创新性评分')}`, { headers: viewer.headers })).body.data;
    expect(byText.list.map((r) => r.id)).toEqual([appealD.id]);
    expect((await api<Page<AppealRow>>(t, 'GET', '/api/admin/appeals?overdue=true', { headers: viewer.headers })).body.data.total).toBe(0);
    expect((await api<Page<AppealRow>>(t, 'GET', '/api/admin/appeals?round=FINAL', { headers: viewer.headers })).body.data.total).toBe(0);
    expect((await api(t, 'GET', '/api/admin/appeals?status=LOST', { headers: viewer.headers })).body).toMatchObject({ status: 400, message: M.appealStatusInvalid });
    expect((await api(t, 'GET', '/api/admin/appeals?overdue=1', { headers: viewer.headers })).body).toMatchObject({ status: 400, message: M.flagInvalid });
    expect((await api(t, 'GET', '/api/admin/appeals?round=prelim', { headers: viewer.headers })).body).toMatchObject({ status: 400, message: M.roundInvalid });
  });

  it('shows the detail: attachments, the line appealed against, history', async () => {
    const d = await detail(appealD.id);
    expect(d).toMatchObject({ status: 'SUBMITTED', projectName: 'D', attachmentCount: 2, reply: null, rereview: null });
    expect(d.attachments).toHaveLength(2);
    expect(d.entry).toMatchObject({ rank: 4, outcome: 'NOT_PROMOTED' });
    expect(d.currentEntry).toMatchObject({ rank: 4 });
    expect(d.history.map((h) => [h.subject, h.toStatus])).toEqual([
      ['RESULT', 'NOT_PROMOTED'],
      ['APPEAL', 'SUBMITTED'],
    ]);
  });
});

describe('deciding', () => {
  it('refuses bad decisions with their texts', async () => {
    const before = await state();
    expect((await reject(appealE.id, { version: 1 })).body).toMatchObject({ status: 400, message: M.appealReplyRequired });
    expect((await reject(appealE.id, { reply: '回'.repeat(1001), version: 1 })).body).toMatchObject({ status: 400, message: M.appealReplyTooLong });
    expect((await reject(appealE.id, { reply: '答复' })).body).toMatchObject({ status: 400, message: M.appealVersionRequired });
    expect((await reject(appealE.id, { reply: '答复', version: 7 })).body).toMatchObject({ status: 400, message: CONTEST_MSG.stale, data: { reason: 'STALE' } });
    expect((await accept(appealD.id, { reply: '答复', version: 1 })).body).toMatchObject({ status: 400, message: M.appealModeInvalid });
    expect((await accept(appealD.id, { reply: '答复', version: 1, mode: 'ADD_EXPERTS' })).body).toMatchObject({ status: 400, message: M.appealExpertsRequired });
    // The preliminary review window is closed: experts could not re-score.
    expect((await accept(appealD.id, { reply: '答复', version: 1, mode: 'RETURN_SCORES' })).body).toMatchObject({ status: 400, message: M.appealReviewClosed, data: { reason: 'REVIEW_CLOSED' } });
    await setSetting(t, 'contest.phases', { prelimReview: openWindow() });
    // The review module's own refusals refuse the whole decision.
    expect((await accept(appealC.id, { reply: '答复', version: 1, mode: 'ADD_EXPERTS', expertIds: ['00000000-0000-4000-8000-000000000000'] })).body).toMatchObject({
      status: 400,
      message: REVIEW_MSG.expertNotFound,
    });
    expect(await state()).toEqual(before);
  });

  it('two admins rejecting at once: one wins, the other is told it was handled', async () => {
    const results = await Promise.all([reject(appealE.id, { reply: '评分无误，维持原结果。', version: 1 }), reject(appealE.id, { reply: '另一位的答复', version: 1 }, admin2)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.body).toMatchObject({ message: CONTEST_MSG.stale, data: { reason: 'STALE' } });
    const d = await detail(appealE.id);
    expect(d).toMatchObject({ status: 'REJECTED', rowVersion: 2 });
    expect(await db().select({ n: count() }).from(statusHistory).where(and(eq(statusHistory.subjectId, appealE.id), eq(statusHistory.toStatus, 'REJECTED')))).toEqual([{ n: 1 }]);
    expect(await db().select({ n: count() }).from(scoreLog).where(and(eq(scoreLog.kind, 'APPEAL_DECIDED'), eq(scoreLog.subjectId, appealE.id)))).toEqual([{ n: 1 }]);
    const winner = results.find((r) => r.statusCode === 200)!.body.data;
    expect(await titlesOf(T.E!.ownerId)).toContain('申诉处理结果');
    const [op] = await db().select().from(operationRecords).where(and(eq(operationRecords.action, 'appeal:decide'), eq(operationRecords.targetId, appealE.id)));
    expect(op!.summary).toContain(`驳回初赛结果申诉「E」`);
    expect(op!.summary).toContain(winner.reply!);
    // Decided: no second decision, whatever the version.
    expect((await reject(appealE.id, { reply: '再答', version: 2 })).body).toMatchObject({ status: 400, message: M.appealDecided, data: { reason: 'NOT_ALLOWED' } });
    expect(await mine(T.E!)).toMatchObject({ appeal: { status: 'REJECTED', reply: winner.reply } });
  });

  it('accepts and sends the project to re-review in the same step', async () => {
    const res = await accept(appealD.id, { reply: '经审核，予以复评。', version: 1, mode: 'RETURN_SCORES' });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.appealAccepted);
    expect(res.body.data).toMatchObject({ status: 'ACCEPTED', reply: '经审核，予以复评。', rereview: { mode: 'RETURN_SCORES', expertIds: [] }, decidedBy: '申诉管理员' });
    const sheets = await db().select().from(scoreSheets).where(and(eq(scoreSheets.round, 'PRELIMINARY'), eq(scoreSheets.prelimId, T.D!.id)));
    expect(sheets.map((s) => s.status)).toEqual(['RETURNED', 'RETURNED', 'RETURNED']);
    expect(sheets[0]!.returnReason).toBe(APPEAL_REREVIEW_REASON);
    expect(await db().select({ n: count() }).from(scoreSheetRevisions).where(inArray(scoreSheetRevisions.sheetId, sheets.map((s) => s.id)))).toEqual([{ n: 3 }]);
    const kinds = (await db().select({ kind: scoreLog.kind }).from(scoreLog).orderBy(desc(scoreLog.seq)).limit(2)).map((r) => r.kind);
    expect(kinds).toEqual(['APPEAL_DECIDED', 'REREVIEW']);
    expect((await titlesOf(T.D!.ownerId))[0]).toBe('申诉处理结果');
    expect(await mine(T.D!)).toMatchObject({ appeal: { status: 'ACCEPTED' } });
  });
});

describe('a new version after re-review', () => {
  const newVersion = (body: unknown) => api<PublishResult>(t, 'POST', '/api/admin/results/prelim/versions', { headers: admin.headers, body });

  it('is refused while the re-review runs, or without a reason', async () => {
    const before = await state();
    expect((await newVersion({})).body).toMatchObject({ status: 400, message: M.versionReasonRequired });
    expect((await newVersion({ reason: '因'.repeat(501) })).body).toMatchObject({ status: 400, message: M.versionReasonTooLong });
    expect((await newVersion({ reason: '更正', selection: { mode: 'BEST', n: 3 } })).body).toMatchObject({ status: 400, message: M.promotionModeInvalid });
    expect((await newVersion({ reason: '更正', selection: { mode: 'TOP_OVERALL' } })).body).toMatchObject({ status: 400, message: M.promotionNInvalid });
    expect((await newVersion({ reason: '更正', selection: { mode: 'TOP_PER_TRACK', n: 0 } })).body).toMatchObject({ status: 400, message: M.promotionNInvalid });
    expect((await newVersion({ reason: '更正', awards: { mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 1 }] } })).body).toMatchObject({ status: 400, message: M.awardsNotForPrelim });
    const res = await newVersion({ reason: '复评结束' });
    expect(res.body).toMatchObject({ status: 400, message: M.rereviewUnfinished, data: { reason: 'REREVIEW_UNFINISHED' } });
    expect((res.body.data as unknown as { projects: unknown }).projects).toMatchObject([{ id: T.D!.id, count: 0, expected: 3, pending: 3 }]);
    expect((await api(t, 'POST', '/api/admin/results/final/versions', { headers: admin.headers, body: { reason: 'x' } })).body).toMatchObject({ status: 400, message: M.notPublished });
    expect(await state()).toEqual(before);
  });

  it('previews the change without writing', async () => {
    await rescore(t, 'PRELIMINARY', T.D!.id, 88);
    const before = await state();
    const p = (await api<NewVersionPreview>(t, 'POST', '/api/admin/results/prelim/versions/preview', { headers: admin.headers, body: {} })).body.data;
    expect(p.rule.selection).toMatchObject({ mode: 'TOP_OVERALL', n: 3 });
    expect(p.resolves).toBe(1);
    expect(p.summary).toMatchObject({ IN: 1, OUT: 1, DOWN: 1 });
    expect(p.rows.filter((r) => r.changed).map((r) => [r.projectName, r.movement])).toEqual([
      ['D', 'IN'],
      ['B', 'DOWN'],
      ['C', 'OUT'],
    ]);
    expect(await state()).toEqual(before);
  });

  it('publishes version 2: lines, final round, notice, appeals resolved, teams told, score log', async () => {
    const res = await newVersion({ reason: '根据 D 队申诉复评结果更正' });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.versionPublished);
    const v2 = res.body.data.version;
    expect(v2).toMatchObject({ version: 2, status: 'PUBLISHED', reason: '根据 D 队申诉复评结果更正', selected: 3 });
    // D, C, B changed; D also the appellant.
    expect(res.body.data.notified).toBe(3);
    const versions = (await api<ResultVersionList>(t, 'GET', '/api/admin/results/prelim/versions', { headers: admin.headers })).body.data;
    expect(versions.versions.map((v) => [v.version, v.status])).toEqual([
      [2, 'PUBLISHED'],
      [1, 'SUPERSEDED'],
    ]);
    expect(versions.versions[1]!.appeals).toEqual({ submitted: 1, rejected: 1, accepted: 0, resolved: 1 });
    const lines = (await api<Page<ResultEntryView>>(t, 'GET', '/api/admin/results/prelim/versions/2/entries?outcome=PROMOTED', { headers: admin.headers })).body.data.list;
    expect(lines.map((e) => [e.projectName, e.rank, e.score])).toEqual([
      ['A', 1, 90],
      ['D', 2, 88],
      ['B', 3, 85],
    ]);
    // The final round follows.
    const finals = await db().select().from(finalEntries).where(inArray(finalEntries.prelimId, [T.C!.id, T.D!.id]));
    expect(Object.fromEntries(finals.map((f) => [f.prelimId === T.C!.id ? 'C' : 'D', f.status]))).toEqual({ C: 'OUT', D: 'IN' });
    const finalHistory = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'FINAL'), eq(statusHistory.subjectId, T.C!.id))).orderBy(desc(statusHistory.createdAt));
    expect(finalHistory[0]).toMatchObject({ fromStatus: 'IN', toStatus: 'OUT', reason: '初赛结果更正（第 2 版）：根据 D 队申诉复评结果更正' });
    // One current notice: version 1's goes offline.
    const [old] = await db().select().from(news).where(eq(news.id, v1.newsId!));
    const [fresh] = await db().select().from(news).where(eq(news.id, v2.newsId!));
    expect(old!.status).toBe('OFFLINE');
    expect(fresh).toMatchObject({ status: 'PUBLISHED', title: '2025全国智慧医保大赛初赛晋级决赛名单公示（第 2 版）' });
    expect(fresh!.body).toContain('更正原因：根据 D 队申诉复评结果更正');
    expect(fresh!.body).toContain('<td>D</td>');
    expect(fresh!.body).not.toContain('<td>C</td>');
    // The appeal is resolved, the others stay as they were.
    expect(await detail(appealD.id)).toMatchObject({ status: 'RESOLVED', resolvedVersion: 2 });
    expect(await detail(appealC.id)).toMatchObject({ status: 'SUBMITTED' });
    expect((await titlesOf(T.D!.ownerId))[0]).toBe('初赛结果更正');
    expect((await titlesOf(T.C!.ownerId))[0]).toBe('初赛结果更正');
    expect((await titlesOf(T.A!.ownerId))[0]).not.toBe('初赛结果更正');
    const [entry] = await db().select().from(scoreLog).where(and(eq(scoreLog.kind, 'PUBLICATION'), eq(scoreLog.subjectId, v2.id)));
    expect(entry!.payload).toMatchObject({ version: 2, previousVersion: 1, resolvedAppeals: [appealD.id], reason: '根据 D 队申诉复评结果更正' });
    const [op] = await db().select().from(operationRecords).where(and(eq(operationRecords.action, 'result:publish'), eq(operationRecords.targetId, v2.id)));
    expect(op!.summary).toContain('进入 1、退出 1');
  });

  it('compares any two versions: who moved, and why', async () => {
    const c = (await api<VersionCompare>(t, 'GET', '/api/admin/results/prelim/versions/compare?a=1&b=2', { headers: admin.headers })).body.data;
    expect(c.reasons).toMatchObject([{ version: 2, reason: '根据 D 队申诉复评结果更正', actorName: '申诉管理员' }]);
    expect(c.summary).toEqual({ IN: 1, OUT: 1, UP: 0, DOWN: 1, SAME: 4, ADDED: 0, REMOVED: 0 });
    const d = c.rows.find((r) => r.projectName === 'D')!;
    expect(d).toMatchObject({ rankA: 4, rankB: 2, scoreA: 75, scoreB: 88, outcomeA: 'NOT_PROMOTED', outcomeB: 'PROMOTED', movement: 'IN', changed: true });
    expect(d.appeals).toMatchObject([{ id: appealD.id, status: 'RESOLVED', resolvedVersion: 2 }]);
    const changed = (await api<VersionCompare>(t, 'GET', '/api/admin/results/prelim/versions/compare?a=2&b=1&changedOnly=true', { headers: admin.headers })).body.data;
    // Read from 2 back to 1: in version 1's order.
    expect(changed.rows.map((r) => [r.projectName, r.movement])).toEqual([
      ['B', 'UP'],
      ['C', 'IN'],
      ['D', 'OUT'],
    ]);
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions/compare?a=1&b=3', { headers: admin.headers })).body).toMatchObject({ status: 404, message: M.versionNotFound });
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions/compare?a=x&b=1', { headers: admin.headers })).body).toMatchObject({ status: 400, message: M.versionInvalid });
  });

  it('the teams see version 2, with a new period for those who have not appealed', async () => {
    expect(await mine(T.D!)).toMatchObject({ version: 2, entry: { outcome: 'PROMOTED', rank: 2, score: 88 }, appeal: { status: 'RESOLVED', resolvedVersion: 2 }, canAppeal: false });
    expect(await mine(T.G!)).toMatchObject({ version: 2, canAppeal: true, appealBlocker: null });
  });

  it('never drops a project from the final once it has final scores', async () => {
    const [expert] = await seedExperts(t, 1);
    await db().insert(scoreSheets).values({ round: 'FINAL', prelimId: T.B!.id, expertId: expert!.accountId, status: 'DRAFT', scores: {}, total: 0 });
    const before = await state();
    const res = await newVersion({ reason: '缩减晋级名额', selection: { mode: 'TOP_OVERALL', n: 1 } });
    expect(res.body).toMatchObject({ status: 400, message: M.finalHasScores, data: { reason: 'FINAL_HAS_SCORES', projects: [{ id: T.B!.id, projectName: 'B' }] } });
    expect(await state()).toEqual(before);
    expect(await db().select({ n: count() }).from(resultEntries)).toEqual([{ n: 14 }]);
  });
});
