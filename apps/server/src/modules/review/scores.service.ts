import {
  REVIEW_MSG as M,
  ROUND_NAMES,
  ROUND_PHASE,
  aggregateRound,
  type AdminSheetView,
  type ConflictView,
  type Criterion,
  type MonitorExpertDetail,
  type MonitorExpertQuery,
  type MonitorExpertRow,
  type MonitorProjectQuery,
  type MonitorProjectRow,
  type Page,
  type PrelimDocStatus,
  type ProjectAggregate,
  type ProjectScores,
  type RemindExpertsBody,
  type RemindExpertsResult,
  type ReplacementSuggestion,
  type ReviewRound,
  type RoundAggregate,
  type ScoreDetail,
  type ScoreExportQuery,
  type ScoreList,
  type ScoreQuery,
  type ScoreRow,
  type ScoringRule,
  type SheetScore,
  type SheetViewStatus,
  type StatusHistoryEntry,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { MASKED_PII } from '../../lib/pii.js';
import { beijingTime } from '../../lib/xlsx-stream.js';
import type { OperationActor } from '../audit/operation-log.js';
import { beijingDay } from '../workflow/reminders.js';
import { createScoresRepository, reminderSubject, type ScoresRepository, type SheetRow } from './scores.repository.js';
import type { ReviewDeps } from './review.module.js';
import { conflictOf, type RoundProject, type RoundSnapshot } from './round-view.js';
import type { ScoreSeal } from './score-seal.js';

type Deps = Pick<ReviewDeps, 'db' | 'now' | 'view' | 'rubrics' | 'settingsOf' | 'reminders' | 'afterCommit'>;

/** Half points (as stored) to points. */
export const points = (halfPoints: number | null | undefined, scores?: Readonly<Record<string, number>>): number =>
  halfPoints !== null && halfPoints !== undefined ? halfPoints / 2 : Object.values(scores ?? {}).reduce((s, v) => s + v, 0);

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** A round's scores computed from its snapshot: what the query, the export, monitoring and promotion read. */
export interface RoundScores {
  round: ReviewRound;
  rule: ScoringRule;
  criteria: Criterion[];
  threshold: number;
  /** Projects whose scores are sealed now: left out of the computation, masked in the detail. */
  sealed: ReadonlySet<string>;
  snapshot: RoundSnapshot;
  /** The aggregation's input (sealed projects' sheets left out): what judging quality computes from. */
  input: ProjectScores[];
  aggregate: RoundAggregate;
  byId: Map<string, ProjectAggregate>;
  projectsById: Map<string, RoundProject>;
}

/**
 * Aggregates and ranks a round. Every submitted sheet of a project of the round counts, also
 * one of an expert who no longer scores it (moved group, later conflict): a submitted score is
 * only taken back by returning it. `expected` is the project's scorers now.
 */
export async function computeRound(
  deps: Pick<Deps, 'view' | 'rubrics' | 'settingsOf'> & { seal?: ScoreSeal },
  repo: ScoresRepository,
  tx: Db,
  round: ReviewRound,
): Promise<RoundScores> {
  const [settings, rubric, snapshot, allSheets, sealed] = await Promise.all([
    deps.settingsOf(tx),
    deps.rubrics.get(tx, round),
    deps.view.snapshot(tx, round),
    repo.submittedScores(tx, round),
    deps.seal ? deps.seal.sealed(tx, round) : Promise.resolve(new Set<string>()),
  ]);
  // Sealed projects (the live final, docs/live-final.md, "Sealing") count no score until the seal lifts.
  const sheets = sealed.size ? allSheets.filter((s) => !sealed.has(s.prelimId)) : allSheets;
  const rule = settings.review.rules[round];
  const threshold = settings.review.divergenceThreshold;
  const byProject = new Map<string, SheetScore[]>();
  for (const s of sheets) {
    const list = byProject.get(s.prelimId);
    const sheet = { expertId: s.expertId, total: points(s.total, s.scores), scores: s.scores };
    if (list) list.push(sheet);
    else byProject.set(s.prelimId, [sheet]);
  }
  const projects: ProjectScores[] = snapshot.projects.map((p) => ({
    projectId: p.id,
    track: p.track,
    expected: snapshot.scorers.get(p.id)?.length ?? 0,
    sheets: byProject.get(p.id) ?? [],
  }));
  const aggregate = aggregateRound({ projects, criteria: rubric.criteria, rule, divergenceThreshold: threshold });
  return {
    round,
    rule,
    criteria: rubric.criteria,
    threshold,
    sealed,
    snapshot,
    input: projects,
    aggregate,
    byId: new Map(aggregate.projects.map((a) => [a.projectId, a])),
    projectsById: new Map(snapshot.projects.map((p) => [p.id, p])),
  };
}

/**
 * The round's scores, computed once per state of the data: each call reads the fingerprint of
 * every input (scores.repository fingerprint, ~0.1 s at 10,000 projects) and recomputes only
 * when it changed (seconds at that size). A change committed by anyone (an expert's submit, a
 * group edit, a setting) is seen by the next call; the fingerprint is read before the
 * computation, so a change landing during it only causes one more computation later. Calls
 * with the same fingerprint share the computation in flight. Outside transactions only: a
 * transaction computes for itself (sharing a computation that reads through `db` would wait on
 * the connection the transaction holds, on PGlite).
 */
export function createRoundScores(deps: Pick<Deps, 'db' | 'view' | 'rubrics' | 'settingsOf'> & { seal?: ScoreSeal }, repo: ScoresRepository) {
  const cache = new Map<ReviewRound, { fingerprint: string; value: Promise<RoundScores> }>();
  /** The fingerprint of the round's inputs now (the seal included). */
  const fingerprint = async (round: ReviewRound) => {
    const sealed = deps.seal ? [...(await deps.seal.sealed(deps.db, round))].sort().join(',') : '';
    return `${await repo.fingerprint(deps.db, round)}|${sealed}`;
  };
  /** The scores with the fingerprint read before they were computed (judging quality records it). */
  async function current(round: ReviewRound): Promise<{ fingerprint: string; scores: RoundScores }> {
    const fp = await fingerprint(round);
    const hit = cache.get(round);
    if (hit?.fingerprint === fp) return { fingerprint: fp, scores: await hit.value };
    const value = computeRound(deps, repo, deps.db, round);
    cache.set(round, { fingerprint: fp, value });
    value.catch(() => {
      if (cache.get(round)?.value === value) cache.delete(round);
    });
    return { fingerprint: fp, scores: await value };
  }
  return {
    fingerprint,
    current,
    async get(round: ReviewRound): Promise<RoundScores> {
      return (await current(round)).scores;
    },
  };
}
export type RoundScoresCache = ReturnType<typeof createRoundScores>;

const contains = (needle: string | undefined) => {
  const k = needle?.trim().toLowerCase();
  return k ? (...hay: (string | null | undefined)[]) => hay.some((h) => h?.toLowerCase().includes(k)) : () => true;
};

/**
 * The projects of the score query in rank order. The filters apply after ranking, so a project
 * keeps its rank in the round (and in its track) whatever the admin narrows the list to.
 */
export function scoreMatches(scores: RoundScores, filter: ScoreExportQuery): { a: ProjectAggregate; p: RoundProject }[] {
  const match = contains(filter.keyword);
  const out: { a: ProjectAggregate; p: RoundProject }[] = [];
  for (const a of scores.aggregate.projects) {
    const p = scores.projectsById.get(a.projectId);
    if (!p) continue;
    if (filter.track && p.track !== filter.track) continue;
    if (filter.groupId && p.groupId !== filter.groupId) continue;
    if (filter.divergent !== undefined && a.divergent !== filter.divergent) continue;
    if (!match(p.projectName, p.teamName, p.orgName)) continue;
    out.push({ a, p });
  }
  return out;
}

/** One row of the score query (built only for the rows sent: a round holds thousands). */
export const scoreRow = ({ a, p }: { a: ProjectAggregate; p: RoundProject }): ScoreRow => ({
  ...a,
  projectName: p.projectName,
  teamName: p.teamName,
  orgName: p.orgName,
  groupName: p.groupName,
});

const paged = <T>(rows: T[], page: number, size: number): Page<T> => ({ list: rows.slice((page - 1) * size, page * size), page, size, total: rows.length });

/** Per expert of a round: the projects they score now (from the snapshot, no query per expert). */
function assignmentsOf(snapshot: RoundSnapshot): Map<string, Map<string, { extra: boolean }>> {
  const out = new Map<string, Map<string, { extra: boolean }>>();
  for (const [projectId, scorers] of snapshot.scorers) {
    for (const s of scorers) {
      // A disabled expert scores nothing (as projectsOfExpert answers), even a re-review addition.
      if (!s.expert.enabled) continue;
      let mine = out.get(s.expert.id);
      if (!mine) out.set(s.expert.id, (mine = new Map()));
      mine.set(projectId, { extra: s.extra });
    }
  }
  return out;
}

const groupOfExpert = (snapshot: RoundSnapshot) => {
  const out = new Map<string, string>();
  for (const g of snapshot.groups) for (const id of g.expertIds) out.set(id, g.name);
  return out;
};

/**
 * Who could replace an expert who abstained from `p` (docs/rules/review.md, "Abstaining"): enabled
 * experts of the round's groups whose tracks cover the project's (any, for a project without a
 * track), not scoring it, not abstained from it, not in conflict; fewest projects first, then code.
 */
export function replacementsFor(snapshot: RoundSnapshot, p: RoundProject, load: ReadonlyMap<string, number>, limit = 5): ReplacementSuggestion[] {
  const scoring = new Set((snapshot.scorers.get(p.id) ?? []).map((s) => s.expert.id));
  const abstained = snapshot.abstained.get(p.id) ?? new Set<string>();
  const byId = new Map(snapshot.experts.map((e) => [e.id, e]));
  const groupOf = groupOfExpert(snapshot);
  const out: ReplacementSuggestion[] = [];
  for (const g of snapshot.groups) {
    for (const id of g.expertIds) {
      const e = byId.get(id);
      if (!e || !e.enabled || scoring.has(id) || abstained.has(id) || out.some((x) => x.expertId === id)) continue;
      if (p.track && !e.tracks.includes(p.track)) continue;
      if (conflictOf(e, p)) continue;
      out.push({ expertId: id, code: e.code, name: e.name, groupName: groupOf.get(id) ?? null, projects: load.get(id) ?? 0 });
    }
  }
  return out.sort((a, b) => a.projects - b.projects || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)).slice(0, limit);
}

