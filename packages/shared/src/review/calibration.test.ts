import { describe, expect, it } from 'vitest';
import type { ScoringRule } from '../admin/settings.js';
import type { ProjectScores, SheetScore } from './aggregate.js';
import { averageRanks, calibrate, normalisationEffect, spearman } from './calibration.js';
import { cutConfidence, mulberry32 } from './cut-confidence.js';

const sheet = (expertId: string, total: number): SheetScore => ({ expertId, total, scores: { c: total } });
/** A project from `{ expertId: total }`. */
const project = (projectId: string, totals: Record<string, number>, track: string | null = 'A'): ProjectScores => ({
  projectId,
  track,
  expected: Object.keys(totals).length,
  sheets: Object.entries(totals).map(([e, t]) => sheet(e, t)),
});
const rule = (aggregate: ScoringRule['aggregate'] = 'TRIMMED_MEAN', minScoresForTrim = 5): ScoringRule => ({
  aggregate,
  minScoresForTrim,
  tieBreak: ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'],
});
const CRITERIA = [{ key: 'c', name: 'c', description: '', max: 100 }];

describe('ranks and correlation', () => {
  it('gives ties the mean of the ranks they span', () => {
    expect(averageRanks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    expect(averageRanks([5, 5, 5])).toEqual([2, 2, 2]);
  });

  it("computes Spearman's rho: 1 - 6 * sum(d^2) / (n (n^2 - 1)) without ties, null for a constant side", () => {
    // d = (-1, 1, -1, 1, 0): 1 - 6 * 4 / 120 = 0.8
    expect(spearman([1, 2, 3, 4, 5], [2, 1, 4, 3, 5])).toBeCloseTo(0.8, 12);
    expect(spearman([1, 2, 3], [30, 20, 10])).toBeCloseTo(-1, 12);
    expect(spearman([1, 2, 3], [7, 7, 7])).toBeNull();
  });
});

describe('calibrate', () => {
  it('leniency against the others on the same projects, spread, agreement, projects scored', () => {
    const c = calibrate([project('p1', { a: 70, b: 80 }), project('p2', { a: 60, b: 70 }), project('p3', { a: 80, b: 90 }), project('p4', { a: 50 })]);
    const [a, b] = c.experts;
    // a is 10 below b on each shared project; p4 has no other scorer and counts only as scored.
    expect(a).toMatchObject({ expertId: 'a', scored: 4, sharedProjects: 3, leniency: -10, agreement: 1, flags: [] });
    expect(a!.meanTotal).toBe(65);
    // Population sd of 70, 60, 80, 50: sqrt(500 / 4)
    expect(a!.spread).toBeCloseTo(Math.sqrt(125), 12);
    expect(b).toMatchObject({ expertId: 'b', scored: 3, sharedProjects: 3, leniency: 10, agreement: 1 });
    // Two experts are too few for a panel sd: nobody is flagged for leniency.
    expect(c.panel).toEqual({ leniencyMean: null, leniencySd: null });
  });

  it('flags an expert more than 1.5 panel sds off as HARSH or LENIENT, and one ranking against the others as DISAGREES', () => {
    // Five projects; b, c, d agree; a scores 30 below; e reverses the order.
    const rows: Record<string, number>[] = [
      { a: 40, b: 70, c: 71, d: 69, e: 86 },
      { a: 45, b: 75, c: 76, d: 74, e: 82 },
      { a: 50, b: 80, c: 81, d: 79, e: 78 },
      { a: 55, b: 85, c: 86, d: 84, e: 74 },
      { a: 60, b: 90, c: 91, d: 89, e: 70 },
    ];
    const c = calibrate(rows.map((r, i) => project(`p${i}`, r)));
    const by = Object.fromEntries(c.experts.map((e) => [e.expertId, e]));
    expect(by.a!.flags).toEqual(['HARSH']);
    expect(by.a!.agreement).toBeCloseTo(1, 12);
    expect(by.e!.flags).toContain('DISAGREES');
    expect(by.e!.agreement).toBeLessThan(0);
    for (const id of ['b', 'c', 'd']) expect(by[id]!.flags).toEqual([]);
    // a - mean(others) per project: 40 - 74, 45 - 76.75, 50 - 79.5, 55 - 82.25, 60 - 85
    expect(by.a!.leniency).toBeCloseTo((-34 - 31.75 - 29.5 - 27.25 - 25) / 5, 12);
    // The panel's sd is over the five leniencies; a's distance from their mean exceeds 1.5 of it.
    expect(Math.abs(by.a!.leniency! - c.panel.leniencyMean!)).toBeGreaterThan(1.5 * c.panel.leniencySd!);
  });

  it('leaves agreement null under three shared projects', () => {
    const c = calibrate([project('p1', { a: 70, b: 80 }), project('p2', { a: 60, b: 70 })]);
    expect(c.experts[0]!.agreement).toBeNull();
  });
});

describe('normalisationEffect', () => {
  it('names the projects another aggregate moves across the cut, with their ranks under each', () => {
    // x: trimmed mean 90 (the 10 dropped), mean 74; y: 80 under both.
    const x = project('x', { a: 90, b: 90, c: 90, d: 90, e: 10 });
    const y = project('y', { a: 80, b: 80, c: 80, d: 80, e: 80 });
    const z = project('z', { a: 50, b: 50, c: 50, d: 50, e: 50 });
    const effect = normalisationEffect({ projects: [x, y, z], criteria: CRITERIA, rule: rule(), divergenceThreshold: 20 }, { topN: 1, perTrack: false, alternatives: ['MEAN'] });
    expect(effect.alternatives).toEqual(['MEAN']);
    expect(effect.moves.map((m) => m.projectId)).toEqual(['x', 'y']);
    expect(effect.moves[0]!.under).toEqual([
      { aggregate: 'TRIMMED_MEAN', score: 90, rank: 1, trackRank: 1, inCut: true },
      { aggregate: 'MEAN', score: 74, rank: 2, trackRank: 2, inCut: false },
    ]);
    // Per track, both are in the top 1 of a track of their own: no move.
    const perTrack = normalisationEffect(
      { projects: [{ ...x, track: 'A' }, { ...y, track: 'B' }], criteria: CRITERIA, rule: rule(), divergenceThreshold: 20 },
      { topN: 1, perTrack: true, alternatives: ['MEAN'] },
    );
    expect(perTrack.moves).toEqual([]);
  });
});

/** The same computation, written plainly: a reference for the fast one. */
function slowConfidence(projects: ProjectScores[], aggregate: 'MEAN' | 'TRIMMED_MEAN' | 'MEDIAN', topN: number, seed: number, rounds: number, minTrim = 5) {
  const random = mulberry32(seed);
  const scored = projects.filter((p) => p.sheets.length > 0);
  const inTop = new Map<string, number>(scored.map((p) => [p.projectId, 0]));
  const inTrack = new Map<string, number>(scored.map((p) => [p.projectId, 0]));
  for (let r = 0; r < rounds; r++) {
    const scores = scored.map((p) => {
      const k = p.sheets.length;
      const drawn = Array.from({ length: k }, () => p.sheets[Math.floor((random() / 4294967296) * k)]!.total);
      const sorted = [...drawn].sort((a, b) => a - b);
      let s: number;
      if (aggregate === 'MEDIAN') s = k % 2 ? sorted[k >> 1]! : (sorted[(k >> 1) - 1]! + sorted[k >> 1]!) / 2;
      else if (aggregate === 'TRIMMED_MEAN' && k >= Math.max(minTrim, 3)) s = sorted.slice(1, -1).reduce((a, b) => a + b, 0) / (k - 2);
      else s = drawn.reduce((a, b) => a + b, 0) / k;
      return { p, cents: Math.round(s * 100) };
    });
    for (const me of scores) {
      const rank = 1 + scores.filter((o) => o.cents > me.cents).length;
      const trackRank = 1 + scores.filter((o) => o.p.track === me.p.track && o.cents > me.cents).length;
      if (rank <= topN) inTop.set(me.p.projectId, inTop.get(me.p.projectId)! + 1);
      if (trackRank <= topN) inTrack.set(me.p.projectId, inTrack.get(me.p.projectId)! + 1);
    }
  }
  return { inTop, inTrack };
}

describe('cutConfidence', () => {
  const panel = (i: number, base: number, spread: number): ProjectScores =>
    project(`p${String(i).padStart(2, '0')}`, { a: base - spread, b: base, c: base + spread, d: base - spread / 2, e: base + spread / 2 }, i % 2 ? 'A' : 'B');
  const projects = Array.from({ length: 12 }, (_, i) => panel(i, 60 + i * 2.5, (i % 4) * 6));

  it('agrees with a plain reference implementation, round for round, for each aggregate', () => {
    for (const aggregate of ['MEAN', 'TRIMMED_MEAN', 'MEDIAN'] as const) {
      const fast = cutConfidence({ projects, rule: rule(aggregate), topN: 4, seed: 20251101, rounds: 300 });
      const slow = slowConfidence(projects, aggregate, 4, 20251101, 300);
      for (const p of fast.projects) {
        expect(p.pOverall, `${aggregate} ${p.projectId}`).toBe(slow.inTop.get(p.projectId)! / 300);
        expect(p.pTrack, `${aggregate} ${p.projectId} track`).toBe(slow.inTrack.get(p.projectId)! / 300);
      }
    }
  });

  it('is the same for the same seed and records it; another seed draws otherwise', () => {
    const a = cutConfidence({ projects, rule: rule(), topN: 4, seed: 7, rounds: 500 });
    const b = cutConfidence({ projects, rule: rule(), topN: 4, seed: 7, rounds: 500 });
    const c = cutConfidence({ projects, rule: rule(), topN: 4, seed: 8, rounds: 500 });
    expect(a).toEqual(b);
    expect(a).toMatchObject({ seed: 7, rounds: 500, topN: 4, aggregate: 'TRIMMED_MEAN' });
    expect(c.projects.map((p) => p.pOverall)).not.toEqual(a.projects.map((p) => p.pOverall));
  });

  it('is sure of a project far above or below the cut, unsure near it; marks 20%-80% on the cut', () => {
    const clear = [
      project('top', { a: 95, b: 95, c: 95 }),
      project('near1', { a: 60, b: 80, c: 70 }),
      project('near2', { a: 65, b: 75, c: 70 }),
      project('low', { a: 20, b: 20, c: 20 }),
      project('none', {}),
    ];
    const r = cutConfidence({ projects: clear, rule: rule('MEAN'), topN: 2, seed: 1 });
    const by = Object.fromEntries(r.projects.map((p) => [p.projectId, p]));
    expect(r.rounds).toBe(2000);
    expect(by.top).toMatchObject({ pOverall: 1, rankLow: 1, rankHigh: 1, onCutOverall: false });
    expect(by.low).toMatchObject({ pOverall: 0, rankLow: 4, rankHigh: 4, onCutOverall: false });
    expect(by.none).toMatchObject({ count: 0, pOverall: 0, rankLow: null, onCutOverall: false });
    // near1 and near2 share the second place between them; both uncertain.
    for (const id of ['near1', 'near2']) {
      expect(by[id]!.pOverall).toBeGreaterThan(0.2);
      expect(by[id]!.pOverall).toBeLessThan(0.8);
      expect(by[id]!.onCutOverall).toBe(true);
      expect(by[id]!.rankLow).toBe(2);
      expect(by[id]!.rankHigh).toBe(3);
    }
  });

  it('a round without any score: every project unranked, nothing to resample', () => {
    const r = cutConfidence({ projects: [project('a', {}), project('b', {}, null)], rule: rule(), topN: 1, seed: 5 });
    expect(r.projects).toEqual([
      { projectId: 'a', track: 'A', count: 0, pOverall: 0, pTrack: 0, rankLow: null, rankHigh: null, onCutOverall: false, onCutTrack: false },
      { projectId: 'b', track: null, count: 0, pOverall: 0, pTrack: null, rankLow: null, rankHigh: null, onCutOverall: false, onCutTrack: false },
    ]);
    expect(cutConfidence({ projects: [], rule: rule(), topN: 1, seed: 5 }).projects).toEqual([]);
  });

  it('counts a tie at the cut as in for both', () => {
    const r = cutConfidence({ projects: [project('x', { a: 80, b: 80 }), project('y', { a: 80, b: 80 }), project('z', { a: 10, b: 10 })], rule: rule('MEAN'), topN: 1, seed: 3, rounds: 50 });
    expect(r.projects.map((p) => p.pOverall)).toEqual([1, 1, 0]);
  });

  it('z-score rule: standardises each sheet once from the whole round, then resamples', () => {
    // Expert a is 20 harsher than b on every project: z-scores cancel that out, so p1 and p2
    // (each scored by one side of the panel only) tie under ZSCORE and not under MEAN.
    const ps = [
      project('p1', { a: 50, c: 70 }),
      project('p2', { b: 70, c: 70 }),
      project('p3', { a: 40, b: 60, c: 60 }),
      project('p4', { a: 60, b: 80, c: 80 }),
    ];
    const z = cutConfidence({ projects: ps, rule: rule('ZSCORE'), topN: 2, seed: 9, rounds: 400 });
    const m = cutConfidence({ projects: ps, rule: rule('MEAN'), topN: 2, seed: 9, rounds: 400 });
    const pz = Object.fromEntries(z.projects.map((p) => [p.projectId, p.pOverall]));
    const pm = Object.fromEntries(m.projects.map((p) => [p.projectId, p.pOverall]));
    expect(pm.p2).toBeGreaterThan(pm.p1!);
    expect(pz.p4).toBe(1);
    expect(Math.abs(pz.p1! - pz.p2!)).toBeLessThan(Math.abs(pm.p1! - pm.p2!));
  });
});

describe('abstentions (docs/rules/review.md, "Abstaining")', () => {
  const projects = [project('p1', { a: 80, b: 70, c: 60 }), project('p2', { a: 90, b: 75, c: 65 }), project('p3', { a: 85, b: 80, c: 50 })];

  it('counts them per expert when given, changing no other figure; an expert who only abstained gets an empty row', () => {
    const plain = calibrate(projects);
    const counted = calibrate(projects, undefined, [{ expertId: 'a' }, { expertId: 'a' }, { expertId: 'z' }]);
    expect(counted.panel).toEqual(plain.panel);
    for (const e of plain.experts) expect(counted.experts.find((x) => x.expertId === e.expertId)).toEqual({ ...e, abstained: e.expertId === 'a' ? 2 : 0 });
    expect(counted.experts.find((x) => x.expertId === 'z')).toEqual({
      expertId: 'z',
      scored: 0,
      sharedProjects: 0,
      meanTotal: null,
      leniency: null,
      spread: null,
      agreement: null,
      flags: [],
      abstained: 1,
    });
  });

  it('leaves the figures without the field when not given', () => {
    expect(calibrate(projects).experts.every((e) => !('abstained' in e))).toBe(true);
  });
});
