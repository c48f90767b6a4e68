/**
 * Automatic assignment of a round's projects to its review groups (docs/rules/review.md).
 * IMPLEMENTED BY: the shared-algorithms helper. Pure and deterministic: same input, same output.
 *
 * Rules, in order:
 *  1. Every project given is placed in exactly one group, or reported in `problems` with why.
 *  2. A project goes to a group whose experts cover its track (some expert lists the track);
 *     when no group covers it, any group may take it and the reason says so.
 *  3. Among the allowed groups, the project's expected score count (the group's enabled experts
 *     minus those in conflict with the project) must be >= minExperts; a project with no such
 *     group is reported, not placed.
 *  4. Loads (existing + new projects per group) stay balanced: the least-loaded allowed group
 *     wins, ties by group order; so groups that can take the same projects end within one
 *     project of each other where the data allow.
 *  Projects with the fewest allowed groups are placed first (they have the least choice).
 *  5. With a per-expert cap (`maxProjectsPerExpert`), a project goes only to a group whose experts
 *     who would score it (not in conflict) are all under the cap, counting their current projects
 *     (`load` of each expert) and this run's; a project no allowed group can take for the cap is
 *     reported (EXPERT_CAP) naming a group and an expert at the cap. Loads stay as even as the cap
 *     allows: the balancing pass is kept only when its result keeps every expert within the cap.
 */
import { conflictBetweenFolded, foldExpertOrgs, foldOrg, type ConflictCause, type ExpertOrgs, type FoldedExpertOrgs, type OrgRef } from './organisation.js';

export interface AssignExpert {
  id: string;
  name: string;
  tracks: readonly string[];
  orgs: ExpertOrgs;
  /** Projects the expert scores in the round now (rule 5; 0 when not given). */
  load?: number;
}

export interface AssignGroup {
  id: string;
  name: string;
  experts: readonly AssignExpert[];
  /** Projects already placed in this group (kept; they count in the balance). */
  load: number;
}

export interface AssignProject {
  id: string;
  name: string;
  track: string | null;
  org: OrgRef;
}

export interface AssignInput {
  groups: readonly AssignGroup[];
  /** The projects to place (the round's eligible projects not yet in a group). */
  projects: readonly AssignProject[];
  minExperts: number;
  /** Rule 5: the most projects one expert may score in the round; null or absent: no cap. */
  maxProjectsPerExpert?: number | null;
  /** Track code -> display name, for the reasons. */
  trackNames?: Readonly<Record<string, string>>;
}

export interface Placement {
  projectId: string;
  groupId: string;
  /** Expected number of scores (group experts not in conflict). */
  expected: number;
  /** Experts of the group left out for a conflict, with the cause. */
  conflicts: { expertId: string; expertName: string; cause: ConflictCause }[];
  /** Why this group, in Chinese: e.g. 方向「智能审核」由本组 3 名专家覆盖；本组当前负载最低（12 个项目）. */
  reason: string;
}

export interface AssignProblem {
  projectId: string;
  /**
   * NO_GROUPS | TOO_FEW_EXPERTS (every allowed group falls below the minimum after conflicts) |
   * EXPERT_CAP (every group it may go to has an expert at the per-expert cap, rule 5).
   */
  code: 'NO_GROUPS' | 'TOO_FEW_EXPERTS' | 'EXPERT_CAP';
  /** Why, in Chinese, naming the best group and its count: e.g. 回避后最多只有 3 名专家（第一组），少于最低 5 名. */
  reason: string;
}

export interface AssignResult {
  placements: Placement[];
  problems: AssignProblem[];
  /** Per group: load before and after. */
  loads: { groupId: string; before: number; after: number }[];
}

/**
 * Implementation notes:
 * - Groups keep the order given (the tie-break of rule 4); projects are taken by id, so the input
 *   order of projects never changes the outcome. A project id given twice is placed once.
 * - A group "covers" a track when any of its experts lists it, conflicted or not (rule 2 as
 *   written); the conflicts only lower the expected count (rule 3).
 * - When groups cover the track but all fall below the minimum, the project is reported rather
 *   than sent to a group without the expertise: an admin can add experts or place it by hand.
 * - Rule 4 is applied in two steps: each project to the least-loaded group it may go to (the
 *   most constrained first), then a balancing pass (rebalance below) moves projects of this run
 *   along chains of allowed groups until no group could pass one to a group 2 or more below it.
 *   A moved project's reason says where it came from.
 * - Conflicts are found through an index of the experts' folded codes and names, so each project
 *   is checked against the few experts that share a code or a name, not against all of them.
 */
