import { and, count, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RESULTS_MSG as M,
  type AppealDetail,
  type MyAppeal,
  type MyResults,
  type NewVersionPreview,
  type VersionCompare,
  type Page,
  type PublishPreview,
  type PublishResult,
  type ResultEntryView,
  type ResultVersionList,
  type ResultsOverview,
} from '@contest/shared';
import { messageRecipients, messages, news, operationRecords, resultEntries, resultVersions, reviewExtraExperts, scoreLog, scoreSheets, statusHistory } from '../../db/schema.js';
import { api, openWindow, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { promote, seedExperts, seedScores, seedTeams, split, type SeededTeam } from './results.fixtures.js';

/**
 * Publishing both rounds (docs/rules/results.md). Preliminary: A 90, B 85, C 80, D 75, E 70, F 60 (three
 * experts, one total each), G approved without scores; promotion TOP_OVERALL 3 -> A, B, C.
 * Final: A 92, B 88, C 80 (three other experts).
 */

let t: TestApp;
let admin: SignedIn;
let reader: SignedIn;
let nobody: SignedIn;
let T: Record<string, SeededTeam>;

const db = () => t.database.db;
const PRELIM = { A: 90, B: 85, C: 80, D: 75, E: 70, F: 60 };

const publish = (slug: string, body: unknown, who: SignedIn = admin) => api<PublishResult>(t, 'POST', `/api/admin/results/${slug}/publish`, { headers: who.headers, body });
const entries = async (slug: string, n: number, query = '') =>
  (await api<Page<ResultEntryView>>(t, 'GET', `/api/admin/results/${slug}/versions/${n}/entries?size=100${query}`, { headers: admin.headers })).body.data;
const counts = async () => ({
  versions: (await db().select({ n: count() }).from(resultVersions))[0]!.n,
  entries: (await db().select({ n: count() }).from(resultEntries))[0]!.n,
  news: (await db().select({ n: count() }).from(news))[0]!.n,
  log: (await db().select({ n: count() }).from(scoreLog).where(eq(scoreLog.kind, 'PUBLICATION')))[0]!.n,
  history: (await db().select({ n: count() }).from(statusHistory).where(eq(statusHistory.subjectType, 'RESULT')))[0]!.n,
});
const inbox = async (accountId: string) =>
  db()
    .select({ title: messages.title, body: messages.body })
    .from(messageRecipients)
    .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
    .where(eq(messageRecipients.accountId, accountId))
    .orderBy(desc(messages.createdAt));

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { realm: 'ADMIN', buttons: ['result:publish', 'appeal:decide', 'final:promote'], name: '发布管理员' });
  reader = await signIn(t, { realm: 'ADMIN', buttons: [], menus: ['resultPublish'] });
  nobody = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view'] });
  T = await seedTeams(t, ['A', 'B', 'C', 'D', 'E', 'F', 'G']);
  await seedScores(t, 'PRELIMINARY', await seedExperts(t, 3), PRELIM, T);
});
afterAll(async () => t?.close());

