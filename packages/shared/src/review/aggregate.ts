/**
 * Aggregation and ranking of a round's scores (product.md 6, issue 11).
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

export function aggregateRound(input: AggregateInput): RoundAggregate {
  void input;
  throw new Error('aggregateRound: not implemented yet');
}

/** Rounds half away from zero to 2 decimals (display and ranking comparisons). */
export function round2(value: number): number {
  return Math.sign(value) * Math.round(Math.abs(value) * 100 + 1e-9) / 100;
}
