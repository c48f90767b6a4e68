import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_RUBRICS, REVIEW_MSG as M, SETTINGS_DEFAULTS, type ReviewRound, type RubricView, type ScoringRule } from '@contest/shared';
import { operationRecords, rubrics, scoreSheets, settings } from '../../db/schema.js';
import { api } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedProjects } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { createRubricStore } from './rubric-store.js';
import { keyCriteria, lockReviewRound } from './rubric.service.js';

let t: TestApp;
let prelimEditor: SignedIn;
let finalEditor: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  prelimEditor = await signIn(t, { realm: 'ADMIN', buttons: ['group:edit'], name: '初赛分组管理员' });
  finalEditor = await signIn(t, { realm: 'ADMIN', buttons: ['final-group:edit'], name: '决赛分组管理员' });
  viewer = await signIn(t, { realm: 'ADMIN', menus: ['reviewGroup', 'reviewAdminGroup'] });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const SLUG = { PRELIMINARY: 'prelim', FINAL: 'final' } as const;
const editorOf = (round: ReviewRound) => (round === 'PRELIMINARY' ? prelimEditor : finalEditor);
const get = (round: ReviewRound, who: SignedIn = editorOf(round)) => api<RubricView>(t, 'GET', `/api/admin/review/${SLUG[round]}/rubric`, { headers: who.headers });
const put = (round: ReviewRound, body: unknown, who: SignedIn = editorOf(round)) => api<RubricView>(t, 'PUT', `/api/admin/review/${SLUG[round]}/rubric`, { headers: who.headers, body });
const rubricOps = (round: ReviewRound) =>
  db()
    .select()
    .from(operationRecords)
    .where(and(eq(operationRecords.targetType, 'rubric'), eq(operationRecords.targetId, round)))
    .orderBy(operationRecords.createdAt);

const FOUR = [
  { name: '创新性', description: '新', max: 30 },
  { name: '可行性', description: '', max: 30 },
  { name: '应用价值', description: '价值', max: 40 },
];
const ZSCORE: ScoringRule = { aggregate: 'ZSCORE', minScoresForTrim: 7, tieBreak: ['RAW_MEAN', 'CRITERIA'] };

/** One sheet of the round, written directly (scoring has its own tests): the round is then locked. */
async function addSheet(round: ReviewRound): Promise<string> {
  const [project] = await seedProjects(t, [{ final: round === 'FINAL' }]);
  const [expert] = await seedExperts(t, 1);
  const [sheet] = await db().insert(scoreSheets).values({ round, prelimId: project!, expertId: expert!.accountId, status: 'DRAFT', scores: {} }).returning({ id: scoreSheets.id });
  return sheet!.id;
}

beforeEach(async () => {
  await db().delete(scoreSheets);
  await db().delete(rubrics);
  await db().delete(settings).where(eq(settings.key, 'review.rules'));
  await db().delete(operationRecords).where(eq(operationRecords.targetType, 'rubric'));
});

describe('rubric keys', () => {
  it("keeps the key of a criterion with the same name and gives others the first free c1, c2, ... (a dropped criterion's key is free again)", () => {
    const existing = [
      { key: 'innovation', name: '创新性', description: '', max: 25 },
      { key: 'c2', name: '旧', description: '', max: 75 },
    ];
    expect(keyCriteria([{ name: '新一', description: '', max: 10 }, { name: '创新性', description: 'x', max: 40 }, { name: '新二', description: '', max: 50 }], existing).map((c) => c.key)).toEqual([
      'c1',
      'innovation',
      'c2',
    ]);
  });
});

