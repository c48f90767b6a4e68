import { randomInt } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  LENIENCY_FACTOR,
  REVIEW_MSG as M,
  ROUND_NAMES,
  calibrate,
  normalisationEffect,
  projectCodeOf,
  round2,
  type CalibrationNoteBody,
  type CalibrationRow,
  type CalibrationView,
  type CutConfidence,
  type CutConfidenceBody,
  type CutConfidenceInput,
  type CutConfidenceProjectView,
  type CutConfidenceRunView,
  type NormalisationQuery,
  type NormalisationView,
  type ReviewRound,
  type ScoringRule,
} from '@contest/shared';
import { notFound } from '../../lib/errors.js';
import { beijingDate, writeXlsx, type XlsxColumn } from '../../lib/xlsx-stream.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { notifyEvent } from '../notices/notify.js';
import { runCutConfidence } from './cut-confidence-runner.js';
import { createJudgingQualityRepository, type CutConfidenceRunRow, type JudgingQualityRepository } from './judging-quality.repository.js';
import type { RoundExpert } from './round-view.js';
import type { RoundScores, RoundScoresCache } from './scores.service.js';
import type { ScoresRepository } from './scores.repository.js';
import type { ReviewDeps } from './review.module.js';

type Deps = Pick<ReviewDeps, 'db' | 'now' | 'view' | 'afterCommit'>;

const FLAG_TEXT = { LENIENT: '偏宽', HARSH: '偏严', DISAGREES: '排序不一致' } as const;
/** A RUNNING row older than this was left by a stopped instance. */
const LOST_AFTER_MS = 15 * 60_000;
const num = (v: number | null | undefined) => (v === null || v === undefined ? '' : round2(v));

/**
 * Judging quality of a round (docs/rules/judging-quality.md): calibration of its experts, the
 * normalisation effect on the cut, and the bootstrap confidence on the cut. The figures come from
 * the pure functions of packages/shared over the input the score query ranks (RoundScores, sealed
 * projects left out), read through the shared cache. The bootstrap runs on a worker thread
 * (cut-confidence-runner.ts) after the request is answered; its row records what it ran with.
 */