export function assignProjects(input: AssignInput): AssignResult {
  const { groups, minExperts } = input;
  const projects = uniqueById(input.projects);
  if (groups.length === 0) {
    return { placements: [], problems: projects.map((p) => ({ projectId: p.id, code: 'NO_GROUPS', reason: '本轮还没有评审组，无法分配' })), loads: [] };
  }
  const texts = reasonTexts(input);
  const experts = indexExperts(groups);
  const coverage = groups.map(trackCoverage);
  const everyGroup = groups.map((_, i) => i);
  const coveringByTrack = new Map<string, number[]>();
  coverage.forEach((tracks, i) => {
    for (const t of tracks.keys()) coveringByTrack.set(t, [...(coveringByTrack.get(t) ?? []), i]);
  });

  // First pass: what each project may do, before any load is known.
  const problems: AssignProblem[] = [];
  const options: ProjectOptions[] = [];
  for (const project of projects) {
    const conflicts = experts.conflictsOf(project.org);
    const covering = project.track === null ? undefined : coveringByTrack.get(project.track);
    const allowed = covering ?? everyGroup;
    const expected = allowed.map((i) => groups[i]!.experts.length - conflictCount(groups[i]!, conflicts));
    const feasible = allowed.filter((_, k) => expected[k]! >= minExperts);
    if (feasible.length === 0) {
      // The best group: the most experts left, the earlier group on a tie.
      let best = 0;
      for (let k = 1; k < allowed.length; k++) if (expected[k]! > expected[best]!) best = k;
      const reason = texts.tooFew(covering ? project.track : null, expected[best]!, groups[allowed[best]!]!.name);
      problems.push({ projectId: project.id, code: 'TOO_FEW_EXPERTS', reason });
      continue;
    }
    options.push({ project, conflicts, covered: covering !== undefined, allowed, feasible });
  }

  // Rule 4 and the note below it: the most constrained projects first, then by id, each to the
  // least-loaded group it may go to.
  options.sort((a, b) => a.feasible.length - b.feasible.length || compareIds(a.project.id, b.project.id));
  const load = groups.map((g) => g.load);
  const cap = input.maxProjectsPerExpert ?? null;
  const expertLoad = new Map<string, number>();
  for (const g of groups) for (const e of g.experts) expertLoad.set(e.id, e.load ?? 0);
  /** Rule 5: the first expert of group i who would score the project and is at the cap, or null. */
  const atCap = (i: number, conflicts: Map<string, ConflictCause>) =>
    cap === null ? null : (groups[i]!.experts.find((e) => !conflicts.has(e.id) && expertLoad.get(e.id)! >= cap) ?? null);
  const capped = new Set<number>();
  const first = options.map(({ project, conflicts, feasible }, k) => {
    const open = feasible.filter((i) => atCap(i, conflicts) === null);
    if (open.length === 0) {
      const i = feasible[0]!;
      problems.push({ projectId: project.id, code: 'EXPERT_CAP', reason: texts.capped(cap!, groups[i]!.name, atCap(i, conflicts)!.name, feasible.length) });
      capped.add(k);
      return { group: -1, loadThen: 0 };
    }
    let chosen = open[0]!;
    for (const i of open) if (load[i]! < load[chosen]!) chosen = i;
    const loadThen = load[chosen]!;
    load[chosen]!++;
    for (const e of groups[chosen]!.experts) if (!conflicts.has(e.id)) expertLoad.set(e.id, expertLoad.get(e.id)! + 1);
    return { group: chosen, loadThen };
  });
  // Projects the cap left out are no longer options (the balancing pass moves placed projects only).
  const kept = options.filter((_, k) => !capped.has(k));
  const keptFirst = first.filter((_, k) => !capped.has(k));
  options.length = 0;
  options.push(...kept);
  first.length = 0;
  first.push(...keptFirst);
  const greedy = first.map((f) => f.group);
  const greedyLoad = [...load];
  let at = rebalance(options, [...greedy], load);
  if (cap !== null && !withinCap(groups, options, at, cap)) {
    // The balancing pass would put an expert past the cap: keep the placement that honours it.
    at = greedy;
    load.splice(0, load.length, ...greedyLoad);
  }

  const placements = options.map(({ project, conflicts, covered, allowed, feasible }, k): Placement => {
    const chosen = at[k]!;
    const group = groups[chosen]!;
    const left = group.experts.filter((e) => conflicts.has(e.id)).map((e) => ({ expertId: e.id, expertName: e.name, cause: conflicts.get(e.id)! }));
    const expected = group.experts.length - left.length;

    const why: string[] = [];
    if (covered) why.push(texts.covered(project.track!, coverage[chosen]!.get(project.track!)!));
    else why.push(texts.uncovered(project.track));
    if (chosen !== first[k]!.group) why.push(`为均衡负载由「${groups[first[k]!.group]!.name}」调入本组`);
    else if (feasible.length > 1) why.push(`本组当前负载最低（${first[k]!.loadThen} 个项目）`);
    else if (allowed.length > 1) why.push(`其他可选评审组回避后专家少于 ${minExperts} 名`);
    if (left.length > 0) why.push(`回避 ${left.length} 名专家，预计 ${expected} 份评分`);
    return { projectId: project.id, groupId: group.id, expected, conflicts: left, reason: why.join('；') };
  });

  placements.sort((a, b) => compareIds(a.projectId, b.projectId));
  problems.sort((a, b) => compareIds(a.projectId, b.projectId));
  return { placements, problems, loads: groups.map((g, i) => ({ groupId: g.id, before: g.load, after: load[i]! })) };
}