describe.each(['PRELIMINARY', 'FINAL'] as const)('rubric of %s', (round) => {
  it('reads the defaults with the round rule, unlocked, version 0', async () => {
    const res = await get(round);
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toEqual({ round, criteria: DEFAULT_RUBRICS[round], rule: SETTINGS_DEFAULTS.review.rules[round], locked: false, version: 0 });
    expect((await get(round, viewer)).statusCode).toBe(200);
  });

  it('saves criteria (keys kept by name, others c1..), raises the version and records old -> new', async () => {
    const res = await put(round, { criteria: FOUR });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.rubricSaved);
    expect(res.body.data).toMatchObject({ round, locked: false, version: 1, rule: SETTINGS_DEFAULTS.review.rules[round] });
    // English not sent is kept from the criterion of that name.
    expect(res.body.data.criteria).toEqual(
      ['innovation', 'feasibility', 'value'].map((key, i) => {
        const standard = DEFAULT_RUBRICS[round].find((c) => c.key === key)!;
        return { key, name: standard.name, description: ['新', '', '价值'][i], max: [30, 30, 40][i], nameEn: standard.nameEn, descriptionEn: standard.descriptionEn };
      }),
    );
    const renamed = await put(round, { criteria: [{ name: '创意', description: '', max: 60 }, { name: '应用价值', description: '', max: 40 }] });
    expect(renamed.body.data.criteria.map((c) => c.key)).toEqual(['c1', 'value']);
    expect(renamed.body.data.version).toBe(2);
    expect((await get(round)).body.data).toMatchObject({ version: 2, criteria: renamed.body.data.criteria });
    const [row] = await db().select().from(rubrics).where(eq(rubrics.round, round));
    expect(row).toMatchObject({ version: 2, updatedBy: editorOf(round).accountId });
    const ops = await rubricOps(round);
    expect(ops).toHaveLength(2);
    expect(ops[0]).toMatchObject({ action: round === 'PRELIMINARY' ? 'group:edit' : 'final-group:edit', accountId: editorOf(round).accountId });
    expect(ops[0]!.summary).toContain(`创新性 ${DEFAULT_RUBRICS[round][0]!.max}、`);
    expect(ops[0]!.summary).toContain('-> 创新性 30、可行性 30、应用价值 40');
    // The same criteria again: nothing changes, nothing is recorded.
    expect((await put(round, { criteria: [{ name: '创意', description: '', max: 60 }, { name: '应用价值', description: '', max: 40 }] })).body.data.version).toBe(2);
    expect(await rubricOps(round)).toHaveLength(2);
  });

  it('keeps the English name and description given; an own criterion without English stays without', async () => {
    const res = await put(round, {
      criteria: [
        { name: '创新性', description: '新', max: 50, nameEn: ' Originality ', descriptionEn: 'New ideas' },
        { name: '数据质量', description: '', max: 50 },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.criteria).toEqual([
      { key: 'innovation', name: '创新性', description: '新', max: 50, nameEn: 'Originality', descriptionEn: 'New ideas' },
      { key: 'c1', name: '数据质量', description: '', max: 50, nameEn: '', descriptionEn: '' },
    ]);
    // Only the English changes: a new version; '' clears, absent keeps.
    const english = await put(round, { criteria: [{ name: '创新性', description: '新', max: 50, nameEn: 'Novelty', descriptionEn: '' }, { name: '数据质量', description: '', max: 50 }] });
    expect(english.body.data.version).toBe(2);
    expect((await get(round)).body.data.criteria[0]).toMatchObject({ nameEn: 'Novelty', descriptionEn: '' });
    const same = await put(round, { criteria: [{ name: '创新性', description: '新', max: 50 }, { name: '数据质量', description: '', max: 50 }] });
    expect(same.body.data.version).toBe(2);
  });

  it("writes the rule of this round only, keeping the other round's", async () => {
    const other: ReviewRound = round === 'PRELIMINARY' ? 'FINAL' : 'PRELIMINARY';
    const otherRule: ScoringRule = { aggregate: 'MEDIAN', minScoresForTrim: 3, tieBreak: ['RULE_SCORE'] };
    await db().insert(settings).values({ key: 'review.rules', value: { [other]: otherRule } });
    const res = await put(round, { criteria: DEFAULT_RUBRICS[round], rule: ZSCORE });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.rule).toEqual(ZSCORE);
    const [stored] = await db().select().from(settings).where(eq(settings.key, 'review.rules'));
    expect(stored!.value).toEqual({ [round]: ZSCORE, [other]: otherRule });
    expect((await get(other, editorOf(other))).body.data.rule).toEqual(otherRule);
    const ops = await rubricOps(round);
    // Defaults unchanged: only the rule is recorded (the row is stored as declared, version 1).
    expect(ops).toHaveLength(1);
    expect(ops[0]!.summary).toContain('-> ZSCORE，7 个及以上去掉最高最低，并列依次比较 RAW_MEAN > CRITERIA');
    expect(res.body.data.version).toBe(1);
  });

  it('refuses each bad rubric with its message, writing nothing', async () => {
    const cases: [unknown, string][] = [
      [{ criteria: [] }, M.rubricCriteriaRequired],
      [{ criteria: [{ name: '甲', max: 50 }, { name: '乙', max: 40 }] }, M.rubricTotalInvalid],
      [{ criteria: [{ name: '甲', max: 50 }, { name: '甲', max: 50 }] }, M.rubricNameDuplicate],
      [{ criteria: [{ name: '', max: 100 }] }, M.rubricNameRequired],
      [{ criteria: [{ name: '甲'.repeat(21), max: 100 }] }, M.rubricNameTooLong],
      [{ criteria: [{ name: '甲', max: 100.5 }] }, M.rubricMaxInvalid],
      [{ criteria: [{ name: '甲', max: 100, description: 'x'.repeat(201) }] }, M.rubricDescriptionTooLong],
      [{ criteria: [{ name: '甲', max: 100, nameEn: 'x'.repeat(61) }] }, M.rubricNameEnTooLong],
      [{ criteria: [{ name: '甲', max: 100, descriptionEn: 'x'.repeat(401) }] }, M.rubricDescriptionEnTooLong],
      [{ criteria: Array.from({ length: 11 }, (_, i) => ({ name: `指标${i}`, max: 10 })) }, M.rubricCriteriaTooMany],
    ];
    for (const [body, message] of cases) {
      const res = await put(round, body);
      expect(res.statusCode, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const badRule = await put(round, { criteria: FOUR, rule: { aggregate: 'MAX', minScoresForTrim: 5, tieBreak: [] } });
    expect(badRule.statusCode).toBe(400);
    expect(await db().select().from(rubrics)).toEqual([]);
    expect(await rubricOps(round)).toEqual([]);
  });

  it('is locked once the round has a sheet: 400 rubricLocked, nothing written', async () => {
    await addSheet(round);
    expect((await get(round)).body.data.locked).toBe(true);
    const res = await put(round, { criteria: FOUR, rule: ZSCORE });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatchObject({ message: M.rubricLocked, data: { reason: 'LOCKED', round } });
    expect(await db().select().from(rubrics)).toEqual([]);
    expect(await db().select().from(settings).where(eq(settings.key, 'review.rules'))).toEqual([]);
    expect(await rubricOps(round)).toEqual([]);
    // The other round is not locked by this one's sheet.
    const other: ReviewRound = round === 'PRELIMINARY' ? 'FINAL' : 'PRELIMINARY';
    expect((await put(other, { criteria: FOUR }, editorOf(other))).statusCode).toBe(200);
  });

  it('a change racing the first sheet save: the change fails, or the save sees the new criteria', async () => {
    const [project] = await seedProjects(t, [{ final: round === 'FINAL' }]);
    const [expert] = await seedExperts(t, 1);
    const store = createRubricStore();
    let seen: string[] = [];
    // What a sheet save does: the round's lock shared, then read the rubric, then insert.
    const save = db().transaction(async (tx) => {
      await lockReviewRound(tx, round, 'shared');
      seen = (await store.get(tx, round)).criteria.map((c) => c.name);
      await tx.insert(scoreSheets).values({ round, prelimId: project!, expertId: expert!.accountId, status: 'DRAFT', scores: {} });
    });
    const [res] = await Promise.all([put(round, { criteria: FOUR }), save]);
    if (res.statusCode === 200) expect(seen).toEqual(FOUR.map((c) => c.name));
    else {
      expect(res.body.message).toBe(M.rubricLocked);
      expect(seen).toEqual(DEFAULT_RUBRICS[round].map((c) => c.name));
    }
  });

  it('reads need the round menu, writes its button: 401 anonymous or expert, 403 with only the other round', async () => {
    const other = round === 'PRELIMINARY' ? finalEditor : prelimEditor;
    const expert = await signIn(t, { realm: 'EXPERT' });
    expect((await api(t, 'GET', `/api/admin/review/${SLUG[round]}/rubric`)).statusCode).toBe(401);
    expect((await get(round, expert)).statusCode).toBe(401);
    expect((await put(round, { criteria: FOUR }, expert)).statusCode).toBe(401);
    expect((await get(round, other)).statusCode).toBe(403);
    expect((await put(round, { criteria: FOUR }, other)).statusCode).toBe(403);
    expect((await put(round, { criteria: FOUR }, viewer)).statusCode).toBe(403);
    expect(await db().select().from(rubrics)).toEqual([]);
  });
});
