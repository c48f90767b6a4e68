import { createHash, randomBytes, randomInt } from 'node:crypto';
import {
  LIVE_ACTION_NAMES,
  LIVE_ACTIVE_STATES,
  LIVE_MSG as M,
  LIVE_PROJECT_WORKFLOW,
  LIVE_SCORING_STATES,
  LIVE_SESSION_WORKFLOW,
  actionsFrom,
  isLiveSealed,
  type Criterion,
  type LiveActionBody,
  type LiveCandidates,
  type LiveChairAction,
  type LiveChairProject,
  type LiveChairState,
  type LiveDisplayBody,
  type LiveDisplayLink,
  type LiveDisplayState,
  type LiveExclusion,
  type LiveImportBody,
  type LiveJudge,
  type LiveJudgeSessionRow,
  type LiveJudgeState,
  type LiveOwnSheet,
  type LiveProjectAction,
  type LiveProjectState,
  type LiveProjectsBody,
  type LiveRankingRow,
  type LiveRunningOrder,
  type LiveScoreBody,
  type LiveSessionBody,
  type LiveSessionDetail,
  type LiveSessionHead,
  type LiveSessionListQuery,
  type LiveSessionRow,
  type LiveStageProject,
  type LiveSubmitResult,
  type LiveTimer,
  type Page,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import type { ReviewDeps } from '../review/review.module.js';
import { conflictOf, type RoundExpert } from '../review/round-view.js';
import type { RoundScoresCache } from '../review/scores.service.js';
import type { ScoringService } from '../review/scoring.service.js';
import type { SheetRow } from '../review/sheets.repository.js';
import { createSharedReads, type LiveHub } from './live-final.hub.js';
import { createLiveFinalRepository, type LiveFinalRepository, type SessionProjectRow, type SessionRow } from './live-final.repository.js';

type Deps = Pick<ReviewDeps, 'db' | 'now' | 'view' | 'rubrics' | 'settingsOf' | 'workflow' | 'afterCommit'> & {
  scoring: ScoringService;
  scores: RoundScoresCache;
  hub: LiveHub;
};

const ROUND = 'FINAL' as const;
const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;
const refuse = (message: string, reason: string, extra: Record<string, unknown> = {}) => badRequest(message, { reason, ...extra });
const isActive = (s: LiveProjectState) => (LIVE_ACTIVE_STATES as readonly string[]).includes(s);
const isScoring = (s: LiveProjectState) => (LIVE_SCORING_STATES as readonly string[]).includes(s);
export const hashDisplayToken = (token: string) => createHash('sha256').update(token).digest('hex');

interface ProjectInfo {
  id: string;
  projectName: string;
  track: string | null;
  teamName: string;
  orgName: string;
  creditCode: string | null;
}

/** Everything a snapshot of one session is built from, read once. */
interface Context {
  session: SessionRow;
  judges: RoundExpert[];
  rows: SessionProjectRow[];
  info: Map<string, ProjectInfo>;
  /** Final scorers (round view) per project, and group names. */
  scorers: Map<string, Set<string>>;
  groupNames: Map<string, string | null>;
  sheets: SheetRow[];
  at: Date;
}

/**
 * The live final (docs/live-final.md): planning, the chair's actions (LIVE_SESSION and
 * LIVE_PROJECT workflows), the judges' submits (review's FINAL sheets, in the same transaction),
 * and the three snapshots (chair, judge, big screen). Sealing (docs/live-final.md, "Sealing"):
 * the only functions that put a sheet's figures in an answer are `chairProject` (a judge's total,
 * once unsealed) and `ownSheet` (the judge's own); the screen gets the round's aggregate of
 * revealed projects only.
 */
export function createLiveFinalService(deps: Deps, repo: LiveFinalRepository = createLiveFinalRepository()) {
  const { db, now, view, rubrics, settingsOf, workflow, scoring, scores, hub } = deps;

  // ------------------------------------------------------------------ reading
  async function context(tx: Db, session: SessionRow): Promise<Context> {
    const [judgeIds, rows] = await Promise.all([repo.judgeIds(tx, session.id), repo.projects(tx, session.id)]);
    const prelimIds = rows.map((r) => r.prelimId);
    const [experts, infoRows, snapshot, sheets] = await Promise.all([
      view.experts(tx, judgeIds),
      repo.projectInfo(tx, prelimIds),
      view.snapshot(tx, ROUND),
      scoring.live.sheetsOf(tx, ROUND, prelimIds),
    ]);
    const byId = new Map(experts.map((e) => [e.id, e]));
    const scorers = new Map<string, Set<string>>();
    const groupNames = new Map<string, string | null>();
    const wanted = new Set(prelimIds);
    for (const p of snapshot.projects) {
      if (!wanted.has(p.id)) continue;
      scorers.set(p.id, new Set((snapshot.scorers.get(p.id) ?? []).map((s) => s.expert.id)));
      groupNames.set(p.id, p.groupName);
    }
    return {
      session,
      judges: judgeIds.map((id) => byId.get(id)).filter((e): e is RoundExpert => !!e),
      rows,
      info: new Map(infoRows.map((i) => [i.id, i])),
      scorers,
      groupNames,
      sheets,
      at: now(),
    };
  }

  // After a change every stream of the session rebuilds at once: one read of the session's
  // context (and one check per display link) serves all of them (docs/live-final.md, "Event stream").
  const sharedContexts = createSharedReads<Context | null>(hub);
  const currentContext = (sessionId: string) =>
    sharedContexts(sessionId, 'context', async () => {
      const session = await repo.get(db, sessionId);
      return session ? context(db, session) : null;
    });
  const sharedLinkChecks = createSharedReads<string>(hub);

  const infoOf = (ctx: Context, prelimId: string): ProjectInfo =>
    ctx.info.get(prelimId) ?? { id: prelimId, projectName: '', track: null, teamName: '', orgName: '', creditCode: null };

  /** Judges who score the project: fixed at START, else session judges among its final scorers (conflicts never are). */
  function expectedOf(ctx: Context, row: SessionProjectRow): string[] {
    if (row.expectedJudgeIds) return row.expectedJudgeIds;
    const scorers = ctx.scorers.get(row.prelimId) ?? new Set<string>();
    const info = infoOf(ctx, row.prelimId);
    return ctx.judges.filter((j) => j.enabled && scorers.has(j.id) && !conflictOf(j, info)).map((j) => j.id);
  }

  function excludedOf(ctx: Context, row: SessionProjectRow, expected: readonly string[]): LiveExclusion[] {
    const info = infoOf(ctx, row.prelimId);
    return ctx.judges
      .filter((j) => !expected.includes(j.id))
      .map((j) => {
        const cause = conflictOf(j, info);
        return { expertId: j.id, code: j.code, name: j.name, why: cause ? 'CONFLICT' : 'NOT_ASSIGNED', cause } as LiveExclusion;
      });
  }

  const sheetOf = (ctx: Context, prelimId: string, expertId: string) => ctx.sheets.find((s) => s.prelimId === prelimId && s.expertId === expertId);
  const submittedOf = (ctx: Context, row: SessionProjectRow, expected: readonly string[]) =>
    expected.filter((id) => sheetOf(ctx, row.prelimId, id)?.status === 'SUBMITTED').length;

  function timerOf(ctx: Context, row: SessionProjectRow): LiveTimer | null {
    const start = row.status === 'PRESENTING' ? row.presentingAt : row.status === 'QA' ? row.qaAt : null;
    if (!start) return null;
    const upTo = row.pausedAt ?? ctx.at;
    return {
      phase: row.status === 'PRESENTING' ? 'PRESENTATION' : 'QA',
      limitSeconds: (row.status === 'PRESENTING' ? ctx.session.presentationMinutes : ctx.session.qaMinutes) * 60,
      elapsedMs: Math.max(0, upTo.getTime() - start.getTime() - row.pausedMs),
      running: !row.pausedAt,
      at: ctx.at.toISOString(),
    };
  }

  const head = (s: SessionRow): LiveSessionHead => ({
    id: s.id,
    name: s.name,
    venue: s.venue,
    date: s.date,
    status: s.status,
    presentationMinutes: s.presentationMinutes,
    qaMinutes: s.qaMinutes,
    version: s.version,
  });

  /**
   * The round's aggregate of the session's REVEALED projects only (the screen and the chair):
   * rank in the session by the round's ranking (rule score, then its tie-breaks).
   */
  async function results(ctx: Context): Promise<{ ranking: LiveRankingRow[]; byId: Map<string, { score: number | null; rank: number | null }> }> {
    const revealed = ctx.rows.filter((r) => r.status === 'REVEALED');
    const byId = new Map<string, { score: number | null; rank: number | null }>();
    if (!revealed.length) return { ranking: [], byId };
    const round = await scores.get(ROUND);
    const list = revealed
      .map((r) => ({ row: r, a: round.byId.get(r.prelimId) }))
      .sort((x, y) => (x.a?.rank ?? Infinity) - (y.a?.rank ?? Infinity) || x.row.sort - y.row.sort);
    const ranking: LiveRankingRow[] = [];
    let lastRank: number | null = null;
    let lastRoundRank: number | null | undefined;
    list.forEach(({ row, a }, i) => {
      const rank: number = a?.rank != null && a.rank === lastRoundRank && lastRank !== null ? lastRank : i + 1;
      lastRank = rank;
      lastRoundRank = a?.rank;
      const info = infoOf(ctx, row.prelimId);
      const score = a?.ruleScore ?? null;
      ranking.push({ rank, projectId: row.prelimId, projectName: info.projectName, teamName: info.teamName, orgName: info.orgName, score });
      byId.set(row.prelimId, { score, rank });
    });
    return { ranking, byId };
  }

  function stage(ctx: Context, row: SessionProjectRow, result: Map<string, { score: number | null; rank: number | null }>): LiveStageProject {
    const info = infoOf(ctx, row.prelimId);
    const expected = expectedOf(ctx, row);
    return {
      projectId: row.prelimId,
      order: row.sort + 1,
      projectName: info.projectName,
      teamName: info.teamName,
      orgName: info.orgName,
      track: info.track,
      state: row.status,
      timer: timerOf(ctx, row),
      submitted: submittedOf(ctx, row, expected),
      expected: expected.length,
      result: row.status === 'REVEALED' ? (result.get(row.prelimId) ?? { score: null, rank: null }) : null,
    };
  }

  const currentRow = (ctx: Context) => (ctx.session.currentPrelimId ? ctx.rows.find((r) => r.prelimId === ctx.session.currentPrelimId) : undefined);

  function nextWaiting(rows: readonly SessionProjectRow[], currentPrelimId: string | null): SessionProjectRow | undefined {
    const waiting = rows.filter((r) => r.status === 'WAITING' && r.prelimId !== currentPrelimId);
    const at = rows.find((r) => r.prelimId === currentPrelimId)?.sort ?? -1;
    return waiting.find((r) => r.sort > at) ?? waiting[0];
  }

  async function displayOf(ctx: Context, computed?: Awaited<ReturnType<typeof results>>): Promise<LiveDisplayState> {
    const { ranking, byId } = computed ?? (await results(ctx));
    const cur = currentRow(ctx);
    const next = nextWaiting(ctx.rows, cur && cur.status !== 'WAITING' ? cur.prelimId : null);
    const nextInfo = next && next.prelimId !== cur?.prelimId ? infoOf(ctx, next.prelimId) : null;
    const settings = await settingsOf(db);
    return {
      session: head(ctx.session),
      current: cur ? stage(ctx, cur, byId) : null,
      next: nextInfo ? { projectId: nextInfo.id, projectName: nextInfo.projectName, teamName: nextInfo.teamName } : null,
      ranking,
      rule: settings.review.rules[ROUND].aggregate,
      serverTime: ctx.at.toISOString(),
    };
  }

  /** Chair buttons for a project now: the workflow's, narrowed by the session's rules. */
  function projectActions(ctx: Context, row: SessionProjectRow): LiveChairAction[] {
    if (ctx.session.status !== 'LIVE') return [];
    const otherActive = ctx.rows.some((r) => r.id !== row.id && isActive(r.status));
    const expected = expectedOf(ctx, row);
    const keep = (a: LiveProjectAction): boolean => {
      if (a === 'COMPLETE') return false;
      if (a === 'START') return !otherActive && expected.length > 0;
      if (a === 'PAUSE') return !row.pausedAt;
      if (a === 'RESUME') return !!row.pausedAt;
      if (a === 'RETURN_SCORE') return expected.some((id) => sheetOf(ctx, row.prelimId, id)?.status === 'SUBMITTED');
      return true;
    };
    return actionsFrom(LIVE_PROJECT_WORKFLOW, row.status, 'ADMIN').flatMap((a) => (a !== 'COMPLETE' && keep(a) ? [a] : []));
  }

  function sessionActions(ctx: Context): LiveChairAction[] {
    const active = ctx.rows.some((r) => isActive(r.status));
    const cur = currentRow(ctx);
    return actionsFrom(LIVE_SESSION_WORKFLOW, ctx.session.status, 'ADMIN').filter((a) => {
      if (a === 'OPEN') return ctx.rows.some((r) => r.status === 'WAITING');
      if (a === 'NEXT') return !active && !!nextWaiting(ctx.rows, cur?.prelimId ?? null);
      if (a === 'END') return !active;
      return true;
    });
  }

  function chairProject(ctx: Context, row: SessionProjectRow, result: Map<string, { score: number | null; rank: number | null }>): LiveChairProject {
    const expected = expectedOf(ctx, row);
    const sealed = isLiveSealed(row.status);
    const byId = new Map(ctx.judges.map((j) => [j.id, j]));
    return {
      ...stage(ctx, row, result),
      judges: expected.map((id) => {
        const sheet = sheetOf(ctx, row.prelimId, id);
        const j = byId.get(id);
        return {
          expertId: id,
          code: j?.code ?? '',
          name: j?.name ?? '',
          status: sheet?.status === 'SUBMITTED' ? 'SUBMITTED' : sheet?.status === 'RETURNED' ? 'RETURNED' : 'PENDING',
          // Sealing: a judge's total only once the project is CLOSED or REVEALED.
          total: !sealed && sheet?.status === 'SUBMITTED' ? (sheet.total ?? 0) / 2 : null,
        };
      }),
      excluded: excludedOf(ctx, row, expected),
      closeReason: row.closeReason,
      actions: projectActions(ctx, row),
    };
  }

  async function chairOf(ctx: Context): Promise<LiveChairState> {
    const computed = await results(ctx);
    const display = await displayOf(ctx, computed);
    const { byId } = computed;
    const cur = currentRow(ctx);
    return {
      ...display,
      current: cur ? chairProject(ctx, cur, byId) : null,
      projects: ctx.rows.map((r) => chairProject(ctx, r, byId)),
      actions: sessionActions(ctx),
      displays: await repo.activeLinks(db, ctx.session.id),
    };
  }

  const ownSheet = (s: SheetRow | undefined): LiveOwnSheet | null =>
    s ? { status: s.status, scores: s.scores, comment: s.comment, total: (s.total ?? 0) / 2, returnReason: s.returnReason, submittedAt: iso(s.submittedAt) } : null;

  async function judgeOf(ctx: Context, expertId: string, criteria: Criterion[]): Promise<LiveJudgeState> {
    const cur = currentRow(ctx);
    let current: LiveJudgeState['current'] = null;
    if (cur) {
      const { result: _sealed, ...base } = stage(ctx, cur, new Map());
      const expected = expectedOf(ctx, cur).includes(expertId);
      const judge = ctx.judges.find((j) => j.id === expertId);
      const own = ownSheet(sheetOf(ctx, cur.prelimId, expertId));
      current = {
        ...base,
        judging: expected,
        conflict: !expected && !!judge && !!conflictOf(judge, infoOf(ctx, cur.prelimId)),
        canScore: expected && isScoring(cur.status) && own?.status !== 'SUBMITTED',
        own,
      };
    }
    return { session: head(ctx.session), current, criteria, serverTime: ctx.at.toISOString() };
  }

  async function chair(id: string): Promise<LiveChairState> {
    const ctx = await currentContext(id);
    if (!ctx) throw notFound(M.sessionNotFound);
    return chairOf(ctx);
  }

  async function sessionOr404(tx: Db, id: string): Promise<SessionRow> {
    const s = await repo.get(tx, id);
    if (!s) throw notFound(M.sessionNotFound);
    return s;
  }

  // ------------------------------------------------------------------ planning
  const rowOf = (s: SessionRow, c: { judges: number; projects: number; done: number }): LiveSessionRow => ({
    id: s.id,
    name: s.name,
    venue: s.venue,
    date: s.date,
    startTime: s.startTime,
    presentationMinutes: s.presentationMinutes,
    qaMinutes: s.qaMinutes,
    status: s.status,
    judges: c.judges,
    projects: c.projects,
    done: c.done,
    version: s.version,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  });

  const toJudge = (e: RoundExpert): LiveJudge => ({ expertId: e.id, code: e.code, name: e.name, organization: e.organization, enabled: e.enabled });

  async function detailIn(tx: Db, id: string): Promise<LiveSessionDetail> {
    const session = await sessionOr404(tx, id);
    const ctx = await context(tx, session);
    const counts = (await repo.counts(tx, [id])).get(id)!;
    const projectList = ctx.rows.map((r) => {
      const info = infoOf(ctx, r.prelimId);
      const expected = expectedOf(ctx, r);
      return {
        projectId: r.prelimId,
        order: r.sort + 1,
        projectName: info.projectName,
        teamName: info.teamName,
        orgName: info.orgName,
        track: info.track,
        groupName: ctx.groupNames.get(r.prelimId) ?? null,
        state: r.status,
        expectedJudgeIds: expected,
        excluded: excludedOf(ctx, r, expected),
      };
    });
    const warnings = projectList
      .filter((p) => p.state === 'WAITING' && p.expectedJudgeIds.length === 0)
      .map((p) => ({ projectId: p.projectId, message: M.noJudges }));
    return { ...rowOf(session, counts), judgeList: ctx.judges.map(toJudge), projectList, warnings };
  }

  /** Enabled experts of FINAL review groups (the only judges a session takes). */
  async function finalJudges(tx: Db) {
    const groups = await view.groups(tx, ROUND);
    const groupOf = new Map<string, { id: string; name: string }>();
    for (const g of groups) for (const e of g.expertIds) if (!groupOf.has(e)) groupOf.set(e, { id: g.id, name: g.name });
    const experts = await view.experts(tx, [...groupOf.keys()]);
    return { groups, groupOf, experts };
  }

  async function checkJudges(tx: Db, ids: readonly string[]): Promise<string[]> {
    const unique = [...new Set(ids)];
    const { groupOf, experts } = await finalJudges(tx);
    for (const id of unique) {
      const e = experts.find((x) => x.id === id);
      if (!e || !e.enabled || !groupOf.has(id)) throw refuse(M.judgeNotFinal, 'NOT_FINAL', { field: 'judgeIds', expertId: id });
    }
    return unique;
  }

  const sessionValues = (body: LiveSessionBody) => ({
    name: body.name,
    venue: body.venue,
    date: body.date,
    startTime: body.startTime,
    presentationMinutes: body.presentationMinutes,
    qaMinutes: body.qaMinutes,
  });

  async function afterChange(sessionId: string, extra: Partial<{ deleted: boolean; revokedLinkId: string }> = {}): Promise<void> {
    deps.afterCommit();
    await hub.publish({ sessionId, ...extra });
  }

  function checkVersion(session: SessionRow, version: number | undefined) {
    if (version !== undefined && version !== session.version) throw refuse(M.stale, 'STALE', { version: session.version, status: session.status });
  }

  const planOp = (actor: OperationActor, tx: Db, session: { id: string; name: string }, what: string) =>
    recordOperation(tx, actor, { action: 'live:plan', targetType: 'live_session', targetId: session.id, summary: `现场答辩场次「${session.name}」：${what}` });

  /** The project list in order: final-round projects, none in another session, started ones kept. */
  async function writeProjects(tx: Db, session: SessionRow, ids: readonly string[]): Promise<{ added: number; removed: number }> {
    if (new Set(ids).size !== ids.length) throw badRequest(M.projectDuplicate, { field: 'projectIds' });
    const rows = await repo.lockProjects(tx, session.id);
    const current = new Map(rows.map((r) => [r.prelimId, r]));
    const fresh = ids.filter((id) => !current.has(id));
    if (fresh.length) {
      const snapshot = await view.snapshot(tx, ROUND);
      const finals = new Set(snapshot.projects.map((p) => p.id));
      for (const id of fresh) if (!finals.has(id)) throw refuse(M.projectNotFinal, 'NOT_FINAL', { field: 'projectIds', projectId: id });
      const placed = await repo.placed(tx, fresh);
      if (placed.length) throw refuse(M.projectInOtherSession, 'IN_OTHER_SESSION', { field: 'projectIds', projectId: placed[0]!.prelimId, sessionName: placed[0]!.sessionName });
    }
    const removed = rows.filter((r) => !ids.includes(r.prelimId));
    const started = removed.find((r) => r.status !== 'WAITING' && r.status !== 'ABSENT' && r.status !== 'SKIPPED');
    if (started) throw refuse(M.projectStarted, 'PROJECT_STARTED', { field: 'projectIds', projectId: started.prelimId });
    if (removed.some((r) => r.prelimId === session.currentPrelimId)) await repo.update(tx, session.id, { currentPrelimId: null });
    await repo.removeProjects(tx, session.id, removed.map((r) => r.prelimId));
    for (const [i, id] of ids.entries()) {
      const row = current.get(id);
      if (row && row.sort !== i) await repo.setSort(tx, row.id, i);
    }
    await repo.insertProjects(tx, session.id, ids.map((prelimId, sort) => ({ prelimId, sort })).filter((x) => !current.has(x.prelimId)));
    return { added: fresh.length, removed: removed.length };
  }

  // ------------------------------------------------------------------ chair
  async function transitionProject(
    tx: Db,
    actor: OperationActor,
    session: SessionRow,
    row: SessionProjectRow,
    action: LiveProjectAction,
    values: (to: LiveProjectState, at: Date) => Partial<SessionProjectRow>,
    reason: string | null,
    projectName: string,
  ): Promise<SessionProjectRow> {
    const { row: updated, from, to } = await workflow.transition(tx, {
      workflow: LIVE_PROJECT_WORKFLOW,
      action,
      actor,
      reason,
      notFoundMessage: M.projectNotInSession,
      lock: (t) => repo.lockProject(t, session.id, row.prelimId),
      apply: (t, r, next, at) => repo.updateProject(t, r.id, { status: next, ...values(next, at) }),
      subjectId: (r) => r.id,
      // The automatic COMPLETE of a judge's submit has that submit's own record (review:submit).
      operation: () =>
        actor.auth.realm !== 'ADMIN'
          ? undefined
          : {
              action: 'live:chair',
              targetType: 'live_session_project',
              targetId: row.id,
              summary: `现场答辩「${session.name}」：${LIVE_ACTION_NAMES[action]}「${projectName}」${reason ? `；原因：${reason}` : ''}`,
            },
    });
    // A step that keeps the state (pause, resume, a return while scoring) still gets its history row.
    if (from === to) await workflow.recordMany(tx, { workflow: LIVE_PROJECT_WORKFLOW, actor, steps: [{ subjectId: row.id, from, to, reason }], keepSame: true });
    return updated;
  }

  /** COMPLETE when every expected judge of a SCORING project has submitted. Answers whether it did. */
  async function completeIfAllIn(tx: Db, actor: OperationActor, session: SessionRow, row: SessionProjectRow, projectName: string): Promise<boolean> {
    if (row.status !== 'SCORING') return false;
    const expected = row.expectedJudgeIds ?? [];
    const sheets = await scoring.live.sheetsOf(tx, ROUND, [row.prelimId]);
    const missing = expected.filter((id) => !sheets.some((s) => s.expertId === id && s.status === 'SUBMITTED'));
    if (missing.length) return false;
    await transitionProject(tx, actor, session, row, 'COMPLETE', (_to, at) => ({ closedAt: at }), null, projectName);
    return true;
  }

  async function sessionStep(tx: Db, actor: OperationActor, session: SessionRow, body: LiveActionBody): Promise<void> {
    const action = body.action as 'OPEN' | 'NEXT' | 'END' | 'REOPEN';
    const rows = await repo.lockProjects(tx, session.id);
    const active = rows.find((r) => isActive(r.status));
    let currentPrelimId = session.currentPrelimId;
    if (action === 'REOPEN' && !body.reason?.trim()) throw badRequest(M.returnReasonRequired, { field: 'reason' });
    if (action === 'NEXT' || action === 'END' || action === 'OPEN') {
      if (session.status === 'ENDED' && action !== 'OPEN') throw refuse(M.sessionEnded, 'ENDED');
      if (session.status === 'PLANNED' && action !== 'OPEN') throw refuse(M.sessionNotLive, 'NOT_LIVE');
      if (active && action !== 'OPEN') throw active.status === 'CLOSED' ? refuse(M.revealFirst, 'REVEAL_FIRST') : refuse(M.anotherActive, 'ANOTHER_ACTIVE');
      if (action === 'NEXT' || (action === 'OPEN' && session.status === 'PLANNED')) {
        const next = action === 'OPEN' ? rows.find((r) => r.status === 'WAITING') : nextWaiting(rows, session.currentPrelimId);
        if (!next) throw refuse(M.noNext, 'NO_NEXT');
        currentPrelimId = next.prelimId;
      }
    }
    const nextInfo = currentPrelimId && currentPrelimId !== session.currentPrelimId ? (await repo.projectInfo(tx, [currentPrelimId]))[0] : undefined;
    const { from, to } = await workflow.transition(tx, {
      workflow: LIVE_SESSION_WORKFLOW,
      action,
      actor,
      reason: body.reason?.trim() || null,
      notFoundMessage: M.sessionNotFound,
      lock: (t) => repo.lock(t, session.id),
      apply: (t, s, next) => repo.update(t, s.id, { status: next, currentPrelimId }),
      subjectId: (s) => s.id,
      operation: () => ({
        action: 'live:chair',
        targetType: 'live_session',
        targetId: session.id,
        summary: `现场答辩「${session.name}」：${LIVE_ACTION_NAMES[action]}${nextInfo ? `，上场项目「${nextInfo.projectName}」` : ''}${body.reason?.trim() ? `；原因：${body.reason.trim()}` : ''}`,
      }),
    });
    if (from === to) await workflow.recordMany(tx, { workflow: LIVE_SESSION_WORKFLOW, actor, steps: [{ subjectId: session.id, from, to, reason: body.reason?.trim() || null }], keepSame: true });
  }

  async function projectStep(tx: Db, actor: OperationActor, session: SessionRow, body: LiveActionBody): Promise<void> {
    if (session.status === 'PLANNED') throw refuse(M.sessionNotLive, 'NOT_LIVE');
    if (session.status === 'ENDED') throw refuse(M.sessionEnded, 'ENDED');
    if (!body.projectId) throw badRequest(M.projectNotInSession, { field: 'projectId' });
    const rows = await repo.lockProjects(tx, session.id);
    const row = rows.find((r) => r.prelimId === body.projectId);
    if (!row) throw notFound(M.projectNotInSession);
    const reason = body.reason?.trim() || null;
    const [info] = await repo.projectInfo(tx, [row.prelimId]);
    const name = info?.projectName ?? '';
    const action = body.action as Exclude<LiveChairAction, 'OPEN' | 'NEXT' | 'END' | 'REOPEN'>;
    if (action === 'RETURN_SCORE' && !reason) throw badRequest(M.returnReasonRequired, { field: 'reason' });
    // The workflow refuses what this state does not allow (NOT_ALLOWED) before the session's own rules speak.
    workflow.check(LIVE_PROJECT_WORKFLOW, action, row.status, actor, reason);
    let sessionValues: { currentPrelimId?: string } = {};
    let updated: SessionProjectRow | undefined;
    switch (action) {
      case 'START': {
        const other = rows.find((r) => r.id !== row.id && isActive(r.status));
        if (other) throw other.status === 'CLOSED' ? refuse(M.revealFirst, 'REVEAL_FIRST') : refuse(M.anotherActive, 'ANOTHER_ACTIVE');
        const ctx = await context(tx, session);
        const expected = expectedOf(ctx, { ...row, expectedJudgeIds: null });
        if (!expected.length) throw refuse(M.noJudges, 'NO_JUDGES');
        updated = await transitionProject(tx, actor, session, row, 'START', (_to, at) => ({ presentingAt: at, qaAt: null, scoringAt: null, pausedAt: null, pausedMs: 0, expectedJudgeIds: expected, closedAt: null, closeReason: null }), null, name);
        sessionValues = { currentPrelimId: row.prelimId };
        break;
      }
      case 'QA':
        updated = await transitionProject(tx, actor, session, row, 'QA', (_to, at) => ({ qaAt: at, pausedAt: null, pausedMs: 0 }), null, name);
        break;
      case 'SCORE':
        updated = await transitionProject(tx, actor, session, row, 'SCORE', (_to, at) => ({ scoringAt: at, pausedAt: null, pausedMs: 0 }), null, name);
        await completeIfAllIn(tx, actor, session, updated, name);
        break;
      case 'PAUSE':
        if (row.pausedAt) throw refuse(M.alreadyPaused, 'PAUSED');
        updated = await transitionProject(tx, actor, session, row, 'PAUSE', (_to, at) => ({ pausedAt: at }), null, name);
        break;
      case 'RESUME':
        if (!row.pausedAt) throw refuse(M.notPaused, 'NOT_PAUSED');
        updated = await transitionProject(tx, actor, session, row, 'RESUME', (_to, at) => ({ pausedAt: null, pausedMs: row.pausedMs + Math.max(0, at.getTime() - row.pausedAt!.getTime()) }), null, name);
        break;
      case 'CLOSE': {
        const sheets = await scoring.live.sheetsOf(tx, ROUND, [row.prelimId]);
        const missing = (row.expectedJudgeIds ?? []).filter((id) => !sheets.some((s) => s.expertId === id && s.status === 'SUBMITTED'));
        if (missing.length && !reason) throw refuse(M.closeReasonRequired, 'JUDGE_MISSING', { field: 'reason', missing: missing.length });
        updated = await transitionProject(tx, actor, session, row, 'CLOSE', (_to, at) => ({ closedAt: at, closeReason: reason, pausedAt: null }), reason, name);
        break;
      }
      case 'RETURN_SCORE': {
        if (!body.expertId || !(row.expectedJudgeIds ?? []).includes(body.expertId)) throw refuse(M.judgeNotExpected, 'JUDGE_NOT_EXPECTED', { field: 'expertId' });
        const sheet = await scoring.live.own(tx, ROUND, row.prelimId, body.expertId);
        if (sheet?.status !== 'SUBMITTED') throw refuse(M.judgeNotSubmitted, 'NOT_SUBMITTED', { field: 'expertId' });
        await scoring.live.returnIn(tx, actor, ROUND, sheet.id, reason!);
        updated = await transitionProject(tx, actor, session, row, 'RETURN_SCORE', (to, at) => (to === 'SCORING' && row.status === 'CLOSED' ? { closedAt: null, closeReason: null, scoringAt: row.scoringAt ?? at } : {}), reason, name);
        break;
      }
      case 'REVEAL':
        updated = await transitionProject(tx, actor, session, row, 'REVEAL', (_to, at) => ({ revealedAt: at }), null, name);
        break;
      case 'ABSENT':
      case 'SKIP':
        updated = await transitionProject(tx, actor, session, row, action, () => ({ closeReason: reason }), reason, name);
        break;
      case 'REQUEUE':
        updated = await transitionProject(tx, actor, session, row, 'REQUEUE', () => ({ closeReason: null }), null, name);
        break;
    }
    // Every chair action raises the session's version (two chairs: one wins, docs/live-final.md, "Calls").
    await repo.update(tx, session.id, sessionValues);
  }

  // ------------------------------------------------------------------ judges
  async function judgeSession(tx: Db, sessionId: string, expertId: string): Promise<SessionRow> {
    const session = await repo.get(tx, sessionId);
    // Not a judge of it: the same 404 as no session, so an expert never learns which.
    if (!session || !(await repo.isJudge(tx, sessionId, expertId))) throw notFound(M.sessionNotFound);
    return session;
  }

  async function judgeState(sessionId: string, expertId: string): Promise<LiveJudgeState> {
    if (!(await repo.isJudge(db, sessionId, expertId))) throw notFound(M.sessionNotFound);
    const ctx = await currentContext(sessionId);
    if (!ctx) throw notFound(M.sessionNotFound);
    const { criteria } = await rubrics.get(db, ROUND);
    return judgeOf(ctx, expertId, criteria);
  }

  async function displaySession(token: string): Promise<{ session: SessionRow; linkId: string }> {
    const link = await repo.linkByHash(db, hashDisplayToken(token));
    if (!link || link.revokedAt) throw new AppError('NOT_FOUND', M.displayNotFound, { reason: 'REVOKED' });
    const session = await repo.get(db, link.sessionId);
    if (!session) throw new AppError('NOT_FOUND', M.displayNotFound, { reason: 'REVOKED' });
    const at = now();
    if (!link.lastSeenAt || at.getTime() - link.lastSeenAt.getTime() > 60_000) await repo.seenLink(db, link.id, at);
    return { session, linkId: link.id };
  }

  const toLink = (l: { id: string; name: string; tokenPrefix: string; revokedAt: Date | null; createdAt: Date; lastSeenAt: Date | null }, token?: string): LiveDisplayLink => ({
    id: l.id,
    name: l.name,
    token: token ?? `${l.tokenPrefix}…`,
    path: token ? `/live/${token}` : `/live/${l.tokenPrefix}…`,
    revoked: !!l.revokedAt,
    createdAt: l.createdAt.toISOString(),
    revokedAt: iso(l.revokedAt),
    lastSeenAt: iso(l.lastSeenAt),
  });

  return {
    // ---------------------------------------------------------------- planning
    async candidates(): Promise<LiveCandidates> {
      const { groups, groupOf, experts } = await finalJudges(db);
      const snapshot = await view.snapshot(db, ROUND);
      const placed = new Map((await repo.placed(db)).map((p) => [p.prelimId, p]));
      return {
        judges: experts
          .filter((e) => e.enabled)
          .map((e) => ({ ...toJudge(e), groupId: groupOf.get(e.id)!.id, groupName: groupOf.get(e.id)!.name })),
        projects: snapshot.projects.map((p) => ({
          projectId: p.id,
          projectName: p.projectName,
          teamName: p.teamName,
          orgName: p.orgName,
          track: p.track,
          groupId: p.groupId,
          groupName: p.groupName,
          sessionId: placed.get(p.id)?.sessionId ?? null,
          sessionName: placed.get(p.id)?.sessionName ?? null,
        })),
        groups: groups.map((g) => ({ id: g.id, name: g.name, experts: g.expertIds.length, projects: snapshot.projects.filter((p) => p.groupId === g.id).length })),
      };
    },

    async list(q: LiveSessionListQuery): Promise<Page<LiveSessionRow>> {
      const { rows, total } = await repo.list(db, q);
      const counts = await repo.counts(db, rows.map((r) => r.id));
      return { list: rows.map((r) => rowOf(r, counts.get(r.id)!)), page: q.page, size: q.size, total };
    },

    detail: (id: string) => detailIn(db, id),

    async create(actor: OperationActor, body: LiveSessionBody): Promise<LiveSessionDetail> {
      const id = await db.transaction(async (tx) => {
        const judges = await checkJudges(tx, body.judgeIds);
        const session = await repo.insert(tx, { ...sessionValues(body), createdBy: actor.auth.accountId });
        await repo.setJudges(tx, session.id, judges);
        await planOp(actor, tx, session, `新建（${body.venue}，${body.date}，评委 ${judges.length} 名）`);
        return session.id;
      });
      return detailIn(db, id);
    },

    async update(actor: OperationActor, id: string, body: LiveSessionBody & { version?: number }): Promise<LiveSessionDetail> {
      await db.transaction(async (tx) => {
        const session = await repo.lock(tx, id);
        if (!session) throw notFound(M.sessionNotFound);
        checkVersion(session, body.version);
        if (session.status === 'ENDED') throw refuse(M.sessionEnded, 'ENDED');
        const judges = await checkJudges(tx, body.judgeIds);
        const before = await repo.judgeIds(tx, id);
        const same = before.length === judges.length && before.every((j, i) => j === judges[i]);
        if (!same && session.status !== 'PLANNED') throw refuse(M.judgesLocked, 'JUDGES_LOCKED', { field: 'judgeIds' });
        await repo.update(tx, id, sessionValues(body));
        if (!same) await repo.setJudges(tx, id, judges);
        await planOp(actor, tx, { id, name: body.name }, `修改${same ? '' : `（评委 ${judges.length} 名）`}`);
      });
      await afterChange(id);
      return detailIn(db, id);
    },

    async remove(actor: OperationActor, id: string): Promise<void> {
      await db.transaction(async (tx) => {
        const session = await repo.lock(tx, id);
        if (!session) throw notFound(M.sessionNotFound);
        if (session.status !== 'PLANNED') throw refuse(M.sessionNotPlanned, 'NOT_PLANNED');
        await planOp(actor, tx, session, '删除');
        await repo.delete(tx, id);
      });
      await afterChange(id, { deleted: true });
    },

    async setProjects(actor: OperationActor, id: string, body: LiveProjectsBody): Promise<LiveSessionDetail> {
      await db.transaction(async (tx) => {
        const session = await repo.lock(tx, id);
        if (!session) throw notFound(M.sessionNotFound);
        checkVersion(session, body.version);
        if (session.status === 'ENDED') throw refuse(M.sessionEnded, 'ENDED');
        const { added, removed } = await writeProjects(tx, session, body.projectIds);
        await repo.update(tx, id, {});
        await planOp(actor, tx, session, `调整答辩顺序（共 ${body.projectIds.length} 个项目，新增 ${added}，移出 ${removed}）`);
      });
      await afterChange(id);
      return detailIn(db, id);
    },

    async importGroup(actor: OperationActor, id: string, body: LiveImportBody): Promise<LiveSessionDetail> {
      await db.transaction(async (tx) => {
        const session = await repo.lock(tx, id);
        if (!session) throw notFound(M.sessionNotFound);
        if (session.status === 'ENDED') throw refuse(M.sessionEnded, 'ENDED');
        const groups = await view.groups(tx, ROUND);
        const group = groups.find((g) => g.id === body.groupId);
        if (!group) throw notFound(M.groupNotFound);
        const snapshot = await view.snapshot(tx, ROUND);
        const inGroup = snapshot.projects.filter((p) => p.groupId === group.id);
        const placed = new Set((await repo.placed(tx, inGroup.map((p) => p.id))).map((p) => p.prelimId));
        const fresh = inGroup.filter((p) => !placed.has(p.id)).map((p) => p.id);
        if (body.order === 'RANDOM') {
          for (let i = fresh.length - 1; i > 0; i--) {
            const j = randomInt(i + 1);
            [fresh[i], fresh[j]] = [fresh[j]!, fresh[i]!];
          }
        }
        const existing = (await repo.projects(tx, id)).map((r) => r.prelimId);
        if (existing.length + fresh.length > 200) throw badRequest(M.projectsTooMany, { field: 'projectIds' });
        await writeProjects(tx, session, [...existing, ...fresh]);
        let judgesAdded = 0;
        if (body.judges && session.status === 'PLANNED') {
          const before = await repo.judgeIds(tx, id);
          const experts = await view.experts(tx, group.expertIds);
          const add = experts.filter((e) => e.enabled && !before.includes(e.id)).map((e) => e.id);
          const all = [...before, ...add];
          if (all.length > 50) throw badRequest(M.judgesTooMany, { field: 'judgeIds' });
          if (add.length) await repo.setJudges(tx, id, all);
          judgesAdded = add.length;
        }
        await repo.update(tx, id, {});
        await planOp(actor, tx, session, `从决赛评审分组「${group.name}」导入 ${fresh.length} 个项目、${judgesAdded} 名评委${body.order === 'RANDOM' ? '（抽签排序）' : ''}`);
      });
      await afterChange(id);
      return detailIn(db, id);
    },

    async runningOrder(id: string): Promise<LiveRunningOrder> {
      const detail = await detailIn(db, id);
      const slotMinutes = detail.presentationMinutes + detail.qaMinutes;
      const startMin = detail.startTime ? Number(detail.startTime.slice(0, 2)) * 60 + Number(detail.startTime.slice(3)) : null;
      const slot = (i: number) => {
        if (startMin === null) return null;
        const m = startMin + i * slotMinutes;
        return `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
      };
      const { judgeList, projectList, warnings: _w, ...session } = detail;
      return {
        session,
        judges: judgeList,
        rows: projectList.map((p, i) => ({
          order: p.order,
          projectId: p.projectId,
          projectName: p.projectName,
          teamName: p.teamName,
          orgName: p.orgName,
          track: p.track,
          slot: slot(i),
          state: p.state,
          excludedJudges: p.excluded.filter((x) => x.why === 'CONFLICT').map((x) => x.name),
        })),
      };
    },

    // ---------------------------------------------------------------- display links
    async links(id: string): Promise<LiveDisplayLink[]> {
      await sessionOr404(db, id);
      return (await repo.links(db, id)).map((l) => toLink(l));
    },

    async createLink(actor: OperationActor, id: string, body: LiveDisplayBody): Promise<LiveDisplayLink> {
      const token = randomBytes(32).toString('base64url');
      const link = await db.transaction(async (tx) => {
        const session = await repo.lock(tx, id);
        if (!session) throw notFound(M.sessionNotFound);
        const row = await repo.insertLink(tx, { sessionId: id, name: body.name, tokenHash: hashDisplayToken(token), tokenPrefix: token.slice(0, 6), createdBy: actor.auth.accountId });
        await recordOperation(tx, actor, { action: 'live:display', targetType: 'live_display_link', targetId: row.id, summary: `创建大屏链接「${body.name || row.tokenPrefix}」：场次「${session.name}」` });
        return row;
      });
      await afterChange(id);
      return toLink(link, token);
    },

    async revokeLink(actor: OperationActor, id: string, linkId: string): Promise<void> {
      await db.transaction(async (tx) => {
        const session = await repo.lock(tx, id);
        const link = session && (await repo.lockLink(tx, id, linkId));
        if (!session || !link) throw notFound(M.displayNotFound);
        if (!link.revokedAt) await repo.revokeLink(tx, link.id, now());
        await recordOperation(tx, actor, { action: 'live:display', targetType: 'live_display_link', targetId: link.id, summary: `撤销大屏链接「${link.name || link.tokenPrefix}」：场次「${session.name}」` });
      });
      await afterChange(id, { revokedLinkId: linkId });
    },

    // ---------------------------------------------------------------- chair
    chair,

    /**
     * One chair action (docs/live-final.md, "State machine"): the session is locked first (every
     * change of a session takes its lock first: chair actions, submits, planning), its version
     * checked, then the step is taken through the workflow core.
     */
    async act(actor: OperationActor, id: string, body: LiveActionBody): Promise<LiveChairState> {
      await db.transaction(async (tx) => {
        const session = await repo.lock(tx, id);
        if (!session) throw notFound(M.sessionNotFound);
        checkVersion(session, body.version);
        if (body.action === 'OPEN' || body.action === 'NEXT' || body.action === 'END' || body.action === 'REOPEN') await sessionStep(tx, actor, session, body);
        else await projectStep(tx, actor, session, body);
      });
      await afterChange(id);
      return chair(id);
    },

    // ---------------------------------------------------------------- judges
    async judgeSessions(expertId: string): Promise<LiveJudgeSessionRow[]> {
      return (await repo.sessionsOfJudge(db, expertId)).map((s) => ({ id: s.id, name: s.name, venue: s.venue, date: s.date, status: s.status }));
    },

    judgeState,

    /**
     * A judge's score (docs/live-final.md, "Judges' submissions"): the session (locked) and the
     * judge, the key (a resend of a recorded key answers duplicate, also when both arrive at
     * once), the project's state and the judge's place, then review's submit and, for the last
     * expected judge of a SCORING project, COMPLETE, all in one transaction.
     */
    async submit(actor: OperationActor, sessionId: string, prelimId: string, body: LiveScoreBody): Promise<LiveSubmitResult> {
      const expertId = actor.auth.accountId;
      const duplicate = await db.transaction(async (tx) => {
        // The session's lock first, as every change of a session takes it: a resend racing its
        // original waits here for the original's commit, then finds its key recorded.
        const session = await repo.lock(tx, sessionId);
        if (!session || !(await repo.isJudge(tx, sessionId, expertId))) throw notFound(M.sessionNotFound);
        const claimed = await repo.claimKey(tx, { expertId, key: body.key, sessionId, prelimId });
        if (!claimed) {
          const earlier = await repo.key(tx, expertId, body.key);
          if (!earlier || earlier.sessionId !== sessionId || earlier.prelimId !== prelimId) throw badRequest(M.keyInvalid, { field: 'key' });
          return true;
        }
        const row = await repo.lockProject(tx, sessionId, prelimId);
        if (!row) throw notFound(M.projectNotInSession);
        const expected = row.expectedJudgeIds ?? [];
        if (!expected.includes(expertId)) {
          const [judge] = await view.experts(tx, [expertId]);
          const [info] = await repo.projectInfo(tx, [prelimId]);
          if (judge && info && conflictOf(judge, info)) throw refuse(M.conflictExcluded, 'CONFLICT');
          if (isScoring(row.status)) throw refuse(M.judgeNotExpected, 'JUDGE_NOT_EXPECTED');
        }
        if (!isScoring(row.status)) throw refuse(M.notPresenting, 'NOT_SCORING', { state: row.status });
        const sheet = await scoring.live.submitIn(tx, actor, ROUND, prelimId, { scores: body.scores, comment: body.comment });
        await repo.setKeySheet(tx, expertId, body.key, sheet.id);
        const [info] = await repo.projectInfo(tx, [prelimId]);
        if (await completeIfAllIn(tx, actor, session, row, info?.projectName ?? '')) await repo.update(tx, sessionId, {});
        return false;
      });
      if (!duplicate) await afterChange(sessionId);
      return { duplicate, state: await judgeState(sessionId, expertId) };
    },

    // ---------------------------------------------------------------- big screen
    async display(token: string): Promise<LiveDisplayState> {
      const { session } = await displaySession(token);
      return displayOf(await context(db, session));
    },

    /** The big screen's snapshot of a session (the streams: built once per change for all its screens, each stream checks its own token). */
    async displayState(sessionId: string): Promise<LiveDisplayState> {
      const ctx = await currentContext(sessionId);
      if (!ctx) throw new AppError('NOT_FOUND', M.displayNotFound, { reason: 'REVOKED' });
      return displayOf(ctx);
    },

    /** The session a display token opens (404 when unknown or revoked). */
    displaySessionId: async (token: string) => (await displaySession(token)).session.id,

    /**
     * A display stream's check after a change: the link still opens this session. The screens on
     * one link (a hall's spectators share one) check it once per change together.
     */
    checkDisplay: (sessionId: string, token: string) =>
      sharedLinkChecks(sessionId, `link:${hashDisplayToken(token)}`, async () => {
        const opened = (await displaySession(token)).session.id;
        if (opened !== sessionId) throw new AppError('NOT_FOUND', M.displayNotFound, { reason: 'REVOKED' });
        return opened;
      }),

    /** For the streams: the session id a judge may follow (404 otherwise). */
    judgeSessionId: async (sessionId: string, expertId: string) => (await judgeSession(db, sessionId, expertId)).id,

    sessionId: async (id: string) => (await sessionOr404(db, id)).id,

  };
}
export type LiveFinalService = ReturnType<typeof createLiveFinalService>;
