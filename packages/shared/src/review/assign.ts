/**
 * Automatic assignment of a round's projects to its review groups (product.md 6, issue 11).
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
 */
import type { ConflictCause, ExpertOrgs, OrgRef } from './organisation.js';

export interface AssignExpert {
  id: string;
  name: string;
  tracks: readonly string[];
  orgs: ExpertOrgs;
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
  /** NO_GROUPS | TOO_FEW_EXPERTS (every allowed group falls below the minimum after conflicts). */
  code: 'NO_GROUPS' | 'TOO_FEW_EXPERTS';
  /** Why, in Chinese, naming the best group and its count: e.g. 回避后最多只有 3 名专家（第一组），少于最低 5 名. */
  reason: string;
}

export interface AssignResult {
  placements: Placement[];
  problems: AssignProblem[];
  /** Per group: load before and after. */
  loads: { groupId: string; before: number; after: number }[];
}

export function assignProjects(input: AssignInput): AssignResult {
  void input;
  throw new Error('assignProjects: not implemented yet');
}
