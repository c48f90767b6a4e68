import { describe, expect, it } from 'vitest';
import type { ScoringRule, TieBreak } from '../admin/settings.js';
import { aggregateRound, round2, type AggregateInput, type ProjectAggregate, type ProjectScores, type SheetScore } from './aggregate.js';
import type { Criterion } from './rubric.js';

/** Two criteria of 50 points: a sheet is (c1, c2), its total their sum. */
const CRITERIA: Criterion[] = [
  { key: 'c1', name: '创新性', description: '', max: 50 },
  { key: 'c2', name: '应用价值', description: '', max: 50 },
];
const DEFAULT_CHAIN: TieBreak[] = ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'];
const rule = (aggregate: ScoringRule['aggregate'] = 'TRIMMED_MEAN', tieBreak: TieBreak[] = DEFAULT_CHAIN, minScoresForTrim = 5): ScoringRule => ({
  aggregate,
  minScoresForTrim,
  tieBreak,
});

const sheet = (expertId: string, c1: number, c2: number): SheetScore => ({ expertId, total: c1 + c2, scores: { c1, c2 } });
/** Sheets from totals alone, split evenly over the two criteria. */
const totals = (values: number[], prefix = 'e') => values.map((t, i) => sheet(`${prefix}${i + 1}`, t / 2, t / 2));
const project = (projectId: string, sheets: SheetScore[], track: string | null = 'A', expected = sheets.length): ProjectScores => ({ projectId, track, expected, sheets });

const run = (projects: ProjectScores[], over: Partial<AggregateInput> = {}) =>
  aggregateRound({ projects, criteria: CRITERIA, rule: rule(), divergenceThreshold: 20, ...over });
const byId = (r: { projects: ProjectAggregate[] }, id: string) => r.projects.find((p) => p.projectId === id)!;
const order = (r: { projects: ProjectAggregate[] }) => r.projects.map((p) => [p.projectId, p.rank, p.decidedBy]);

describe('aggregateRound: one project', () => {
  it('does not trim 4 scores (below the minimum of 5)', () => {
    const p = byId(run([project('p', totals([80, 72, 90, 61]))]), 'p');
    // mean = 303 / 4; median = (72 + 80) / 2; spread = 90 - 61
    expect(p).toMatchObject({ count: 4, mean: 75.75, trimmedMean: 75.75, trimmed: false, droppedExpertIds: [], median: 76, spread: 29, ruleScore: 75.75 });
  });

  it('trims 5 scores: drops the highest and the lowest', () => {
    const p = byId(run([project('p', totals([80, 72, 90, 61, 85]))]), 'p');
    // mean = 388 / 5; trimmed = (80 + 72 + 85) / 3 = 79; median 80
    expect(p).toMatchObject({ mean: 77.6, trimmedMean: 79, trimmed: true, droppedExpertIds: ['e3', 'e4'], median: 80, ruleScore: 79 });
  });

  it('trims 7 scores, dropping the smallest expertId among equal totals whatever the order', () => {
    const sheets = [sheet('e4', 30, 30), sheet('e2', 45, 45), sheet('e7', 35, 36.5), sheet('e1', 45, 45), sheet('e5', 40, 35), sheet('e3', 30, 30), sheet('e6', 40, 40)];
    const p = byId(run([project('p', sheets)]), 'p');
    // totals 60 90 71.5 90 75 60 80: mean = 526.5 / 7; drop e1 (90) and e3 (60): (90 + 71.5 + 75 + 60 + 80) / 5 = 75.3
    expect(p.mean).toBeCloseTo(526.5 / 7, 10);
    expect(p.trimmedMean).toBeCloseTo(75.3, 10);
    expect(p.droppedExpertIds).toEqual(['e1', 'e3']);
    expect(p.median).toBe(75);
    // c1: (30+45+35+45+40+30+40)/7 = 265/7; c2: (30+45+36.5+45+35+30+40)/7 = 261.5/7
    expect(p.criteria.c1).toBeCloseTo(265 / 7, 10);
    expect(p.criteria.c2).toBeCloseTo(261.5 / 7, 10);
    const notYet = byId(run([project('p', sheets)], { rule: rule('TRIMMED_MEAN', DEFAULT_CHAIN, 8) }), 'p');
    expect(notYet).toMatchObject({ trimmed: false, droppedExpertIds: [] });
    expect(notYet.trimmedMean).toBe(notYet.mean);
  });

  it('drops two different sheets when every total is equal', () => {
    const p = byId(run([project('p', totals([70, 70, 70, 70, 70]))]), 'p');
    expect(p).toMatchObject({ trimmedMean: 70, droppedExpertIds: ['e1', 'e2'], spread: 0 });
  });

  it('flags divergence only above the threshold', () => {
    const r = run([project('at', totals([60, 80])), project('above', totals([60, 80.5])), project('below', totals([70, 71]))]);
    expect(byId(r, 'at')).toMatchObject({ spread: 20, divergent: false });
    expect(byId(r, 'above')).toMatchObject({ spread: 20.5, divergent: true });
    expect(byId(r, 'below').divergent).toBe(false);
  });

  it('leaves a criterion without points out of its mean', () => {
    const sheets: SheetScore[] = [sheet('e1', 40, 40), { expertId: 'e2', total: 30, scores: { c1: 30 } }];
    const p = byId(run([project('p', sheets)]), 'p');
    expect(p.criteria).toEqual({ c1: 35, c2: 40 });
    const none = byId(run([project('p', [{ expertId: 'e1', total: 30, scores: { c1: 30 } }])]), 'p');
    expect(none.criteria).toEqual({ c1: 30, c2: null });
  });
});