/**
 * Completes rule 4. Placing one project at a time cannot see what comes later: when the groups'
 * tracks overlap only in part, the most constrained projects (placed first) can pile onto the
 * groups that happen to cover two scarce tracks, and the rest cannot even that out. So, while a
 * group G has a chain of moves G -> X -> ... -> T ending at a group T loaded at least 2 less
 * (each step moves one of this run's projects to a group it may also go to: rules 2 and 3 still
 * hold), one project moves along each step: G loses one, T gains one, the groups between keep
 * their count. The sum of squared loads drops with every chain, so this ends; when it has,
 * no group can pass a project (directly or through others) to a group 2 or more below it.
 * Projects already in groups before this run never move.
 *
 * `at[k]` = group of options[k], updated in place; `load` too. Deterministic: groups are tried
 * by load (highest first, then by order) and the chains are shortest paths found in group order.
 */
function rebalance(options: readonly ProjectOptions[], at: number[], load: number[]): number[] {
  const m = load.length;
  // may[k * m + g]: options[k] may go to group g.
  const may = new Uint8Array(options.length * m);
  options.forEach((o, k) => {
    for (const g of o.feasible) may[k * m + g] = 1;
  });
  const members = Array.from({ length: m }, () => new Set<number>());
  // movable[x * m + y]: how many of group x's projects of this run group y could take.
  const movable = new Int32Array(m * m);
  const count = (k: number, from: number, delta: number) => {
    for (const g of options[k]!.feasible) movable[from * m + g]! += delta;
  };
  at.forEach((g, k) => {
    members[g]!.add(k);
    count(k, g, 1);
  });
  const move = (from: number, to: number) => {
    for (const k of members[from]!) {
      if (!may[k * m + to]) continue;
      members[from]!.delete(k);
      members[to]!.add(k);
      count(k, from, -1);
      count(k, to, 1);
      at[k] = to;
      return;
    }
  };

  const parent = new Int32Array(m);
  const byLoad = load.map((_, i) => i);
  for (;;) {
    byLoad.sort((a, b) => load[b]! - load[a]! || a - b);
    const lowest = load[byLoad[m - 1]!]!;
    let moved = false;
    for (const source of byLoad) {
      if (load[source]! - lowest < 2) break;
      const target = chainEnd(source);
      if (target < 0) continue;
      // Walk the chain back from its end, so each step's giver still holds what made the step.
      for (let to = target; to !== source; to = parent[to]!) move(parent[to]!, to);
      load[source]!--;
      load[target]!++;
      moved = true;
      break;
    }
    if (!moved) return at;
  }

  /** The least-loaded group reachable from `source` and 2 or more below it (-1 when none); fills parent. */
  function chainEnd(source: number): number {
    parent.fill(-1);
    parent[source] = source;
    const queue = [source];
    let best = -1;
    for (let q = 0; q < queue.length; q++) {
      const x = queue[q]!;
      if (x !== source && load[x]! <= load[source]! - 2 && (best < 0 || load[x]! < load[best]!)) best = x;
      for (let y = 0; y < m; y++) {
        if (parent[y] === -1 && movable[x * m + y]! > 0) {
          parent[y] = x;
          queue.push(y);
        }
      }
    }
    return best;
  }
}

