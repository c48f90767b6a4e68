import { createHash } from 'node:crypto';
import {
  CONTEST_MSG,
  REVIEW_MSG as M,
  ROUND_ACCESS,
  ROUND_NAMES,
  assignProjects,
  type AssignInput,
  type AssignPreview,
  type ConflictView,
  type GroupBody,
  type GroupExpert,
  type GroupView,
  type GroupsOverview,
  type MoveBody,
  type Page,
  type ReviewRound,
  type RoundProjectQuery,
  type RoundProjectRow,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { isUniqueViolation } from '../admin/admin-util.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { createGroupsRepository } from './groups.repository.js';
import type { ReviewDeps } from './review.module.js';
import { conflictOf, orgsOf, type ConflictPair, type RoundExpert, type RoundProject, type Scorer } from './round-view.js';

/** POST /admin/review/:r/assign/apply. */
export interface AssignApplyResult {
  /** Projects placed by this apply. */
  assigned: number;
  /** Projects left in no group, with why (as the preview showed them). */
  problems: AssignPreview['problems'];
}

export const MANUAL_REASON_DEFAULT = '手动调整';

const NONE = '未分组';

const toGroupExpert = (e: RoundExpert): GroupExpert => ({ id: e.id, code: e.code, name: e.name, organization: e.organization, tracks: e.tracks, enabled: e.enabled });

const toConflictView = (c: ConflictPair): ConflictView => ({ expertId: c.expert.id, expertCode: c.expert.code, expertName: c.expert.name, cause: c.cause });

const unique = (ids: readonly string[]) => [...new Set(ids)];

/** JSON with object keys sorted, so equal inputs hash equal whatever order their keys were built in. */
const canonical = (value: unknown) =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );

