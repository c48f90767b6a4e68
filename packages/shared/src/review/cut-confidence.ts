/**
 * Confidence on the promotion cut by bootstrap (docs/rules/judging-quality.md, "Confidence on the
 * cut"). Pure and deterministic: the same sheets, rule and seed give the same figures.
 *
 * Each round of resampling draws, for every project with scores, as many submitted totals as it
 * has, with replacement (the experts resampled), and applies the round's aggregate to the draw:
 * - MEAN, MEDIAN: of the drawn totals;
 * - TRIMMED_MEAN: with at least max(minScoresForTrim, 3) drawn, one highest and one lowest dropped;
 * - ZSCORE: each sheet's standardised value is fixed from the whole round (as aggregateRound
 *   computes it), the draw averages those and maps back with the round's mean and sd; an
 *   expert's own mean and sd are not re-estimated per draw (the draw is of this project's scores).
 * The projects are then ranked on that score rounded to 2 decimals (as the console ranks), equal
 * scores sharing a rank (1, 1, 3): a tie at the cut counts as in for both. The tie-break chain is
 * not applied inside a draw: it separates exact ties, which resampling makes rare and meaningless.
 *
 * Per project: the share of rounds in the top N overall and within its track, and the rank
 * interval (2.5th and 97.5th percentile of its overall rank). Between 20% and 80% inclusive is
 * "on the cut". Projects without scores are not ranked (probability 0, no interval).
 */
import type { ScoringRule } from '../admin/settings.js';
import { aggregateRound, type ProjectScores } from './aggregate.js';

export const BOOTSTRAP_ROUNDS = 2000;
export const ON_CUT_LOW = 0.2;
export const ON_CUT_HIGH = 0.8;

export interface CutConfidenceInput {
  projects: readonly ProjectScores[];
  rule: ScoringRule;
  topN: number;
  /** 32-bit unsigned seed, recorded with the result. */
  seed: number;
  rounds?: number;
}

export interface ProjectCutConfidence {
  projectId: string;
  track: string | null;
  count: number;
  /** Share of rounds with an overall rank <= N (0..1). */
  pOverall: number;
  /** Share of rounds with a rank in its track <= N; null without a track. */
  pTrack: number | null;
  /** 2.5th and 97.5th percentile of the overall rank; null without scores. */
  rankLow: number | null;
  rankHigh: number | null;
  onCutOverall: boolean;
  onCutTrack: boolean;
}

export interface CutConfidence {
  seed: number;
  rounds: number;
  topN: number;
  aggregate: ScoringRule['aggregate'];
  projects: ProjectCutConfidence[];
}

/** mulberry32: a small, fast, well-mixed 32-bit generator; enough for resampling indices. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

const TWO_32 = 4294967296;

/** mulberry32 as a number in [0, 1): seeded drawings and test data that must replay the same. */
export function seededUnitRandom(seed: number): () => number {
  const next = mulberry32(seed);
  return () => next() / TWO_32;
}

const onCut = (p: number) => p >= ON_CUT_LOW && p <= ON_CUT_HIGH;