describe('access', () => {
  const ROUTES = [
    ['GET', '/api/admin/results/overview'],
    ['POST', '/api/admin/results/prelim/publish/preview'],
    ['POST', '/api/admin/results/prelim/publish'],
    ['GET', '/api/admin/results/final/versions'],
    ['GET', '/api/admin/results/prelim/versions/compare?a=1&b=2'],
    ['GET', '/api/admin/results/prelim/versions/1/entries'],
    ['POST', '/api/admin/results/final/versions/preview'],
    ['POST', '/api/admin/results/final/versions'],
  ] as const;

  it.each(ROUTES)('%s %s: 401 anonymous and for other realms, 403 without the menu or button', async (method, url) => {
    const [expert] = await seedExperts(t, 1);
    expect((await api(t, method, url, { body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: T.A!.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: expert!.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: nobody.headers, body: {} })).statusCode).toBe(403);
  });

  it('the publication menu reads but does not publish', async () => {
    expect((await api(t, 'GET', '/api/admin/results/overview', { headers: reader.headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions', { headers: reader.headers })).statusCode).toBe(200);
    expect((await publish('prelim', {}, reader)).statusCode).toBe(403);
  });

  it('the participant calls are for participants only', async () => {
    expect((await api(t, 'GET', '/api/results/mine')).statusCode).toBe(401);
    expect((await api(t, 'GET', '/api/results/mine', { headers: admin.headers })).statusCode).toBe(401);
  });
});

describe('preliminary', () => {
  it('refuses before a promotion, and refuses award levels, writing nothing', async () => {
    const before = await counts();
    expect((await publish('prelim', {})).body).toMatchObject({ status: 400, message: M.noPromotion, data: { reason: 'NO_PROMOTION' } });
    expect((await api(t, 'POST', '/api/admin/results/prelim/publish/preview', { headers: admin.headers, body: {} })).body).toMatchObject({ status: 400, message: M.noPromotion });
    const overview = (await api<ResultsOverview>(t, 'GET', '/api/admin/results/overview', { headers: admin.headers })).body.data;
    expect(overview.rounds[0]).toMatchObject({ round: 'PRELIMINARY', published: false, canPublish: false, publishBlocker: M.noPromotion });
    await promote(t, admin, { mode: 'TOP_OVERALL', n: 3 });
    expect((await publish('prelim', { awards: { mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 1 }] } })).body).toMatchObject({ status: 400, message: M.awardsNotForPrelim });
    expect(await counts()).toEqual(before);
  });

  it('previews without writing', async () => {
    const before = await counts();
    const res = await api<PublishPreview>(t, 'POST', '/api/admin/results/prelim/publish/preview', { headers: admin.headers, body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ round: 'PRELIMINARY', total: 7, selected: 3, rule: { selection: { mode: 'PROMOTION', promotionMode: 'TOP_OVERALL', promotionN: 3 } } });
    expect(await counts()).toEqual(before);
  });

  it('publishes version 1 from the frozen promotion: lines, notice, history, records, notices, score log', async () => {
    const res = await publish('prelim', {});
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.published);
    const v = res.body.data.version;
    expect(v).toMatchObject({ round: 'PRELIMINARY', version: 1, status: 'PUBLISHED', total: 7, selected: 3, reason: null, actorName: '发布管理员' });
    expect(res.body.data.notified).toBe(7);
    // 公示 5 days, appeals 5 days (the defaults).
    expect(Date.parse(v.periodEndsAt) - Date.parse(v.publishedAt)).toBe(5 * 86_400_000);
    expect(v.appealEndsAt).toBe(v.periodEndsAt);

    const lines = (await entries('prelim', 1)).list;
    expect(lines.map((e) => [e.projectName, e.rank, e.score, e.outcome])).toEqual([
      ['A', 1, 90, 'PROMOTED'],
      ['B', 2, 85, 'PROMOTED'],
      ['C', 3, 80, 'PROMOTED'],
      ['D', 4, 75, 'NOT_PROMOTED'],
      ['E', 5, 70, 'NOT_PROMOTED'],
      ['F', 6, 60, 'NOT_PROMOTED'],
      ['G', null, null, 'NOT_PROMOTED'],
    ]);
    expect((await entries('prelim', 1, '&outcome=NOT_PROMOTED')).list.map((e) => e.projectName)).toEqual(['D', 'E', 'F', 'G']);
    expect((await entries('prelim', 1, '&track=PUBLIC_SERVICE')).total).toBe(0);

    // The public notice: published in 大赛动态, promoted projects only, no scores.
    const [article] = await db().select().from(news).where(eq(news.id, v.newsId!));
    expect(article).toMatchObject({ category: 'CONTEST_DYNAMIC', status: 'PUBLISHED' });
    expect(article!.title).toBe('2025全国智慧医保大赛初赛晋级决赛名单公示');
    expect(article!.body).toContain('<td>A</td>');
    expect(article!.body).toContain('<td>C</td>');
    expect(article!.body).not.toContain('<td>D</td>');
    expect(article!.body).not.toMatch(/得分|分数|评分/);
    const pub = await api(t, 'GET', `/api/news/${v.newsId}`);
    expect(pub.statusCode).toBe(200);

    const history = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'RESULT'), eq(statusHistory.subjectId, T.C!.id)));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ fromStatus: null, toStatus: 'PROMOTED', actorName: '发布管理员' });
    expect(history[0]!.reason).toContain('初赛结果公示（第 1 版）：晋级决赛，排名 3');

    const [op] = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, admin.accountId), eq(operationRecords.action, 'result:publish')));
    expect(op).toMatchObject({ targetType: 'result_version', targetId: v.id });
    expect(op!.summary).toContain('发布初赛结果（第 1 版）：共 7 个项目，晋级决赛 3 个');

    const [a] = await inbox(T.A!.ownerId);
    expect(a).toMatchObject({ title: '初赛结果公示' });
    expect(a!.body).toContain('您的项目「A」：晋级决赛');
    const [d] = await inbox(T.D!.ownerId);
    expect(d!.body).toContain('您的项目「D」：未晋级决赛');

    const [entry] = await db().select().from(scoreLog).where(and(eq(scoreLog.kind, 'PUBLICATION'), eq(scoreLog.subjectId, v.id)));
    expect(entry).toMatchObject({ round: 'PRELIMINARY', subjectType: 'result_version', actorName: '发布管理员' });
    expect(entry!.payload).toMatchObject({ version: 1, total: 7, selected: [T.A!.id, T.B!.id, T.C!.id] });
    expect((entry!.payload as { linesSha256: string }).linesSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a second publication is refused and writes nothing', async () => {
    const before = await counts();
    expect((await publish('prelim', {})).body).toMatchObject({ status: 400, message: M.alreadyPublished, data: { reason: 'ALREADY_PUBLISHED' } });
    expect((await api(t, 'POST', '/api/admin/results/prelim/publish/preview', { headers: admin.headers, body: {} })).body).toMatchObject({ status: 400, message: M.alreadyPublished });
    expect(await counts()).toEqual(before);
  });

  it('each team sees its own line with the period; others see none', async () => {
    const mine = (await api<MyResults>(t, 'GET', '/api/results/mine', { headers: T.D!.headers })).body.data;
    const prelim = mine.rounds.find((r) => r.round === 'PRELIMINARY')!;
    expect(prelim).toMatchObject({ published: true, version: 1, inPeriod: true, appealOpen: true, canAppeal: true, appealBlocker: null, appeal: null });
    expect(prelim.entry).toMatchObject({ projectName: 'D', outcome: 'NOT_PROMOTED', rank: 4, score: 75 });
    expect(mine.rounds.find((r) => r.round === 'FINAL')).toMatchObject({ published: false, entry: null, canAppeal: false, appealBlocker: null });
    const stranger = await signIn(t, { realm: 'USER' });
    const theirs = (await api<MyResults>(t, 'GET', '/api/results/mine', { headers: stranger.headers })).body.data.rounds[0]!;
    expect(theirs).toMatchObject({ published: true, entry: null, canAppeal: false, appealBlocker: M.appealNotInRound });
  });

  it('lists its versions', async () => {
    const list = (await api<ResultVersionList>(t, 'GET', '/api/admin/results/prelim/versions', { headers: reader.headers })).body.data;
    expect(list.current).toMatchObject({ version: 1, status: 'PUBLISHED', appeals: { submitted: 0, rejected: 0, accepted: 0, resolved: 0 } });
    expect(list.versions.map((x) => x.version)).toEqual([1]);
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions/2/entries', { headers: admin.headers })).body).toMatchObject({ status: 404, message: M.versionNotFound });
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions/compare?a=1&b=1', { headers: admin.headers })).body).toMatchObject({ status: 400, message: M.compareSame });
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions/compare?a=1&b=2&changedOnly=yes', { headers: admin.headers })).body).toMatchObject({ status: 400, message: M.flagInvalid });
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions/1/entries?outcome=WON', { headers: admin.headers })).body).toMatchObject({ status: 400, message: M.outcomeInvalid });
    expect((await api(t, 'GET', '/api/admin/results/prelim/versions/0/entries', { headers: admin.headers })).body).toMatchObject({ status: 400, message: M.versionInvalid });
  });
});

