import { createHash } from 'node:crypto';
import {
  REVIEW_MSG as M,
  phaseState,
  round2,
  type PromotionBody,
  type PromotionConfirmBody,
  type PromotionPreview,
  type PromotionRankRow,
  type PromotionRecord,
  type PromotionResult,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { logPromotion } from '../score-log/review-entries.js';
import { createFinalEntriesService } from '../final-entries/final-entries.service.js';
import type { Notice } from '../workflow/workflow.service.js';
import { computeRound, createRoundScores, type RoundScores, type RoundScoresCache } from './scores.service.js';
import { createScoresRepository, type ScoresRepository } from './scores.repository.js';
import type { JudgingQualityService } from './judging-quality.service.js';
import type { ReviewDeps } from './review.module.js';

type Deps = Pick<ReviewDeps, 'db' | 'now' | 'view' | 'rubrics' | 'settingsOf' | 'workflow' | 'afterCommit'>;

/** How the promotion chose, in the final entry's reason and the audit log. */
export function promotionRuleText(body: Pick<PromotionBody, 'mode' | 'n'>): string {
  if (body.mode === 'TOP_OVERALL') return `初赛总排名前 ${body.n} 名`;
  if (body.mode === 'TOP_PER_TRACK') return `初赛各参赛方向排名前 ${body.n} 名`;
  return '人工选定';
}

/**
 * The participant's notice of a promotion (FINAL_PROMOTED). The manual add of 决赛项目管理
 * (prelim.service changeFinal) sends none; a promotion is news for the team, told 晋级决赛
 * (docs/rules/review.md, "Promotion to the final").
 */
export function promotedNotice(doc: { ownerId: string; projectName: string }): Notice {
  return { code: 'FINAL_PROMOTED', ownerId: doc.ownerId, vars: { projectName: doc.projectName } };
}

interface Plan {
  preview: PromotionPreview;
  /** Selected ids in ranking order. */
  selected: string[];
  scores: RoundScores;
}

/**
 * 晋级决赛 (docs/rules/review.md, "Promotion to the final") from the PRELIMINARY ranking:
 * - TOP_OVERALL n: every ranked project with rank <= n. Ties share a rank, so projects tied at
 *   the cut line all go (the count may exceed n; the page shows selectedCount against n). That
 *   is the simple fair rule: no project is left out by a tie the chain could not break.
 * - TOP_PER_TRACK n: every ranked project with trackRank <= n, per track (same tie rule).
 * - PICKED: exactly the ids, each a project of the preliminary round (approved materials);
 *   unranked ones (no score yet) are allowed, the admin chose them by hand.
 * atCutLine: ranked projects left out whose rule score (2 decimals, what the console shows)
 * equals the last selected one's (per track for TOP_PER_TRACK): they lost on the tie-break
 * chain only, which the admin should see before confirming. None for PICKED.
 */
export function createPromotionService(
  deps: Deps,
  repo: ScoresRepository = createScoresRepository(),
  rounds: RoundScoresCache = createRoundScores(deps, repo),
  confidence?: Pick<JudgingQualityService, 'freshCut'>,
) {
  const finals = createFinalEntriesService({ workflow: deps.workflow });
  /** `tx` given: inside the confirm's transaction, computed there (never from the shared cache). */
  async function plan(body: PromotionBody, tx?: Db): Promise<Plan> {
    const db = tx ?? deps.db;
    const [current, inFinal, settings] = await Promise.all([
      tx ? computeRound(deps, repo, tx, 'PRELIMINARY').then((scores) => ({ scores, fingerprint: null })) : rounds.current('PRELIMINARY'),
      repo.finalInIds(db),
      deps.settingsOf(tx),
    ]);
    const { scores } = current;
    // The preview shows the bootstrap's figures when a fresh run of this N exists (not the confirm: it stores the ranking as decided).
    const cut =
      !tx && confidence && current.fingerprint !== null && body.mode !== 'PICKED' && body.n !== undefined
        ? await confidence.freshCut('PRELIMINARY', body.n, body.mode === 'TOP_PER_TRACK', current.fingerprint)
        : null;
    const picked = new Set(body.ids);
    if (body.mode === 'PICKED') {
      const unknown = [...picked].filter((id) => !scores.projectsById.has(id));
      if (unknown.length) throw badRequest(M.promoteNotRanked, { reason: 'NOT_RANKED', ids: unknown });
    }
    const n = body.n ?? 0;
    const isSelected = (rank: number | null, trackRank: number | null, id: string) =>
      body.mode === 'TOP_OVERALL' ? rank !== null && rank <= n : body.mode === 'TOP_PER_TRACK' ? trackRank !== null && trackRank <= n : picked.has(id);
    const ranking: PromotionRankRow[] = [];
    for (const a of scores.aggregate.projects) {
      const selected = isSelected(a.rank, a.trackRank, a.projectId);
      // The ranked projects, plus unranked ones picked by hand (so the stored ranking shows who went).
      if (a.rank === null && !selected) continue;
      const p = scores.projectsById.get(a.projectId)!;
      ranking.push({
        id: a.projectId,
        projectName: p.projectName,
        orgName: p.orgName,
        track: p.track,
        rank: a.rank,
        trackRank: a.trackRank,
        ruleScore: a.ruleScore,
        decidedBy: a.decidedBy,
        inFinal: inFinal.has(a.projectId),
        selected,
        ...(tx ? {} : { pInCut: cut?.get(a.projectId)?.p ?? null, onCut: cut?.get(a.projectId)?.onCut ?? null }),
      });
    }
    const selectedRows = ranking.filter((r) => r.selected);
    let atCutLine: PromotionRankRow[] = [];
    if (body.mode !== 'PICKED') {
      // The last selected rule score overall, or per track.
      const cut = new Map<string, number>();
      const key = (r: PromotionRankRow) => (body.mode === 'TOP_PER_TRACK' ? (r.track ?? '') : '');
      for (const r of selectedRows) if (r.ruleScore !== null) cut.set(key(r), round2(r.ruleScore));
      atCutLine = ranking.filter((r) => !r.selected && r.ruleScore !== null && cut.get(key(r)) === round2(r.ruleScore));
    }
    const token = createHash('sha256')
      .update(
        JSON.stringify({
          mode: body.mode,
          n: body.n ?? null,
          ids: [...picked].sort(),
          // inFinal too: a project added to the final meanwhile (by hand or by a concurrent
          // confirm of the same preview) makes the preview stale instead of silently counting it.
          ranking: ranking.map((r) => [r.id, r.ruleScore, r.inFinal]),
        }),
      )
      .digest('hex');
    return {
      preview: {
        token,
        rule: scores.rule,
        reviewOpen: phaseState(settings.phases.prelimReview, deps.now()) === 'OPEN',
        ranking,
        selectedCount: selectedRows.length,
        atCutLine,
      },
      selected: selectedRows.map((r) => r.id),
      scores,
    };
  }

  const nothingNew = (p: Plan) => p.preview.ranking.every((r) => !r.selected || r.inFinal);

  return {
    async preview(body: PromotionBody): Promise<PromotionPreview> {
      const p = await plan(body);
      if (nothingNew(p)) throw badRequest(M.promoteNothing, { reason: 'NOTHING' });
      return p.preview;
    },

    /**
     * Recomputes the preview in one transaction (promotions serialised by an advisory lock) and
     * refuses a token that no longer matches (400 promoteStale, STALE). Then the snapshot row,
     * and per selected project not yet IN the FINAL workflow's ADD exactly as the manual add
     * (materials row then entry locked, history with the reason, entry IN) plus the team's
     * notice; one operation record for the whole promotion.
     */
    async confirm(actor: OperationActor, body: PromotionConfirmBody): Promise<PromotionResult> {
      const result = await deps.db.transaction(async (tx) => {
        await repo.lockPromotions(tx);
        const p = await plan(body, tx);
        if (p.preview.token !== body.token) throw badRequest(M.promoteStale, { reason: 'STALE' });
        if (nothingNew(p)) throw badRequest(M.promoteNothing, { reason: 'NOTHING' });
        const at = deps.now();
        const ruleText = promotionRuleText(body);
        const reason = `晋级决赛（${ruleText}）`;
        const promotion = await repo.insertPromotion(tx, {
          mode: body.mode,
          n: body.n ?? null,
          rule: { ...p.scores.rule },
          ranking: p.preview.ranking,
          promotedIds: p.selected,
          actorId: actor.auth.accountId,
          actorName: await repo.accountName(tx, actor.auth.accountId, actor.auth.username),
          createdAt: at,
        });
        let added = 0;
        let already = 0;
        for (const id of p.selected) {
          const doc = await repo.lockDoc(tx, id);
          if (!doc || doc.status !== 'APPROVED') throw badRequest(M.promoteStale, { reason: 'STALE' });
          const entry = await finals.lock(tx, id);
          if (entry?.status === 'IN') {
            already++;
            continue;
          }
          await finals.move(tx, { prelimId: id, action: 'ADD', from: entry?.status ?? null, reason, actor, notice: promotedNotice(doc), at });
          added++;
        }
        await recordOperation(tx, actor, {
          action: 'final:promote',
          targetType: 'promotion',
          targetId: promotion.id,
          summary: `${reason}：选定 ${p.selected.length} 个项目，新加入决赛 ${added} 个，已在决赛 ${already} 个`,
        });
        // 评分存证 (docs/rules/results.md, "Score log"), the last step of the confirm.
        await logPromotion(tx, { actor, promotion, ruleText, added, already });
        return { promotionId: promotion.id, added, already };
      });
      deps.afterCommit();
      return result;
    },

    async list(): Promise<PromotionRecord[]> {
      const rows = await repo.promotions(deps.db);
      return rows.map((r) => ({ id: r.id, mode: r.mode, n: r.n, count: r.count, actorName: r.actorName, createdAt: r.createdAt.toISOString() }));
    },
  };
}
export type PromotionService = ReturnType<typeof createPromotionService>;
