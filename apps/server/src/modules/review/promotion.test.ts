import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REVIEW_MSG as M, type PromotionPreview, type PromotionRankRow, type PromotionRecord, type PromotionResult, type ScoreList } from '@contest/shared';
import { finalEntries, messageRecipients, messages, operationRecords, prelimDocs, promotions, scoreSheets, statusHistory } from '../../db/schema.js';
import { api, openWindow, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

/**
 * A preliminary round of 10 projects, each scored by the same three experts with one total
 * (so every aggregate equals it), plus one approved project without scores:
 *
 *   SMART_SUPERVISION  A 90, B 85, C 85 (B and C identical: EQUAL), D 80, E 70
 *   PUBLIC_SERVICE     F 88, G 84, H 84 (G's innovation higher: H decided by CRITERIA), I 60
 *   J: no scores (unranked)
 *
 *   rank: A 1, F 2, B 3, C 3, G 5, H 6, D 7, E 8, I 9
 */

let t: TestApp;
let promoter: SignedIn;
let X: SeededExpert[];
const ID: Record<string, string> = {};

const db = () => t.database.db;
const NAMES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'] as const;
const TOTALS: Record<string, number> = { A: 90, B: 85, C: 85, D: 80, E: 70, F: 88, G: 84, H: 84, I: 60 };

function split(total: number, name: string): Record<string, number> {
  if (name === 'G') return { innovation: 22, feasibility: 20, value: 25, completeness: 17 };
  if (name === 'H') return { innovation: 21, feasibility: 21, value: 25, completeness: 17 };
  const half = (v: number) => Math.floor(v * 2) / 2;
  const parts = { innovation: half(total * 0.25), feasibility: half(total * 0.25), value: half(total * 0.3) };
  return { ...parts, completeness: total - parts.innovation - parts.feasibility - parts.value };
}

const preview = (body: unknown, who: SignedIn = promoter) => api<PromotionPreview>(t, 'POST', '/api/admin/final/promotion/preview', { headers: who.headers, body });
const confirm = (body: unknown, who: SignedIn = promoter) => api<PromotionResult>(t, 'POST', '/api/admin/final/promotion/confirm', { headers: who.headers, body });
const names = (rows: PromotionRankRow[]) => rows.map((r) => r.projectName);
const selectedOf = (p: PromotionPreview) => names(p.ranking.filter((r) => r.selected));
const inFinal = async () =>
  (await db().select({ id: finalEntries.prelimId }).from(finalEntries).where(eq(finalEntries.status, 'IN'))).map((r) => NAMES.find((n) => ID[n] === r.id)).sort();

beforeAll(async () => {
  t = await createTestApp();
  promoter = await signIn(t, { realm: 'ADMIN', buttons: ['final:promote', 'final-score:export'], name: '晋级管理员' });
  X = await seedExperts(t, 3);
  const ids = await seedProjects(
    t,
    NAMES.map((n) => ({ projectName: n, track: ['F', 'G', 'H', 'I'].includes(n) ? 'PUBLIC_SERVICE' : 'SMART_SUPERVISION' })),
  );
  NAMES.forEach((n, i) => (ID[n] = ids[i]!));
  await seedGroup(t, 'PRELIMINARY', X.map((x) => x.accountId), ids);
  const rows = Object.entries(TOTALS).flatMap(([n, total]) =>
    X.map((x) => ({ round: 'PRELIMINARY' as const, prelimId: ID[n]!, expertId: x.accountId, status: 'SUBMITTED' as const, scores: split(total, n), total: total * 2, submittedAt: new Date() })),
  );
  await db().insert(scoreSheets).values(rows);
});
afterAll(async () => t?.close());

describe('access and input', () => {
  it.each([
    ['POST', '/api/admin/final/promotion/preview'],
    ['POST', '/api/admin/final/promotion/confirm'],
    ['GET', '/api/admin/final/promotions'],
  ] as const)('%s %s: 401 for other realms and anonymous, 403 without the permission', async (method, url) => {
    const user = await signIn(t, { realm: 'USER' });
    const nobody = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view'] });
    expect((await api(t, method, url, { body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: user.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: X[0]!.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: nobody.headers, body: {} })).statusCode).toBe(403);
  });

  it('the final-projects menu reads the promotions but does not promote', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['final:export'] });
    expect((await api(t, 'GET', '/api/admin/final/promotions', { headers: viewer.headers })).statusCode).toBe(200);
    expect((await preview({ mode: 'TOP_OVERALL', n: 3 }, viewer)).statusCode).toBe(403);
  });

  it('refuses bad requests with the contract texts', async () => {
    expect((await preview({ mode: 'BEST' })).body).toMatchObject({ status: 400, message: M.promoteModeInvalid });
    expect((await preview({ mode: 'TOP_OVERALL' })).body).toMatchObject({ status: 400, message: M.promoteNInvalid });
    expect((await preview({ mode: 'TOP_PER_TRACK', n: 0 })).body).toMatchObject({ status: 400, message: M.promoteNInvalid });
    expect((await preview({ mode: 'TOP_OVERALL', n: 2.5 })).body).toMatchObject({ status: 400, message: M.promoteNInvalid });
    expect((await preview({ mode: 'PICKED' })).body).toMatchObject({ status: 400, message: M.promotePickRequired });
    expect((await confirm({ mode: 'TOP_OVERALL', n: 3 })).statusCode).toBe(400);
    const [submitted] = await seedProjects(t, [{ projectName: '未通过形审' }]);
    await db().update(prelimDocs).set({ status: 'SUBMITTED' }).where(eq(prelimDocs.id, submitted!));
    for (const id of [submitted!, '00000000-0000-4000-8000-000000000000']) {
      expect((await preview({ mode: 'PICKED', ids: [ID.A, id] })).body).toMatchObject({ status: 400, message: M.promoteNotRanked, data: { reason: 'NOT_RANKED', ids: [id] } });
    }
  });
});