export function cutConfidence(input: CutConfidenceInput): CutConfidence {
  const rounds = input.rounds ?? BOOTSTRAP_ROUNDS;
  const { rule, topN } = input;
  const scored = input.projects.filter((p) => p.sheets.length > 0);
  const P = scored.length;
  const unranked = (p: ProjectScores): ProjectCutConfidence => ({
    projectId: p.projectId,
    track: p.track,
    count: 0,
    pOverall: 0,
    pTrack: p.track === null ? null : 0,
    rankLow: null,
    rankHigh: null,
    onCutOverall: false,
    onCutTrack: false,
  });
  // A round without scores has nothing to resample (and no range of scores to count in).
  if (P === 0) return { seed: input.seed >>> 0, rounds, topN, aggregate: rule.aggregate, projects: input.projects.map(unranked) };

  // The values drawn: totals, or for ZSCORE each sheet's standardised value.
  const offsets = new Int32Array(P + 1);
  for (let i = 0; i < P; i++) offsets[i + 1] = offsets[i]! + scored[i]!.sheets.length;
  const values = new Float64Array(offsets[P]!);
  let zMap: { mean: number; sd: number } | null = null;
  if (rule.aggregate === 'ZSCORE') {
    const whole = aggregateRound({ projects: input.projects, criteria: [], rule, divergenceThreshold: 100 });
    const experts = new Map(whole.experts.map((e) => [e.expertId, e]));
    const roundMean = whole.roundMean ?? 0;
    const roundSd = whole.roundSd ?? 0;
    if (roundSd > 0) zMap = { mean: roundMean, sd: roundSd };
    for (let i = 0; i < P; i++) {
      scored[i]!.sheets.forEach((s, j) => {
        const e = experts.get(s.expertId)!;
        values[offsets[i]! + j] = roundSd === 0 ? s.total : e.standardised ? (s.total - e.mean) / e.sd : (s.total - roundMean) / roundSd;
      });
    }
  } else {
    for (let i = 0; i < P; i++) scored[i]!.sheets.forEach((s, j) => (values[offsets[i]! + j] = s.total));
  }

  const tracks = new Map<string, number>();
  const trackOf = new Int32Array(P).fill(-1);
  scored.forEach((p, i) => {
    if (p.track === null) return;
    let t = tracks.get(p.track);
    if (t === undefined) tracks.set(p.track, (t = tracks.size));
    trackOf[i] = t;
  });
  const T = tracks.size;

  // Ranks by counting, not sorting: a draw's score lies between its project's lowest and highest
  // value, so every score in cents falls in [minCents, maxCents]; per round a histogram of the
  // cents and a running count from the top give each project the number of scores above it.
  let minValue = Infinity;
  let maxValue = -Infinity;
  for (const v of values) {
    if (v < minValue) minValue = v;
    if (v > maxValue) maxValue = v;
  }
  const toScore = (v: number) => (zMap ? zMap.mean + zMap.sd * v : v);
  const minCents = Math.round(toScore(minValue) * 100) - 1;
  const B = Math.round(toScore(maxValue) * 100) + 1 - minCents + 1;
  const histogram = new Int32Array(B);
  const above = new Int32Array(B);
  const trackHistogram = new Int32Array(T * B);
  const trackAbove = new Int32Array(T * B);

  const random = mulberry32(input.seed);
  const minTrim = Math.max(rule.minScoresForTrim, 3);
  let maxK = 0;
  for (const p of scored) maxK = Math.max(maxK, p.sheets.length);
  const draw = new Float64Array(maxK);
  const bins = new Int32Array(P);
  const inOverall = new Uint32Array(P);
  const inTrack = new Uint32Array(P);
  // Laid out by round (sequential writes); read back per project below.
  const ranks = P < 65_536 ? new Uint16Array(P * rounds) : new Uint32Array(P * rounds);

  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < P; i++) {
      const start = offsets[i]!;
      const k = offsets[i + 1]! - start;
      let score: number;
      if (rule.aggregate === 'MEDIAN') {
        for (let j = 0; j < k; j++) draw[j] = values[start + Math.floor((random() / TWO_32) * k)]!;
        // Insertion sort: k is a panel's size.
        for (let a = 1; a < k; a++) {
          const v = draw[a]!;
          let b = a - 1;
          while (b >= 0 && draw[b]! > v) {
            draw[b + 1] = draw[b]!;
            b--;
          }
          draw[b + 1] = v;
        }
        const mid = k >> 1;
        score = k % 2 === 1 ? draw[mid]! : (draw[mid - 1]! + draw[mid]!) / 2;
      } else {
        let sum = 0;
        let lo = Infinity;
        let hi = -Infinity;
        for (let j = 0; j < k; j++) {
          const v = values[start + Math.floor((random() / TWO_32) * k)]!;
          sum += v;
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
        if (rule.aggregate === 'TRIMMED_MEAN' && k >= minTrim) score = (sum - lo - hi) / (k - 2);
        else score = sum / k;
        if (zMap) score = zMap.mean + zMap.sd * score;
      }
      const bin = Math.round(score * 100) - minCents;
      bins[i] = bin;
      histogram[bin]!++;
      const t = trackOf[i]!;
      if (t >= 0) trackHistogram[t * B + bin]!++;
    }
    // above[b]: how many scores are higher than bin b (competition rank = 1 + above).
    let running = 0;
    for (let b = B - 1; b >= 0; b--) {
      above[b] = running;
      running += histogram[b]!;
    }
    histogram.fill(0);
    for (let t = 0; t < T; t++) {
      running = 0;
      for (let b = t * B + B - 1; b >= t * B; b--) {
        trackAbove[b] = running;
        running += trackHistogram[b]!;
      }
    }
    trackHistogram.fill(0);
    const row = r * P;
    for (let i = 0; i < P; i++) {
      const rank = 1 + above[bins[i]!]!;
      ranks[row + i] = rank;
      if (rank <= topN) inOverall[i]!++;
      const t = trackOf[i]!;
      if (t >= 0 && 1 + trackAbove[t * B + bins[i]!]! <= topN) inTrack[i]!++;
    }
  }

  const lowAt = Math.floor(0.025 * (rounds - 1));
  const highAt = Math.ceil(0.975 * (rounds - 1));
  const result = new Map<string, ProjectCutConfidence>();
  const own = P < 65_536 ? new Uint16Array(rounds) : new Uint32Array(rounds);
  scored.forEach((p, i) => {
    for (let r = 0; r < rounds; r++) own[r] = ranks[r * P + i]!;
    own.sort();
    const pOverall = inOverall[i]! / rounds;
    const pTrack = p.track === null ? null : inTrack[i]! / rounds;
    result.set(p.projectId, {
      projectId: p.projectId,
      track: p.track,
      count: p.sheets.length,
      pOverall,
      pTrack,
      rankLow: own[lowAt]!,
      rankHigh: own[highAt]!,
      onCutOverall: onCut(pOverall),
      onCutTrack: pTrack !== null && onCut(pTrack),
    });
  });
  const projects = input.projects.map((p): ProjectCutConfidence => result.get(p.projectId) ?? unranked(p));
  return { seed: input.seed >>> 0, rounds, topN, aggregate: rule.aggregate, projects };
}