describe('aggregateRound: rule aggregates', () => {
  const projects = [project('p1', totals([60, 90, 91], 'x')), project('p2', totals([85, 85, 85], 'y'))];

  it('ranks by the median under MEDIAN', () => {
    const r = run(projects, { rule: rule('MEDIAN') });
    // p1: median 90, mean 80.33; p2: median 85, mean 85
    expect(order(r)).toEqual([
      ['p1', 1, null],
      ['p2', 2, null],
    ]);
    expect(byId(r, 'p1').ruleScore).toBe(90);
  });

  it('ranks by the mean under MEAN', () => {
    const r = run(projects, { rule: rule('MEAN') });
    expect(order(r)).toEqual([
      ['p2', 1, null],
      ['p1', 2, null],
    ]);
    expect(byId(r, 'p1').ruleScore).toBeCloseTo(241 / 3, 10);
  });
});

describe('aggregateRound: z-score', () => {
  // A scores three projects 60 / 70 / 80 (standardised); B scores 75 three times (sd 0: left
  // as is); C scores twice (fewer than 3: left as is).
  const projects = [
    project('p1', [sheet('A', 30, 30), sheet('B', 40, 35), sheet('C', 45, 45)]),
    project('p2', [sheet('A', 35, 35), sheet('B', 40, 35), sheet('C', 25, 25)]),
    project('p3', [sheet('A', 40, 40), sheet('B', 40, 35)]),
  ];
  // Every total of the round: 60 75 90 70 75 50 80 75.
  const all = [60, 75, 90, 70, 75, 50, 80, 75];
  const M = all.reduce((s, v) => s + v, 0) / all.length; // 71.875
  const S = Math.sqrt(all.reduce((s, v) => s + (v - M) ** 2, 0) / all.length); // sqrt(1046.875 / 8)
  const sdA = Math.sqrt(200 / 3);
  const onRound = (x: number) => (x - M) / S;

  it('standardises experts with 3+ scores and sd > 0, and reads the others on the round scale', () => {
    const r = run(projects, { rule: rule('ZSCORE') });
    expect(r.roundMean).toBe(71.875);
    expect(r.roundSd).toBeCloseTo(Math.sqrt(130.859375), 10);
    expect(r.experts).toEqual([
      { expertId: 'A', n: 3, mean: 70, sd: sdA, standardised: true },
      { expertId: 'B', n: 3, mean: 75, sd: 0, standardised: false },
      { expertId: 'C', n: 2, mean: 70, sd: 20, standardised: false },
    ]);
    const z1 = M + (S * ((60 - 70) / sdA + onRound(75) + onRound(90))) / 3; // ≈ 74.288
    const z2 = M + (S * (0 + onRound(75) + onRound(50))) / 3; // = (M + 125) / 3 = 65.625
    const z3 = M + (S * ((80 - 70) / sdA + onRound(75))) / 2; // ≈ 80.443
    expect(byId(r, 'p1').zMean).toBeCloseTo(z1, 10);
    expect(byId(r, 'p1').zMean).toBeCloseTo(74.288, 3);
    expect(byId(r, 'p2').zMean).toBeCloseTo(65.625, 10);
    expect(byId(r, 'p2').zMean).toBeCloseTo(z2, 10);
    expect(byId(r, 'p3').zMean).toBeCloseTo(z3, 10);
    expect(byId(r, 'p3').ruleScore).toBe(byId(r, 'p3').zMean);
    expect(order(r)).toEqual([
      ['p3', 1, null],
      ['p1', 2, null],
      ['p2', 3, null],
    ]);
  });

  it('equals the mean when the round sd is 0', () => {
    const r = run([project('p1', totals([70, 70])), project('p2', totals([70]))], { rule: rule('ZSCORE') });
    expect(r.roundSd).toBe(0);
    expect(byId(r, 'p1').zMean).toBe(70);
    expect(order(r)).toEqual([
      ['p1', 1, null],
      ['p2', 1, 'EQUAL'],
    ]);
  });
});