describe('preview', () => {
  it('top N overall: ties at the cut all go', async () => {
    const res = await preview({ mode: 'TOP_OVERALL', n: 3 });
    expect(res.statusCode).toBe(200);
    const p = res.body.data;
    expect(p.rule).toMatchObject({ aggregate: 'TRIMMED_MEAN' });
    expect(p.reviewOpen).toBe(false);
    expect(names(p.ranking)).toEqual(['A', 'F', ...['B', 'C'].sort((a, b) => (ID[a]! < ID[b]! ? -1 : 1)), 'G', 'H', 'D', 'E', 'I']);
    expect(p.ranking.map((r) => r.rank)).toEqual([1, 2, 3, 3, 5, 6, 7, 8, 9]);
    expect(selectedOf(p).sort()).toEqual(['A', 'B', 'C', 'F']);
    expect(p.selectedCount).toBe(4);
    expect(p.atCutLine).toEqual([]);
    expect(p.ranking.find((r) => r.projectName === 'H')).toMatchObject({ ruleScore: 84, decidedBy: 'CRITERIA', trackRank: 3, inFinal: false, track: 'PUBLIC_SERVICE' });
    expect(p.token).toMatch(/^[0-9a-f]{64}$/);
    expect((await preview({ mode: 'TOP_OVERALL', n: 3 })).body.data.token).toBe(p.token);
    expect((await preview({ mode: 'TOP_OVERALL', n: 4 })).body.data.token).not.toBe(p.token);
  });

  it('shows who lost on the tie-break chain at the cut line', async () => {
    const p = (await preview({ mode: 'TOP_OVERALL', n: 5 })).body.data;
    expect(selectedOf(p).sort()).toEqual(['A', 'B', 'C', 'F', 'G']);
    expect(names(p.atCutLine)).toEqual(['H']);
  });

  it('top N per track, and hand-picked (an unranked project allowed)', async () => {
    const track = (await preview({ mode: 'TOP_PER_TRACK', n: 2 })).body.data;
    expect(selectedOf(track).sort()).toEqual(['A', 'B', 'C', 'F', 'G']);
    expect(names(track.atCutLine)).toEqual(['H']);
    const picked = (await preview({ mode: 'PICKED', ids: [ID.I, ID.J, ID.I] })).body.data;
    expect(selectedOf(picked)).toEqual(['I', 'J']);
    expect(picked.selectedCount).toBe(2);
    expect(picked.ranking.find((r) => r.projectName === 'J')).toMatchObject({ rank: null, ruleScore: null, selected: true });
    expect(picked.ranking).toHaveLength(10);
    expect(picked.atCutLine).toEqual([]);
  });

  it('warns while preliminary scoring is still open', async () => {
    await setSetting(t, 'contest.phases', { prelimReview: openWindow() });
    const p = (await preview({ mode: 'TOP_OVERALL', n: 1 })).body.data;
    await setSetting(t, 'contest.phases', undefined);
    expect(p.reviewOpen).toBe(true);
  });
});