type SheetState = Awaited<ReturnType<ScoresRepository['sheetStates']>>[number];

function toSheetView(s: SheetRow, dropped: boolean, revisions: AdminSheetView['revisions']): AdminSheetView {
  return {
    id: s.id,
    status: s.status,
    scores: s.scores,
    comment: s.comment,
    total: points(s.total, s.scores),
    version: s.version,
    returnReason: s.returnReason,
    submittedAt: iso(s.submittedAt),
    updatedAt: s.updatedAt.toISOString(),
    dropped,
    revisions,
  };
}

export function createScoresService(deps: Deps & { seal?: ScoreSeal }, repo: ScoresRepository = createScoresRepository(), rounds: RoundScoresCache = createRoundScores(deps, repo)) {
  const { db } = deps;

  /** Every expert of the round (in a group or added for re-review) with their progress, in code order. */
  async function monitorExperts(round: ReviewRound) {
    const [snapshot, sheets, reminded] = await Promise.all([
      deps.view.snapshot(db, round),
      repo.sheetStates(db, round),
      repo.remindedOn(db, round, beijingDay(deps.now())),
    ]);
    const assigned = assignmentsOf(snapshot);
    const groupName = groupOfExpert(snapshot);
    const sheetsOf = new Map<string, SheetState[]>();
    for (const s of sheets) {
      const list = sheetsOf.get(s.expertId);
      if (list) list.push(s);
      else sheetsOf.set(s.expertId, [s]);
    }
    const rows: MonitorExpertRow[] = snapshot.experts.map((e) => {
      const mine = assigned.get(e.id) ?? new Map();
      const own = sheetsOf.get(e.id) ?? [];
      const count = (status: SheetState['status']) => own.filter((s) => s.status === status && mine.has(s.prelimId)).length;
      const submitted = count('SUBMITTED');
      const last = own.reduce<Date | null>((m, s) => (!m || s.updatedAt > m ? s.updatedAt : m), null);
      return {
        expertId: e.id,
        code: e.code,
        name: e.name,
        groupName: groupName.get(e.id) ?? null,
        assigned: mine.size,
        submitted,
        draft: count('DRAFT'),
        returned: count('RETURNED'),
        remaining: mine.size - submitted,
        lastActivityAt: iso(last),
        remindedToday: reminded.has(e.id),
      };
    });
    return { snapshot, rows, sheetsOf, assigned };
  }

  return {
    async list(round: ReviewRound, q: ScoreQuery): Promise<ScoreList> {
      const { page, size, ...filter } = q;
      const scores = await rounds.get(round);
      const matches = scoreMatches(scores, filter);
      const rows = { list: matches.slice((page - 1) * size, page * size).map(scoreRow), page, size, total: matches.length };
      return {
        round,
        rule: scores.rule,
        criteria: scores.criteria,
        divergenceThreshold: scores.threshold,
        roundMean: scores.aggregate.roundMean,
        roundSd: scores.aggregate.roundSd,
        ...rows,
      };
    },

    async detail(round: ReviewRound, id: string): Promise<ScoreDetail> {
      const scores = await rounds.get(round);
      const p = scores.projectsById.get(id);
      const aggregate = scores.byId.get(id);
      if (!p || !aggregate) throw notFound(M.projectNotFound);
      const sheets = await repo.sheetsOfProject(db, round, id);
      const sheetIds = sheets.map((s) => s.id);
      const [revisions, history] = await Promise.all([repo.revisions(db, sheetIds), repo.sheetHistory(db, sheetIds)]);
      const scorers = scores.snapshot.scorers.get(id) ?? [];
      // Experts with a sheet who no longer score the project stay visible (their sheet still counts).
      const others = sheets.filter((s) => !scorers.some((x) => x.expert.id === s.expertId)).map((s) => s.expertId);
      const otherExperts = await deps.view.experts(db, others);
      const dropped = new Set(aggregate.droppedExpertIds);
      const sealed = scores.sealed.has(id);
      const sheetOf = (expertId: string) => {
        const s = sheets.find((x) => x.expertId === expertId);
        if (!s) return null;
        // Sealed (live final): whether each expert has scored, never what.
        if (sealed) return { ...toSheetView({ ...s, scores: {}, total: 0, comment: '' }, false, []), sealed: true };
        const revs = revisions
          .filter((r) => r.sheetId === s.id)
          .map((r) => ({
            scores: r.scores,
            total: points(r.total),
            comment: r.comment,
            submittedAt: r.submittedAt.toISOString(),
            returnedAt: r.returnedAt.toISOString(),
            returnedBy: r.returnedByName,
            reason: r.reason,
          }));
        return toSheetView(s, s.status === 'SUBMITTED' && dropped.has(expertId), revs);
      };
      const experts: ScoreDetail['experts'] = [
        ...scorers.map((x) => ({ expertId: x.expert.id, expertCode: x.expert.code, expertName: x.expert.name, extra: x.extra, sheet: sheetOf(x.expert.id) })),
        ...otherExperts.map((e) => ({ expertId: e.id, expertCode: e.code, expertName: e.name, extra: false, sheet: sheetOf(e.id) })),
      ];
      const conflicts: ConflictView[] = (scores.snapshot.conflicts.get(id) ?? []).map((c) => ({
        expertId: c.expert.id,
        expertCode: c.expert.code,
        expertName: c.expert.name,
        cause: c.cause,
      }));
      return {
        round,
        project: { id: p.id, projectName: p.projectName, teamName: p.teamName, orgName: p.orgName, track: p.track, groupId: p.groupId, groupName: p.groupName },
        sealed,
        aggregate,
        rule: scores.rule,
        criteria: scores.criteria,
        divergenceThreshold: scores.threshold,
        experts,
        conflicts,
        history: history.map(
          (h): StatusHistoryEntry => ({
            id: h.id,
            // The entry type names the materials' states; a sheet's (DRAFT / SUBMITTED / RETURNED) travel in the same fields.
            fromStatus: h.fromStatus as PrelimDocStatus | null,
            toStatus: h.toStatus as PrelimDocStatus,
            reason: h.reason,
            actorRealm: h.actorRealm,
            actorName: h.actorName,
            createdAt: h.createdAt.toISOString(),
          }),
        ),
      };
    },

    async monitorExperts(round: ReviewRound, q: MonitorExpertQuery): Promise<Page<MonitorExpertRow>> {
      const { rows, snapshot } = await monitorExperts(round);
      const match = contains(q.keyword);
      const inGroup = q.groupId ? new Set(snapshot.groups.find((g) => g.id === q.groupId)?.expertIds ?? []) : null;
      const org = new Map(snapshot.experts.map((e) => [e.id, e.organization]));
      const list = rows.filter((r) => (!inGroup || inGroup.has(r.expertId)) && (!q.late || r.remaining > 0) && (q.late !== false || r.remaining === 0) && match(r.code, r.name, org.get(r.expertId)));
      return paged(list, q.page, q.size);
    },

    async monitorExpert(round: ReviewRound, expertId: string): Promise<MonitorExpertDetail> {
      const { rows, snapshot, sheetsOf, assigned } = await monitorExperts(round);
      const row = rows.find((r) => r.expertId === expertId);
      const expert = snapshot.experts.find((e) => e.id === expertId);
      if (!row || !expert) throw notFound(M.expertNotFound);
      const mine = assigned.get(expertId) ?? new Map<string, { extra: boolean }>();
      const own = new Map((sheetsOf.get(expertId) ?? []).map((s) => [s.prelimId, s]));
      const sealed = deps.seal ? await deps.seal.sealed(db, round) : new Set<string>();
      // snapshot.projects is in list order (project name, id), as the expert's own list.
      const projects = snapshot.projects
        .filter((p) => mine.has(p.id))
        .map((p) => {
          const s = own.get(p.id);
          return {
            id: p.id,
            projectName: p.projectName,
            track: p.track,
            status: (s?.status ?? 'NONE') as SheetViewStatus,
            // A sealed live-final project shows that the expert scored, not what.
            total: s && !sealed.has(p.id) ? points(s.total) : null,
            updatedAt: iso(s?.updatedAt),
            submittedAt: iso(s?.submittedAt),
            groupName: p.groupName,
            extra: mine.get(p.id)!.extra,
          };
        });
      // The phone masked (lib/pii.ts); GET /admin/pii/expert/:id has it in full.
      return { expert: { ...row, phone: MASKED_PII.phone(expert.phone), organization: expert.organization }, projects };
    },

    async monitorProjects(round: ReviewRound, q: MonitorProjectQuery): Promise<Page<MonitorProjectRow>> {
      const [snapshot, sheets, settings] = await Promise.all([deps.view.snapshot(db, round), repo.sheetStates(db, round), deps.settingsOf()]);
      const threshold = settings.review.divergenceThreshold;
      const byProject = new Map<string, SheetState[]>();
      for (const s of sheets) {
        const list = byProject.get(s.prelimId);
        if (list) list.push(s);
        else byProject.set(s.prelimId, [s]);
      }
      const match = contains(q.keyword);
      const rows: MonitorProjectRow[] = [];
      const load = new Map([...assignmentsOf(snapshot)].map(([id, mine]) => [id, mine.size]));
      for (const p of snapshot.projects) {
        if (q.groupId && p.groupId !== q.groupId) continue;
        if (q.track && p.track !== q.track) continue;
        if (!match(p.projectName, p.teamName, p.orgName)) continue;
        const own = byProject.get(p.id) ?? [];
        const totals = own.filter((s) => s.status === 'SUBMITTED').map((s) => points(s.total));
        const expected = snapshot.scorers.get(p.id)?.length ?? 0;
        // The same spread and flag as the aggregation (max - min of submitted totals; flagged above the threshold).
        const spread = totals.length ? Math.max(...totals) - Math.min(...totals) : null;
        const abstained = snapshot.abstained.get(p.id)?.size ?? 0;
        const added = snapshot.scorers.get(p.id)?.filter((s) => s.extra).length ?? 0;
        const needsScorer = abstained > added;
        const row: MonitorProjectRow = {
          id: p.id,
          projectName: p.projectName,
          track: p.track,
          groupName: p.groupName,
          scoresIn: totals.length,
          expected,
          drafts: own.filter((s) => s.status === 'DRAFT').length,
          spread,
          divergent: spread !== null && spread > threshold,
          abstained,
          needsScorer,
          replacements: needsScorer ? replacementsFor(snapshot, p, load) : [],
        };
        if (q.incomplete === true && row.scoresIn >= row.expected) continue;
        if (q.incomplete === false && row.scoresIn < row.expected) continue;
        rows.push(row);
      }
      return paged(rows, q.page, q.size);
    },

    /**
     * 提醒专家: the chosen experts (or, `all`, every expert of the round) who still have
     * something to submit, once per expert per Beijing day. An expert who is done, was reminded
     * today already, or is not an expert of the round is counted in `skipped`. When nobody is
     * left to remind the answer is 200 with reminded 0 (not a 400): the page shows the count,
     * and a list refreshed meanwhile is not an error. The operation record comes from the
     * reminders (written only when someone was reminded).
     */
    async remind(actor: OperationActor, round: ReviewRound, body: RemindExpertsBody, remindCode: string): Promise<RemindExpertsResult> {
      const { rows } = await monitorExperts(round);
      const wanted = new Set(body.expertIds);
      const chosen = body.all ? rows : rows.filter((r) => wanted.has(r.expertId));
      const requested = body.all ? rows.length : wanted.size;
      const targets = chosen.filter((r) => r.remaining > 0).map((r) => ({ id: r.expertId, ownerId: r.expertId }));
      const name = ROUND_NAMES[round];
      const end = (await deps.settingsOf()).phases[ROUND_PHASE[round]]?.end;
      const by = end ? `请在 ${beijingTime(new Date(end)).slice(0, 16)}（北京时间）前` : '请尽快';
      const result = await deps.reminders.remind(db, {
        subjectType: reminderSubject(round),
        targets,
        actor,
        notice: { code: 'REVIEW_REMIND', vars: { round: name, deadlineHint: by } },
        operation: { action: remindCode, targetType: 'expert', what: `未完成${name}评分的专家` },
      });
      deps.afterCommit();
      return { reminded: result.reminded, skipped: requested - result.reminded };
    },
  };
}
export type ScoresService = ReturnType<typeof createScoresService>;