describe('aggregateRound: ranking and ties', () => {
  it('lets the trimmed mean decide when the rule scores are equal', () => {
    // Both mean 80; p1 trims to 80, p2 to (85 + 75 + 70) / 3 = 76.67.
    const r = run([project('p2', totals([100, 85, 75, 70, 70])), project('p1', totals([100, 80, 80, 80, 60]))], { rule: rule('MEAN') });
    expect(order(r)).toEqual([
      ['p1', 1, null],
      ['p2', 2, 'TRIMMED_MEAN'],
    ]);
  });

  it('lets the criteria decide, in rubric order', () => {
    // Same means, 2 scores each (no trimming); p2 has more on the first criterion.
    const r = run([project('p1', [sheet('e1', 40, 40), sheet('e2', 40, 40)]), project('p2', [sheet('e1', 45, 35), sheet('e2', 45, 35)])]);
    expect(order(r)).toEqual([
      ['p2', 1, null],
      ['p1', 2, 'CRITERIA'],
    ]);
    const reversed = run([project('p1', [sheet('e1', 40, 40), sheet('e2', 40, 40)]), project('p2', [sheet('e1', 45, 35), sheet('e2', 45, 35)])], {
      criteria: [CRITERIA[1]!, CRITERIA[0]!],
    });
    expect(reversed.projects[0]!.projectId).toBe('p1');
  });

  it('gives fully tied projects one rank and skips the next (1, 1, 3)', () => {
    const r = run([project('p3', totals([70, 70])), project('p2', totals([80, 80])), project('p1', totals([80, 80]))]);
    expect(order(r)).toEqual([
      ['p1', 1, null],
      ['p2', 1, 'EQUAL'],
      ['p3', 3, null],
    ]);
  });

  it('follows the chain in the order the rule gives, and stops where it ends', () => {
    // Median 80 for both; p1 has the higher mean, p2 the higher first criterion.
    const p1 = project('p1', [sheet('e1', 30, 50), sheet('e2', 30, 50), sheet('e3', 45, 50)]); // mean 85, c1 35
    const p2 = project('p2', [sheet('e1', 40, 25), sheet('e2', 45, 35), sheet('e3', 45, 35)]); // mean 75, c1 43.33
    const meanFirst = run([p1, p2], { rule: rule('MEDIAN', ['RULE_SCORE', 'RAW_MEAN', 'CRITERIA']) });
    expect(order(meanFirst)).toEqual([
      ['p1', 1, null],
      ['p2', 2, 'RAW_MEAN'],
    ]);
    const criteriaFirst = run([p1, p2], { rule: rule('MEDIAN', ['RULE_SCORE', 'CRITERIA', 'RAW_MEAN']) });
    expect(order(criteriaFirst)).toEqual([
      ['p2', 1, null],
      ['p1', 2, 'CRITERIA'],
    ]);
    // Default chain: the trimmed mean (= mean with 3 scores) comes before the criteria.
    expect(order(run([p1, p2], { rule: rule('MEDIAN') }))[1]).toEqual(['p2', 2, 'TRIMMED_MEAN']);
    // A chain of the rule score alone leaves them tied.
    expect(order(run([p1, p2], { rule: rule('MEDIAN', ['RULE_SCORE']) }))).toEqual([
      ['p1', 1, null],
      ['p2', 1, 'EQUAL'],
    ]);
    expect(order(run([p1, p2], { rule: rule('MEDIAN', []) }))[1]).toEqual(['p2', 1, 'EQUAL']);
  });

  it('ranks by the rule score first even when the chain lists it later or not at all', () => {
    // p1 median 90 (mean 80.33); p2 median 85 (mean 85): the median ranks, whatever the chain.
    const projects = [project('p1', totals([60, 90, 91])), project('p2', totals([85, 85, 85]))];
    expect(order(run(projects, { rule: rule('MEDIAN', ['RAW_MEAN']) }))[0]![0]).toBe('p1');
    expect(order(run(projects, { rule: rule('MEDIAN', ['RAW_MEAN', 'RULE_SCORE']) }))[0]![0]).toBe('p1');
  });

  it('compares values rounded to 2 decimals', () => {
    // Means 80.001 and 80.004 both show as 80.00: tied, so c1 decides, for the lower raw mean.
    const a: SheetScore = { expertId: 'e1', total: 80.001, scores: { c1: 40.5, c2: 39.501 } };
    const b: SheetScore = { expertId: 'e2', total: 80.004, scores: { c1: 40, c2: 40.004 } };
    const r = run([project('p1', [a]), project('p2', [b])]);
    expect(order(r)).toEqual([
      ['p1', 1, null],
      ['p2', 2, 'CRITERIA'],
    ]);
    expect(round2(80.005)).toBe(80.01);
    expect(round2(-1.005)).toBe(-1.01);
  });

  it('puts projects without scores last, unranked, by id', () => {
    const r = run([project('pz', [], 'A', 5), project('pb', totals([70])), project('pa', [], 'B', 3), project('pc', totals([90]))]);
    expect(order(r)).toEqual([
      ['pc', 1, null],
      ['pb', 2, null],
      ['pa', null, null],
      ['pz', null, null],
    ]);
    expect(byId(r, 'pz')).toEqual({
      projectId: 'pz',
      track: 'A',
      count: 0,
      expected: 5,
      mean: null,
      trimmedMean: null,
      trimmed: false,
      droppedExpertIds: [],
      median: null,
      zMean: null,
      criteria: { c1: null, c2: null },
      spread: null,
      divergent: false,
      ruleScore: null,
      rank: null,
      trackRank: null,
      decidedBy: null,
    });
  });

  it('ranks within each track too, ties included', () => {
    const r = run([
      project('a1', totals([90]), 'A'),
      project('b1', totals([85]), 'B'),
      project('a2', totals([80]), 'A'),
      project('a3', totals([80]), 'A'),
      project('b2', totals([75]), 'B'),
      project('a4', totals([70]), 'A'),
      project('n1', totals([95]), null),
      project('a5', [], 'A'),
    ]);
    const ranks = Object.fromEntries(r.projects.map((p) => [p.projectId, [p.rank, p.trackRank]]));
    expect(ranks).toEqual({
      n1: [1, null],
      a1: [2, 1],
      b1: [3, 1],
      a2: [4, 2],
      a3: [4, 2],
      b2: [6, 2],
      a4: [7, 4],
      a5: [null, null],
    });
  });

  it('answers an empty round', () => {
    expect(run([])).toEqual({ projects: [], roundMean: null, roundSd: null, experts: [] });
  });

  it('does not depend on the order of the projects or the sheets', () => {
    const projects = [
      project('p1', totals([70, 80, 90, 60, 75])),
      project('p2', totals([80, 80])),
      project('p3', totals([80, 80]), 'B'),
      project('p4', []),
      project('p5', [sheet('e2', 40, 35), sheet('e1', 45, 45), sheet('e3', 20, 20)]),
    ];
    const reversed = [...projects].reverse().map((p) => ({ ...p, sheets: [...p.sheets].reverse() }));
    const a = run(projects, { rule: rule('ZSCORE') });
    const b = run(reversed, { rule: rule('ZSCORE') });
    expect(b.projects.map((p) => [p.projectId, p.rank, p.trackRank, p.decidedBy, p.droppedExpertIds])).toEqual(
      a.projects.map((p) => [p.projectId, p.rank, p.trackRank, p.decidedBy, p.droppedExpertIds]),
    );
    b.projects.forEach((p, i) => expect(p.zMean ?? 0).toBeCloseTo(a.projects[i]!.zMean ?? 0, 9));
    expect(b.experts).toEqual(a.experts);
  });
});
