import {
  APPEAL_ATTACHMENT_ORIGIN,
  APPEAL_WORKFLOW,
  appealWindowOpen,
  RESULTS_MSG as M,
  REVIEW_ROUNDS,
  ROUND_NAMES,
  ROUND_PHASE,
  phaseState,
  stepOf,
  type AppealAcceptBody,
  type AppealCreate,
  type AppealDetail,
  type AppealHistoryEntry,
  type AppealListQuery,
  type AppealRejectBody,
  type AppealRow as AppealRowView,
  type FileRef,
  type MyAppeal,
  type MyResults,
  type MyRoundResult,
  type Page,
  type ReviewRound,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { type AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import type { OperationActor } from '../audit/operation-log.js';
import { uniqueNoOf } from '../files/files.service.js';
import type { ScoringService } from '../review/scoring.service.js';
import { anchorOfVersion } from '../score-log/anchors.js';
import { appendScoreLog, scoreLogActor } from '../score-log/score-log.js';
import { entryView, type PublicationDeps } from './publication.service.js';
import { beijingMinute } from './results-notice.js';
import { createPublicationRepository, lockResults, type AppealRow, type EntryRow, type FoundAppeal, type PublicationRepository, type VersionRow } from './publication.repository.js';

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => (d ? d.toISOString() : null);
const STREAM_PATH = '/api/attachment/stream/';

/**
 * The re-review's reason as the experts read it: fixed, so nothing of the team's appeal (which
 * may name the team) reaches experts who score blind.
 */
export const APPEAL_REREVIEW_REASON = '参赛团队对公示结果提出申诉，经大赛组委会审核予以复评';

export interface AppealsDeps extends PublicationDeps {
  scoring: Pick<ScoringService, 'rereview'>;
}

/**
 * Appeals (docs/rules/results.md, "Appeals"): a team files one appeal per round against the current
 * version, inside its appeal window; admins reject it, or accept it and send the project to
 * re-review (the review module's 复评, in the same transaction). Filing and deciding take the
 * round's results lock in shared mode (publishing takes it exclusively), then the appeal row.
 */
export function createAppealsService(deps: AppealsDeps, repo: PublicationRepository = createPublicationRepository()) {
  const { db } = deps;

  async function files(tx: Db, ids: string[]): Promise<FileRef[]> {
    const rows = await repo.filesByIds(tx, ids);
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => {
      const f = byId.get(id);
      return f ? [{ uniqueNo: f.uniqueNo, name: f.originalName, size: f.size, filePath: `${STREAM_PATH}${f.uniqueNo}` }] : [];
    });
  }

  async function myAppeal(tx: Db, a: AppealRow): Promise<MyAppeal> {
    return {
      id: a.id,
      round: a.round,
      version: a.resultVersion,
      status: a.status,
      reason: a.reason,
      attachments: await files(tx, a.attachmentIds),
      reply: a.reply,
      createdAt: iso(a.createdAt),
      decidedAt: isoOrNull(a.decidedAt),
      dueAt: iso(a.dueAt),
      resolvedVersion: a.resolvedVersion,
    };
  }

  /**
   * Why the team may not appeal now, in the order a participant would want to hear it:
   * not published, not in the result, already appealed, window over. null: it may.
   */
  function blocker(current: VersionRow | undefined, entry: EntryRow | undefined, appeal: AppealRow | undefined, now: Date): AppError | null {
    if (!current) return badRequest(M.appealNotPublished, { reason: 'NOT_PUBLISHED' });
    if (!entry) return forbidden(M.appealNotInRound, { reason: 'NOT_IN_ROUND' });
    // FILE starts from no record: a team's existing appeal, in whatever state, refuses a second.
    const filing = stepOf(APPEAL_WORKFLOW, 'FILE', appeal?.status ?? null, 'USER');
    if (!filing.ok) return badRequest(filing.message, { reason: 'ALREADY_APPEALED' });
    if (!appealWindowOpen(now, current.appealEndsAt)) return badRequest(M.appealClosed, { reason: 'CLOSED' });
    return null;
  }

  /** The caller's own OTHER uploads only; anything else is one refusal. */
  async function ownFiles(tx: Db, accountId: string, refs: string[]): Promise<string[]> {
    const uniqueNos = refs.map(uniqueNoOf);
    if (uniqueNos.some((u) => u === null)) throw badRequest(M.appealAttachmentInvalid, { field: 'attachments' });
    const wanted = [...new Set(uniqueNos as string[])];
    const rows = (await repo.filesByUniqueNo(tx, wanted)).filter((r) => r.ownerId === accountId && r.origin === APPEAL_ATTACHMENT_ORIGIN);
    if (rows.length !== wanted.length) throw badRequest(M.appealAttachmentInvalid, { field: 'attachments' });
    const byNo = new Map(rows.map((r) => [r.uniqueNo, r.id]));
    return wanted.map((u) => byNo.get(u)!);
  }

  function rowView(f: FoundAppeal, now: Date): AppealRowView {
    const a = f.appeal;
    return {
      id: a.id,
      round: a.round,
      version: a.resultVersion,
      status: a.status,
      projectId: a.prelimId,
      projectName: f.projectName,
      teamId: a.teamId,
      teamName: f.teamName,
      orgName: f.orgName,
      reason: a.reason,
      attachmentCount: a.attachmentIds.length,
      createdAt: iso(a.createdAt),
      dueAt: iso(a.dueAt),
      overdue: a.status === 'SUBMITTED' && a.dueAt < now,
      decidedAt: isoOrNull(a.decidedAt),
      decidedBy: f.deciderName,
      resolvedVersion: a.resolvedVersion,
      rowVersion: a.version,
    };
  }

  async function detail(tx: Db, id: string): Promise<AppealDetail> {
    const found = await repo.findAppeal(tx, id);
    if (!found) throw notFound(M.appealNotFound);
    const a = found.appeal;
    const current = await repo.current(tx, a.round);
    const [entry, currentEntry, history] = await Promise.all([
      repo.entryOf(tx, a.resultVersionId, a.prelimId),
      current ? repo.entryOf(tx, current.id, a.prelimId) : undefined,
      repo.history(tx, a.id, a.prelimId),
    ]);
    return {
      ...rowView(found, deps.now()),
      attachments: await files(tx, a.attachmentIds),
      reply: a.reply,
      rereview: a.rereview ?? null,
      entry: entry ? entryView(entry) : null,
      currentEntry: currentEntry ? entryView(currentEntry) : null,
      history: history.map(
        (h): AppealHistoryEntry => ({
          id: h.id,
          subject: h.subjectType === 'APPEAL' ? 'APPEAL' : 'RESULT',
          fromStatus: h.fromStatus,
          toStatus: h.toStatus,
          reason: h.reason,
          actorRealm: h.actorRealm,
          actorName: h.actorName,
          createdAt: iso(h.createdAt),
        }),
      ),
    };
  }

  /**
   * Reject or accept in one transaction: results lock (shared), the appeal row (FOR UPDATE), its
   * version and state checked, the decision (and for an accept the re-review), history,
   * operation record, the team's notice, and last the score-log entry.
   */
  async function decide(actor: OperationActor, id: string, body: AppealRejectBody | AppealAcceptBody, accept: AppealAcceptBody | null): Promise<AppealDetail> {
    const result = await db.transaction(async (tx) => {
      const peek = await repo.findAppeal(tx, id);
      if (!peek) throw notFound(M.appealNotFound);
      await lockResults(tx, peek.appeal.round, 'shared');
      const round = peek.appeal.round;
      const roundName = ROUND_NAMES[round];
      const projectName = peek.projectName;
      // Experts can only re-score inside the round's review window (the review module's rule);
      // read before the step, refused after the appeal's own state (the guard below).
      const reviewOpen = accept ? phaseState((await deps.settingsOf(tx)).phases[ROUND_PHASE[round]], deps.now()) === 'OPEN' : true;
      // The step on the workflow core: only a SUBMITTED appeal is decided, by an admin; the
      // decision, its history row, the operation record and the team's notice in this transaction.
      const { row: a, to: status } = await deps.workflow.transition(tx, {
        workflow: APPEAL_WORKFLOW,
        action: accept ? 'ACCEPT' : 'REJECT',
        actor,
        reason: body.reply,
        expectedVersion: body.version,
        notFoundMessage: M.appealNotFound,
        lock: (t) => repo.lockAppeal(t, id),
        guard: () => {
          if (!reviewOpen) throw badRequest(M.appealReviewClosed, { reason: 'REVIEW_CLOSED' });
        },
        apply: (t, row, to, at) =>
          repo.updateAppeal(t, row.id, {
            status: to,
            reply: body.reply,
            decidedBy: actor.auth.accountId,
            decidedAt: at,
            rereview: accept ? { mode: accept.mode, expertIds: accept.mode === 'ADD_EXPERTS' ? [...new Set(accept.expertIds)] : [] } : null,
            updatedAt: at,
          }),
        subjectId: (row) => row.id,
        operation: (row) => ({
          action: 'appeal:decide',
          targetType: 'appeal',
          targetId: row.id,
          summary: `${accept ? '受理' : '驳回'}${roundName}结果申诉「${projectName}」（${peek.orgName}）${accept ? `，${accept.mode === 'RETURN_SCORES' ? '退回全部评分复评' : `增加 ${accept.expertIds.length} 名复评专家`}` : ''}；答复：${body.reply}`,
        }),
        notice: (row) => ({ code: accept ? 'APPEAL_ACCEPTED' : 'APPEAL_REJECTED', ownerId: row.ownerId, vars: { projectName, round: roundName, reason: body.reply } }),
      });
      const at = a.decidedAt!;
      if (accept) {
        // The review module's re-review in this transaction (its refusals refuse the decision);
        // after the appeal's own writes, so its score-log entries come right before ours.
        await deps.scoring.rereview(
          actor,
          round,
          a.prelimId,
          { mode: accept.mode === 'RETURN_SCORES' ? 'RETURN_ALL' : 'ADD_EXPERTS', expertIds: accept.expertIds, reason: APPEAL_REREVIEW_REASON },
          tx,
        );
      }
      await appendScoreLog(tx, {
        kind: 'APPEAL_DECIDED',
        round,
        subjectType: 'appeal',
        subjectId: a.id,
        actor: await scoreLogActor(tx, actor.auth),
        payload: {
          appealId: a.id,
          projectId: a.prelimId,
          resultVersion: a.resultVersion,
          decision: status,
          reply: body.reply,
          ...(accept ? { rereview: { mode: accept.mode, expertIds: accept.mode === 'ADD_EXPERTS' ? [...new Set(accept.expertIds)] : [] } } : {}),
        },
        at,
      });
      return detail(tx, a.id);
    });
    deps.afterCommit();
    return result;
  }

  /** The score-log head published with a version (its notice prints it), for the receipt button. */
  async function publishedHead(versionId: string | undefined): Promise<MyRoundResult['anchor']> {
    const a = versionId ? await anchorOfVersion(db, versionId) : undefined;
    return a ? { seq: a.seq, headHash: a.headHash, merkleRoot: a.merkleRoot } : null;
  }

  return {
    /** GET /results/mine: both rounds, the team's line, its appeal and whether it may appeal. */
    async mine(accountId: string): Promise<MyResults> {
      const now = deps.now();
      const project = await repo.projectOfOwner(db, accountId);
      const rounds: MyRoundResult[] = [];
      for (const round of REVIEW_ROUNDS) {
        const current = await repo.current(db, round);
        const entry = current && project ? await repo.entryOf(db, current.id, project.id) : undefined;
        const appeal = project ? await repo.appealOfTeam(db, round, project.teamId) : undefined;
        const why = current ? blocker(current, entry, appeal, now) : null;
        rounds.push({
          round,
          published: !!current,
          version: current?.version ?? null,
          publishedAt: current ? iso(current.publishedAt) : null,
          periodEndsAt: current ? iso(current.periodEndsAt) : null,
          appealEndsAt: current ? iso(current.appealEndsAt) : null,
          inPeriod: !!current && now < current.periodEndsAt,
          appealOpen: !!current && appealWindowOpen(now, current.appealEndsAt),
          newsId: current?.newsId ?? null,
          entry: entry
            ? { projectId: entry.prelimId, projectName: entry.projectName, outcome: entry.outcome, awardName: entry.awardName, rank: entry.rank, trackRank: entry.trackRank, score: entry.score }
            : null,
          appeal: appeal ? await myAppeal(db, appeal) : null,
          canAppeal: !!current && why === null,
          appealBlocker: why?.message ?? null,
          anchor: await publishedHead(current?.id),
        });
      }
      return { now: iso(now), rounds };
    },

    /** POST /results/{r}/appeal */
    async file(accountId: string, round: ReviewRound, input: AppealCreate & { attachments: string[] }): Promise<MyAppeal> {
      const result = await db.transaction(async (tx) => {
        await lockResults(tx, round, 'shared');
        const now = deps.now();
        const current = await repo.current(tx, round);
        const project = await repo.projectOfOwner(tx, accountId);
        const entry = current && project ? await repo.entryOf(tx, current.id, project.id) : undefined;
        const existing = project ? await repo.appealOfTeam(tx, round, project.teamId) : undefined;
        const why = blocker(current, entry, existing, now);
        if (why) throw why;
        const attachmentIds = await ownFiles(tx, accountId, input.attachments);
        const row = await repo.insertAppeal(tx, {
          round,
          resultVersionId: current!.id,
          resultVersion: current!.version,
          teamId: project!.teamId,
          prelimId: project!.id,
          ownerId: accountId,
          reason: input.reason,
          attachmentIds,
          dueAt: current!.periodEndsAt,
          createdAt: now,
          updatedAt: now,
        });
        // Another appeal of the team won the unique (round, team) meanwhile.
        if (!row) throw badRequest(M.appealAlready, { reason: 'ALREADY_APPEALED' });
        // The FILE step on the workflow core: history (the team's name when the account has none)
        // and the team's notice; a participant's step has no operation record.
        const actor: OperationActor = { auth: { accountId, realm: 'USER', username: '' } };
        await deps.workflow.record(tx, {
          workflow: APPEAL_WORKFLOW,
          subjectId: row.id,
          from: null,
          to: deps.workflow.check(APPEAL_WORKFLOW, 'FILE', null, actor, input.reason),
          reason: input.reason,
          actor,
          actorName: project!.teamName,
          notice: {
            code: 'APPEAL_RECEIVED',
            ownerId: accountId,
            vars: { projectName: entry!.projectName, round: ROUND_NAMES[round], periodEnd: beijingMinute(current!.periodEndsAt) },
          },
          at: now,
        });
        return myAppeal(tx, row);
      });
      deps.afterCommit();
      return result;
    },

    async list(q: AppealListQuery): Promise<Page<AppealRowView>> {
      const now = deps.now();
      const { rows, total } = await repo.appealPage(db, { round: q.round, status: q.status, keyword: q.keyword, overdueAt: q.overdue ? now : undefined }, q.page, q.size);
      return { list: rows.map((r) => rowView(r, now)), page: q.page, size: q.size, total };
    },

    detail: (id: string) => detail(db, id),
    reject: (actor: OperationActor, id: string, body: AppealRejectBody) => decide(actor, id, body, null),
    accept: (actor: OperationActor, id: string, body: AppealAcceptBody) => decide(actor, id, body, body),
  };
}
export type AppealsService = ReturnType<typeof createAppealsService>;