describe('final', () => {
  const RANKS = { mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 1 }, { name: '二等奖', count: 1 }] };
  let finalExperts: Awaited<ReturnType<typeof seedExperts>>;

  beforeAll(async () => {
    finalExperts = await seedExperts(t, 3);
    // C's scores come later (the round is incomplete until then).
    await seedScores(t, 'FINAL', finalExperts, { A: 92, B: 88 }, T);
  });

  it('refuses without award levels, with bad levels, and while a project lacks scores', async () => {
    const before = await counts();
    expect((await publish('final', {})).body).toMatchObject({ status: 400, message: M.awardsRequired });
    expect((await publish('final', { awards: { mode: 'RANK_COUNTS', levels: [{ name: '一等奖' }, { name: '二等奖', count: 2 }] } })).body).toMatchObject({ status: 400, message: M.awardCountMissing });
    expect((await publish('final', { awards: { mode: 'SCORE_BANDS', levels: [{ name: '一等奖', minScore: 80 }, { name: '二等奖', minScore: 90 }] } })).body).toMatchObject({ status: 400, message: M.awardMinScoreOrder });
    // C is in the final but in no group: nobody scores it.
    const res = await publish('final', { awards: RANKS });
    expect(res.body).toMatchObject({ status: 400, message: M.finalIncomplete, data: { reason: 'INCOMPLETE' } });
    expect((res.body.data as unknown as { projects: unknown }).projects).toEqual([{ id: T.C!.id, projectName: 'C', count: 0, expected: 0, pending: 0 }]);
    const overview = (await api<ResultsOverview>(t, 'GET', '/api/admin/results/overview', { headers: admin.headers })).body.data;
    expect(overview.rounds[1]).toMatchObject({ round: 'FINAL', canPublish: false, publishBlocker: M.finalIncomplete });
    expect(await counts()).toEqual(before);
  });

  it('publishes awards by rank: levels, notice grouped by level, notices to every team', async () => {
    await seedScores(t, 'FINAL', await seedExperts(t, 2), { C: 80 }, T);
    const preview = (await api<PublishPreview>(t, 'POST', '/api/admin/results/final/publish/preview', { headers: admin.headers, body: { awards: RANKS } })).body.data;
    expect(preview.levels).toEqual([
      { code: 'L1', name: '一等奖', count: 1 },
      { code: 'L2', name: '二等奖', count: 1 },
    ]);
    const res = await publish('final', { awards: RANKS });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.version).toMatchObject({ round: 'FINAL', version: 1, total: 3, selected: 2, rule: { awards: { mode: 'RANK_COUNTS' } } });
    const lines = (await entries('final', 1)).list;
    expect(lines.map((e) => [e.projectName, e.rank, e.outcome, e.awardName])).toEqual([
      ['A', 1, 'AWARDED', '一等奖'],
      ['B', 2, 'AWARDED', '二等奖'],
      ['C', 3, 'NONE', null],
    ]);
    const [article] = await db().select().from(news).where(eq(news.id, res.body.data.version.newsId!));
    expect(article!.title).toBe('2025全国智慧医保大赛决赛获奖名单公示');
    expect(article!.body).toMatch(/<h3>一等奖（共 1 项）<\/h3><table>.*<td>A<\/td>/);
    expect(article!.body).not.toContain('<td>C</td>');
    const [b] = await inbox(T.B!.ownerId);
    expect(b).toMatchObject({ title: '决赛结果公示' });
    expect(b!.body).toContain('您的项目「B」：二等奖');
    const [c] = await inbox(T.C!.ownerId);
    expect(c!.body).toContain('您的项目「C」：未获奖');
  });
});

