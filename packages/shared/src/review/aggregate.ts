/**
 * Aggregation and ranking of a round's scores (docs/rules/review.md, "Scoring rule and ranking").
 * IMPLEMENTED BY: the shared-algorithms helper. Pure and deterministic.
 *
 * - Only submitted sheets count. Totals and criteria are points (0.5 steps), rubric sums to 100.
 * - mean: arithmetic mean of totals. median: middle value (mean of the two middle ones).
 * - trimmedMean: with count >= rule.minScoresForTrim, one highest and one lowest total are
 *   dropped (ties: the sheet of the lexicographically smallest expertId is dropped, so the result
 *   is deterministic) and the rest averaged; otherwise equals mean (trimmed = false).
 * - zMean: each expert's submitted totals in the round are standardised with the expert's mean
 *   and population sd; an expert with fewer than 3 scores or sd 0 is left unstandardised, i.e.
 *   their total is placed on the round scale as (x - roundMean) / roundSd. A project's zMean is
 *   roundMean + roundSd * mean(z). roundMean / roundSd: over every submitted total of the round
 *   (population sd); when roundSd is 0, zMean = mean.
 * - criteria: per criterion key, the mean of submitted points (null without scores).
 * - spread: max - min of totals (null without scores); divergent when spread > threshold.
 * - ruleScore: the aggregate named by rule.aggregate.
 * - Ranking: projects with at least one score, by the tie-break chain, each step descending,
 *   values compared rounded to 2 decimals (what the console shows ranks): RULE_SCORE,
 *   TRIMMED_MEAN, CRITERIA (each criterion mean in rubric order), RAW_MEAN; still tied = equal
 *   rank (1, 1, 3). Projects without scores have rank null and come last (by id).
 *   trackRank: the same within the project's track.
 *   decidedBy: for a project whose rounded rule score equals the one ranked just above it,
 *   the first chain step that separated them ('EQUAL' when none did); otherwise null.
 */
import type { ScoringRule, TieBreak } from '../admin/settings.js';
import type { Criterion } from './rubric.js';

export interface SheetScore {
  expertId: string;
  total: number;
  scores: Readonly<Record<string, number>>;
}

export interface ProjectScores {
  projectId: string;
  track: string | null;
  /** Expected number of scores (assigned experts not in conflict). */
  expected: number;
  /** Submitted sheets only. */
  sheets: readonly SheetScore[];
}

export interface ProjectAggregate {
  projectId: string;
  track: string | null;
  count: number;
  expected: number;
  mean: number | null;
  trimmedMean: number | null;
  trimmed: boolean;
  /** Expert ids of the dropped highest and lowest totals (empty when not trimmed). */
  droppedExpertIds: string[];
  median: number | null;
  zMean: number | null;
  criteria: Record<string, number | null>;
  spread: number | null;
  divergent: boolean;
  ruleScore: number | null;
  rank: number | null;
  trackRank: number | null;
  decidedBy: TieBreak | 'EQUAL' | null;
}

export interface ExpertStats {
  expertId: string;
  n: number;
  mean: number;
  sd: number;
  standardised: boolean;
}

export interface RoundAggregate {
  /** Ranked order: rank ascending, unranked last. */
  projects: ProjectAggregate[];
  roundMean: number | null;
  roundSd: number | null;
  experts: ExpertStats[];
}

export interface AggregateInput {
  projects: readonly ProjectScores[];
  criteria: readonly Criterion[];
  rule: ScoringRule;
  divergenceThreshold: number;
}

/**
 * Implementation decisions the comment above leaves open:
 * - The rule score always ranks first (the rule's aggregate is "which aggregate ranks",
 *   docs/rules/review.md); the tie-break chain then applies in the order given. A RULE_SCORE step in the chain can
 *   never separate two projects the first comparison left tied, so only the other steps decide.
 *   A chain with fewer steps (or none) ends sooner: more equal ranks.
 * - Trimming needs at least 3 scores whatever the setting, so something is left to average. When
 *   the highest and lowest totals are equal (all totals equal), two different sheets are dropped:
 *   the smallest expertId as the highest, the next as the lowest.
 * - A criterion a sheet has no points for is left out of that criterion's mean; a missing mean
 *   ranks below every number in the CRITERIA step.
 * - trackRank is null for a project without a track (there is no track to rank it in).
 * - Ranked projects with equal keys are listed by projectId, so the order is deterministic.
 */
export function aggregateRound(input: AggregateInput): RoundAggregate {
  const experts = expertStats(input.projects);
  const round = roundStats(input.projects);
  const projects = input.projects.map((p) => aggregateProject(p, input, experts.byId, round));
  rank(projects, input.criteria, input.rule.tieBreak);
  return { projects, roundMean: round?.mean ?? null, roundSd: round?.sd ?? null, experts: experts.list };
}