/** The Chinese reasons shown to the admin, with tracks by their display names. */
function reasonTexts(input: AssignInput) {
  const name = (track: string) => input.trackNames?.[track] ?? track;
  return {
    covered: (track: string, experts: number) => `方向「${name(track)}」由本组 ${experts} 名专家覆盖`,
    uncovered: (track: string | null) => (track === null ? '项目未填写方向，可分入任一评审组' : `没有评审组覆盖方向「${name(track)}」，可分入任一评审组`),
    /** coveredTrack: the track when groups cover it (only those were allowed), else null. */
    tooFew: (coveredTrack: string | null, best: number, groupName: string) =>
      `${coveredTrack === null ? '各评审组' : `覆盖方向「${name(coveredTrack)}」的评审组`}回避后最多只有 ${best} 名专家（${groupName}），少于最低 ${input.minExperts} 名`,
    capped: (cap: number, groupName: string, expertName: string, groupsTried: number) =>
      `可分入的 ${groupsTried} 个评审组中都有专家已达每人 ${cap} 个项目的上限（如${groupName}的专家 ${expertName}）`,
  };
}

interface ProjectOptions {
  project: AssignProject;
  /** Expert id -> cause, for every expert of any group in conflict with the project. */
  conflicts: Map<string, ConflictCause>;
  /** Some group covers the project's track (else every group was allowed). */
  covered: boolean;
  /** Group indexes allowed by rule 2, and among them those meeting the minimum (rule 3). */
  allowed: number[];
  feasible: number[];
}

/** Rule 5 on a finished placement: every expert's projects (current + this run's, conflicts left out) within the cap. */
function withinCap(groups: readonly AssignGroup[], options: readonly ProjectOptions[], at: readonly number[], cap: number): boolean {
  const loads = new Map<string, number>();
  for (const g of groups) for (const e of g.experts) loads.set(e.id, e.load ?? 0);
  options.forEach((o, k) => {
    for (const e of groups[at[k]!]!.experts) if (!o.conflicts.has(e.id)) loads.set(e.id, loads.get(e.id)! + 1);
  });
  return [...loads.values()].every((n) => n <= cap);
}

/** Code-unit order, not the locale's: the same on every machine. */
const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function uniqueById(projects: readonly AssignProject[]): AssignProject[] {
  const seen = new Map<string, AssignProject>();
  for (const p of projects) if (!seen.has(p.id)) seen.set(p.id, p);
  return [...seen.values()].sort((a, b) => compareIds(a.id, b.id));
}

/** Track -> how many of the group's experts list it. */
function trackCoverage(group: AssignGroup): Map<string, number> {
  const count = new Map<string, number>();
  for (const e of group.experts) for (const t of new Set(e.tracks)) count.set(t, (count.get(t) ?? 0) + 1);
  return count;
}

function conflictCount(group: AssignGroup, conflicts: Map<string, ConflictCause>): number {
  if (conflicts.size === 0) return 0;
  let n = 0;
  for (const e of group.experts) if (conflicts.has(e.id)) n++;
  return n;
}

/**
 * Every expert of the round folded once, indexed by each of their organisations' code and name.
 * A conflict needs an equal code or an equal folded name, so the experts sharing one with the
 * team are the only candidates; conflictBetweenFolded then applies the exact rules to them.
 */
function indexExperts(groups: readonly AssignGroup[]) {
  const folded = new Map<string, FoldedExpertOrgs>();
  const byKey = new Map<string, string[]>();
  const add = (key: string, id: string) => {
    const list = byKey.get(key);
    if (!list) byKey.set(key, [id]);
    else if (list[list.length - 1] !== id) list.push(id);
  };
  for (const g of groups) {
    for (const e of g.experts) {
      if (folded.has(e.id)) continue;
      const orgs = foldExpertOrgs(e.orgs);
      folded.set(e.id, orgs);
      for (const o of [orgs.own, ...orgs.declared]) {
        if (o.code) add(`c:${o.code}`, e.id);
        if (o.name) add(`n:${o.name}`, e.id);
      }
    }
  }
  return {
    conflictsOf(org: OrgRef): Map<string, ConflictCause> {
      const team = foldOrg(org);
      const found = new Map<string, ConflictCause>();
      const candidates = [...(team.code ? (byKey.get(`c:${team.code}`) ?? []) : []), ...(team.name ? (byKey.get(`n:${team.name}`) ?? []) : [])];
      for (const id of candidates) {
        if (found.has(id)) continue;
        const cause = conflictBetweenFolded(folded.get(id)!, team);
        if (cause) found.set(id, cause);
      }
      return found;
    },
  };
}
