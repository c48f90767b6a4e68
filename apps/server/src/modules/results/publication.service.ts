import {
  APPEAL_WORKFLOW,
  RESULTS_MSG as M,
  RESULT_OUTCOME_NAMES,
  REVIEW_ROUNDS,
  ROUND_NAMES,
  RESULT_WORKFLOW,
  canonicalJson,
  isSelectedOutcome,
  round2,
  type AppealCounts,
  type AwardRule,
  type CompareQuery,
  type EntriesQuery,
  type IncompleteProject,
  type LinkedAppeal,
  type NewVersionBody,
  type NewVersionPreview,
  type NewVersionPreviewBody,
  type Page,
  type PromotionRankRow,
  type PublishBody,
  type PublishPreview,
  type PublishResult,
  type ResultEntryView,
  type ResultOutcome,
  type ResultRuleSnapshot,
  type ResultVersionList,
  type ResultVersionView,
  type ResultsOverview,
  type ReviewRound,
  type RoundResultState,
  type ScoreReceipt,
  type ScoringRule,
  type VersionCompare,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { createFinalEntriesService } from '../final-entries/final-entries.service.js';
import { notifyEvent } from '../notices/notify.js';
import { computeRound, type RoundScores } from '../review/scores.service.js';
import { createScoresRepository, type ScoresRepository } from '../review/scores.repository.js';
import type { ReviewDeps } from '../review/review.module.js';
import { anchorHead, anchorOfVersion, buildReceipt, saveAnchor, type ScoreLogHead } from '../score-log/anchors.js';
import { appendScoreLog, scoreLogActor, sha256Hex } from '../score-log/score-log.js';
import { beijingMinute, resultNotice } from './results-notice.js';
import { assignAwards, compareEntries, normaliseAwards, selectPromoted, sortEntries } from './results-rules.js';
import { createPublicationRepository, lockResults, type EntryRow, type PublicationRepository, type ProjectRef, type VersionRow } from './publication.repository.js';

export type PublicationDeps = Pick<ReviewDeps, 'db' | 'now' | 'view' | 'rubrics' | 'settingsOf' | 'workflow' | 'afterCommit'>;

const DAY_MS = 86_400_000;
const iso = (d: Date) => d.toISOString();

/** A version's line as the calls answer it. */
export const entryView = (r: EntryRow): ResultEntryView => ({
  projectId: r.prelimId,
  teamId: r.teamId,
  projectName: r.projectName,
  teamName: r.teamName,
  orgName: r.orgName,
  track: r.track,
  rank: r.rank,
  trackRank: r.trackRank,
  score: r.score,
  outcome: r.outcome,
  awardCode: r.awardCode,
  awardName: r.awardName,
});

/** What a line says to its team: 晋级决赛 / 未晋级决赛 / the award's name / 未获奖. */
export const outcomeText = (e: Pick<ResultEntryView, 'outcome' | 'awardName'>) => (e.outcome === 'AWARDED' && e.awardName ? e.awardName : RESULT_OUTCOME_NAMES[e.outcome]);

const emptyCounts = (): AppealCounts => ({ submitted: 0, rejected: 0, accepted: 0, resolved: 0 });

/** A version built in memory, before it is written (also what the previews answer). */
interface Built {
  rule: ResultRuleSnapshot;
  entries: ResultEntryView[];
  /** Owner account of each project (the team's notices). */
  owners: Map<string, string>;
}

interface Snapshot {
  rule: ResultRuleSnapshot;
  entries: ResultEntryView[];
}

const levelsOf = (entries: readonly ResultEntryView[], awards: AwardRule | null) =>
  (awards?.levels ?? []).map((l) => ({ code: l.code, name: l.name, count: entries.filter((e) => e.awardCode === l.code).length }));

/**
 * 结果发布 (docs/rules/results.md, "Publication"): a round's result published from its frozen ranking as
 * version 1, new versions after re-review, the versions and their comparison. Every write runs
 * in one transaction under the round's results lock (exclusive): the version and its lines, the
 * public notice in 大赛动态, history rows, the operation record, the teams' notices and, last, the
 * score-log entry. docs/api-results.md.
 */
export function createPublicationService(deps: PublicationDeps, repo: PublicationRepository = createPublicationRepository(), reviewRepo: ScoresRepository = createScoresRepository()) {
  const { db } = deps;
  const finals = createFinalEntriesService({ workflow: deps.workflow });

  async function trackNames(tx: Db): Promise<(code: string | null) => string> {
    const labels = await reviewRepo.trackLabels(tx);
    return (code) => (code ? (labels.get(code) ?? code) : '');
  }

  function line(p: ProjectRef, rank: number | null, trackRank: number | null, score: number | null, outcome: ResultOutcome, award: { code: string; name: string } | null): ResultEntryView {
    return {
      projectId: p.id,
      teamId: p.teamId,
      projectName: p.projectName,
      teamName: p.teamName,
      orgName: p.orgName,
      track: p.track,
      rank,
      trackRank,
      score: score === null ? null : round2(score),
      outcome,
      awardCode: award?.code ?? null,
      awardName: award?.name ?? null,
    };
  }

  /**
   * Projects a result cannot be built without: fewer submitted scores than scorers (or none
   * expected), or a draft / returned sheet (a re-review running). `only`: just these projects.
   */
  async function incomplete(tx: Db, round: ReviewRound, scores: RoundScores, only?: ReadonlySet<string>): Promise<IncompleteProject[]> {
    const states = await reviewRepo.sheetStates(tx, round);
    const pending = new Map<string, number>();
    for (const s of states) if (s.status !== 'SUBMITTED') pending.set(s.prelimId, (pending.get(s.prelimId) ?? 0) + 1);
    const out: IncompleteProject[] = [];
    for (const p of scores.snapshot.projects) {
      if (only && !only.has(p.id)) continue;
      const a = scores.byId.get(p.id);
      const count = a?.count ?? 0;
      const expected = a?.expected ?? 0;
      const waiting = pending.get(p.id) ?? 0;
      if (expected === 0 || count < expected || waiting > 0) out.push({ id: p.id, projectName: p.projectName, count, expected, pending: waiting });
    }
    return out;
  }

  // ------------------------------------------------------------------ building versions

  /** Preliminary version 1: the latest promotion's frozen ranking; PROMOTED = in the final now. */
  async function buildPrelimFirst(tx: Db): Promise<Built> {
    const promotion = await repo.latestPromotion(tx);
    if (!promotion) throw badRequest(M.noPromotion, { reason: 'NO_PROMOTION' });
    const [projects, inFinal] = await Promise.all([repo.projectRefs(tx, { approved: true }), reviewRepo.finalInIds(tx)]);
    const ranked = new Map((promotion.ranking as PromotionRankRow[]).map((r) => [r.id, r]));
    const entries = projects.map((p) => {
      const r = ranked.get(p.id);
      return line(p, r?.rank ?? null, r?.trackRank ?? null, r?.ruleScore ?? null, inFinal.has(p.id) ? 'PROMOTED' : 'NOT_PROMOTED', null);
    });
    return {
      rule: {
        round: 'PRELIMINARY',
        scoring: promotion.rule as unknown as ScoringRule,
        selection: { mode: 'PROMOTION', n: null, promotionId: promotion.id, promotionMode: promotion.mode, promotionN: promotion.n },
        awards: null,
      },
      entries: sortEntries(entries),
      owners: new Map(projects.map((p) => [p.id, p.ownerId])),
    };
  }

  /** The final from its ranking now: every project complete, levels by the award rule. */
  async function buildFinal(tx: Db, awards: AwardRule, reason: 'PUBLISH' | 'VERSION', onlyPending?: ReadonlySet<string>): Promise<Built> {
    const scores = await computeRound(deps, reviewRepo, tx, 'FINAL');
    if (scores.snapshot.projects.length === 0) throw badRequest(M.finalNoProjects, { reason: 'NO_PROJECTS' });
    const missing = await incomplete(tx, 'FINAL', scores);
    if (missing.length) {
      // A new version names the unfinished re-reviews first, when that is what holds it.
      const rereview = onlyPending ? missing.filter((m) => onlyPending.has(m.id)) : [];
      if (reason === 'VERSION' && rereview.length) throw badRequest(M.rereviewUnfinished, { reason: 'REREVIEW_UNFINISHED', projects: rereview });
      throw badRequest(M.finalIncomplete, { reason: 'INCOMPLETE', projects: missing });
    }
    const refs = new Map((await repo.projectRefs(tx, { ids: scores.snapshot.projects.map((p) => p.id) })).map((p) => [p.id, p]));
    const aggregates = scores.snapshot.projects.map((p) => scores.byId.get(p.id)!);
    const levels = assignAwards(
      awards,
      aggregates.map((a) => ({ id: a.projectId, rank: a.rank, score: a.ruleScore })),
    );
    const entries = aggregates.map((a) => {
      const level = levels.get(a.projectId) ?? null;
      return line(refs.get(a.projectId)!, a.rank, a.trackRank, a.ruleScore, level ? 'AWARDED' : 'NONE', level);
    });
    return {
      rule: { round: 'FINAL', scoring: scores.rule, selection: null, awards },
      entries: sortEntries(entries),
      owners: new Map([...refs.values()].map((p) => [p.id, p.ownerId])),
    };
  }

  /** How the next preliminary version chooses, by default: as the current one did. */
  function prelimSelection(current: ResultRuleSnapshot, body: NewVersionPreviewBody) {
    const s = current.selection;
    const prevCut =
      s?.mode === 'PROMOTION'
        ? s.promotionMode !== 'PICKED' && s.promotionMode !== null && s.promotionN !== null
          ? { mode: s.promotionMode, n: s.promotionN }
          : null
        : s && s.mode !== 'KEEP' && s.n !== null
          ? { mode: s.mode as 'TOP_OVERALL' | 'TOP_PER_TRACK', n: s.n }
          : null;
    const chosen = body.selection
      ? { mode: body.selection.mode, n: body.selection.n ?? null }
      : prevCut
        ? { mode: prevCut.mode, n: prevCut.n as number | null }
        : { mode: 'KEEP' as const, n: null };
    return { chosen, prevCut };
  }

  /** A later preliminary version: ranks from the current scores, the promoted set by the selection. */
  async function buildPrelimNext(tx: Db, current: Snapshot, body: NewVersionPreviewBody, pendingIds: ReadonlySet<string>): Promise<Built> {
    const scores = await computeRound(deps, reviewRepo, tx, 'PRELIMINARY');
    const rereview = await incomplete(tx, 'PRELIMINARY', scores, pendingIds);
    if (rereview.length) throw badRequest(M.rereviewUnfinished, { reason: 'REREVIEW_UNFINISHED', projects: rereview });
    const projects = await repo.projectRefs(tx, { approved: true });
    const { chosen, prevCut } = prelimSelection(current.rule, body);
    const next = projects.map((p) => {
      const a = scores.byId.get(p.id);
      return { id: p.id, rank: a?.rank ?? null, trackRank: a?.trackRank ?? null, score: a?.ruleScore ?? null };
    });
    const previous = current.entries.map((e) => ({ id: e.projectId, rank: e.rank, trackRank: e.trackRank, promoted: e.outcome === 'PROMOTED' }));
    const promoted = selectPromoted(chosen.mode, chosen.n, next, previous, prevCut);
    const byId = new Map(next.map((r) => [r.id, r]));
    const entries = projects.map((p) => {
      const r = byId.get(p.id)!;
      return line(p, r.rank, r.trackRank, r.score, promoted.has(p.id) ? 'PROMOTED' : 'NOT_PROMOTED', null);
    });
    return {
      rule: {
        round: 'PRELIMINARY',
        scoring: scores.rule,
        selection: { mode: chosen.mode, n: chosen.n, promotionId: null, promotionMode: null, promotionN: null },
        awards: null,
      },
      entries: sortEntries(entries),
      owners: new Map(projects.map((p) => [p.id, p.ownerId])),
    };
  }

  async function snapshotOf(tx: Db, row: VersionRow): Promise<Snapshot> {
    return { rule: row.rule as unknown as ResultRuleSnapshot, entries: sortEntries((await repo.entries(tx, row.id)).map(entryView)) };
  }

  async function buildFirst(tx: Db, round: ReviewRound, body: PublishBody): Promise<Built> {
    if (round === 'PRELIMINARY') {
      if (body.awards) throw badRequest(M.awardsNotForPrelim, { field: 'awards' });
      return buildPrelimFirst(tx);
    }
    if (!body.awards) throw badRequest(M.awardsRequired, { field: 'awards' });
    return buildFinal(tx, normaliseAwards(body.awards), 'PUBLISH');
  }

  /** The next version of a published round (projects of accepted appeals must be re-reviewed). */
  async function buildNext(tx: Db, round: ReviewRound, current: Snapshot, body: NewVersionPreviewBody): Promise<Built> {
    const accepted = (await repo.appealsOfRound(tx, round)).filter((a) => a.status === 'ACCEPTED');
    const pendingIds = new Set(accepted.map((a) => a.prelimId));
    if (round === 'PRELIMINARY') {
      if (body.awards) throw badRequest(M.awardsNotForPrelim, { field: 'awards' });
      return buildPrelimNext(tx, current, body, pendingIds);
    }
    const awards = body.awards ? normaliseAwards(body.awards) : current.rule.awards;
    if (!awards) throw badRequest(M.awardsRequired, { field: 'awards' });
    return buildFinal(tx, awards, 'VERSION', pendingIds);
  }

  async function windows(tx: Db, at: Date) {
    const settings = await deps.settingsOf(tx);
    const days = settings.publicity.days;
    // The window never outlasts the period (settings already refuse it; a stored value is read so too).
    const appealDays = Math.min(settings.appeal.windowDays, days);
    return { contestName: settings.name, periodEndsAt: new Date(at.getTime() + days * DAY_MS), appealEndsAt: new Date(at.getTime() + appealDays * DAY_MS) };
  }

  // ------------------------------------------------------------------ views

  async function versionViews(tx: Db, round: ReviewRound, rows: VersionRow[]): Promise<ResultVersionView[]> {
    const [counts, appealRows] = await Promise.all([repo.entryCounts(tx, rows.map((r) => r.id)), repo.appealCounts(tx, round, deps.now())]);
    return rows.map((r) => {
      const mine = counts.filter((c) => c.versionId === r.id);
      const rule = r.rule as unknown as ResultRuleSnapshot;
      const appeals = emptyCounts();
      for (const a of appealRows.filter((x) => x.versionId === r.id)) appeals[a.status.toLowerCase() as keyof AppealCounts] += a.n;
      return {
        id: r.id,
        round: r.round,
        version: r.version,
        status: r.status,
        publishedAt: iso(r.publishedAt),
        periodEndsAt: iso(r.periodEndsAt),
        appealEndsAt: iso(r.appealEndsAt),
        reason: r.reason,
        actorName: r.actorName,
        newsId: r.newsId,
        rule,
        total: mine.reduce((s, c) => s + c.n, 0),
        selected: mine.filter((c) => isSelectedOutcome(c.outcome as ResultOutcome)).reduce((s, c) => s + c.n, 0),
        levels: (rule.awards?.levels ?? []).map((l) => ({ code: l.code, name: l.name, count: mine.filter((c) => c.awardCode === l.code).reduce((s, c) => s + c.n, 0) })),
        appeals,
      };
    });
  }

  async function versionView(tx: Db, row: VersionRow): Promise<ResultVersionView> {
    return (await versionViews(tx, row.round, [row]))[0]!;
  }

  async function linkedAppeals(tx: Db, round: ReviewRound, upTo: number): Promise<(projectId: string) => LinkedAppeal[]> {
    const rows = (await repo.appealsOfRound(tx, round)).filter((a) => a.resultVersion <= upTo);
    return (projectId) =>
      rows
        .filter((a) => a.prelimId === projectId)
        .map((a) => ({ id: a.id, status: a.status, version: a.resultVersion, reason: a.reason, reply: a.reply, resolvedVersion: a.resolvedVersion, createdAt: iso(a.createdAt) }));
  }

  // ------------------------------------------------------------------ writing a version

  interface WriteInput {
    round: ReviewRound;
    built: Built;
    reason: string | null;
    previous: { row: VersionRow; snapshot: Snapshot } | null;
  }

  /**
   * Writes a version inside `tx` (the results lock held): supersedes the previous, inserts the
   * version and its lines, the public notice (the previous one goes offline), the RESULT history
   * of each line that changed (all on version 1), resolves the accepted appeals, tells the teams.
   * The operation record and the score-log entry (last) are the caller's.
   */
  async function writeVersion(tx: Db, actor: OperationActor, input: WriteInput) {
    const { round, built, reason, previous } = input;
    const at = deps.now();
    const { contestName, periodEndsAt, appealEndsAt } = await windows(tx, at);
    const number = (await repo.lastVersionNumber(tx, round)) + 1;
    const actorName = await repo.accountName(tx, actor.auth.accountId, actor.auth.username);
    if (previous) await repo.supersede(tx, previous.row.id, at);
    const row = await repo.insertVersion(tx, {
      round,
      version: number,
      status: 'PUBLISHED',
      rule: built.rule as unknown as Record<string, unknown>,
      reason,
      actorId: actor.auth.accountId,
      actorName,
      publishedAt: at,
      periodEndsAt,
      appealEndsAt,
    });
    await repo.insertEntries(
      tx,
      built.entries.map((e) => ({
        versionId: row.id,
        prelimId: e.projectId,
        teamId: e.teamId,
        projectName: e.projectName,
        teamName: e.teamName,
        orgName: e.orgName,
        track: e.track,
        rank: e.rank,
        trackRank: e.trackRank,
        score: e.score,
        outcome: e.outcome,
        awardCode: e.awardCode,
        awardName: e.awardName,
      })),
    );

    // The log's head as committed now (every score this version rests on), printed in the notice
    // and kept (score_log_anchors); the PUBLICATION entry appended last records it too.
    const head = await anchorHead(tx);
    const notice = resultNotice({
      head,
      contestName,
      round,
      version: number,
      reason,
      entries: built.entries,
      awards: built.rule.awards,
      publishedAt: at,
      periodEndsAt,
      appealEndsAt,
      trackName: await trackNames(tx),
    });
    const newsId = await repo.insertNews(tx, {
      category: 'CONTEST_DYNAMIC',
      title: notice.title,
      summary: notice.summary,
      body: notice.body,
      source: `${contestName}组委会`,
      status: 'PUBLISHED',
      publishAt: at,
      authorId: actor.auth.accountId,
      createdAt: at,
      updatedAt: at,
    });
    await repo.setNews(tx, row.id, newsId);
    row.newsId = newsId;
    await saveAnchor(tx, { round, resultVersionId: row.id, version: number, newsId, publishedAt: at, head });
    // One current notice in public: the replaced version's goes offline (it stays in the console).
    if (previous?.row.newsId) await repo.newsOffline(tx, previous.row.newsId, at);

    const prevById = new Map((previous?.snapshot.entries ?? []).map((e) => [e.projectId, e]));
    const changed = built.entries.filter((e) => {
      const p = prevById.get(e.projectId);
      return !p || p.outcome !== e.outcome || p.awardCode !== e.awardCode || p.rank !== e.rank || p.score !== e.score;
    });
    const label = `${ROUND_NAMES[round]}结果公示（第 ${number} 版）`;
    // Every changed line on the RESULT workflow (its rank alone may have moved: keepSame).
    await deps.workflow.recordMany(tx, {
      workflow: RESULT_WORKFLOW,
      actor,
      at,
      keepSame: true,
      steps: changed.map((e) => {
        const from = prevById.get(e.projectId)?.outcome ?? null;
        return {
          subjectId: e.projectId,
          from,
          to: deps.workflow.check(RESULT_WORKFLOW, e.outcome, from, actor),
          reason: `${label}：${outcomeText(e)}${e.rank !== null ? `，排名 ${e.rank}` : ''}${reason ? `；更正原因：${reason}` : ''}`,
        };
      }),
    });

    // Accepted appeals end with this version (APPEAL workflow, RESOLVE).
    const resolved = previous ? await repo.lockAccepted(tx, round) : [];
    const steps = [];
    for (const a of resolved) {
      const to = deps.workflow.check(APPEAL_WORKFLOW, 'RESOLVE', a.status, actor);
      await repo.updateAppeal(tx, a.id, { status: to, resolvedVersion: number, resolvedAt: at, updatedAt: at });
      steps.push({ subjectId: a.id, from: a.status, to, reason: `复评结束，已发布第 ${number} 版结果` });
    }
    await deps.workflow.recordMany(tx, { workflow: APPEAL_WORKFLOW, actor, at, steps });

    // The teams: everyone on version 1; later, those whose line changed and the appellants.
    const settings = (await deps.settingsOf(tx)).notify;
    const appellants = new Set(resolved.map((a) => a.prelimId));
    const periodEnd = beijingMinute(periodEndsAt);
    let notified = 0;
    const changedIds = new Set(changed.map((e) => e.projectId));
    for (const e of built.entries) {
      const owner = built.owners.get(e.projectId);
      if (!owner) continue;
      const vars = { projectName: e.projectName, round: ROUND_NAMES[round], result: outcomeText(e), periodEnd };
      if (!previous) {
        await notifyEvent(tx, { code: 'RESULT_PUBLISHED', accountIds: [owner], vars: { ...vars, deadlineHint: `请在 ${beijingMinute(appealEndsAt)}（北京时间）前` }, senderId: actor.auth.accountId, sms: settings.sms, email: settings.email });
        notified++;
      } else if (changedIds.has(e.projectId) || appellants.has(e.projectId)) {
        await notifyEvent(tx, { code: 'RESULT_REVISED', accountIds: [owner], vars: { ...vars, reason: reason ?? '' }, senderId: actor.auth.accountId, sms: settings.sms, email: settings.email });
        notified++;
      }
    }
    return { row, notified, changed, resolved, number, at, head };
  }

  /** The score-log entry of a publication: the version's facts and a digest of every line. */
  async function logPublication(tx: Db, actor: OperationActor, row: VersionRow, built: Built, previous: number | null, resolvedAppeals: string[], head: ScoreLogHead) {
    const lines = [...built.entries]
      .sort((a, b) => (a.projectId < b.projectId ? -1 : a.projectId > b.projectId ? 1 : 0))
      .map((e) => [e.projectId, e.rank, e.score, e.outcome, e.awardCode]);
    await appendScoreLog(tx, {
      kind: 'PUBLICATION',
      round: row.round,
      subjectType: 'result_version',
      subjectId: row.id,
      actor: await scoreLogActor(tx, actor.auth),
      payload: {
        round: row.round,
        version: row.version,
        previousVersion: previous,
        reason: row.reason,
        rule: built.rule,
        periodEndsAt: iso(row.periodEndsAt),
        appealEndsAt: iso(row.appealEndsAt),
        total: built.entries.length,
        selected: built.entries.filter((e) => isSelectedOutcome(e.outcome)).map((e) => (e.awardCode ? [e.projectId, e.awardCode] : e.projectId)),
        resolvedAppeals,
        // [projectId, rank, score, outcome, awardCode] of every line, by project id.
        linesSha256: sha256Hex(canonicalJson(lines)),
        // The head printed in the notice (docs/security.md "Score log: anchors and receipts").
        anchor: { seq: head.seq, hash: head.headHash, merkleRoot: head.merkleRoot },
      },
      at: row.publishedAt,
    });
  }

  /**
   * The final round follows a later preliminary version: projects newly promoted are added, those
   * no longer promoted removed (FINAL workflow, with the version's reason); a project with final
   * scores is never removed this way (400 FINAL_HAS_SCORES). Changes against the previous
   * version only, so hand changes of 决赛项目管理 since stay as they are.
   */
  async function syncFinal(tx: Db, actor: OperationActor, previous: Snapshot, built: Built, reason: string, number: number) {
    const was = new Set(previous.entries.filter((e) => e.outcome === 'PROMOTED').map((e) => e.projectId));
    const now = new Set(built.entries.filter((e) => e.outcome === 'PROMOTED').map((e) => e.projectId));
    const add = [...now].filter((id) => !was.has(id));
    const remove = [...was].filter((id) => !now.has(id));
    if (remove.length) {
      const states = await reviewRepo.sheetStates(tx, 'FINAL');
      const scored = new Set(states.map((s) => s.prelimId));
      const blocked = remove.filter((id) => scored.has(id));
      if (blocked.length) {
        const names = new Map(previous.entries.map((e) => [e.projectId, e.projectName]));
        throw badRequest(M.finalHasScores, { reason: 'FINAL_HAS_SCORES', projects: blocked.map((id) => ({ id, projectName: names.get(id) ?? '' })) });
      }
    }
    const why = `初赛结果更正（第 ${number} 版）：${reason}`;
    const at = deps.now();
    let added = 0;
    let removed = 0;
    // Materials row, then final entry, in id order: the order of every other writer of them.
    for (const id of [...add, ...remove].sort()) {
      const doc = await reviewRepo.lockDoc(tx, id);
      const entry = await finals.lock(tx, id);
      const from = entry?.status ?? null;
      const action = now.has(id) ? 'ADD' : 'REMOVE';
      if ((action === 'ADD' && (from === 'IN' || doc?.status !== 'APPROVED')) || (action === 'REMOVE' && from !== 'IN')) continue;
      await finals.move(tx, { prelimId: id, action, from, reason: why, actor, at });
      if (action === 'ADD') added++;
      else removed++;
    }
    return { added, removed };
  }

  return {
    async overview(): Promise<ResultsOverview> {
      const now = deps.now();
      const rounds: RoundResultState[] = [];
      for (const round of REVIEW_ROUNDS) {
        const current = await repo.current(db, round);
        let blocker: string | null;
        if (current) blocker = M.alreadyPublished;
        else if (round === 'PRELIMINARY') blocker = (await repo.latestPromotion(db)) ? null : M.noPromotion;
        else {
          const scores = await computeRound(deps, reviewRepo, db, 'FINAL');
          blocker = scores.snapshot.projects.length === 0 ? M.finalNoProjects : (await incomplete(db, 'FINAL', scores)).length ? M.finalIncomplete : null;
        }
        const appealRows = await repo.appealCounts(db, round, now);
        const appeals = { ...emptyCounts(), overdue: 0 };
        for (const a of appealRows) {
          appeals[a.status.toLowerCase() as keyof AppealCounts] += a.n;
          appeals.overdue += a.overdue;
        }
        rounds.push({
          round,
          published: !!current,
          current: current ? await versionView(db, current) : null,
          canPublish: blocker === null,
          publishBlocker: blocker,
          inPeriod: !!current && now < current.periodEndsAt,
          appealOpen: !!current && now < current.appealEndsAt,
          appeals,
        });
      }
      return { now: iso(now), rounds };
    },

    /** What publishing would write now; refuses as publishing would. Nothing written. */
    async previewPublish(round: ReviewRound, body: PublishBody): Promise<PublishPreview> {
      return db.transaction(async (tx) => {
        if (await repo.current(tx, round)) throw badRequest(M.alreadyPublished, { reason: 'ALREADY_PUBLISHED' });
        const built = await buildFirst(tx, round, body);
        const at = deps.now();
        const w = await windows(tx, at);
        return {
          round,
          rule: built.rule,
          entries: built.entries,
          total: built.entries.length,
          selected: built.entries.filter((e) => isSelectedOutcome(e.outcome)).length,
          levels: levelsOf(built.entries, built.rule.awards),
          periodEndsAt: iso(w.periodEndsAt),
          appealEndsAt: iso(w.appealEndsAt),
        };
      });
    },

    async publish(actor: OperationActor, round: ReviewRound, body: PublishBody): Promise<PublishResult> {
      const result = await db.transaction(async (tx) => {
        await lockResults(tx, round, 'exclusive');
        if (await repo.lastVersionNumber(tx, round)) throw badRequest(M.alreadyPublished, { reason: 'ALREADY_PUBLISHED' });
        const built = await buildFirst(tx, round, body);
        const written = await writeVersion(tx, actor, { round, built, reason: null, previous: null });
        const selected = built.entries.filter((e) => isSelectedOutcome(e.outcome)).length;
        await recordOperation(tx, actor, {
          action: 'result:publish',
          targetType: 'result_version',
          targetId: written.row.id,
          summary: `发布${ROUND_NAMES[round]}结果（第 1 版）：共 ${built.entries.length} 个项目，${round === 'PRELIMINARY' ? '晋级决赛' : '获奖'} ${selected} 个；公示期至 ${beijingMinute(written.row.periodEndsAt)}`,
        });
        await logPublication(tx, actor, written.row, built, null, [], written.head);
        return { version: await versionView(tx, written.row), notified: written.notified };
      });
      deps.afterCommit();
      return result;
    },

    /**
     * GET /results/{r}/receipt: the caller's project's score-log entries under the head published
     * with the round's current version. Only the caller's own project: any other id, no project,
     * or a project that is not a line of the version answers 404 (nothing says whose it is).
     */
    async receipt(accountId: string, round: ReviewRound, projectId?: string): Promise<ScoreReceipt> {
      const project = await repo.projectOfOwner(db, accountId);
      if (!project || (projectId !== undefined && projectId !== project.id)) throw new AppError('NOT_FOUND', M.receiptNotFound, { reason: 'NOT_FOUND' });
      const current = await repo.current(db, round);
      if (!current) throw badRequest(M.notPublished, { reason: 'NOT_PUBLISHED' });
      const entry = await repo.entryOf(db, current.id, project.id);
      if (!entry) throw new AppError('NOT_FOUND', M.receiptNotFound, { reason: 'NOT_FOUND' });
      const anchor = await anchorOfVersion(db, current.id);
      if (!anchor) throw new AppError('NOT_FOUND', M.receiptNoAnchor, { reason: 'NO_ANCHOR' });
      return buildReceipt(db, anchor, { id: project.id, name: entry.projectName }, deps.now());
    },

    async versions(round: ReviewRound): Promise<ResultVersionList> {
      const rows = await repo.versions(db, round);
      const views = await versionViews(db, round, rows);
      return { round, current: views.find((v) => v.status === 'PUBLISHED') ?? null, versions: views };
    },

    async entries(round: ReviewRound, version: number, q: EntriesQuery): Promise<Page<ResultEntryView>> {
      const row = await repo.versionByNumber(db, round, version);
      if (!row) throw notFound(M.versionNotFound);
      const k = q.keyword?.trim().toLowerCase();
      const list = (await snapshotOf(db, row)).entries.filter(
        (e) =>
          (!q.outcome || e.outcome === q.outcome) &&
          (!q.track || e.track === q.track) &&
          (!k || [e.projectName, e.teamName, e.orgName].some((s) => s.toLowerCase().includes(k))),
      );
      return { list: list.slice((q.page - 1) * q.size, q.page * q.size), page: q.page, size: q.size, total: list.length };
    },

    async compare(round: ReviewRound, q: CompareQuery): Promise<VersionCompare> {
      const [ra, rb] = await Promise.all([repo.versionByNumber(db, round, q.a), repo.versionByNumber(db, round, q.b)]);
      if (!ra || !rb) throw notFound(M.versionNotFound);
      const [sa, sb] = await Promise.all([snapshotOf(db, ra), snapshotOf(db, rb)]);
      const appealsOf = await linkedAppeals(db, round, Math.max(q.a, q.b));
      const { rows, summary } = compareEntries(sa.entries, sb.entries, appealsOf);
      const k = q.keyword?.trim().toLowerCase();
      const lo = Math.min(q.a, q.b);
      const hi = Math.max(q.a, q.b);
      const between = (await repo.versions(db, round)).filter((v) => v.version > lo && v.version <= hi).reverse();
      return {
        round,
        a: await versionView(db, ra),
        b: await versionView(db, rb),
        reasons: between.map((v) => ({ version: v.version, reason: v.reason, publishedAt: iso(v.publishedAt), actorName: v.actorName })),
        rows: rows.filter((r) => (!q.changedOnly || r.changed) && (!k || [r.projectName, r.teamName, r.orgName].some((s) => s.toLowerCase().includes(k)))),
        summary,
      };
    },

    /** The current version against what a new one would be. Nothing written. */
    async previewVersion(round: ReviewRound, body: NewVersionPreviewBody): Promise<NewVersionPreview> {
      return db.transaction(async (tx) => {
        const current = await repo.current(tx, round);
        if (!current) throw badRequest(M.notPublished, { reason: 'NOT_PUBLISHED' });
        const snapshot = await snapshotOf(tx, current);
        const built = await buildNext(tx, round, snapshot, body);
        const appealsOf = await linkedAppeals(tx, round, current.version);
        const { rows, summary } = compareEntries(snapshot.entries, built.entries, appealsOf);
        const resolves = (await repo.appealsOfRound(tx, round)).filter((a) => a.status === 'ACCEPTED').length;
        return { round, current: await versionView(tx, current), rule: built.rule, rows, summary, resolves };
      });
    },

    async publishVersion(actor: OperationActor, round: ReviewRound, body: NewVersionBody): Promise<PublishResult> {
      const result = await db.transaction(async (tx) => {
        await lockResults(tx, round, 'exclusive');
        const current = await repo.current(tx, round);
        if (!current) throw badRequest(M.notPublished, { reason: 'NOT_PUBLISHED' });
        // Serialised with promotions too: this version may change who is in the final.
        if (round === 'PRELIMINARY') await reviewRepo.lockPromotions(tx);
        const snapshot = await snapshotOf(tx, current);
        const built = await buildNext(tx, round, snapshot, body);
        const number = current.version + 1;
        const final = round === 'PRELIMINARY' ? await syncFinal(tx, actor, snapshot, built, body.reason, number) : null;
        const written = await writeVersion(tx, actor, { round, built, reason: body.reason, previous: { row: current, snapshot } });
        const summary = compareEntries(snapshot.entries, built.entries).summary;
        await recordOperation(tx, actor, {
          action: 'result:publish',
          targetType: 'result_version',
          targetId: written.row.id,
          summary:
            `发布${ROUND_NAMES[round]}结果第 ${number} 版（替代第 ${current.version} 版）：变化 ${written.changed.length} 个项目` +
            `（进入 ${summary.IN}、退出 ${summary.OUT}、上升 ${summary.UP}、下降 ${summary.DOWN}），完结申诉 ${written.resolved.length} 件` +
            (final ? `，决赛名单加入 ${final.added} 个、移出 ${final.removed} 个` : '') +
            `；原因：${body.reason}`,
        });
        await logPublication(tx, actor, written.row, built, current.version, written.resolved.map((a) => a.id), written.head);
        return { version: await versionView(tx, written.row), notified: written.notified };
      });
      deps.afterCommit();
      return result;
    },
  };
}
export type PublicationService = ReturnType<typeof createPublicationService>;
