import ExcelJS from 'exceljs';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REVIEW_MSG as M,
  type MonitorExpertDetail,
  type MonitorExpertRow,
  type MonitorProjectRow,
  type Page,
  type RemindExpertsResult,
  type ReviewRound,
  type ScoreDetail,
  type ScoreList,
} from '@contest/shared';
import { accounts, messageRecipients, messages, operationRecords, prelimDocs, reminders, reviewAssignments, reviewExtraExperts, scoreSheetRevisions, scoreSheets, statusHistory } from '../../db/schema.js';
import { api, seedDictionary, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

/**
 * One hand-built preliminary round (rubric and rule by default: trimmed mean from 5 scores,
 * divergence above 20 points), every number below computed by hand:
 *
 *   group A: experts E1..E5, projects P1..P5; group B: experts E6, E7, projects P6, P7; P8 in no group.
 *   E5 works at P5's organisation (conflict); E6 is added to P1 for re-review.
 *
 *   P1  E1 90, E2 80, E3 85, E4 70, E5 95, E6 60  trimmed (drop E5 95, E6 60) 81.25, mean 80, median 82.5, spread 35 (divergent)
 *   P2  E1..E5 all 80                                trimmed 80 (two of the 80s dropped), spread 0
 *   P3  E1 70, E2 75, E3 80, E4 85; E5 RETURNED     4 scores: not trimmed, 77.5; E7 (not a scorer) has a draft
 *   P4  E1 90, E2 88, E3 86, E4 84, E5 50           trimmed (drop E1 90, E5 50) 86, mean 79.6, spread 40 (divergent)
 *   P5  E1 80, E2 82.5, E3 81, E4 81.5              4 scores: 81.25 = P1's; innovation mean 20.125 > P1's 19.92: P5 above P1 (CRITERIA)
 *   P6  E6 70, E7 75                                72.5
 *   P7  E7 95; E6 draft                              95
 *   P8  no group, no scores                          unranked
 *
 *   rank: P7 1, P4 2, P5 3, P1 4 (decided by CRITERIA), P2 5, P3 6, P6 7, P8 -
 *   track SMART_SUPERVISION (P1..P4): P4 1, P1 2, P2 3, P3 4; PUBLIC_SERVICE (P5..P8): P7 1, P5 2, P6 3
 */

let t: TestApp;
let admin: SignedIn;
let exporter: SignedIn;
let reminder: SignedIn;
let E: SeededExpert[];
let P: string[];
let groupA: string;
let groupB: string;
let outsider: SeededExpert;
let finals: string[];

const db = () => t.database.db;
const S = 'SMART_SUPERVISION';
const PS = 'PUBLIC_SERVICE';

/** The default rubric's criteria for a total: innovation, feasibility and value at 25/25/30 % (down to 0.5), completeness the rest. */
function split(total: number, final = false): Record<string, number> {
  const half = (v: number) => Math.floor(v * 2) / 2;
  if (final) {
    const parts = { innovation: half(total * 0.2), feasibility: half(total * 0.2), value: half(total * 0.25), defense: half(total * 0.2) };
    return { ...parts, completeness: total - Object.values(parts).reduce((s, v) => s + v, 0) };
  }
  const parts = { innovation: half(total * 0.25), feasibility: half(total * 0.25), value: half(total * 0.3) };
  return { ...parts, completeness: total - parts.innovation - parts.feasibility - parts.value };
}

async function sheet(round: ReviewRound, prelimId: string, expert: SeededExpert, total: number, status: 'SUBMITTED' | 'DRAFT' | 'RETURNED' = 'SUBMITTED', at = new Date()) {
  const [row] = await db()
    .insert(scoreSheets)
    .values({
      round,
      prelimId,
      expertId: expert.accountId,
      status,
      scores: split(total, round === 'FINAL'),
      total: total * 2,
      comment: `评语${total}`,
      submittedAt: status === 'DRAFT' ? null : at,
      returnReason: status === 'RETURNED' ? '请复核分数' : null,
      createdAt: at,
      updatedAt: at,
    })
    .returning({ id: scoreSheets.id });
  return row!.id;
}

const scores = (q = '', who: SignedIn = admin) => api<ScoreList>(t, 'GET', `/api/admin/review/prelim/scores${q}`, { headers: who.headers });
const detail = (id: string, round = 'prelim', who: SignedIn = admin) => api<ScoreDetail>(t, 'GET', `/api/admin/review/${round}/scores/${id}`, { headers: who.headers });
const byId = <T extends { projectId?: string; id?: string }>(rows: T[]) => new Map(rows.map((r) => [r.projectId ?? r.id!, r]));
const ids = (list: { projectId: string }[]) => list.map((r) => r.projectId);
/** Projects of the preliminary round without a score come last, by id: P8 and the two finalists (approved materials, so in the round). */
const unranked = () => [P[7]!, ...finals].sort();
const PRELIM_BUTTONS = ['score:return', 'score:export', 'monitor:remind'];

beforeAll(async () => {
  t = await createTestApp();
  await seedDictionary(t);
  admin = await signIn(t, { realm: 'ADMIN', buttons: [...PRELIM_BUTTONS, 'final-score:export'], name: '成绩管理员' });
  exporter = await signIn(t, { realm: 'ADMIN', buttons: ['score:export'] });
  reminder = await signIn(t, { realm: 'ADMIN', buttons: ['monitor:remind'] });
  E = await seedExperts(t, [{}, {}, {}, {}, { organization: '冲突医院' }, {}, {}]);
  outsider = (await seedExperts(t, 1))[0]!;
  P = await seedProjects(t, [
    { projectName: '评分项目1', track: S },
    { projectName: '评分项目2', track: S },
    { projectName: '评分项目3', track: S },
    { projectName: '评分项目4', track: S },
    { projectName: '评分项目5', track: PS, orgName: '冲突医院' },
    { projectName: '评分项目6', track: PS },
    { projectName: '评分项目7', track: PS },
    { projectName: '评分项目8', track: PS },
  ]);
  groupA = await seedGroup(t, 'PRELIMINARY', E.slice(0, 5).map((e) => e.accountId), P.slice(0, 5), '甲组');
  groupB = await seedGroup(t, 'PRELIMINARY', [E[5]!.accountId, E[6]!.accountId], [P[5]!, P[6]!], '乙组');
  await db().insert(reviewExtraExperts).values({ round: 'PRELIMINARY', prelimId: P[0]!, expertId: E[5]!.accountId, reason: '分歧复评' });
  const [e1, e2, e3, e4, e5, e6, e7] = E as [SeededExpert, SeededExpert, SeededExpert, SeededExpert, SeededExpert, SeededExpert, SeededExpert];
  const [p1, p2, p3, p4, p5, p6, p7] = P as [string, string, string, string, string, string, string];
  const earlier = new Date(Date.now() - 3_600_000);
  for (const [e, v] of [[e1, 90], [e2, 80], [e3, 85], [e4, 70], [e5, 95], [e6, 60]] as const) await sheet('PRELIMINARY', p1, e, v);
  for (const e of [e1, e2, e3, e4, e5]) await sheet('PRELIMINARY', p2, e, 80);
  for (const [e, v] of [[e1, 70], [e2, 75], [e3, 80], [e4, 85]] as const) await sheet('PRELIMINARY', p3, e, v);
  const returned = await sheet('PRELIMINARY', p3, e5, 60, 'RETURNED', earlier);
  await sheet('PRELIMINARY', p3, e7, 66, 'DRAFT', earlier);
  for (const [e, v] of [[e1, 90], [e2, 88], [e3, 86], [e4, 84], [e5, 50]] as const) await sheet('PRELIMINARY', p4, e, v);
  for (const [e, v] of [[e1, 80], [e2, 82.5], [e3, 81], [e4, 81.5]] as const) await sheet('PRELIMINARY', p5, e, v);
  await sheet('PRELIMINARY', p6, e6, 70);
  await sheet('PRELIMINARY', p6, e7, 75);
  await sheet('PRELIMINARY', p7, e7, 95);
  await sheet('PRELIMINARY', p7, e6, 77, 'DRAFT');
  // The returned sheet's trail: submitted by E5, returned by the admin (revision kept).
  await db().insert(scoreSheetRevisions).values({ sheetId: returned, scores: split(60), total: 120, comment: '初评', submittedAt: new Date(Date.now() - 7_200_000), returnedAt: earlier, returnedBy: admin.accountId, reason: '请复核分数' });
  await db().insert(statusHistory).values([
    { subjectType: 'SHEET', subjectId: returned, fromStatus: null, toStatus: 'SUBMITTED', actorId: e5.accountId, actorRealm: 'EXPERT', actorName: e5.name, createdAt: new Date(Date.now() - 7_200_000) },
    { subjectType: 'SHEET', subjectId: returned, fromStatus: 'SUBMITTED', toStatus: 'RETURNED', reason: '请复核分数', actorId: admin.accountId, actorRealm: 'ADMIN', actorName: '成绩管理员', createdAt: earlier },
  ]);
  // The final round: two finalists scored by E1..E3 (a group of that round), nothing else of the round above.
  finals = await seedProjects(t, [
    { projectName: '决赛项目甲', track: S, final: true },
    { projectName: '决赛项目乙', track: PS, final: true },
  ]);
  await seedGroup(t, 'FINAL', [e1.accountId, e2.accountId, e3.accountId], finals, '决赛一组');
  for (const [e, a, b] of [[e1, 90, 80], [e2, 92, 78], [e3, 94, 82]] as const) {
    await sheet('FINAL', finals[0]!, e, a);
    await sheet('FINAL', finals[1]!, e, b);
  }
});
afterAll(async () => t?.close());

describe('access', () => {
  it.each([
    ['GET', '/api/admin/review/prelim/scores'],
    ['GET', '/api/admin/review/prelim/scores/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/review/prelim/scores/export'],
    ['GET', '/api/admin/review/final/scores'],
    ['GET', '/api/admin/review/final/scores/export'],
    ['GET', '/api/admin/review/prelim/monitor/experts'],
    ['GET', '/api/admin/review/prelim/monitor/experts/00000000-0000-4000-8000-000000000000'],
    ['GET', '/api/admin/review/prelim/monitor/projects'],
    ['POST', '/api/admin/review/prelim/monitor/remind'],
    ['GET', '/api/admin/review/final/monitor/experts'],
    ['POST', '/api/admin/review/final/monitor/remind'],
  ] as const)('%s %s: 401 for other realms and anonymous, 403 without the permission', async (method, url) => {
    const user = await signIn(t, { realm: 'USER' });
    const nobody = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view'] });
    expect((await api(t, method, url, { body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: user.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: E[0]!.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: nobody.headers, body: {} })).statusCode).toBe(403);
  });

  it('rounds are guarded apart: the preliminary score menu does not open the final one; remind needs its button', async () => {
    expect((await scores('', exporter)).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/admin/review/final/scores', { headers: exporter.headers })).statusCode).toBe(403);
    // The monitoring menu without the remind button: reading yes, reminding no.
    const viewer = await signIn(t, { realm: 'ADMIN', menus: ['scoringMonitoringExpert'] });
    expect((await api(t, 'GET', '/api/admin/review/prelim/monitor/experts', { headers: viewer.headers })).statusCode).toBe(200);
    expect((await api(t, 'POST', '/api/admin/review/prelim/monitor/remind', { headers: viewer.headers, body: { all: true } })).statusCode).toBe(403);
    // The export button's own check: the score menu alone does not export.
    const reader = await signIn(t, { realm: 'ADMIN', menus: ['gradeManageGrade'] });
    expect((await scores('', reader)).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/admin/review/prelim/scores/export', { headers: reader.headers })).statusCode).toBe(403);
  });
});

describe('score query', () => {
  it('aggregates every project as computed by hand, rows in rank order', async () => {
    const res = await scores('?size=100');
    expect(res.statusCode).toBe(200);
    const data = res.body.data;
    expect(data).toMatchObject({ round: 'PRELIMINARY', rule: { aggregate: 'TRIMMED_MEAN', minScoresForTrim: 5 }, divergenceThreshold: 20, total: 10, page: 1, size: 100 });
    expect(data.criteria.map((c) => c.key)).toEqual(['innovation', 'feasibility', 'value', 'completeness']);
    expect(ids(data.list)).toEqual([P[6], P[3], P[4], P[0], P[1], P[2], P[5], ...unranked()]);
    const rows = byId(data.list);
    expect(rows.get(P[0]!)).toMatchObject({
      projectName: '评分项目1', groupName: '甲组', count: 6, expected: 6, mean: 80, trimmedMean: 81.25, trimmed: true, median: 82.5, spread: 35,
      divergent: true, ruleScore: 81.25, rank: 4, trackRank: 2, decidedBy: 'CRITERIA',
    });
    expect(rows.get(P[0]!)!.droppedExpertIds.sort()).toEqual([E[4]!.accountId, E[5]!.accountId].sort());
    expect(rows.get(P[0]!)!.criteria.innovation).toBeCloseTo(119.5 / 6, 9);
    expect(rows.get(P[4]!)).toMatchObject({ count: 4, expected: 4, trimmed: false, trimmedMean: 81.25, ruleScore: 81.25, rank: 3, trackRank: 2, decidedBy: null, spread: 2.5, divergent: false });
    expect(rows.get(P[4]!)!.criteria.innovation).toBe(20.125);
    const p2drop = [E[0], E[1], E[2], E[3], E[4]].map((e) => e!.accountId).sort().slice(0, 2);
    expect(rows.get(P[1]!)).toMatchObject({ count: 5, expected: 5, trimmedMean: 80, mean: 80, spread: 0, rank: 5, trackRank: 3, trimmed: true });
    expect(rows.get(P[1]!)!.droppedExpertIds.sort()).toEqual(p2drop);
    expect(rows.get(P[2]!)).toMatchObject({ count: 4, expected: 5, trimmed: false, trimmedMean: 77.5, median: 77.5, spread: 15, rank: 6, trackRank: 4, droppedExpertIds: [] });
    expect(rows.get(P[3]!)).toMatchObject({ count: 5, expected: 5, mean: 79.6, trimmedMean: 86, median: 86, spread: 40, divergent: true, rank: 2, trackRank: 1 });
    expect(rows.get(P[3]!)!.droppedExpertIds.sort()).toEqual([E[0]!.accountId, E[4]!.accountId].sort());
    expect(rows.get(P[5]!)).toMatchObject({ count: 2, expected: 2, trimmedMean: 72.5, rank: 7, trackRank: 3, groupName: '乙组' });
    expect(rows.get(P[6]!)).toMatchObject({ count: 1, expected: 2, ruleScore: 95, rank: 1, trackRank: 1 });
    expect(rows.get(P[7]!)).toMatchObject({ count: 0, expected: 0, ruleScore: null, rank: null, trackRank: null, groupName: null, divergent: false });
    // Every submitted total of the round: the mean of the 27 scores.
    const all = [90, 80, 85, 70, 95, 60, 80, 80, 80, 80, 80, 70, 75, 80, 85, 90, 88, 86, 84, 50, 80, 82.5, 81, 81.5, 70, 75, 95];
    expect(data.roundMean).toBeCloseTo(all.reduce((s, v) => s + v, 0) / all.length, 9);
    expect(data.list.every((r) => r.count === 0 || typeof r.zMean === 'number')).toBe(true);
  });

  it('filters after ranking: ranks stay the round\'s; paging', async () => {
    const track = (await scores(`?track=${PS}`)).body.data;
    expect(ids(track.list)).toEqual([P[6], P[4], P[5], ...[P[7]!, finals[1]!].sort()]);
    expect(track.list.map((r) => [r.rank, r.trackRank])).toEqual([[1, 1], [3, 2], [7, 3], [null, null], [null, null]]);
    const divergent = (await scores('?divergent=true')).body.data;
    expect(ids(divergent.list)).toEqual([P[3], P[0]]);
    expect(divergent.list.map((r) => r.rank)).toEqual([2, 4]);
    expect(ids((await scores('?divergent=false')).body.data.list)).toEqual([P[6], P[4], P[1], P[2], P[5], ...unranked()]);
    const group = (await scores(`?groupId=${groupB}`)).body.data;
    expect(ids(group.list)).toEqual([P[6], P[5]]);
    expect(group.total).toBe(2);
    expect(ids((await scores(`?groupId=${groupA}&divergent=true`)).body.data.list)).toEqual([P[3], P[0]]);
    expect(ids((await scores(`?keyword=${encodeURIComponent('评分项目3')}`)).body.data.list)).toEqual([P[2]]);
    // Organisation name, case and spacing aside.
    expect(ids((await scores(`?keyword=${encodeURIComponent(' 冲突 ')}`)).body.data.list)).toEqual([P[4]]);
    const page2 = (await scores('?size=3&page=2')).body.data;
    expect(page2).toMatchObject({ page: 2, size: 3, total: 10 });
    expect(ids(page2.list)).toEqual([P[0], P[1], P[2]]);
    expect(ids((await scores('?size=3&page=4')).body.data.list)).toEqual(unranked().slice(2));
    expect((await scores('?size=3&page=5')).body.data.list).toEqual([]);
  });

  it('refuses bad filters with the contract texts', async () => {
    expect((await scores('?divergent=maybe')).body).toMatchObject({ status: 400, message: M.roundInvalid });
    expect((await scores('?groupId=nope')).statusCode).toBe(400);
    expect((await scores(`?track=${'x'.repeat(41)}`)).body).toMatchObject({ status: 400, message: M.expertTrackInvalid });
  });

  it('the final round ranks its finalists only, on the final rubric', async () => {
    const res = await api<ScoreList>(t, 'GET', '/api/admin/review/final/scores', { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.round).toBe('FINAL');
    expect(res.body.data.criteria.map((c) => c.key)).toContain('defense');
    expect(ids(res.body.data.list)).toEqual(finals);
    expect(res.body.data.list[0]).toMatchObject({ count: 3, expected: 3, mean: 92, trimmed: false, rank: 1 });
    expect(res.body.data.list[1]).toMatchObject({ mean: 80, rank: 2 });
    // A preliminary project is not in the final round; a finalist is not in the preliminary query's group filter either.
    expect((await detail(P[0]!, 'final')).body).toMatchObject({ status: 404, message: M.projectNotFound });
    expect((await detail(finals[0]!, 'final')).body.data.experts).toHaveLength(3);
  });
});

describe('score detail', () => {
  it('shows every scorer with their sheet, the dropped marks and the re-review expert', async () => {
    const res = await detail(P[0]!);
    expect(res.statusCode).toBe(200);
    const d = res.body.data;
    expect(d.project).toMatchObject({ id: P[0], projectName: '评分项目1', track: S, groupId: groupA, groupName: '甲组' });
    expect(d.aggregate).toMatchObject({ rank: 4, trimmedMean: 81.25 });
    expect(d.rule.aggregate).toBe('TRIMMED_MEAN');
    expect(d.experts).toHaveLength(6);
    const of = new Map(d.experts.map((x) => [x.expertId, x]));
    expect(of.get(E[5]!.accountId)).toMatchObject({ extra: true, expertCode: E[5]!.code, expertName: E[5]!.name, sheet: { status: 'SUBMITTED', total: 60, dropped: true } });
    expect(of.get(E[4]!.accountId)!.sheet).toMatchObject({ total: 95, dropped: true, comment: '评语95', revisions: [] });
    expect(of.get(E[0]!.accountId)).toMatchObject({ extra: false, sheet: { total: 90, dropped: false, scores: split(90) } });
    expect(d.experts.filter((x) => x.sheet?.dropped)).toHaveLength(2);
    expect(d.conflicts).toEqual([]);
  });

  it('keeps returned sheets with their revisions and history, an expert who no longer scores, and shows conflicts', async () => {
    const d = (await detail(P[2]!)).body.data;
    const of = new Map(d.experts.map((x) => [x.expertId, x]));
    // E1..E5 scorers, plus E7 with a draft though not in the group.
    expect(d.experts.map((x) => x.expertId).sort()).toEqual([...E.slice(0, 5), E[6]!].map((e) => e.accountId).sort());
    expect(of.get(E[6]!.accountId)).toMatchObject({ extra: false, sheet: { status: 'DRAFT', total: 66, dropped: false } });
    const returned = of.get(E[4]!.accountId)!.sheet!;
    expect(returned).toMatchObject({ status: 'RETURNED', returnReason: '请复核分数', dropped: false });
    expect(returned.revisions).toEqual([expect.objectContaining({ total: 60, comment: '初评', reason: '请复核分数', returnedBy: '成绩管理员' })]);
    expect(d.history.map((h) => `${h.fromStatus}->${h.toStatus}`)).toEqual(['SUBMITTED->RETURNED', 'null->SUBMITTED']);
    expect(d.history[0]).toMatchObject({ actorRealm: 'ADMIN', actorName: '成绩管理员', reason: '请复核分数' });

    const p5 = (await detail(P[4]!)).body.data;
    expect(p5.experts.map((x) => x.expertId).sort()).toEqual(E.slice(0, 4).map((e) => e.accountId).sort());
    expect(p5.conflicts).toEqual([expect.objectContaining({ expertId: E[4]!.accountId, expertCode: E[4]!.code, cause: expect.objectContaining({ kind: 'NAME', via: 'OWN' }) })]);
  });

  it('an unscored project of the round has a detail; anything else is a 404', async () => {
    const p8 = (await detail(P[7]!)).body.data;
    expect(p8).toMatchObject({ experts: [], aggregate: { count: 0, rank: null } });
    expect((await detail('00000000-0000-4000-8000-000000000000')).body).toMatchObject({ status: 404, message: M.projectNotFound });
    const [pending] = await seedProjects(t, [{ projectName: '未通过形审' }]);
    await db().update(prelimDocs).set({ status: 'SUBMITTED' }).where(eq(prelimDocs.id, pending!));
    expect((await detail(pending!)).statusCode).toBe(404);
    expect((await detail('nope')).statusCode).toBe(400);
  });
});

describe('export', () => {
  async function workbook(raw: Buffer) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(raw as unknown as ArrayBuffer);
    const rows = (name: string) => {
      const out: unknown[][] = [];
      wb.getWorksheet(name)!.eachRow((row) => out.push((row.values as unknown[]).slice(1)));
      return out;
    };
    return { names: wb.worksheets.map((w) => w.name), rows };
  }

  it('writes 汇总 in rank order and 专家评分 per submitted sheet, and records the export', async () => {
    const res = await api(t, 'GET', '/api/admin/review/prelim/scores/export', { headers: exporter.headers });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('spreadsheetml');
    expect(decodeURIComponent(String(res.headers['content-disposition']))).toMatch(/初赛成绩_\d{4}-\d{2}-\d{2}\.xlsx/);
    const { names, rows } = await workbook(res.raw);
    expect(names).toEqual(['汇总', '专家评分']);
    const summary = rows('汇总');
    expect(summary[0]).toEqual([
      '排名', '方向排名', '项目名称', '团队名称', '单位名称', '参赛方向', '评审组', '已评份数', '应评份数', '排名依据得分', '平均分', '去掉最高最低分后的平均分',
      '中位数', '标准化平均分', '创新性平均分', '可行性平均分', '应用价值平均分', '完整性平均分', '极差', '分歧', '同分裁决',
    ]);
    expect(summary.slice(1, 8).map((r) => r[2])).toEqual(['评分项目7', '评分项目4', '评分项目5', '评分项目1', '评分项目2', '评分项目3', '评分项目6']);
    expect(summary.slice(8).map((r) => r[2]).sort()).toEqual(['决赛项目乙', '决赛项目甲', '评分项目8'].sort());
    const p1 = summary[4]!;
    expect(p1.slice(0, 3)).toEqual([4, 2, '评分项目1']);
    expect(p1.slice(5, 12)).toEqual(['智能监管与基金安全', '甲组', 6, 6, 81.25, 80, 81.25]);
    expect(p1[12]).toBe(82.5);
    expect(p1[14]).toBe(19.92);
    expect(p1.slice(18)).toEqual([35, '是', '评分项逐项比较']);
    // The unscored project: blanks, not zeros.
    const p8 = summary.find((r) => r[2] === '评分项目8')!;
    expect([p8[0], p8[9], p8[19], p8[20]].map((v) => v ?? '')).toEqual(['', '', '否', '']);

    const perExpert = rows('专家评分');
    expect(perExpert[0]).toEqual(['项目名称', '专家编号', '专家姓名', '创新性', '可行性', '应用价值', '完整性', '总分', '评语', '提交时间', '去除的最高/最低分']);
    expect(perExpert).toHaveLength(1 + 27);
    const p1Sheets = perExpert.filter((r) => r[0] === '评分项目1');
    expect(p1Sheets).toHaveLength(6);
    const e5 = p1Sheets.find((r) => r[1] === E[4]!.code)!;
    expect(e5.slice(2, 9)).toEqual([E[4]!.name, 23.5, 23.5, 28.5, 19.5, 95, '评语95']);
    expect(e5[9]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(e5[10]).toBe('是');
    expect(p1Sheets.filter((r) => r[10] === '是')).toHaveLength(2);
    // Rank order project by project: P7's one sheet first; the returned and draft sheets nowhere.
    expect(perExpert[1]![0]).toBe('评分项目7');
    expect(perExpert.filter((r) => r[0] === '评分项目3')).toHaveLength(4);

    const [op] = await db().select().from(operationRecords).where(eq(operationRecords.accountId, exporter.accountId));
    expect(op).toMatchObject({ action: 'score:export', targetType: 'score' });
    expect(op!.summary).toContain('10 个项目');
    expect(op!.summary).toContain('27 条');
  });

  it('exports the filtered rows only; the final round with its own button', async () => {
    const res = await api(t, 'GET', `/api/admin/review/prelim/scores/export?divergent=true`, { headers: admin.headers });
    const { rows } = await workbook(res.raw);
    expect(rows('汇总').slice(1).map((r) => r[2])).toEqual(['评分项目4', '评分项目1']);
    expect(rows('专家评分')).toHaveLength(1 + 11);
    const final = await api(t, 'GET', '/api/admin/review/final/scores/export', { headers: admin.headers });
    expect(final.statusCode).toBe(200);
    expect(decodeURIComponent(String(final.headers['content-disposition']))).toContain('决赛成绩_');
    const fin = await workbook(final.raw);
    expect(fin.rows('汇总')[0]).toContain('现场答辩平均分');
    expect(fin.rows('专家评分')).toHaveLength(1 + 6);
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, admin.accountId), eq(operationRecords.targetType, 'score')));
    expect(ops.map((o) => o.action).sort()).toEqual(['final-score:export', 'score:export']);
  });

  it('a refused export writes nothing', async () => {
    const reader = await signIn(t, { realm: 'ADMIN', menus: ['gradeManageGrade'] });
    expect((await api(t, 'GET', '/api/admin/review/prelim/scores/export?divergent=perhaps', { headers: exporter.headers })).statusCode).toBe(400);
    expect((await api(t, 'GET', '/api/admin/review/prelim/scores/export', { headers: reader.headers })).statusCode).toBe(403);
    expect(await db().select().from(operationRecords).where(eq(operationRecords.accountId, reader.accountId))).toEqual([]);
  });
});

describe('monitoring', () => {
  const experts = (q = '', who: SignedIn = admin) => api<Page<MonitorExpertRow>>(t, 'GET', `/api/admin/review/prelim/monitor/experts${q}`, { headers: who.headers });

  it('counts each expert\'s assigned, submitted, draft, returned and remaining sheets', async () => {
    const res = await experts('?size=100');
    expect(res.statusCode).toBe(200);
    expect(res.body.data.total).toBe(7);
    const of = new Map(res.body.data.list.map((r) => [r.expertId, r]));
    for (const e of E.slice(0, 4)) expect(of.get(e.accountId)).toMatchObject({ assigned: 5, submitted: 5, draft: 0, returned: 0, remaining: 0, groupName: '甲组', remindedToday: false });
    // E5: P5 is a conflict; P3 returned.
    expect(of.get(E[4]!.accountId)).toMatchObject({ code: E[4]!.code, name: E[4]!.name, assigned: 4, submitted: 3, returned: 1, draft: 0, remaining: 1 });
    // E6: group B's two and the re-review of P1; a draft on P7.
    expect(of.get(E[5]!.accountId)).toMatchObject({ assigned: 3, submitted: 2, draft: 1, remaining: 1, groupName: '乙组' });
    // E7's draft on P3 is not one of its projects: not counted.
    expect(of.get(E[6]!.accountId)).toMatchObject({ assigned: 2, submitted: 2, draft: 0, remaining: 0 });
    expect(of.get(E[6]!.accountId)!.lastActivityAt).not.toBeNull();
    expect(of.has(outsider.accountId)).toBe(false);
    const late = (await experts('?late=true')).body.data.list.map((r) => r.expertId);
    expect(late.sort()).toEqual([E[4]!.accountId, E[5]!.accountId].sort());
    expect((await experts(`?groupId=${groupB}`)).body.data.list.map((r) => r.expertId).sort()).toEqual([E[5]!.accountId, E[6]!.accountId].sort());
    expect((await experts(`?keyword=${E[2]!.code}`)).body.data.list.map((r) => r.expertId)).toEqual([E[2]!.accountId]);
  });

  it('details one expert\'s projects; 404 for an expert not in the round', async () => {
    const res = await api<MonitorExpertDetail>(t, 'GET', `/api/admin/review/prelim/monitor/experts/${E[5]!.accountId}`, { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.expert).toMatchObject({ expertId: E[5]!.accountId, assigned: 3, remaining: 1 });
    expect(res.body.data.expert.organization).toMatch(/^专家单位/);
    expect(res.body.data.projects.map((p) => [p.id, p.status, p.extra, p.total])).toEqual([
      [P[0], 'SUBMITTED', true, 60],
      [P[5], 'SUBMITTED', false, 70],
      [P[6], 'DRAFT', false, 77],
    ]);
    const e5 = (await api<MonitorExpertDetail>(t, 'GET', `/api/admin/review/prelim/monitor/experts/${E[4]!.accountId}`, { headers: admin.headers })).body.data;
    expect(e5.projects.map((p) => p.id)).toEqual([P[0], P[1], P[2], P[3]]);
    expect(e5.projects[2]).toMatchObject({ status: 'RETURNED', groupName: '甲组' });
    for (const id of [outsider.accountId, '00000000-0000-4000-8000-000000000000']) {
      expect((await api(t, 'GET', `/api/admin/review/prelim/monitor/experts/${id}`, { headers: admin.headers })).body).toMatchObject({ status: 404, message: M.expertNotFound });
    }
  });

  it('lists projects with scores in against expected', async () => {
    const projects = (q = '') => api<Page<MonitorProjectRow>>(t, 'GET', `/api/admin/review/prelim/monitor/projects${q}`, { headers: admin.headers });
    const res = await projects('?size=100');
    expect(res.body.data.total).toBe(10);
    const of = new Map(res.body.data.list.map((r) => [r.id, r]));
    expect(of.get(P[0]!)).toMatchObject({ scoresIn: 6, expected: 6, drafts: 0, spread: 35, divergent: true, groupName: '甲组', track: S });
    expect(of.get(P[2]!)).toMatchObject({ scoresIn: 4, expected: 5, drafts: 1, spread: 15, divergent: false });
    expect(of.get(P[6]!)).toMatchObject({ scoresIn: 1, expected: 2, drafts: 1, spread: 0 });
    expect(of.get(P[7]!)).toMatchObject({ scoresIn: 0, expected: 0, spread: null, divergent: false, groupName: null });
    expect((await projects('?incomplete=true')).body.data.list.map((r) => r.id)).toEqual([P[2], P[6]]);
    expect((await projects(`?track=${PS}&groupId=${groupB}`)).body.data.list.map((r) => r.id)).toEqual([P[5], P[6]]);
  });
});

describe('remind', () => {
  const remind = (body: unknown, who: SignedIn = reminder) => api<RemindExpertsResult>(t, 'POST', '/api/admin/review/prelim/monitor/remind', { headers: who.headers, body });
  const inbox = async (accountId: string) =>
    db().select({ title: messages.title, body: messages.body }).from(messageRecipients).innerJoin(messages, eq(messages.id, messageRecipients.messageId)).where(eq(messageRecipients.accountId, accountId));

  it('refuses an empty request and writes nothing', async () => {
    expect((await remind({})).body).toMatchObject({ status: 400, message: M.remindNobody });
    expect((await remind({ expertIds: [] })).body).toMatchObject({ status: 400, message: M.remindNobody });
    expect(await db().select().from(reminders).where(eq(reminders.subjectType, 'REVIEW_PRELIMINARY'))).toEqual([]);
  });

  it('never reminds an expert who is done', async () => {
    const res = await remind({ expertIds: [E[0]!.accountId, E[6]!.accountId, outsider.accountId] });
    expect(res.body).toMatchObject({ status: 200, message: M.reminded, data: { reminded: 0, skipped: 3 } });
    expect(await inbox(E[0]!.accountId)).toEqual([]);
  });

  it('reminds every late expert once a day, even when two operators press at once', async () => {
    const [a, b] = await Promise.all([remind({ all: true }), remind({ all: true }, admin)]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect(a.body.data.reminded + b.body.data.reminded).toBe(2);
    expect(a.body.data.reminded + a.body.data.skipped).toBe(7);
    const rows = await db().select().from(reminders).where(eq(reminders.subjectType, 'REVIEW_PRELIMINARY'));
    expect(rows.map((r) => r.subjectId).sort()).toEqual([E[4]!.accountId, E[5]!.accountId].sort());
    const mail = await inbox(E[4]!.accountId);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.title).toBe('初赛评审提醒');
    expect(await inbox(E[0]!.accountId)).toEqual([]);
    // Again today: nobody, and no 400.
    expect((await remind({ expertIds: [E[4]!.accountId] })).body.data).toEqual({ reminded: 0, skipped: 1 });
    const list = (await api<Page<MonitorExpertRow>>(t, 'GET', '/api/admin/review/prelim/monitor/experts?late=true', { headers: admin.headers })).body.data.list;
    expect(list.every((r) => r.remindedToday)).toBe(true);
    const ops = await db()
      .select()
      .from(operationRecords)
      .where(and(inArray(operationRecords.accountId, [reminder.accountId, admin.accountId]), eq(operationRecords.action, 'monitor:remind')));
    expect(ops).toHaveLength(1);
    expect(ops[0]!.summary).toContain('未完成初赛评分的专家 2 个');
  });
});

describe('the computed round follows every change (last: it changes the round)', () => {
  it('a score, a group move, a disabled expert and a setting show at the next call', async () => {
    const row = async (id: string) => byId((await scores('?size=100')).body.data.list).get(id)!;
    expect(await row(P[5]!)).toMatchObject({ mean: 72.5, rank: 7 });
    await db().update(scoreSheets).set({ total: 200, scores: split(100) }).where(and(eq(scoreSheets.prelimId, P[5]!), eq(scoreSheets.expertId, E[5]!.accountId)));
    expect(await row(P[5]!)).toMatchObject({ mean: 87.5, rank: 2, spread: 25, divergent: true });
    await setSetting(t, 'review.divergenceThreshold', 30);
    expect(await row(P[5]!)).toMatchObject({ divergent: false });
    expect((await scores()).body.data.divergenceThreshold).toBe(30);
    await setSetting(t, 'review.divergenceThreshold', undefined);
    await db().update(reviewAssignments).set({ groupId: groupA }).where(eq(reviewAssignments.prelimId, P[6]!));
    expect(await row(P[6]!)).toMatchObject({ groupName: '甲组', expected: 5 });
    await db().update(accounts).set({ enabled: false }).where(eq(accounts.id, E[0]!.accountId));
    expect(await row(P[1]!)).toMatchObject({ expected: 4, count: 5 });
    await db().delete(scoreSheets).where(eq(scoreSheets.prelimId, P[6]!));
    expect(await row(P[6]!)).toMatchObject({ count: 0, rank: null });
  });
});