describe('final: appeal, added experts, a new version with new levels', () => {
  it('re-reviews with an added expert and publishes version 2', async () => {
    await setSetting(t, 'contest.phases', { finalReview: openWindow() });
    const filed = await api<MyAppeal>(t, 'POST', '/api/results/final/appeal', { headers: T.C!.headers, body: { reason: '答辩评分有误' } });
    expect(filed.statusCode).toBe(200);
    const [extra] = await seedExperts(t, 1);
    const accepted = await api<AppealDetail>(t, 'POST', `/api/admin/appeals/${filed.body.data.id}/accept`, {
      headers: admin.headers,
      body: { reply: '增加一位专家复评', version: 1, mode: 'ADD_EXPERTS', expertIds: [extra!.accountId] },
    });
    expect(accepted.body.data).toMatchObject({ status: 'ACCEPTED', rereview: { mode: 'ADD_EXPERTS', expertIds: [extra!.accountId] } });
    expect(await db().select().from(reviewExtraExperts).where(eq(reviewExtraExperts.prelimId, T.C!.id))).toMatchObject([{ round: 'FINAL', expertId: extra!.accountId }]);
    expect((await inbox(extra!.accountId))[0]).toMatchObject({ title: '新的复评项目' });

    const bands = { mode: 'SCORE_BANDS', levels: [{ name: '一等奖', minScore: 90 }, { name: '二等奖', minScore: 85 }] };
    const early = await api(t, 'POST', '/api/admin/results/final/versions', { headers: admin.headers, body: { reason: '复评', awards: bands } });
    expect(early.body).toMatchObject({ status: 400, message: M.rereviewUnfinished, data: { projects: [{ id: T.C!.id, count: 2, expected: 3 }] } });

    await db().insert(scoreSheets).values({ round: 'FINAL', prelimId: T.C!.id, expertId: extra!.accountId, status: 'SUBMITTED', scores: split(100, 'FINAL'), total: 200, submittedAt: new Date() });
    // Without new levels the old ones apply: C (86.67) stays third, without an award.
    const same = (await api<NewVersionPreview>(t, 'POST', '/api/admin/results/final/versions/preview', { headers: admin.headers, body: {} })).body.data;
    expect(same.rows.find((r) => r.projectName === 'C')).toMatchObject({ scoreA: 80, scoreB: 86.67, movement: 'SAME', outcomeB: 'NONE' });
    const res = await api<PublishResult>(t, 'POST', '/api/admin/results/final/versions', { headers: admin.headers, body: { reason: '复评后按分数线评奖', awards: bands } });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.version).toMatchObject({ version: 2, rule: { awards: { mode: 'SCORE_BANDS' } }, levels: [{ name: '一等奖', count: 1 }, { name: '二等奖', count: 2 }] });
    const c = (await api<VersionCompare>(t, 'GET', '/api/admin/results/final/versions/compare?a=1&b=2&changedOnly=true', { headers: admin.headers })).body.data;
    expect(c.rows.map((r) => [r.projectName, r.movement, r.awardA, r.awardB])).toEqual([['C', 'IN', null, '二等奖']]);
    expect((await inbox(T.C!.ownerId))[0]).toMatchObject({ title: '决赛结果更正' });
    expect((await inbox(T.C!.ownerId))[0]!.body).toContain('您的项目「C」：二等奖');
  });
});

