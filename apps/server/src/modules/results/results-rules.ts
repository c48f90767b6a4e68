import {
  isSelectedOutcome,
  round2,
  type AwardLevel,
  type AwardRule,
  type AwardRuleInput,
  type CompareRow,
  type LinkedAppeal,
  type ResultEntryView,
  type ResultMovement,
} from '@contest/shared';

/**
 * The pure rules of results publication (docs/rules/results.md): award levels, who is promoted in a later
 * preliminary version, and how a project moved between two versions. No I/O: tested on their
 * own (results-rules.test.ts).
 */

/** The admin's levels as stored: codes L1, L2... in order; only the field of the mode kept. */
export function normaliseAwards(input: AwardRuleInput): AwardRule {
  return {
    mode: input.mode,
    levels: input.levels.map((l, i) => ({
      code: `L${i + 1}`,
      name: l.name,
      count: input.mode === 'RANK_COUNTS' ? (l.count ?? null) : null,
      minScore: input.mode === 'SCORE_BANDS' ? (l.minScore ?? null) : null,
    })),
  };
}

/**
 * The level of each ranked project (null: none). RANK_COUNTS: level i takes rank <= the sum of
 * the counts up to i (a level without count: every rank), so projects tied at a cut share the
 * better level. SCORE_BANDS: the first level whose minScore the rule score (2 decimals) reaches.
 * Unranked projects (no score) get none.
 */
export function assignAwards(rule: AwardRule, rows: readonly { id: string; rank: number | null; score: number | null }[]): Map<string, AwardLevel | null> {
  const out = new Map<string, AwardLevel | null>();
  const bounds: { level: AwardLevel; bound: number }[] = [];
  let running = 0;
  for (const level of rule.levels) {
    if (level.count === null) bounds.push({ level, bound: Infinity });
    else {
      running += level.count;
      bounds.push({ level, bound: running });
    }
  }
  for (const r of rows) {
    let level: AwardLevel | null = null;
    if (rule.mode === 'RANK_COUNTS') {
      if (r.rank !== null) level = bounds.find((b) => r.rank! <= b.bound)?.level ?? null;
    } else if (r.score !== null) {
      const score = round2(r.score);
      level = rule.levels.find((l) => l.minScore !== null && score >= l.minScore) ?? null;
    }
    out.set(r.id, level);
  }
  return out;
}

/**
 * Who is promoted in a later preliminary version:
 * - KEEP: exactly the previous version's promoted set.
 * - TOP_OVERALL / TOP_PER_TRACK n: rank (track rank) <= n in the new ranking, plus the previous
 *   version's hand picks: projects it promoted outside its own rank cut (or unranked there), which
 *   an admin chose by hand and a re-review of other projects must not take away. `prevCut` is the
 *   cut that applied to the previous version (null when it had none: then nothing counts as a
 *   hand pick beyond what the rank cut keeps).
 */
export function selectPromoted(
  mode: 'KEEP' | 'TOP_OVERALL' | 'TOP_PER_TRACK',
  n: number | null,
  next: readonly { id: string; rank: number | null; trackRank: number | null }[],
  previous: readonly { id: string; rank: number | null; trackRank: number | null; promoted: boolean }[],
  prevCut: { mode: 'TOP_OVERALL' | 'TOP_PER_TRACK'; n: number } | null,
): Set<string> {
  const prevPromoted = previous.filter((p) => p.promoted);
  if (mode === 'KEEP' || n === null) return new Set(prevPromoted.map((p) => p.id));
  const within = (r: { rank: number | null; trackRank: number | null }, cut: { mode: 'TOP_OVERALL' | 'TOP_PER_TRACK'; n: number }) => {
    const v = cut.mode === 'TOP_OVERALL' ? r.rank : r.trackRank;
    return v !== null && v <= cut.n;
  };
  const out = new Set(next.filter((r) => within(r, { mode, n })).map((r) => r.id));
  // Hand picks of the previous version: promoted although outside its cut. Without a cut every
  // promoted project was chosen by hand (a PICKED promotion) and stays.
  for (const p of prevPromoted) if (!prevCut || !within(p, prevCut)) out.add(p.id);
  return out;
}