function aggregateProject(p: ProjectScores, input: AggregateInput, experts: Map<string, ExpertStats>, round: { mean: number; sd: number } | null): ProjectAggregate {
  const count = p.sheets.length;
  const criteria = criteriaMeans(p.sheets, input.criteria);
  // Every project object is built with the same fields in the same order: one shape for the engine.
  // (round is null only in a round without scores, where count is 0 too.)
  if (count === 0 || !round) {
    return {
      projectId: p.projectId,
      track: p.track,
      count: 0,
      expected: p.expected,
      mean: null,
      trimmedMean: null,
      trimmed: false,
      droppedExpertIds: [],
      median: null,
      zMean: null,
      criteria,
      spread: null,
      divergent: false,
      ruleScore: null,
      rank: null,
      trackRank: null,
      decidedBy: null,
    };
  }
  const sorted = Float64Array.from(p.sheets, (s) => s.total).sort();
  let sum = 0;
  for (const t of sorted) sum += t;
  const mean = sum / count;
  const mid = count >> 1;
  const median = count % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const trim = trimmedMean(p.sheets, input.rule.minScoresForTrim, sum, mean);
  const zMean = zMeanOf(p.sheets, experts, round, mean);
  const spread = sorted[count - 1]! - sorted[0]!;
  return {
    projectId: p.projectId,
    track: p.track,
    count,
    expected: p.expected,
    mean,
    trimmedMean: trim.value,
    trimmed: trim.dropped.length > 0,
    droppedExpertIds: trim.dropped,
    median,
    zMean,
    criteria,
    spread,
    divergent: spread > input.divergenceThreshold,
    ruleScore: ruleScoreOf(input.rule.aggregate, mean, trim.value, median, zMean),
    rank: null,
    trackRank: null,
    decidedBy: null,
  };
}

function ruleScoreOf(aggregate: ScoringRule['aggregate'], mean: number, trimmed: number, median: number, zMean: number): number {
  switch (aggregate) {
    case 'TRIMMED_MEAN':
      return trimmed;
    case 'MEAN':
      return mean;
    case 'MEDIAN':
      return median;
    case 'ZSCORE':
      return zMean;
  }
}

function criteriaMeans(sheets: readonly SheetScore[], criteria: readonly Criterion[]): Record<string, number | null> {
  const means: Record<string, number | null> = {};
  for (const c of criteria) {
    let sum = 0;
    let n = 0;
    for (const s of sheets) {
      const v = s.scores[c.key];
      if (typeof v === 'number') {
        sum += v;
        n++;
      }
    }
    means[c.key] = n > 0 ? sum / n : null;
  }
  return means;
}

/** Mean and population sd. */
function meanSd(values: ArrayLike<number>): { mean: number; sd: number } {
  let sum = 0;
  for (let i = 0; i < values.length; i++) sum += values[i]!;
  const mean = sum / values.length;
  let squares = 0;
  for (let i = 0; i < values.length; i++) squares += (values[i]! - mean) ** 2;
  return { mean, sd: Math.sqrt(squares / values.length) };
}

/** Over every submitted total of the round; null for a round without any. */
function roundStats(projects: readonly ProjectScores[]): { mean: number; sd: number } | null {
  const all: number[] = [];
  for (const p of projects) for (const s of p.sheets) all.push(s.total);
  return all.length > 0 ? meanSd(all) : null;
}

/** Code-unit order, not the locale's: the same on every machine. */
const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function trimmedMean(sheets: readonly SheetScore[], minScoresForTrim: number, sum: number, mean: number): { value: number; dropped: string[] } {
  if (sheets.length < Math.max(minScoresForTrim, 3)) return { value: mean, dropped: [] };
  // On equal totals the smallest expertId is the one dropped, so the result never depends on
  // the order the sheets came in.
  let high = sheets[0]!;
  for (const s of sheets) if (s.total > high.total || (s.total === high.total && compareIds(s.expertId, high.expertId) < 0)) high = s;
  let low: SheetScore | null = null;
  for (const s of sheets) {
    if (s === high) continue;
    if (!low || s.total < low.total || (s.total === low.total && compareIds(s.expertId, low.expertId) < 0)) low = s;
  }
  return { value: (sum - high.total - low!.total) / (sheets.length - 2), dropped: [high.expertId, low!.expertId] };
}