const constraintOf = (err: unknown): string | undefined => {
  for (let e = err as { constraint?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    if (typeof e.constraint === 'string') return e.constraint;
  }
  return undefined;
};

/**
 * 评审组 and assignment of a round (docs/rules/review.md, "Review groups and assignment"): groups and their experts, the round's
 * projects with group, expected scorers and conflicts (all through the round view, so conflicts
 * count the same way as in scoring), manual moves, and automatic assignment previewed then applied.
 */
export function createGroupsService(deps: Pick<ReviewDeps, 'db' | 'now' | 'view' | 'settingsOf'>) {
  const { db, view } = deps;
  const repo = createGroupsRepository();

  const inOtherGroupError = (rows: { expertId: string; groupName: string }[], experts: readonly RoundExpert[]) =>
    badRequest(M.groupExpertInOtherGroup, {
      reason: 'IN_OTHER_GROUP',
      expertIds: unique(rows.map((r) => r.expertId)),
      experts: rows.map((r) => ({ id: r.expertId, name: experts.find((e) => e.id === r.expertId)?.name ?? '', groupName: r.groupName })),
    });

  /**
   * Every write of the round's groups and placements: one transaction behind the round's lock.
   * Two admins adding one expert to two groups at once: the second waits, then its own check
   * finds the first's row; were the lock ever bypassed, the unique index
   * review_group_experts_round_expert_uq refuses the second and it is answered the same way.
   */
  async function write<T>(round: ReviewRound, fn: (tx: Db, at: Date) => Promise<T>, context: { expertIds?: readonly string[]; groupId?: string } = {}): Promise<T> {
    try {
      return await db.transaction(async (tx) => {
        await repo.lockRound(tx, round);
        return fn(tx, deps.now());
      });
    } catch (err) {
      if (err instanceof AppError || !isUniqueViolation(err)) throw err;
      const constraint = constraintOf(err);
      if (constraint === 'review_groups_round_name_uq') throw badRequest(M.groupNameTaken, { reason: 'NAME_TAKEN' });
      if (constraint === 'review_group_experts_round_expert_uq') {
        const ids = context.expertIds ?? [];
        throw inOtherGroupError(await repo.inOtherGroups(db, round, ids, context.groupId), await view.experts(db, ids));
      }
      throw err;
    }
  }

  /** Experts joining a group: all exist (404), are enabled and sit in no other group of the round (400). */
  async function checkJoining(tx: Db, round: ReviewRound, ids: readonly string[], groupId?: string): Promise<RoundExpert[]> {
    const experts = await view.experts(tx, ids);
    if (experts.length !== ids.length) throw notFound(M.expertNotFound);
    const disabled = experts.filter((e) => !e.enabled);
    if (disabled.length) throw badRequest(M.groupExpertDisabled, { reason: 'EXPERT_DISABLED', expertIds: disabled.map((e) => e.id), experts: disabled.map((e) => ({ id: e.id, name: e.name })) });
    const elsewhere = await repo.inOtherGroups(tx, round, ids, groupId);
    if (elsewhere.length) throw inOtherGroupError(elsewhere, experts);
    return experts;
  }

  async function groupViews(tx: Db, round: ReviewRound): Promise<GroupView[]> {
    const gs = await view.groups(tx, round);
    const experts = await view.experts(tx, unique(gs.flatMap((g) => g.expertIds)));
    const projects = await repo.projectCountsByGroup(tx, round);
    const sheets = await repo.sheetCountsByGroup(tx, round);
    return gs.map((g) => {
      const ids = new Set(g.expertIds);
      const members = experts.filter((e) => ids.has(e.id));
      return {
        id: g.id,
        name: g.name,
        version: g.version,
        experts: members.map(toGroupExpert),
        projectCount: projects.get(g.id) ?? 0,
        // What the group can score: a disabled expert scores nothing, so covers nothing (as in assignment).
        tracks: unique(members.filter((e) => e.enabled).flatMap((e) => e.tracks)),
        sheetCount: sheets.get(g.id) ?? 0,
      };
    });
  }

  const groupView = async (round: ReviewRound, id: string) => (await groupViews(db, round)).find((g) => g.id === id)!;

  function toRow(p: RoundProject, scorers: readonly Scorer[], conflicts: readonly ConflictPair[], stats: { sheets: number; submitted: number } | undefined): RoundProjectRow {
    return {
      id: p.id,
      projectName: p.projectName,
      teamName: p.teamName,
      orgName: p.orgName,
      track: p.track,
      groupId: p.groupId,
      groupName: p.groupName,
      source: p.source,
      reason: p.reason,
      expected: scorers.length,
      scoresIn: stats?.submitted ?? 0,
      hasSheets: (stats?.sheets ?? 0) > 0,
      conflicts: conflicts.map(toConflictView),
    };
  }

  async function rowOf(tx: Db, round: ReviewRound, id: string): Promise<RoundProjectRow> {
    const p = (await view.project(tx, round, id))!;
    const { scorers, conflicts } = await view.scorersOf(tx, round, p);
    return toRow(p, scorers, conflicts, (await repo.sheetStats(tx, round, [id])).get(id));
  }

  /**
   * What automatic assignment works from, and its token: the groups in order with their ENABLED
   * experts and current loads, the round's projects in no group, the minimum and the track names.
   * The token hashes all of it (and the group versions), so any change that could move a
   * placement (an expert added, disabled or edited, a project placed, moved or added, the
   * minimum) makes an earlier preview stale.
   */
  async function assignInput(tx: Db, round: ReviewRound): Promise<{ input: AssignInput; projects: Map<string, RoundProject>; token: string }> {
    // The round view's parts without its per-project conflict pass: assignProjects finds the conflicts itself.
    const projects = await view.projects(tx, round);
    const groups = await view.groups(tx, round);
    const experts = await view.experts(tx, unique(groups.flatMap((g) => g.expertIds)));
    const loads = new Map<string, number>();
    for (const p of projects) if (p.groupId) loads.set(p.groupId, (loads.get(p.groupId) ?? 0) + 1);
    const settings = await deps.settingsOf(tx);
    const cap = settings.review.maxProjectsPerExpert?.[round] ?? null;
    // The cap counts what each expert scores now (docs/rules/review.md, "Review groups and assignment"): only read when set.
    const expertLoads = cap === null ? new Map<string, number>() : await expertLoadsOf(tx, round);
    const input: AssignInput = {
      groups: groups.map((g) => {
        const ids = new Set(g.expertIds);
        return {
          id: g.id,
          name: g.name,
          // Experts come in code order: the same group reads the same whatever order its rows come back in.
          experts: experts
            .filter((e) => ids.has(e.id) && e.enabled)
            .map((e) => ({ id: e.id, name: e.name, tracks: e.tracks, orgs: orgsOf(e), ...(cap === null ? {} : { load: expertLoads.get(e.id) ?? 0 }) })),
          load: loads.get(g.id) ?? 0,
        };
      }),
      projects: projects.filter((p) => !p.groupId).map((p) => ({ id: p.id, name: p.projectName, track: p.track, org: { name: p.orgName, creditCode: p.creditCode } })),
      minExperts: settings.review.minExpertsPerProject,
      ...(cap === null ? {} : { maxProjectsPerExpert: cap }),
      trackNames: await repo.trackNames(tx),
    };
    const versions = groups.map((g) => [g.id, g.version]);
    const token = createHash('sha256').update(canonical({ round, versions, input })).digest('hex');
    return { input, projects: new Map(projects.map((p) => [p.id, p])), token };
  }

  /** Projects each expert scores in the round now (the round view's scorers, the one rule). */
  async function expertLoadsOf(tx: Db, round: ReviewRound): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const scorers of (await view.snapshot(tx, round)).scorers.values()) for (const s of scorers) out.set(s.expert.id, (out.get(s.expert.id) ?? 0) + 1);
    return out;
  }

  /**
   * A manual move into a group under the per-expert cap: every expert who would then score the
   * project (enabled, not in conflict) must be under it, else 400 expertCapReached naming them.
   */
  async function assertUnderCap(tx: Db, round: ReviewRound, project: RoundProject, groupId: string): Promise<void> {
    const cap = (await deps.settingsOf(tx)).review.maxProjectsPerExpert?.[round] ?? null;
    if (cap === null) return;
    const memberIds = (await view.groups(tx, round)).find((g) => g.id === groupId)?.expertIds ?? [];
    const abstained = new Set((await view.abstentions(tx, round, { prelimId: project.id })).map((a) => a.expertId));
    const loads = await expertLoadsOf(tx, round);
    const full = (await view.experts(tx, memberIds)).filter((e) => e.enabled && !conflictOf(e, project) && !abstained.has(e.id) && (loads.get(e.id) ?? 0) >= cap);
    if (full.length > 0) {
      throw badRequest(M.expertCapReached, { reason: 'EXPERT_CAP', cap, expertIds: full.map((e) => e.id), names: full.map((e) => `${e.name}（${e.code}）`).join('、') });
    }
  }

  const problemsOf = (projects: Map<string, RoundProject>, problems: ReturnType<typeof assignProjects>['problems']): AssignPreview['problems'] =>
    problems.map((x) => ({ ...x, projectName: projects.get(x.projectId)?.projectName ?? '', track: projects.get(x.projectId)?.track ?? null }));

  return {
    async overview(round: ReviewRound): Promise<GroupsOverview> {
      const groups = await groupViews(db, round);
      const counts = await repo.roundCounts(db, round);
      return { round, groups, ...counts, minExperts: (await deps.settingsOf()).review.minExpertsPerProject };
    },

    async create(actor: OperationActor, round: ReviewRound, body: GroupBody): Promise<GroupView> {
      const ids = unique(body.expertIds);
      const id = await write(
        round,
        async (tx, at) => {
          if (await repo.nameTaken(tx, round, body.name)) throw badRequest(M.groupNameTaken, { reason: 'NAME_TAKEN' });
          const experts = await checkJoining(tx, round, ids);
          const group = await repo.insertGroup(tx, round, body.name, at);
          await repo.addMembers(tx, round, group.id, ids, at);
          await recordOperation(tx, actor, {
            action: ROUND_ACCESS[round].groupEdit,
            targetType: 'review_group',
            targetId: group.id,
            summary: `新建${ROUND_NAMES[round]}评审组「${body.name}」：专家 ${experts.map((e) => e.name).join('、') || '无'}`,
          });
          return group.id;
        },
        { expertIds: ids },
      );
      return groupView(round, id);
    },

    async update(actor: OperationActor, round: ReviewRound, id: string, body: GroupBody): Promise<GroupView> {
      const wanted = unique(body.expertIds);
      await write(
        round,
        async (tx, at) => {
          const group = await repo.lockGroup(tx, round, id);
          if (!group) throw notFound(M.groupNotFound);
          if (body.version !== undefined && body.version !== group.version) throw badRequest(CONTEST_MSG.stale, { reason: 'STALE', version: group.version });
          if (body.name !== group.name && (await repo.nameTaken(tx, round, body.name, id))) throw badRequest(M.groupNameTaken, { reason: 'NAME_TAKEN' });
          const before = await repo.memberIds(tx, id);
          const added = wanted.filter((e) => !before.includes(e));
          const removed = before.filter((e) => !wanted.includes(e));
          const joining = await checkJoining(tx, round, added, id);
          const leaving = await view.experts(tx, removed);
          const scored = await repo.expertsWithSheetsInGroup(tx, round, id, removed);
          if (scored.length) {
            throw badRequest(M.groupExpertHasScores, { reason: 'HAS_SCORES', expertIds: scored, experts: leaving.filter((e) => scored.includes(e.id)).map((e) => ({ id: e.id, name: e.name })) });
          }
          if (body.name === group.name && added.length === 0 && removed.length === 0) return;
          await repo.removeMembers(tx, id, removed);
          await repo.addMembers(tx, round, id, added, at);
          await repo.touchGroup(tx, id, { name: body.name }, at);
          const changes = [
            body.name !== group.name ? `名称 ${group.name} -> ${body.name}` : '',
            joining.length ? `加入专家 ${joining.map((e) => e.name).join('、')}` : '',
            leaving.length ? `移出专家 ${leaving.map((e) => e.name).join('、')}` : '',
          ].filter(Boolean);
          await recordOperation(tx, actor, {
            action: ROUND_ACCESS[round].groupEdit,
            targetType: 'review_group',
            targetId: id,
            summary: `修改${ROUND_NAMES[round]}评审组「${group.name}」：${changes.join('；')}`,
          });
        },
        { expertIds: wanted, groupId: id },
      );
      return groupView(round, id);
    },

    async remove(actor: OperationActor, round: ReviewRound, id: string): Promise<void> {
      await write(round, async (tx) => {
        const group = await repo.lockGroup(tx, round, id);
        if (!group) throw notFound(M.groupNotFound);
        if (await repo.groupHasSheets(tx, round, id)) throw badRequest(M.groupHasScores, { reason: 'HAS_SCORES' });
        const unplaced = await repo.deleteGroup(tx, round, id);
        await recordOperation(tx, actor, {
          action: ROUND_ACCESS[round].groupEdit,
          targetType: 'review_group',
          targetId: id,
          summary: `删除${ROUND_NAMES[round]}评审组「${group.name}」：${unplaced} 个项目回到待分配`,
        });
      });
    },

    /**
     * The round's projects with their group, expected scorers and conflicts: filtered, counted and
     * paged in SQL, then only the page's rows go through the round view's snapshot (the same rule
     * as scoring), so a round of 10,000 projects answers about as fast as one of 100.
     */
    async projects(round: ReviewRound, q: RoundProjectQuery): Promise<Page<RoundProjectRow>> {
      const { ids, total } = await repo.pageIds(db, round, q);
      if (ids.length === 0) return { list: [], page: q.page, size: q.size, total };
      const snap = await view.snapshot(db, round, repo.idsIn(ids));
      const stats = await repo.sheetStats(db, round, ids);
      const list = snap.projects.map((p) => toRow(p, snap.scorers.get(p.id) ?? [], snap.conflicts.get(p.id) ?? [], stats.get(p.id)));
      return { list, page: q.page, size: q.size, total };
    },

    async move(actor: OperationActor, round: ReviewRound, id: string, body: MoveBody): Promise<RoundProjectRow> {
      await write(round, async (tx, at) => {
        const project = await view.project(tx, round, id);
        if (!project) throw notFound(M.projectNotFound);
        const target = body.groupId ? await repo.lockGroup(tx, round, body.groupId) : null;
        if (body.groupId && !target) throw notFound(M.groupNotFound);
        // Scores are given within a group: moving a scored project would orphan them.
        if (await repo.projectHasSheets(tx, round, id)) throw badRequest(M.projectHasScores, { reason: 'HAS_SCORES' });
        if ((target?.id ?? null) === project.groupId) return;
        if (target) await assertUnderCap(tx, round, project, target.id);
        const reason = body.reason?.trim() || MANUAL_REASON_DEFAULT;
        if (target) await repo.place(tx, { round, prelimId: id, groupId: target.id, source: 'MANUAL', reason, actorId: actor.auth.accountId, createdAt: at });
        else await repo.unplace(tx, round, id);
        await recordOperation(tx, actor, {
          action: ROUND_ACCESS[round].groupEdit,
          targetType: 'review_assignment',
          targetId: id,
          summary: `调整${ROUND_NAMES[round]}项目「${project.projectName}」分组：${project.groupName ?? NONE} -> ${target?.name ?? NONE}；原因：${reason}`,
        });
      });
      return rowOf(db, round, id);
    },

    async preview(round: ReviewRound): Promise<AssignPreview> {
      const { input, projects, token } = await assignInput(db, round);
      if (input.groups.length === 0) throw badRequest(M.assignNoGroups, { reason: 'NO_GROUPS' });
      if (input.projects.length === 0) throw badRequest(M.assignNothing, { reason: 'NOTHING' });
      const result = assignProjects(input);
      const groups = new Map(input.groups.map((g) => [g.id, g]));
      return {
        token,
        placements: result.placements.map((x) => ({ ...x, projectName: projects.get(x.projectId)?.projectName ?? '', track: projects.get(x.projectId)?.track ?? null, groupName: groups.get(x.groupId)?.name ?? '' })),
        problems: problemsOf(projects, result.problems),
        loads: result.loads.map((l) => ({ groupId: l.groupId, name: groups.get(l.groupId)?.name ?? '', before: l.before, after: l.after })),
        minExperts: input.minExperts,
      };
    },

    /**
     * Recomputes under the round's lock and applies only what the preview showed: a different
     * token (anything changed since, including another apply of the same preview) is 400
     * assignStale. A project placed meanwhile some other way keeps its group (primary key
     * round + project; the insert skips it), so no project is ever placed twice.
     */
    async apply(actor: OperationActor, round: ReviewRound, token: string): Promise<AssignApplyResult> {
      return write(round, async (tx, at) => {
        const current = await assignInput(tx, round);
        if (current.token !== token) throw badRequest(M.assignStale, { reason: 'STALE' });
        const result = assignProjects(current.input);
        const assigned = await repo.placeNew(
          tx,
          result.placements.map((x) => ({ round, prelimId: x.projectId, groupId: x.groupId, source: 'AUTO' as const, reason: x.reason, actorId: actor.auth.accountId, createdAt: at })),
        );
        await recordOperation(tx, actor, {
          action: ROUND_ACCESS[round].groupEdit,
          targetType: 'review_assignment',
          targetId: round,
          summary: `自动分配${ROUND_NAMES[round]}项目：分配 ${assigned} 个，${result.problems.length} 个未能分配`,
        });
        return { assigned, problems: problemsOf(current.projects, result.problems) };
      });
    },
  };
}
export type GroupsService = ReturnType<typeof createGroupsService>;