const levelIndex = (code: string | null) => (code ? Number(code.slice(1)) : Infinity);
const rankValue = (rank: number | null) => rank ?? Infinity;

/** How a project moved from a to b (CompareRow.movement). */
export function movementOf(a: ResultEntryView | undefined, b: ResultEntryView | undefined): ResultMovement {
  if (!a && b) return 'ADDED';
  if (a && !b) return 'REMOVED';
  if (!a || !b) return 'SAME';
  const inA = isSelectedOutcome(a.outcome);
  const inB = isSelectedOutcome(b.outcome);
  if (!inA && inB) return 'IN';
  if (inA && !inB) return 'OUT';
  const la = levelIndex(a.awardCode);
  const lb = levelIndex(b.awardCode);
  if (lb < la) return 'UP';
  if (lb > la) return 'DOWN';
  const ra = rankValue(a.rank);
  const rb = rankValue(b.rank);
  if (rb < ra) return 'UP';
  if (rb > ra) return 'DOWN';
  return 'SAME';
}

const sameLine = (a: ResultEntryView, b: ResultEntryView) =>
  a.rank === b.rank && a.trackRank === b.trackRank && a.score === b.score && a.outcome === b.outcome && a.awardCode === b.awardCode;

export const EMPTY_SUMMARY = (): Record<ResultMovement, number> => ({ IN: 0, OUT: 0, UP: 0, DOWN: 0, SAME: 0, ADDED: 0, REMOVED: 0 });

/** Every project of a and b, in b's rank order (unranked last by name), then those only in a. */
export function compareEntries(
  a: readonly ResultEntryView[],
  b: readonly ResultEntryView[],
  appealsOf: (projectId: string) => LinkedAppeal[] = () => [],
): { rows: CompareRow[]; summary: Record<ResultMovement, number> } {
  const byA = new Map(a.map((e) => [e.projectId, e]));
  const byB = new Map(b.map((e) => [e.projectId, e]));
  const rows: CompareRow[] = [];
  const summary = EMPTY_SUMMARY();
  const row = (ea: ResultEntryView | undefined, eb: ResultEntryView | undefined): CompareRow => {
    const base = (eb ?? ea)!;
    const movement = movementOf(ea, eb);
    summary[movement] += 1;
    return {
      projectId: base.projectId,
      projectName: base.projectName,
      teamName: base.teamName,
      orgName: base.orgName,
      track: base.track,
      rankA: ea?.rank ?? null,
      rankB: eb?.rank ?? null,
      scoreA: ea?.score ?? null,
      scoreB: eb?.score ?? null,
      outcomeA: ea?.outcome ?? null,
      outcomeB: eb?.outcome ?? null,
      awardA: ea?.awardName ?? null,
      awardB: eb?.awardName ?? null,
      movement,
      changed: !ea || !eb || !sameLine(ea, eb),
      appeals: appealsOf(base.projectId),
    };
  };
  for (const eb of sortEntries([...b])) rows.push(row(byA.get(eb.projectId), eb));
  for (const ea of sortEntries(a.filter((e) => !byB.has(e.projectId)))) rows.push(row(ea, undefined));
  return { rows, summary };
}

/** Rank order, unranked last; then project name and id, so the order is stable. */
export function sortEntries<T extends Pick<ResultEntryView, 'rank' | 'projectName' | 'projectId'>>(entries: T[]): T[] {
  return entries.sort(
    (x, y) =>
      rankValue(x.rank) - rankValue(y.rank) ||
      x.projectName.localeCompare(y.projectName, 'zh-CN') ||
      (x.projectId < y.projectId ? -1 : x.projectId > y.projectId ? 1 : 0),
  );
}