describe('races', () => {
  it('two publications of one round at once: one version, one notice', async () => {
    const t2 = await createTestApp();
    try {
      const admin2 = await signIn(t2, { realm: 'ADMIN', buttons: ['result:publish', 'final:promote'] });
      const teams = await seedTeams(t2, ['P', 'Q']);
      await seedScores(t2, 'PRELIMINARY', await seedExperts(t2, 2), { P: 80, Q: 70 }, teams);
      await promote(t2, admin2, { mode: 'TOP_OVERALL', n: 1 });
      const go = () => api(t2, 'POST', '/api/admin/results/prelim/publish', { headers: admin2.headers, body: {} });
      const results = await Promise.all([go(), go()]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expect(results.find((r) => r.statusCode === 400)!.body).toMatchObject({ message: M.alreadyPublished });
      expect(await t2.database.db.select({ n: count() }).from(resultVersions)).toEqual([{ n: 1 }]);
      expect(await t2.database.db.select({ n: count() }).from(news)).toEqual([{ n: 1 }]);
      const owners = Object.values(teams).map((x) => x.ownerId);
      const notices = await t2.database.db
        .select({ n: count() })
        .from(messageRecipients)
        .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
        .where(and(inArray(messageRecipients.accountId, owners), eq(messages.title, '初赛结果公示')));
      expect(notices).toEqual([{ n: 2 }]);
    } finally {
      await t2.close();
    }
  });
});
