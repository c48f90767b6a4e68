/**
 * Calibration of a round's experts and the normalisation effect on the promotion cut
 * (docs/rules/judging-quality.md). Pure and deterministic: the same sheets give the same figures.
 *
 * Per expert, over the projects they submitted a score for:
 * - leniency: the mean, over the projects where at least one other expert submitted too, of
 *   (the expert's total - the mean of the other experts' totals on that project); positive scores
 *   softer than the panel. `sharedProjects` counts those projects (null leniency without any).
 * - spread: the population sd of the expert's totals (null under 2 scores).
 * - agreement: Spearman's rank correlation between the expert's totals and the others' means on
 *   the shared projects (average ranks for ties); null under 3 shared projects or when either
 *   side is constant (a correlation is undefined there).
 * - flags: LENIENT/HARSH when the leniency is more than `leniencyFactor` (1.5) sd of the panel's
 *   leniencies away from their mean (the panel's sd: population sd over the experts with a
 *   leniency; needs 3 of them), DISAGREES when agreement < 0.
 * - abstained (only when the abstentions are given): how many projects the expert abstained from
 *   (docs/rules/review.md, "Abstaining"). It changes no other figure; an expert who only abstained
 *   gets a row with nothing scored.
 */
import type { ScoringRule } from '../admin/settings.js';
import { aggregateRound, type AggregateInput, type ProjectAggregate, type ProjectScores } from './aggregate.js';

export type CalibrationFlag = 'LENIENT' | 'HARSH' | 'DISAGREES';

export interface ExpertCalibration {
  expertId: string;
  /** Projects the expert submitted a score for. */
  scored: number;
  sharedProjects: number;
  meanTotal: number | null;
  leniency: number | null;
  spread: number | null;
  agreement: number | null;
  flags: CalibrationFlag[];
  /** Projects abstained from; present when `calibrate` was given the abstentions. */
  abstained?: number;
}

export interface Calibration {
  experts: ExpertCalibration[];
  /** Mean and population sd of the experts' leniencies (null under 3 experts with one). */
  panel: { leniencyMean: number | null; leniencySd: number | null };
}

/** How many panel sds away a leniency is flagged. */
export const LENIENCY_FACTOR = 1.5;

export function calibrate(projects: readonly ProjectScores[], leniencyFactor = LENIENCY_FACTOR, abstentions?: readonly { expertId: string }[]): Calibration {
  interface Acc {
    totals: number[];
    differences: number[];
    own: number[];
    others: number[];
  }
  const byExpert = new Map<string, Acc>();
  const acc = (id: string): Acc => {
    let a = byExpert.get(id);
    if (!a) byExpert.set(id, (a = { totals: [], differences: [], own: [], others: [] }));
    return a;
  };
  for (const p of projects) {
    let sum = 0;
    for (const s of p.sheets) sum += s.total;
    for (const s of p.sheets) {
      const a = acc(s.expertId);
      a.totals.push(s.total);
      const n = p.sheets.length - 1;
      if (n < 1) continue;
      const othersMean = (sum - s.total) / n;
      a.differences.push(s.total - othersMean);
      a.own.push(s.total);
      a.others.push(othersMean);
    }
  }

  const abstainedBy = new Map<string, number>();
  for (const a of abstentions ?? []) {
    abstainedBy.set(a.expertId, (abstainedBy.get(a.expertId) ?? 0) + 1);
    acc(a.expertId);
  }

  const experts = [...byExpert.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([expertId, a]): ExpertCalibration => ({
      expertId,
      scored: a.totals.length,
      sharedProjects: a.differences.length,
      meanTotal: a.totals.length > 0 ? mean(a.totals) : null,
      leniency: a.differences.length > 0 ? mean(a.differences) : null,
      spread: a.totals.length >= 2 ? populationSd(a.totals) : null,
      agreement: a.own.length >= 3 ? spearman(a.own, a.others) : null,
      flags: [],
      ...(abstentions ? { abstained: abstainedBy.get(expertId) ?? 0 } : {}),
    }));

  const leniencies = experts.flatMap((e) => (e.leniency === null ? [] : [e.leniency]));
  const panelMean = leniencies.length >= 3 ? mean(leniencies) : null;
  const panelSd = leniencies.length >= 3 ? populationSd(leniencies) : null;
  for (const e of experts) {
    if (e.leniency !== null && panelMean !== null && panelSd !== null && panelSd > 0) {
      const z = (e.leniency - panelMean) / panelSd;
      if (z > leniencyFactor) e.flags.push('LENIENT');
      else if (z < -leniencyFactor) e.flags.push('HARSH');
    }
    if (e.agreement !== null && e.agreement < 0) e.flags.push('DISAGREES');
  }
  return { experts, panel: { leniencyMean: panelMean, leniencySd: panelSd } };
}

