import { lockReviewRound } from './rubric.service.js';
import {
  CONTEST_MSG,
  REVIEW_MSG as M,
  REVIEW_ROUNDS,
  ROUND_ACCESS,
  ROUND_NAMES,
  ROUND_PHASE,
  SHEET_WORKFLOW,
  isValidPoints,
  neutralFileName,
  phaseState,
  type MaterialKind,
  type ContestAttachment,
  type ContestSettings,
  type Criterion,
  type ExpertOverview,
  type ExpertProjectDetail,
  type ExpertProjectQuery,
  type ExpertProjectRow,
  type Page,
  type AbstainBody,
  type RereviewBody,
  type ReturnSheetBody,
  type ReviewRound,
  type SheetBody,
  type SheetView,
  type SheetViewStatus,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { type TeamPerson } from '../team/team.read-model.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { toContestAttachment } from '../contest/contest.service.js';
import { notifyEvent } from '../notices/notify.js';
import { and, eq } from 'drizzle-orm';
import { accountsView } from '../auth/auth.read-model.js';
import { logRereview, logScoreAbstained, logScoreReturned, logScoreSubmitted } from '../score-log/review-entries.js';
import type { ReviewDeps } from './review.module.js';
import { conflictOf } from './round-view.js';
import { createSheetsRepository, type SheetRow, type SheetsRepository } from './sheets.repository.js';

type Deps = Pick<ReviewDeps, 'db' | 'now' | 'view' | 'rubrics' | 'settingsOf' | 'workflow' | 'afterCommit'>;

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** Totals are stored in half points (0.5 steps are exact integers). */
const toHalfPoints = (points: number) => Math.round(points * 2);
const fromHalfPoints = (half: number | null) => (half ?? 0) / 2;

export const toSheetView = (s: SheetRow): SheetView => ({
  id: s.id,
  status: s.status,
  scores: s.scores,
  comment: s.comment,
  total: fromHalfPoints(s.total),
  version: s.version,
  returnReason: s.returnReason,
  submittedAt: iso(s.submittedAt),
  updatedAt: s.updatedAt.toISOString(),
});

const windowOf = (settings: ContestSettings, round: ReviewRound) => settings.phases[ROUND_PHASE[round]];
const isOpen = (settings: ContestSettings, round: ReviewRound, now: Date) => phaseState(windowOf(settings, round), now) === 'OPEN';

/**
 * Each score names a criterion of the round's rubric and is 0..max in 0.5 steps; a submission
 * scores every criterion and carries a comment. Answers the scores in rubric order. Own keys
 * only: a criterion keyed like an Object member (`constructor`) must never read the prototype's.
 */
export function checkScores(criteria: readonly Criterion[], body: SheetBody, submit: boolean): Record<string, number> {
  const byKey = new Map(criteria.map((c) => [c.key, c]));
  for (const [key, value] of Object.entries(body.scores)) {
    const c = byKey.get(key);
    if (!c) throw badRequest(M.scoreUnknownCriterion, { field: `scores.${key}` });
    if (!isValidPoints(value, c.max)) throw badRequest(M.scoreInvalid, { field: `scores.${key}` });
  }
  if (submit) {
    const missing = criteria.find((c) => !Object.hasOwn(body.scores, c.key));
    if (missing) throw badRequest(M.scoreRequired, { field: `scores.${missing.key}` });
    if (!body.comment.trim()) throw badRequest(M.commentRequired, { field: 'comment' });
  }
  return Object.fromEntries(criteria.filter((c) => Object.hasOwn(body.scores, c.key)).map((c) => [c.key, body.scores[c.key]!]));
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Expert scoring (docs/rules/review.md, "Score sheets"): the expert's overview, list and project detail (blind
 * by setting), draft and submit of their own sheet inside the round's window; an admin's return
 * of a submitted sheet and re-review (复评). A sheet never changes without the SHEET workflow:
 * history, operation record and (for returns) the expert's in-site notice in the same transaction.
 */
export function createScoringService(deps: Deps, repo: SheetsRepository = createSheetsRepository()) {
  const { db, now, view, rubrics, settingsOf, workflow } = deps;

  /** Of a listed project: an abstained one is never listed (round-view scorer rule), so it has no list status. */
  function statusOf(sheet: SheetRow | undefined): SheetViewStatus {
    return !sheet || sheet.status === 'ABSTAINED' ? 'NONE' : sheet.status;
  }

  async function ownSheets(tx: Db, round: ReviewRound, expertId: string): Promise<Map<string, SheetRow>> {
    return new Map((await repo.ofExpert(tx, round, expertId)).map((s) => [s.prelimId, s]));
  }

  async function files(tx: Db, ids: ReadonlyArray<string | null>): Promise<Map<string, ContestAttachment>> {
    const rows = await repo.attachmentsById(tx, ids.filter((id): id is string => id !== null));
    return new Map(rows.map((r) => [r.id, toContestAttachment(r)]));
  }

  /** Unknown, not assigned, in conflict: the same 404, so an expert never learns which. */
  async function assertSees(tx: Db, round: ReviewRound, expertId: string, prelimId: string): Promise<void> {
    if (!(await view.expertSees(tx, round, expertId, prelimId))) throw notFound(M.sheetNotFound);
  }

  async function detail(expertId: string, round: ReviewRound, prelimId: string): Promise<ExpertProjectDetail> {
    await assertSees(db, round, expertId, prelimId);
    const found = await repo.project(db, prelimId);
    if (!found) throw notFound(M.sheetNotFound);
    const { doc, team } = found;
    const settings = await settingsOf(db);
    const list = await view.projectsOfExpert(db, round, expertId);
    const { criteria } = await rubrics.get(db, round);
    const sheet = await repo.own(db, round, prelimId, expertId);
    const fileMap = await files(db, [doc.applicationFileId, doc.presentationFileId, doc.videoFileId, ...doc.otherFileIds]);
    const blind = settings.review.blind;
    // Blind review: the upload name may name the team, so the expert sees project code + kind
    // (the stream, its links and headers name the file the same way: files.service delivery).
    const file = (id: string | null, kind: MaterialKind, index = 0) => {
      const found = id ? (fileMap.get(id) ?? null) : null;
      return found && blind ? { ...found, name: neutralFileName(doc.id, kind, found.extension, index) } : found;
    };
    const at = list.findIndex((p) => p.id === prelimId);
    const open = isOpen(settings, round, now());
    const person = (p: TeamPerson | null | undefined) => p ?? ({ name: '' } as TeamPerson);
    const leader = team.leader ? person(team.leader) : null;
    return {
      id: doc.id,
      round,
      projectName: doc.projectName,
      track: doc.track,
      summary: doc.summary,
      keywords: doc.keywords,
      application: file(doc.applicationFileId, 'application'),
      applicationChars: doc.applicationChars,
      presentation: file(doc.presentationFileId, 'presentation'),
      video: file(doc.videoFileId, 'video'),
      others: doc.otherFileIds.map((id, i) => file(id, 'other', i)).filter((f) => f !== null),
      blind,
      download: settings.review.expertDownload,
      // Blind review: nothing that names the organisation or the people (docs/rules/review.md, "Blind review"). Either
      // way no phone or e-mail: scoring needs no contacts (docs/rules/admin.md, "Personal information").
      team: blind
        ? null
        : {
            orgName: team.orgName,
            teamName: team.teamName,
            leader: leader && { name: str(leader.name), title: str(leader.title) },
            members: team.members.map((m) => ({
              name: str(m.name),
              organization: str(m.organization),
              title: str(m.title),
              role: str(m.role),
            })),
            advisor: team.advisor
              ? { name: str(team.advisor.name), organization: str(team.advisor.organization), title: str(team.advisor.title) }
              : null,
          },
      criteria,
      sheet: sheet ? toSheetView(sheet) : null,
      editable: open && sheet?.status !== 'SUBMITTED',
      open,
      prevId: at > 0 ? list[at - 1]!.id : null,
      nextId: at >= 0 && at < list.length - 1 ? list[at + 1]!.id : null,
    };
  }

  async function write(actor: OperationActor, round: ReviewRound, prelimId: string, body: SheetBody, submit: boolean): Promise<ExpertProjectDetail> {
    await db.transaction((tx) => writeIn(tx, actor, round, prelimId, body, submit));
    return detail(actor.auth.accountId, round, prelimId);
  }

  /** A save or submit inside the caller's transaction (the live final's judges, modules/live-final): the saved sheet. */
  async function writeIn(tx: Db, actor: OperationActor, round: ReviewRound, prelimId: string, body: SheetBody, submit: boolean): Promise<SheetRow> {
    const expertId = actor.auth.accountId;
    // Shared with other saves, exclusive against rubric, rule, group and assignment changes of
    // the round (rubric.service.ts): a first save never slips past a rubric change or a move.
    await lockReviewRound(tx, round, 'shared');
    await assertSees(tx, round, expertId, prelimId);
    if (!isOpen(await settingsOf(tx), round, now())) throw badRequest(M.reviewClosed, { reason: 'CLOSED' });
    const { criteria } = await rubrics.get(tx, round);
    const scores = checkScores(criteria, body, submit);
    const action = submit ? 'SUBMIT' : 'SAVE';
    const at = now();
    const values = {
      scores,
      total: toHalfPoints(criteria.reduce((sum, c) => sum + (Object.hasOwn(scores, c.key) ? scores[c.key]! : 0), 0)),
      comment: body.comment.trim(),
      updatedAt: at,
      ...(submit ? { submittedAt: at, returnReason: null } : {}),
    };

    let current = await repo.lockOwn(tx, round, prelimId, expertId);
    let saved: SheetRow | null = null;
    if (!current) {
      const to = workflow.check(SHEET_WORKFLOW, action, null, actor);
      saved = await repo.insert(tx, { ...values, round, prelimId, expertId, status: to, createdAt: at });
      // A concurrent first save won the insert: this one is now a save over its row.
      if (!saved) current = await repo.lockOwn(tx, round, prelimId, expertId);
    }
    const from = current?.status ?? null;
    if (current) {
      if (body.version !== undefined && current.version !== body.version) {
        throw badRequest(CONTEST_MSG.stale, { reason: 'STALE', status: current.status, version: current.version });
      }
      const to = workflow.check(SHEET_WORKFLOW, action, current.status, actor);
      saved = await repo.update(tx, current.id, { ...values, status: to });
    }
    const sheet = saved!;
    const projectName = await repo.projectName(tx, prelimId);
    await workflow.record(tx, {
      workflow: SHEET_WORKFLOW,
      subjectId: sheet.id,
      from,
      to: sheet.status,
      actor,
      operation: {
        action: submit ? 'review:submit' : 'review:save',
        targetType: 'score_sheet',
        targetId: sheet.id,
        summary: `${submit ? '提交' : '保存'}${ROUND_NAMES[round]}评分「${projectName}」：总分 ${fromHalfPoints(sheet.total)}`,
      },
    });
    // 评分存证 (docs/rules/results.md, "Score log"): the last step, so the log's lock is held only to the commit.
    if (submit) await logScoreSubmitted(tx, { actor, round, sheet, projectName, at });
    return sheet;
  }

  /**
   * Returns one submitted sheet inside `tx` (SHEET RETURN): the submitted version is copied to the
   * revisions first, the expert is told by in-site message. Locked, so a submit racing it either
   * lands before (and is returned) or after (and this answers sheetNotSubmitted).
   */
  async function returnOne(
    tx: Db,
    actor: OperationActor,
    round: ReviewRound,
    sheetId: string,
    reason: string,
    opts: { version?: number | undefined; operation: boolean; rereview?: boolean },
  ): Promise<SheetRow> {
    let projectName = '';
    let expertName = '';
    const { row } = await workflow.transition(tx, {
      workflow: SHEET_WORKFLOW,
      action: 'RETURN',
      actor,
      reason,
      expectedVersion: opts.version,
      notFoundMessage: M.sheetNotFound,
      lock: async (t) => {
        const sheet = await repo.lockById(t, round, sheetId);
        if (sheet) {
          projectName = await repo.projectName(t, sheet.prelimId);
          const [expert] = await view.experts(t, [sheet.expertId]);
          expertName = expert ? `${expert.name}（${expert.code}）` : sheet.expertId;
        }
        return sheet;
      },
      apply: async (t, sheet, to, at) => {
        await repo.addRevision(t, sheet, { reason, returnedBy: actor.auth.accountId, returnedAt: at });
        return repo.update(t, sheet.id, { status: to, returnReason: reason, updatedAt: at });
      },
      subjectId: (sheet) => sheet.id,
      notice: (sheet) => ({ code: 'SCORE_RETURNED', ownerId: sheet.expertId, vars: { projectName, round: ROUND_NAMES[round], reason } }),
      operation: opts.operation
        ? (sheet) => ({
            action: ROUND_ACCESS[round].scoreReturn,
            targetType: 'score_sheet',
            targetId: sheet.id,
            summary: `退回${ROUND_NAMES[round]}评分「${projectName}」，专家 ${expertName}；原因：${reason}`,
          })
        : undefined,
    });
    // 评分存证: the returned sheet still holds the submitted scores (a return changes only its status).
    await logScoreReturned(tx, { actor, round, sheet: row, reason, rereview: opts.rereview ?? !opts.operation, projectName, at: row.updatedAt });
    return row;
  }

  return {
    async overview(expertId: string): Promise<ExpertOverview> {
      const agreed = await repo.agreed(db, expertId);
      const settings = await settingsOf(db);
      const at = now();
      const rounds = [];
      for (const round of REVIEW_ROUNDS) {
        const projects = await view.projectsOfExpert(db, round, expertId);
        const sheets = await ownSheets(db, round, expertId);
        const count = (s: SheetViewStatus) => projects.filter((p) => statusOf(sheets.get(p.id)) === s).length;
        rounds.push({
          round,
          window: windowOf(settings, round),
          open: isOpen(settings, round, at),
          assigned: projects.length,
          notStarted: count('NONE'),
          draft: count('DRAFT'),
          submitted: count('SUBMITTED'),
          returned: count('RETURNED'),
        });
      }
      return { agreed, rounds };
    },

    /** The expert's projects of the round (never one in conflict: the round view leaves them out). */
    async list(expertId: string, round: ReviewRound, q: ExpertProjectQuery): Promise<Page<ExpertProjectRow>> {
      const projects = await view.projectsOfExpert(db, round, expertId);
      const sheets = await ownSheets(db, round, expertId);
      const keyword = q.keyword?.toLowerCase();
      const rows: ExpertProjectRow[] = projects
        .map((p) => {
          const s = sheets.get(p.id);
          return {
            id: p.id,
            projectName: p.projectName,
            track: p.track,
            status: statusOf(s),
            total: s ? fromHalfPoints(s.total) : null,
            updatedAt: iso(s?.updatedAt),
            submittedAt: iso(s?.submittedAt),
          };
        })
        .filter((r) => (!q.status || r.status === q.status) && (!q.track || r.track === q.track) && (!keyword || r.projectName.toLowerCase().includes(keyword)));
      const start = (q.page - 1) * q.size;
      return { list: rows.slice(start, start + q.size), page: q.page, size: q.size, total: rows.length };
    },

    detail,
    saveDraft: (actor: OperationActor, round: ReviewRound, prelimId: string, body: SheetBody) => write(actor, round, prelimId, body, false),
    submit: (actor: OperationActor, round: ReviewRound, prelimId: string, body: SheetBody) => write(actor, round, prelimId, body, true),

    /**
     * POST /expert/review/:r/:id/abstain (docs/rules/review.md, "Abstaining"): the expert steps back
     * from a project they score and have not submitted (no sheet, a draft, a returned sheet), inside
     * the round's window. The sheet becomes ABSTAINED with the reason (a draft's scores stay, never
     * counted), so the expert is no longer a scorer of the project; history, operation record,
     * the super admins' in-site notice and the score-log entry in the same transaction. The sheet
     * row is locked (or its first insert decides), so of two abstains, or an abstain and a submit,
     * at once one wins and the other answers 400 sheetNotAbstainable / sheetLocked.
     */
    async abstain(actor: OperationActor, round: ReviewRound, prelimId: string, body: AbstainBody): Promise<SheetView> {
      const expertId = actor.auth.accountId;
      const reason = body.reason.trim();
      const sheet = await db.transaction(async (tx) => {
        await lockReviewRound(tx, round, 'shared');
        let current = await repo.lockOwn(tx, round, prelimId, expertId);
        // An abstained sheet: the expert no longer sees the project, but their own second try is
        // told why rather than 404 (the first one won).
        if (current?.status !== 'ABSTAINED') await assertSees(tx, round, expertId, prelimId);
        if (!isOpen(await settingsOf(tx), round, now())) throw badRequest(M.reviewClosed, { reason: 'CLOSED' });
        const at = now();
        let saved: SheetRow | null = null;
        if (!current) {
          const to = workflow.check(SHEET_WORKFLOW, 'ABSTAIN', null, actor, reason);
          saved = await repo.insert(tx, { round, prelimId, expertId, status: to, returnReason: reason, createdAt: at, updatedAt: at });
          // A concurrent first save or abstain won the insert: decide against its row.
          if (!saved) current = await repo.lockOwn(tx, round, prelimId, expertId);
        }
        const from = current?.status ?? null;
        if (current) {
          if (body.version !== undefined && current.version !== body.version) {
            throw badRequest(CONTEST_MSG.stale, { reason: 'STALE', status: current.status, version: current.version });
          }
          const to = workflow.check(SHEET_WORKFLOW, 'ABSTAIN', current.status, actor, reason);
          saved = await repo.update(tx, current.id, { status: to, returnReason: reason, updatedAt: at });
        }
        const row = saved!;
        const projectName = await repo.projectName(tx, prelimId);
        const [expert] = await view.experts(tx, [expertId]);
        const expertName = expert ? `${expert.name}（${expert.code}）` : actor.auth.username;
        await workflow.record(tx, {
          workflow: SHEET_WORKFLOW,
          subjectId: row.id,
          from,
          to: row.status,
          actor,
          reason,
          operation: {
            action: 'review:abstain',
            targetType: 'score_sheet',
            targetId: row.id,
            summary: `专家 ${expertName} 回避${ROUND_NAMES[round]}评审「${projectName}」；原因：${reason}`,
          },
        });
        // Who may act on it: the super admins, as for the score log's own alarms (docs/rules/review.md, "Abstaining").
        const admins = await tx
          .select({ id: accountsView.id })
          .from(accountsView)
          .where(and(eq(accountsView.realm, 'ADMIN'), eq(accountsView.roleCode, 'SUPER_ADMIN'), eq(accountsView.enabled, true)));
        await notifyEvent(tx, {
          code: 'SCORE_ABSTAINED',
          accountIds: admins.map((a) => a.id),
          vars: { name: expertName, projectName, round: ROUND_NAMES[round], reason },
          senderId: expertId,
        });
        await logScoreAbstained(tx, { actor, round, sheet: row, projectName, reason, at });
        return row;
      });
      deps.afterCommit();
      return toSheetView(sheet);
    },

    /** POST /admin/review/:r/sheets/:id/return: only a SUBMITTED sheet. */
    async returnSheet(actor: OperationActor, round: ReviewRound, sheetId: string, body: ReturnSheetBody): Promise<SheetView> {
      const row = await db.transaction((tx) => returnOne(tx, actor, round, sheetId, body.reason, { version: body.version, operation: true }));
      deps.afterCommit();
      return toSheetView(row);
    },

    /**
     * For the live final (modules/live-final, docs/live-final.md): the same submit and return, in
     * the caller's transaction (the live state changes with the sheet), and the sheets of some
     * projects. Scores leave through the caller's sealing rule only.
     */
    live: {
      submitIn: (tx: Db, actor: OperationActor, round: ReviewRound, prelimId: string, body: SheetBody): Promise<SheetRow> => writeIn(tx, actor, round, prelimId, body, true),
      /** The return's operation record is the caller's (the chair's action). */
      returnIn: (tx: Db, actor: OperationActor, round: ReviewRound, sheetId: string, reason: string): Promise<SheetRow> =>
        returnOne(tx, actor, round, sheetId, reason, { operation: false, rereview: false }),
      sheetsOf: (tx: Db, round: ReviewRound, prelimIds: readonly string[]): Promise<SheetRow[]> => repo.ofProjects(tx, round, prelimIds),
      own: (tx: Db, round: ReviewRound, prelimId: string, expertId: string): Promise<SheetRow | undefined> => repo.own(tx, round, prelimId, expertId),
    },

    /**
     * POST /admin/review/:r/projects/:id/rereview (复评): add experts to the project, or return
     * every submitted sheet of it. Earlier scores stay in the revisions. All or nothing.
     * `inTx`: run inside the caller's transaction (an appeal accepted with its re-review, results module).
     */
    async rereview(actor: OperationActor, round: ReviewRound, prelimId: string, body: RereviewBody, inTx?: Db): Promise<{ added: number; returned: number }> {
      const inside = <T>(fn: (tx: Db) => Promise<T>): Promise<T> => (inTx ? fn(inTx) : db.transaction(fn));
      const result = await inside(async (tx) => {
        const locked = await repo.lockProject(tx, prelimId);
        const project = locked && (await view.project(tx, round, prelimId));
        if (!project) throw notFound(M.projectNotFound);
        const roundName = ROUND_NAMES[round];
        if (body.mode === 'ADD_EXPERTS') {
          const ids = [...new Set(body.expertIds)];
          const experts = await view.experts(tx, ids);
          const { scorers } = await view.scorersOf(tx, round, project);
          // An abstention is final (docs/rules/review.md, "Abstaining"): adding the expert back would change nothing.
          const abstained = new Set((await view.abstentions(tx, round, { prelimId })).map((a) => a.expertId));
          for (const id of ids) {
            const expert = experts.find((e) => e.id === id);
            if (!expert || !expert.enabled) throw badRequest(M.expertNotFound, { field: 'expertIds', expertId: id });
            if (conflictOf(expert, project)) throw badRequest(M.rereviewExpertConflict, { field: 'expertIds', expertId: id });
            if (scorers.some((s) => s.expert.id === id)) throw badRequest(M.rereviewExpertAlready, { field: 'expertIds', expertId: id });
            if (abstained.has(id)) throw badRequest(M.rereviewExpertAbstained, { field: 'expertIds', expertId: id });
          }
          const at = now();
          await repo.addExtras(
            tx,
            ids.map((expertId) => ({ round, prelimId, expertId, reason: body.reason, actorId: actor.auth.accountId, createdAt: at })),
          );
          await notifyEvent(tx, {
            code: 'REREVIEW_INVITED',
            accountIds: ids,
            vars: { projectName: project.projectName, round: roundName, reason: body.reason },
            senderId: actor.auth.accountId,
          });
          const names = ids.map((id) => experts.find((e) => e.id === id)!).map((e) => `${e.name}（${e.code}）`);
          await recordOperation(tx, actor, {
            action: ROUND_ACCESS[round].scoreReturn,
            targetType: 'prelim_doc',
            targetId: prelimId,
            summary: `发起${roundName}复评「${project.projectName}」：新增评审专家 ${names.join('、')}；原因：${body.reason}`,
          });
          const added = ids.map((id) => experts.find((e) => e.id === id)!);
          await logRereview(tx, { actor, round, projectId: prelimId, projectName: project.projectName, reason: body.reason, addedExperts: added, at });
          return { added: ids.length, returned: 0 };
        }
        const sheets = await repo.lockSubmittedOf(tx, round, prelimId);
        if (sheets.length === 0) throw badRequest(M.sheetNotSubmitted, { reason: 'NOT_ALLOWED' });
        for (const s of sheets) await returnOne(tx, actor, round, s.id, body.reason, { operation: false });
        await recordOperation(tx, actor, {
          action: ROUND_ACCESS[round].scoreReturn,
          targetType: 'prelim_doc',
          targetId: prelimId,
          summary: `发起${roundName}复评「${project.projectName}」：退回全部 ${sheets.length} 份已提交评分；原因：${body.reason}`,
        });
        await logRereview(tx, { actor, round, projectId: prelimId, projectName: project.projectName, reason: body.reason, returnedSheetIds: sheets.map((s) => s.id) });
        return { added: 0, returned: sheets.length };
      });
      deps.afterCommit();
      return result;
    },
  };
}
export type ScoringService = ReturnType<typeof createScoringService>;