export function createJudgingQualityService(
  deps: Deps,
  scoresRepo: ScoresRepository,
  rounds: RoundScoresCache,
  options: { run?: (input: CutConfidenceInput) => Promise<CutConfidence>; repo?: JudgingQualityRepository } = {},
) {
  const repo = options.repo ?? createJudgingQualityRepository();
  const run = options.run ?? runCutConfidence;
  /** Runs of this instance not finished yet (tests wait on them; nothing else does). */
  const inFlight = new Set<Promise<void>>();

  /** The round's experts by id, also those with a sheet who have left the round since. */
  async function expertsOf(scores: RoundScores, ids: readonly string[]): Promise<Map<string, RoundExpert>> {
    const byId = new Map(scores.snapshot.experts.map((e) => [e.id, e]));
    const missing = ids.filter((id) => !byId.has(id));
    for (const e of await deps.view.experts(deps.db, missing)) byId.set(e.id, e);
    return byId;
  }

  async function calibration(round: ReviewRound): Promise<CalibrationView> {
    const scores = await rounds.get(round);
    // Abstentions are counted per expert (docs/rules/review.md, "Abstaining"); no other figure reads them.
    const abstentions = [...scores.snapshot.abstained.values()].flatMap((ids) => [...ids].map((expertId) => ({ expertId })));
    const result = calibrate(scores.input, LENIENCY_FACTOR, abstentions);
    const experts = await expertsOf(scores, result.experts.map((e) => e.expertId));
    const rows: CalibrationRow[] = result.experts.map((e) => {
      const x = experts.get(e.expertId);
      return { ...e, code: x?.code ?? '', name: x?.name ?? '', organization: x?.organization ?? '' };
    });
    rows.sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.expertId < b.expertId ? -1 : 1));
    const panelExperts = result.experts.filter((e) => e.leniency !== null).length;
    return { round, rule: scores.rule, leniencyFactor: LENIENCY_FACTOR, panel: { ...result.panel, experts: panelExperts }, experts: rows };
  }

  const projectView = (scores: RoundScores, id: string) => {
    const p = scores.projectsById.get(id);
    return { projectCode: projectCodeOf(id), projectName: p?.projectName ?? '' };
  };

  function toRunView(row: CutConfidenceRunRow, fingerprint: string, scores: RoundScores | null): CutConfidenceRunView {
    const result = (row.result ?? []) as CutConfidence['projects'];
    const rule = row.rule as unknown as ScoringRule;
    // A run whose instance stopped mid-way (restart, crash) stays RUNNING in its row: after far
    // longer than any bootstrap takes (seconds at 10,000 projects) it is shown as failed.
    const lost = row.status === 'RUNNING' && Date.now() - row.startedAt.getTime() > LOST_AFTER_MS;
    return {
      id: row.id,
      round: row.round,
      status: lost ? 'FAILED' : row.status,
      topN: row.topN,
      perTrack: row.perTrack,
      seed: row.seed,
      rounds: row.rounds,
      aggregate: rule.aggregate,
      stale: row.fingerprint !== fingerprint,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      startedBy: row.actorName,
      error: lost ? 'interrupted' : row.error,
      projects: result.map(
        (p): CutConfidenceProjectView => ({
          ...p,
          ...(scores ? projectView(scores, p.projectId) : { projectCode: projectCodeOf(p.projectId), projectName: '' }),
        }),
      ),
    };
  }

  /** The result's projects in the declared ranking's order (unranked last), as the console reads down. */
  function inRankOrder(scores: RoundScores, result: CutConfidence): CutConfidence['projects'] {
    const order = new Map(scores.aggregate.projects.map((a, i) => [a.projectId, i]));
    return [...result.projects].sort((a, b) => (order.get(a.projectId) ?? Infinity) - (order.get(b.projectId) ?? Infinity));
  }

  return {
    calibration,

    /** 导出 of the calibration page: one row per expert, the figures as shown (2 decimals). */
    async calibrationExport(actor: OperationActor, round: ReviewRound, action: string): Promise<{ stream: Readable; fileName: string; rows: number }> {
      const view = await calibration(round);
      const name = ROUND_NAMES[round];
      await deps.db.transaction((tx) =>
        recordOperation(tx, actor, { action, targetType: 'score', summary: `导出${name}专家评分校准 ${view.experts.length} 名专家` }),
      );
      const columns: XlsxColumn[] = [
        { header: '专家编号', key: 'code', width: 12 },
        { header: '专家姓名', key: 'name', width: 12 },
        { header: '所在单位', key: 'organization', width: 30 },
        { header: '已评项目数', key: 'scored', width: 12 },
        { header: '与他人共评项目数', key: 'sharedProjects', width: 16 },
        { header: '平均总分', key: 'meanTotal', width: 10 },
        { header: '宽严度', key: 'leniency', width: 10 },
        { header: '离散度', key: 'spread', width: 10 },
        { header: '排序一致性', key: 'agreement', width: 12 },
        { header: '提示', key: 'flags', width: 20 },
      ];
      const rows = view.experts.map((e) => ({
        code: e.code,
        name: e.name,
        organization: e.organization,
        scored: e.scored,
        sharedProjects: e.sharedProjects,
        meanTotal: num(e.meanTotal),
        leniency: num(e.leniency),
        spread: num(e.spread),
        agreement: num(e.agreement),
        flags: e.flags.map((f) => FLAG_TEXT[f]).join('、'),
      }));
      const panel = [
        { item: '专家组宽严度均值', value: num(view.panel.leniencyMean) },
        { item: '专家组宽严度标准差', value: num(view.panel.leniencySd) },
        { item: '参与计算的专家数', value: view.panel.experts },
        { item: '偏宽/偏严阈值（标准差倍数）', value: view.leniencyFactor },
      ];
      const stream = writeXlsx([
        { name: '专家校准', columns, rows },
        { name: '专家组', columns: [{ header: '项目', key: 'item', width: 28 }, { header: '数值', key: 'value', width: 12 }], rows: panel },
      ]);
      return { stream, fileName: `${name}专家评分校准_${beijingDate(deps.now())}.xlsx`, rows: rows.length };
    },

    /**
     * A private in-site note to one expert of the round on their scoring (template
     * REVIEW_CALIBRATION_NOTE, through notifyEvent like every notice), with its operation
     * record, in one transaction. An expert who is neither in the round nor has a sheet in it: 404.
     */
    async note(actor: OperationActor, round: ReviewRound, body: CalibrationNoteBody, action: string): Promise<void> {
      const scores = await rounds.get(round);
      const scored = scores.input.some((p) => p.sheets.some((s) => s.expertId === body.expertId));
      const inRound = scores.snapshot.experts.some((e) => e.id === body.expertId);
      if (!scored && !inRound) throw notFound(M.expertNotFound);
      const [expert] = await deps.view.experts(deps.db, [body.expertId]);
      if (!expert) throw notFound(M.expertNotFound);
      const name = ROUND_NAMES[round];
      await deps.db.transaction(async (tx) => {
        await notifyEvent(tx, { code: 'REVIEW_CALIBRATION_NOTE', accountIds: [expert.id], vars: { round: name, reason: body.text }, senderId: actor.auth.accountId });
        await recordOperation(tx, actor, {
          action,
          targetType: 'expert',
          targetId: expert.id,
          summary: `向专家 ${expert.code} 发送${name}评分校准说明`,
        });
      });
      deps.afterCommit();
    },

    async normalisation(round: ReviewRound, q: NormalisationQuery): Promise<NormalisationView> {
      const scores = await rounds.get(round);
      const effect = normalisationEffect(
        { projects: scores.input, criteria: scores.criteria, rule: scores.rule, divergenceThreshold: scores.threshold },
        { topN: q.topN, perTrack: q.perTrack },
      );
      return {
        round,
        declared: effect.declared,
        alternatives: effect.alternatives,
        topN: effect.topN,
        perTrack: effect.perTrack,
        moves: effect.moves.map((m) => ({ projectId: m.projectId, ...projectView(scores, m.projectId), track: m.track, under: m.under })),
      };
    },

    /**
     * Starts a bootstrap (a random 32-bit seed from crypto when none is given, recorded): the
     * RUNNING row is written and answered at once; the worker thread computes, then the row is
     * finished DONE with the result, or FAILED with the error.
     */
    async startCutConfidence(actor: OperationActor, round: ReviewRound, body: CutConfidenceBody, action: string): Promise<CutConfidenceRunView> {
      const { fingerprint, scores } = await rounds.current(round);
      const seed = body.seed ?? randomInt(0, 2 ** 32);
      const actorName = await scoresRepo.accountName(deps.db, actor.auth.accountId, actor.auth.username);
      const row = await deps.db.transaction(async (tx) => {
        const inserted = await repo.insertRun(tx, {
          round,
          status: 'RUNNING',
          topN: body.topN,
          perTrack: body.perTrack,
          seed,
          rounds: body.rounds,
          rule: { ...scores.rule },
          fingerprint,
          actorId: actor.auth.accountId,
          actorName,
        });
        await recordOperation(tx, actor, {
          action,
          targetType: 'score',
          targetId: inserted.id,
          summary: `计算${ROUND_NAMES[round]}${round === 'PRELIMINARY' ? '晋级线' : '名次线'}置信度：前 ${body.topN} 名${body.perTrack ? '（各参赛方向）' : ''}，抽样 ${body.rounds} 次，随机种子 ${seed}`,
        });
        return inserted;
      });
      // Only what the bootstrap reads crosses to the thread (not each sheet's criteria).
      const projects = scores.input.map((p) => ({ ...p, sheets: p.sheets.map((s) => ({ expertId: s.expertId, total: s.total, scores: {} })) }));
      const job = (async () => {
        try {
          const result = await run({ projects, rule: scores.rule, topN: body.topN, seed, rounds: body.rounds });
          await repo.finishRun(deps.db, row.id, { status: 'DONE', result: inRankOrder(scores, result), error: null, finishedAt: new Date() });
        } catch (err) {
          await repo.finishRun(deps.db, row.id, { status: 'FAILED', result: null, error: String((err as Error)?.message ?? err).slice(0, 500), finishedAt: new Date() }).catch(() => undefined);
        }
      })();
      inFlight.add(job);
      void job.finally(() => inFlight.delete(job));
      return toRunView(row, fingerprint, scores);
    },

    /** The latest run of the round (null when none ran yet), `stale` against the inputs now. */
    async latestCutConfidence(round: ReviewRound): Promise<CutConfidenceRunView | null> {
      const row = await repo.latestRun(deps.db, round);
      if (!row) return null;
      const { fingerprint, scores } = await rounds.current(round);
      return toRunView(row, fingerprint, scores);
    },

    /**
     * The promotion preview's figures: per project its share of draws inside the cut and the
     * on-cut mark, from the latest finished run of the round with this N when it is fresh (the
     * inputs unchanged since it started); null otherwise.
     */
    async freshCut(round: ReviewRound, topN: number, perTrack: boolean, fingerprint: string): Promise<Map<string, { p: number | null; onCut: boolean }> | null> {
      const row = await repo.latestDone(deps.db, round);
      if (!row || row.topN !== topN || row.fingerprint !== fingerprint) return null;
      const out = new Map<string, { p: number | null; onCut: boolean }>();
      for (const p of (row.result ?? []) as CutConfidence['projects']) {
        out.set(p.projectId, perTrack ? { p: p.pTrack, onCut: p.onCutTrack } : { p: p.pOverall, onCut: p.onCutOverall });
      }
      return out;
    },

    /** Waits for this instance's runs in flight (tests). */
    async settle(): Promise<void> {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}
export type JudgingQualityService = ReturnType<typeof createJudgingQualityService>;
