import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import {
  conflictBetween,
  conflictBetweenFolded,
  foldExpertOrgs,
  foldOrg,
  type ConflictCause,
  type ExpertOrgs,
  type MaterialKind,
  type ReviewRound,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { reviewAssignments, reviewExtraExperts, reviewGroupExperts, reviewGroups, scoreSheets } from '../../db/schema/review.js';
import { accountsView } from '../auth/auth.read-model.js';
import { expertConflictsView, expertProfilesView } from '../experts/experts.read-model.js';
import { finalEntriesView } from '../final-entries/final-entries.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { teamsView } from '../team/team.read-model.js';

/**
 * Who reviews what (docs/rules/review.md, "Review groups and assignment"): the one place that answers, for a round, which projects are in it,
 * which group each sits in, and which experts are expected to score each one. Every review call
 * (groups, expert scoring, file access, score query, monitoring) reads through here, so the
 * conflict-of-interest rule (docs/rules/review.md, "Conflicts of interest") is applied the same way everywhere:
 *
 *   scorers(project) = enabled experts of the project's group who are not in conflict with it
 *                      + experts added to it for re-review (复评)
 *                      - experts who abstained from it (an ABSTAINED sheet; docs/rules/review.md, "Abstaining")
 *
 * A project of the round: PRELIMINARY = materials APPROVED; FINAL = also a final entry IN.
 */

export interface RoundProject {
  id: string;
  projectName: string;
  teamName: string;
  orgName: string;
  creditCode: string | null;
  track: string | null;
  groupId: string | null;
  groupName: string | null;
  source: 'AUTO' | 'MANUAL' | null;
  reason: string | null;
}

export interface RoundExpert {
  id: string;
  code: string;
  name: string;
  phone: string | null;
  enabled: boolean;
  organization: string;
  orgCreditCode: string | null;
  declaredOrgs: { name: string; creditCode?: string | null }[];
  tracks: string[];
}

export interface Scorer {
  expert: RoundExpert;
  /** Added for re-review rather than by the group. */
  extra: boolean;
}

export interface ConflictPair {
  expert: RoundExpert;
  cause: ConflictCause;
}

export const orgsOf = (e: Pick<RoundExpert, 'organization' | 'orgCreditCode' | 'declaredOrgs'>): ExpertOrgs => ({
  own: { name: e.organization, creditCode: e.orgCreditCode },
  declared: e.declaredOrgs,
});

export const conflictOf = (expert: RoundExpert, project: Pick<RoundProject, 'orgName' | 'creditCode'>): ConflictCause | null =>
  conflictBetween(orgsOf(expert), { name: project.orgName, creditCode: project.creditCode });

/**
 * The scorer rule, stated once (the snapshot folds organisations ahead, one project asks directly):
 * the group's enabled experts not in conflict, then experts added for re-review who are enabled,
 * not in conflict and not already there. Group experts in conflict are reported, never scorers.
 * An expert who abstained from the project is no scorer of it either way (the project then lacks one).
 */
function scorerRule(
  groupExperts: readonly RoundExpert[],
  addedExperts: readonly RoundExpert[],
  conflict: (e: RoundExpert) => ConflictCause | null,
  abstained: ReadonlySet<string> = new Set(),
): { scorers: Scorer[]; conflicts: ConflictPair[] } {
  const scorers: Scorer[] = [];
  const conflicts: ConflictPair[] = [];
  for (const e of groupExperts) {
    const cause = conflict(e);
    if (cause) conflicts.push({ expert: e, cause });
    else if (e.enabled && !abstained.has(e.id)) scorers.push({ expert: e, extra: false });
  }
  for (const e of addedExperts) {
    if (e.enabled && !abstained.has(e.id) && !scorers.some((s) => s.expert.id === e.id) && !conflict(e)) scorers.push({ expert: e, extra: true });
  }
  return { scorers, conflicts };
}

/** SQL condition: the materials row is a project of the round. */
export function inRound(round: ReviewRound) {
  return round === 'PRELIMINARY'
    ? eq(prelimDocsView.status, 'APPROVED')
    : and(eq(prelimDocsView.status, 'APPROVED'), sql`exists (select 1 from ${finalEntriesView} where ${finalEntriesView.prelimId} = ${prelimDocsView.id} and ${finalEntriesView.status} = 'IN')`);
}

const projectColumns = {
  id: prelimDocsView.id,
  projectName: prelimDocsView.projectName,
  teamName: teamsView.teamName,
  orgName: teamsView.orgName,
  creditCode: teamsView.creditCode,
  track: prelimDocsView.track,
  groupId: reviewAssignments.groupId,
  groupName: reviewGroups.name,
  source: reviewAssignments.source,
  reason: reviewAssignments.reason,
};

const expertColumns = {
  id: accountsView.id,
  code: accountsView.code,
  name: accountsView.name,
  phone: accountsView.phone,
  enabled: accountsView.enabled,
  organization: expertProfilesView.organization,
  tracks: expertProfilesView.tracks,
  orgCreditCode: expertConflictsView.orgCreditCode,
  declaredOrgs: expertConflictsView.declaredOrgs,
};

type ExpertSelect = {
  id: string;
  code: string | null;
  name: string | null;
  phone: string | null;
  enabled: boolean;
  organization: string | null;
  tracks: string[] | null;
  orgCreditCode: string | null;
  declaredOrgs: { name: string; creditCode?: string | null }[] | null;
};

const toExpert = (r: ExpertSelect): RoundExpert => ({
  id: r.id,
  code: r.code ?? '',
  name: r.name ?? '',
  phone: r.phone,
  enabled: r.enabled,
  organization: r.organization ?? '',
  orgCreditCode: r.orgCreditCode,
  declaredOrgs: r.declaredOrgs ?? [],
  tracks: r.tracks ?? [],
});

export function createRoundView() {
  async function projects(tx: Db, round: ReviewRound, where?: ReturnType<typeof and>): Promise<RoundProject[]> {
    const rows = await tx
      .select(projectColumns)
      .from(prelimDocsView)
      .innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId))
      .leftJoin(reviewAssignments, and(eq(reviewAssignments.prelimId, prelimDocsView.id), eq(reviewAssignments.round, round)))
      .leftJoin(reviewGroups, eq(reviewGroups.id, reviewAssignments.groupId))
      .where(and(inRound(round), where))
      .orderBy(asc(prelimDocsView.projectName), asc(prelimDocsView.id));
    return rows;
  }

  async function experts(tx: Db, ids?: readonly string[]): Promise<RoundExpert[]> {
    if (ids && ids.length === 0) return [];
    const rows = await tx
      .select(expertColumns)
      .from(accountsView)
      .leftJoin(expertProfilesView, eq(expertProfilesView.accountId, accountsView.id))
      .leftJoin(expertConflictsView, eq(expertConflictsView.accountId, accountsView.id))
      .where(and(eq(accountsView.realm, 'EXPERT'), ids ? inArray(accountsView.id, [...ids]) : undefined))
      .orderBy(asc(accountsView.code), asc(accountsView.id));
    return rows.map(toExpert);
  }

  /** Groups of a round in order, with their expert ids. */
  async function groups(tx: Db, round: ReviewRound) {
    const rows = await tx.select().from(reviewGroups).where(eq(reviewGroups.round, round)).orderBy(asc(reviewGroups.sort), asc(reviewGroups.createdAt), asc(reviewGroups.id));
    const members = rows.length
      ? await tx.select({ groupId: reviewGroupExperts.groupId, expertId: reviewGroupExperts.expertId }).from(reviewGroupExperts).where(eq(reviewGroupExperts.round, round))
      : [];
    return rows.map((g) => ({ ...g, expertIds: members.filter((m) => m.groupId === g.id).map((m) => m.expertId) }));
  }

  async function extras(tx: Db, round: ReviewRound, filter: { prelimId?: string; expertId?: string }) {
    return tx
      .select()
      .from(reviewExtraExperts)
      .where(
        and(
          eq(reviewExtraExperts.round, round),
          filter.prelimId ? eq(reviewExtraExperts.prelimId, filter.prelimId) : undefined,
          filter.expertId ? eq(reviewExtraExperts.expertId, filter.expertId) : undefined,
        ),
      );
  }

  /** Who abstained from what in a round (ABSTAINED sheets), narrowed like `extras`. */
  async function abstentions(tx: Db, round: ReviewRound, filter: { prelimId?: string; expertId?: string }) {
    return tx
      .select({ prelimId: scoreSheets.prelimId, expertId: scoreSheets.expertId, reason: scoreSheets.returnReason, at: scoreSheets.updatedAt })
      .from(scoreSheets)
      .where(
        and(
          eq(scoreSheets.round, round),
          eq(scoreSheets.status, 'ABSTAINED'),
          filter.prelimId ? eq(scoreSheets.prelimId, filter.prelimId) : undefined,
          filter.expertId ? eq(scoreSheets.expertId, filter.expertId) : undefined,
        ),
      );
  }

  /**
   * Everything about a round at once (score query, monitoring, export, assignment): projects,
   * experts, and per project its scorers and conflicts. One pass in memory: a national round
   * (10,000 projects, 300 experts) is a few MB. `where` narrows the projects (a page of a list:
   * only those get their scorers and conflicts computed).
   */
  async function snapshot(tx: Db, round: ReviewRound, where?: ReturnType<typeof and>) {
    const [ps, gs, allExtras, allAbstained] = await Promise.all([projects(tx, round, where), groups(tx, round), extras(tx, round, {}), abstentions(tx, round, {})]);
    const abstainedByProject = new Map<string, Set<string>>();
    for (const a of allAbstained) abstainedByProject.set(a.prelimId, (abstainedByProject.get(a.prelimId) ?? new Set()).add(a.expertId));
    const expertIds = new Set<string>([...gs.flatMap((g) => g.expertIds), ...allExtras.map((x) => x.expertId)]);
    const es = await experts(tx, [...expertIds]);
    const byId = new Map(es.map((e) => [e.id, e]));
    const groupExperts = new Map(gs.map((g) => [g.id, g.expertIds.map((id) => byId.get(id)).filter((e): e is RoundExpert => !!e)]));
    const extrasByProject = new Map<string, RoundExpert[]>();
    for (const x of allExtras) {
      const e = byId.get(x.expertId);
      if (!e) continue;
      extrasByProject.set(x.prelimId, [...(extrasByProject.get(x.prelimId) ?? []), e]);
    }
    const scorers = new Map<string, Scorer[]>();
    const conflicts = new Map<string, ConflictPair[]>();
    // Each organisation folded once, not once per pair: a national round compares ~70,000 pairs.
    const folded = new Map(es.map((e) => [e.id, foldExpertOrgs(orgsOf(e))]));
    for (const p of ps) {
      const team = foldOrg({ name: p.orgName, creditCode: p.creditCode });
      const { scorers: list, conflicts: cs } = scorerRule(p.groupId ? (groupExperts.get(p.groupId) ?? []) : [], extrasByProject.get(p.id) ?? [], (e) =>
        conflictBetweenFolded(folded.get(e.id)!, team),
        abstainedByProject.get(p.id),
      );
      scorers.set(p.id, list);
      conflicts.set(p.id, cs);
    }
    return { round, projects: ps, groups: gs, experts: es, scorers, conflicts, abstained: abstainedByProject };
  }

  /** The project if it is in the round (any group or none). */
  async function project(tx: Db, round: ReviewRound, prelimId: string): Promise<RoundProject | undefined> {
    const [p] = await projects(tx, round, and(eq(prelimDocsView.id, prelimId)));
    return p;
  }

  /** Scorers and conflicts of one project. */
  async function scorersOf(tx: Db, round: ReviewRound, p: RoundProject): Promise<{ scorers: Scorer[]; conflicts: ConflictPair[] }> {
    const gs = p.groupId ? await tx.select({ expertId: reviewGroupExperts.expertId }).from(reviewGroupExperts).where(eq(reviewGroupExperts.groupId, p.groupId)) : [];
    const xs = await extras(tx, round, { prelimId: p.id });
    const es = await experts(tx, [...new Set([...gs.map((g) => g.expertId), ...xs.map((x) => x.expertId)])]);
    const inGroup = new Set(gs.map((g) => g.expertId));
    const added = new Set(xs.map((x) => x.expertId));
    const abstained = new Set((await abstentions(tx, round, { prelimId: p.id })).map((a) => a.expertId));
    return scorerRule(es.filter((e) => inGroup.has(e.id)), es.filter((e) => added.has(e.id)), (e) => conflictOf(e, p), abstained);
  }

  /**
   * The projects an expert scores in a round (their group's projects not in conflict, plus
   * re-review additions), in list order (project name, id). A disabled expert has none.
   */
  async function projectsOfExpert(tx: Db, round: ReviewRound, expertId: string): Promise<(RoundProject & { extra: boolean })[]> {
    const [expert] = await experts(tx, [expertId]);
    if (!expert || !expert.enabled) return [];
    const [membership] = await tx.select({ groupId: reviewGroupExperts.groupId }).from(reviewGroupExperts).where(and(eq(reviewGroupExperts.round, round), eq(reviewGroupExperts.expertId, expertId)));
    const xs = await extras(tx, round, { expertId });
    const groupPart = membership ? await projects(tx, round, and(eq(reviewAssignments.groupId, membership.groupId))) : [];
    const extraPart = xs.length ? await projects(tx, round, and(inArray(prelimDocsView.id, xs.map((x) => x.prelimId)))) : [];
    const abstained = new Set((await abstentions(tx, round, { expertId })).map((a) => a.prelimId));
    const out = new Map<string, RoundProject & { extra: boolean }>();
    for (const p of groupPart) if (!conflictOf(expert, p) && !abstained.has(p.id)) out.set(p.id, { ...p, extra: false });
    for (const p of extraPart) if (!out.has(p.id) && !conflictOf(expert, p) && !abstained.has(p.id)) out.set(p.id, { ...p, extra: true });
    return [...out.values()].sort((a, b) => a.projectName.localeCompare(b.projectName, 'zh-CN') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** Whether the expert scores this project in this round (assigned and not in conflict). */
  async function expertSees(tx: Db, round: ReviewRound, expertId: string, prelimId: string): Promise<boolean> {
    const p = await project(tx, round, prelimId);
    if (!p) return false;
    const { scorers } = await scorersOf(tx, round, p);
    return scorers.some((s) => s.expert.id === expertId);
  }

  /**
   * File access (files.access isExpertAssigned): the file belongs to a project the expert scores
   * in either round. One query finds the projects holding the file that are in a round and put
   * the expert on them (their group's or added for re-review) and they did not abstain from; the scorer rule's remaining terms
   * (enabled, no conflict) are the same for both ways in, so they are checked once in memory.
   */
  async function expertCanReadAttachment(tx: Db, expertId: string, attachmentId: string): Promise<boolean> {
    const [expert] = await experts(tx, [expertId]);
    if (!expert || !expert.enabled) return false;
    // The review agreement (confidentiality) comes before any review material, files included:
    // the expert guard refuses review calls until it is accepted (docs/rules/review.md, "Review agreement"), so do the files.
    const [account] = await tx.select({ agreedAt: accountsView.agreedAt }).from(accountsView).where(eq(accountsView.id, expertId)).limit(1);
    if (!account?.agreedAt) return false;
    const holds = sql`(${prelimDocsView.applicationFileId} = ${attachmentId} or ${prelimDocsView.presentationFileId} = ${attachmentId} or ${prelimDocsView.videoFileId} = ${attachmentId} or ${prelimDocsView.otherFileIds} @> ${JSON.stringify([attachmentId])}::jsonb)`;
    const onIt = (round: ReviewRound) => sql`(exists (select 1 from ${reviewAssignments} join ${reviewGroupExperts} on ${reviewGroupExperts.groupId} = ${reviewAssignments.groupId}
        where ${reviewAssignments.prelimId} = ${prelimDocsView.id} and ${reviewAssignments.round} = ${round} and ${reviewGroupExperts.expertId} = ${expertId})
      or exists (select 1 from ${reviewExtraExperts} where ${reviewExtraExperts.prelimId} = ${prelimDocsView.id} and ${reviewExtraExperts.round} = ${round} and ${reviewExtraExperts.expertId} = ${expertId}))
      and not exists (select 1 from ${scoreSheets} where ${scoreSheets.prelimId} = ${prelimDocsView.id} and ${scoreSheets.round} = ${round} and ${scoreSheets.expertId} = ${expertId} and ${scoreSheets.status} = 'ABSTAINED')`;
    const rows = await tx
      .select({ orgName: teamsView.orgName, creditCode: teamsView.creditCode })
      .from(prelimDocsView)
      .innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId))
      .where(and(holds, sql`((${inRound('PRELIMINARY')} and ${onIt('PRELIMINARY')}) or (${inRound('FINAL')} and ${onIt('FINAL')}))`));
    return rows.some((p) => !conflictOf(expert, p));
  }

  /**
   * The project material an attachment is (for the neutral name an expert sees), and the
   * expert's code, name and login name (for the stamp on what they download). Null when no project holds the file.
   */
  async function materialOf(tx: Db, expertId: string, attachmentId: string) {
    const [doc] = await tx
      .select({ id: prelimDocsView.id, applicationFileId: prelimDocsView.applicationFileId, presentationFileId: prelimDocsView.presentationFileId, videoFileId: prelimDocsView.videoFileId, otherFileIds: prelimDocsView.otherFileIds })
      .from(prelimDocsView)
      .where(
        sql`(${prelimDocsView.applicationFileId} = ${attachmentId} or ${prelimDocsView.presentationFileId} = ${attachmentId} or ${prelimDocsView.videoFileId} = ${attachmentId} or ${prelimDocsView.otherFileIds} @> ${JSON.stringify([attachmentId])}::jsonb)`,
      )
      .limit(1);
    const [account] = await tx.select({ code: accountsView.code, name: accountsView.name, username: accountsView.username }).from(accountsView).where(eq(accountsView.id, expertId)).limit(1);
    const expert = { code: account?.code ?? '', name: account?.name ?? null, username: account?.username ?? '' };
    if (!doc) return { material: null, expert };
    const kind: MaterialKind =
      doc.applicationFileId === attachmentId ? 'application' : doc.presentationFileId === attachmentId ? 'presentation' : doc.videoFileId === attachmentId ? 'video' : 'other';
    return { material: { prelimId: doc.id, kind, otherIndex: Math.max(0, doc.otherFileIds.indexOf(attachmentId)) }, expert };
  }

  return { projects, experts, groups, extras, abstentions, snapshot, project, scorersOf, projectsOfExpert, expertSees, expertCanReadAttachment, materialOf };
}
export type RoundView = ReturnType<typeof createRoundView>;
export type RoundSnapshot = Awaited<ReturnType<RoundView['snapshot']>>;