function expertStats(projects: readonly ProjectScores[]): { list: ExpertStats[]; byId: Map<string, ExpertStats> } {
  const totals = new Map<string, number[]>();
  for (const p of projects) {
    for (const s of p.sheets) {
      const list = totals.get(s.expertId);
      if (list) list.push(s.total);
      else totals.set(s.expertId, [s.total]);
    }
  }
  const list = [...totals.entries()]
    .map(([expertId, values]): ExpertStats => {
      const { mean, sd } = meanSd(values);
      // Fewer than 3 scores say too little about an expert's scale; sd 0 cannot be divided by.
      return { expertId, n: values.length, mean, sd, standardised: values.length >= 3 && sd > 0 };
    })
    .sort((a, b) => compareIds(a.expertId, b.expertId));
  return { list, byId: new Map(list.map((e) => [e.expertId, e])) };
}

function zMeanOf(sheets: readonly SheetScore[], experts: Map<string, ExpertStats>, round: { mean: number; sd: number }, mean: number): number {
  if (round.sd === 0) return mean;
  let sum = 0;
  for (const s of sheets) {
    const e = experts.get(s.expertId)!;
    // An expert left unstandardised keeps their total, read on the round's scale.
    sum += e.standardised ? (s.total - e.mean) / e.sd : (s.total - round.mean) / round.sd;
  }
  return round.mean + round.sd * (sum / sheets.length);
}

/**
 * A ranked project's sort key: the values of every chain step, flattened and rounded as the
 * console shows them (CRITERIA gives one value per criterion). A missing value (a criterion
 * without points) is -Infinity, below every number.
 */
interface RankKey {
  p: ProjectAggregate;
  values: Float64Array;
}

/** Sorts `projects` in place into ranked order and fills rank, trackRank and decidedBy. */
function rank(projects: ProjectAggregate[], criteria: readonly Criterion[], chain: readonly TieBreak[]): void {
  // RULE_SCORE leads; repeating it later in the chain would compare the same values again.
  const steps: TieBreak[] = ['RULE_SCORE', ...chain.filter((s) => s !== 'RULE_SCORE')];
  // stepOf[j] = the chain step the j-th value of a key belongs to.
  const stepOf = steps.flatMap((s) => (s === 'CRITERIA' ? criteria.map(() => s) : [s]));
  const r = (v: number | null | undefined) => (v === null || v === undefined ? -Infinity : round2(v));
  const keyOf = (p: ProjectAggregate): RankKey => {
    const values = new Float64Array(stepOf.length);
    let j = 0;
    for (const s of steps) {
      if (s === 'RULE_SCORE') values[j++] = r(p.ruleScore);
      else if (s === 'TRIMMED_MEAN') values[j++] = r(p.trimmedMean);
      else if (s === 'RAW_MEAN') values[j++] = r(p.mean);
      else for (const c of criteria) values[j++] = r(p.criteria[c.key]);
    }
    return { p, values };
  };
  /** Index of the first value that differs, or -1 when the keys are equal. */
  const firstDifference = (a: RankKey, b: RankKey): number => {
    for (let j = 0; j < a.values.length; j++) if (a.values[j] !== b.values[j]) return j;
    return -1;
  };

  const ranked = projects.filter((p) => p.count > 0).map(keyOf);
  ranked.sort((a, b) => {
    const j = firstDifference(a, b);
    // Descending; equal keys by id so the order is deterministic.
    return j >= 0 ? b.values[j]! - a.values[j]! : compareIds(a.p.projectId, b.p.projectId);
  });
  const unranked = projects.filter((p) => p.count === 0).sort((a, b) => compareIds(a.projectId, b.projectId));

  ranked.forEach((k, i) => {
    const above = ranked[i - 1];
    if (!above) {
      k.p.rank = 1;
      return;
    }
    const j = firstDifference(above, k);
    // Competition ranking: equal keys share a rank, the next rank skips (1, 1, 3).
    k.p.rank = j < 0 ? above.p.rank : i + 1;
    // Value 0 is the rule score: only a project tied with the one above on it says what decided.
    if (j !== 0) k.p.decidedBy = j < 0 ? 'EQUAL' : stepOf[j]!;
  });

  const lastInTrack = new Map<string, { k: RankKey; n: number }>();
  for (const k of ranked) {
    if (k.p.track === null) continue;
    const prev = lastInTrack.get(k.p.track);
    const n = (prev?.n ?? 0) + 1;
    k.p.trackRank = prev && firstDifference(prev.k, k) < 0 ? prev.k.p.trackRank : n;
    lastInTrack.set(k.p.track, { k, n });
  }

  projects.length = 0;
  for (const k of ranked) projects.push(k.p);
  for (const p of unranked) projects.push(p);
}

/** Rounds half away from zero to 2 decimals (display and ranking comparisons). */
export function round2(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value) * 100 + 1e-9) / 100;
}