function mean(values: readonly number[]): number {
  let sum = 0;
  for (const v of values) sum += v;
  return sum / values.length;
}

function populationSd(values: readonly number[]): number {
  const m = mean(values);
  let squares = 0;
  for (const v of values) squares += (v - m) ** 2;
  return Math.sqrt(squares / values.length);
}

/** Ranks 1..n, ties given the mean of the ranks they span. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && order[j + 1]![0] === order[i]![0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) ranks[order[k]![1]] = rank;
    i = j + 1;
  }
  return ranks;
}

/** Spearman's rho (Pearson's r of average ranks); null when either side is constant. */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const mx = mean(rx);
  const my = mean(ry);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < rx.length; i++) {
    sxy += (rx[i]! - mx) * (ry[i]! - my);
    sxx += (rx[i]! - mx) ** 2;
    syy += (ry[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return sxy / Math.sqrt(sxx * syy);
}

// ---- Normalisation effect ----------------------------------------------------------------

export type CutScope = { kind: 'OVERALL' } | { kind: 'TRACK'; track: string };

export interface RuleRanks {
  aggregate: ScoringRule['aggregate'];
  score: number | null;
  rank: number | null;
  trackRank: number | null;
  inCut: boolean;
}

export interface CutMove {
  projectId: string;
  track: string | null;
  /** The declared rule first, then each alternative, in the order asked. */
  under: RuleRanks[];
}

export interface NormalisationEffect {
  declared: ScoringRule['aggregate'];
  alternatives: ScoringRule['aggregate'][];
  topN: number;
  perTrack: boolean;
  /** Projects that are in the cut under one rule and out of it under another. */
  moves: CutMove[];
}

/**
 * Which projects another aggregate would move across the promotion cut: the top `topN`
 * overall, or the top `topN` of each track when `perTrack` (the promotion's two modes). A
 * project is in the cut when its rank (competition ranking: ties share it) is at most N.
 */
export function normalisationEffect(
  input: AggregateInput,
  opts: { topN: number; perTrack: boolean; alternatives?: ScoringRule['aggregate'][] },
): NormalisationEffect {
  const declared = input.rule.aggregate;
  const alternatives = (opts.alternatives ?? (['ZSCORE', 'MEAN', 'MEDIAN', 'TRIMMED_MEAN'] as const)).filter((a) => a !== declared);
  const runs = [declared, ...alternatives].map((aggregate) => {
    const result = aggregateRound({ ...input, rule: { ...input.rule, aggregate } });
    return { aggregate, byId: new Map(result.projects.map((p) => [p.projectId, p])) };
  });
  const inCut = (p: ProjectAggregate | undefined) => {
    const rank = opts.perTrack ? p?.trackRank : p?.rank;
    return rank !== null && rank !== undefined && rank <= opts.topN;
  };
  const moves: CutMove[] = [];
  for (const project of input.projects) {
    const under = runs.map(({ aggregate, byId }): RuleRanks => {
      const p = byId.get(project.projectId);
      return { aggregate, score: p?.ruleScore ?? null, rank: p?.rank ?? null, trackRank: p?.trackRank ?? null, inCut: inCut(p) };
    });
    if (under.some((u) => u.inCut !== under[0]!.inCut)) moves.push({ projectId: project.projectId, track: project.track, under });
  }
  // The declared rule's order: what the operator reads down.
  moves.sort((a, b) => (a.under[0]!.rank ?? Infinity) - (b.under[0]!.rank ?? Infinity) || (a.projectId < b.projectId ? -1 : 1));
  return { declared, alternatives, topN: opts.topN, perTrack: opts.perTrack, moves };
}