describe('confirm', () => {
  it('adds the selection to the final round through the workflow, notifies the teams and keeps the snapshot', async () => {
    const p = (await preview({ mode: 'TOP_OVERALL', n: 3 })).body.data;
    const res = await confirm({ mode: 'TOP_OVERALL', n: 3, token: p.token });
    expect(res.body).toMatchObject({ status: 200, message: M.promoted, data: { added: 4, already: 0 } });
    expect(await inFinal()).toEqual(['A', 'B', 'C', 'F']);
    const [entry] = await db().select().from(finalEntries).where(eq(finalEntries.prelimId, ID.A!));
    expect(entry).toMatchObject({ status: 'IN', reason: '晋级决赛（初赛总排名前 3 名）' });
    const history = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'FINAL'), eq(statusHistory.subjectId, ID.B!)));
    expect(history).toEqual([expect.objectContaining({ fromStatus: null, toStatus: 'IN', reason: '晋级决赛（初赛总排名前 3 名）', actorRealm: 'ADMIN', actorName: '晋级管理员' })]);
    const [owner] = await db().select({ id: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.id, ID.C!));
    const inbox = await db().select({ title: messages.title, body: messages.body }).from(messageRecipients).innerJoin(messages, eq(messages.id, messageRecipients.messageId)).where(eq(messageRecipients.accountId, owner!.id));
    expect(inbox).toEqual([{ title: '晋级决赛', body: expect.stringContaining('「C」已晋级决赛') }]);
    const [stored] = await db().select().from(promotions).where(eq(promotions.id, res.body.data.promotionId));
    expect(stored).toMatchObject({ mode: 'TOP_OVERALL', n: 3, actorId: promoter.accountId, actorName: '晋级管理员', rule: { aggregate: 'TRIMMED_MEAN', minScoresForTrim: 5 } });
    expect((stored!.promotedIds as string[]).sort()).toEqual([ID.A, ID.B, ID.C, ID.F].sort());
    const ranking = stored!.ranking as PromotionRankRow[];
    expect(ranking).toHaveLength(9);
    expect(ranking.filter((r) => r.selected).map((r) => r.projectName).sort()).toEqual(['A', 'B', 'C', 'F']);
    expect(ranking[0]).toMatchObject({ projectName: 'A', rank: 1, ruleScore: 90, inFinal: false });
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, promoter.accountId), eq(operationRecords.action, 'final:promote')));
    expect(ops).toEqual([expect.objectContaining({ targetType: 'promotion', targetId: res.body.data.promotionId })]);
    expect(ops[0]!.summary).toContain('新加入决赛 4 个');

    // The final round is now these four.
    const finalScores = await api<ScoreList>(t, 'GET', '/api/admin/review/final/scores', { headers: promoter.headers });
    expect(finalScores.body.data.list.map((r) => r.projectName).sort()).toEqual(['A', 'B', 'C', 'F']);

    // Nothing new to add: the preview says so, and the old token is stale (who is in changed).
    expect((await preview({ mode: 'TOP_OVERALL', n: 3 })).body).toMatchObject({ status: 400, message: M.promoteNothing });
    expect((await confirm({ mode: 'TOP_OVERALL', n: 3, token: p.token })).body).toMatchObject({ status: 400, message: M.promoteStale, data: { reason: 'STALE' } });
  });

  it('counts those already in and adds the rest; the snapshot does not move with later scores', async () => {
    const p = (await preview({ mode: 'TOP_PER_TRACK', n: 2 })).body.data;
    expect(p.ranking.filter((r) => r.inFinal).map((r) => r.projectName).sort()).toEqual(['A', 'B', 'C', 'F']);
    const res = await confirm({ mode: 'TOP_PER_TRACK', n: 2, token: p.token });
    expect(res.body.data).toMatchObject({ added: 1, already: 4 });
    expect(await inFinal()).toEqual(['A', 'B', 'C', 'F', 'G']);
    // A later score change leaves the stored ranking as it was.
    await db().update(scoreSheets).set({ total: 200, scores: { innovation: 25, feasibility: 25, value: 30, completeness: 20 } }).where(eq(scoreSheets.prelimId, ID.I!));
    const [stored] = await db().select().from(promotions).where(eq(promotions.id, res.body.data.promotionId));
    expect((stored!.ranking as PromotionRankRow[]).find((r) => r.projectName === 'I')).toMatchObject({ rank: 9, ruleScore: 60 });
    await db().update(scoreSheets).set({ total: 120, scores: split(60, 'I') }).where(eq(scoreSheets.prelimId, ID.I!));
  });

  it('refuses a preview the scores have moved under, and writes nothing', async () => {
    const p = (await preview({ mode: 'TOP_OVERALL', n: 8 })).body.data;
    expect(selectedOf(p)).toContain('E');
    await db().update(scoreSheets).set({ total: 150 }).where(and(eq(scoreSheets.prelimId, ID.E!), eq(scoreSheets.expertId, X[0]!.accountId)));
    const before = await db().select().from(promotions);
    const res = await confirm({ mode: 'TOP_OVERALL', n: 8, token: p.token });
    expect(res.body).toMatchObject({ status: 400, message: M.promoteStale, data: { reason: 'STALE' } });
    expect(await db().select().from(promotions)).toHaveLength(before.length);
    expect(await inFinal()).toEqual(['A', 'B', 'C', 'F', 'G']);
    // A token of other choices is stale too.
    expect((await confirm({ mode: 'TOP_OVERALL', n: 7, token: p.token })).body.data).toMatchObject({ reason: 'STALE' });
    await db().update(scoreSheets).set({ total: 140 }).where(and(eq(scoreSheets.prelimId, ID.E!), eq(scoreSheets.expertId, X[0]!.accountId)));
  });

  it('two confirms of one preview: one adds, the other is stale; never a duplicate entry', async () => {
    const body = { mode: 'PICKED', ids: [ID.D, ID.J] };
    const p = (await preview(body)).body.data;
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['final:promote'] });
    const [a, b] = await Promise.all([confirm({ ...body, token: p.token }), confirm({ ...body, token: p.token }, other)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const loser = a.statusCode === 400 ? a : b;
    expect(loser.body).toMatchObject({ message: M.promoteStale, data: { reason: 'STALE' } });
    expect((a.statusCode === 200 ? a : b).body.data).toMatchObject({ added: 2, already: 0 });
    expect(await inFinal()).toEqual(['A', 'B', 'C', 'D', 'F', 'G', 'J']);
    const history = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'FINAL'), inArray(statusHistory.subjectId, [ID.D!, ID.J!])));
    expect(history).toHaveLength(2);
    expect(history.every((h) => h.reason === '晋级决赛（人工选定）')).toBe(true);
  });

  it('a project removed from the final by hand can be promoted again', async () => {
    await db().update(finalEntries).set({ status: 'OUT' }).where(eq(finalEntries.prelimId, ID.J!));
    const p = (await preview({ mode: 'PICKED', ids: [ID.J] })).body.data;
    expect(p.ranking.find((r) => r.projectName === 'J')).toMatchObject({ inFinal: false, selected: true });
    expect((await confirm({ mode: 'PICKED', ids: [ID.J], token: p.token })).body.data).toMatchObject({ added: 1, already: 0 });
    const [entry] = await db().select().from(finalEntries).where(eq(finalEntries.prelimId, ID.J!));
    expect(entry).toMatchObject({ status: 'IN', version: 2 });
    const [last] = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'FINAL'), eq(statusHistory.subjectId, ID.J!))).orderBy(desc(statusHistory.createdAt)).limit(1);
    expect(last).toMatchObject({ fromStatus: 'OUT', toStatus: 'IN' });
  });

  it('lists the promotions newest first', async () => {
    const res = await api<PromotionRecord[]>(t, 'GET', '/api/admin/final/promotions', { headers: promoter.headers });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.map((r) => [r.mode, r.n, r.count])).toEqual([
      ['PICKED', null, 1],
      ['PICKED', null, 2],
      ['TOP_PER_TRACK', 2, 5],
      ['TOP_OVERALL', 3, 4],
    ]);
    expect(res.body.data[0]!.actorName).toBe('晋级管理员');
  });
});
