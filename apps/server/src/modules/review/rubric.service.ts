import {
  REVIEW_MSG as M,
  ROUND_ACCESS,
  ROUND_NAMES,
  SETTINGS_KEYS,
  type Criterion,
  type ReviewRound,
  type RubricPut,
  type RubricView,
  type ScoringRule,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import type { ReviewDeps } from './review.module.js';

import { lockReviewRound } from './round-lock.js';

export { lockReviewRound };

/** The 400 a change of a locked round's rubric or rule answers (also used by 大赛设置). */
export const rubricLockedError = (round: ReviewRound) => badRequest(M.rubricLocked, { reason: 'LOCKED', round });

/**
 * Keys of the new criteria: a criterion keeps the key of the stored one with the same name (so a
 * reorder or a changed maximum keeps its key); any other gets the first free c1, c2, ... English
 * not sent is the stored criterion's of that name.
 */
export function keyCriteria(input: readonly Omit<Criterion, 'key'>[], existing: readonly Criterion[]): Criterion[] {
  const byName = new Map(existing.map((c) => [c.name, c.key]));
  const sameName = new Map(existing.map((c) => [c.name, c]));
  const kept = input.map((c) => byName.get(c.name));
  const used = new Set(kept.filter((k): k is string => !!k));
  let n = 0;
  const next = () => {
    do n += 1;
    while (used.has(`c${n}`));
    used.add(`c${n}`);
    return `c${n}`;
  };
  return input.map((c, i) => ({
    key: kept[i] ?? next(),
    name: c.name,
    description: c.description,
    max: c.max,
    nameEn: c.nameEn ?? sameName.get(c.name)?.nameEn ?? '',
    descriptionEn: c.descriptionEn ?? sameName.get(c.name)?.descriptionEn ?? '',
  }));
}

const describeCriteria = (cs: readonly Criterion[]) => cs.map((c) => `${c.name} ${c.max}`).join('、');
const describeRule = (r: ScoringRule) => `${r.aggregate}，${r.minScoresForTrim} 个及以上去掉最高最低，并列依次比较 ${r.tieBreak.join(' > ')}`;
const sameCriteria = (a: readonly Criterion[], b: readonly Criterion[]) =>
  a.length === b.length &&
  a.every(
    (c, i) =>
      c.key === b[i]!.key &&
      c.name === b[i]!.name &&
      c.description === b[i]!.description &&
      c.max === b[i]!.max &&
      (c.nameEn ?? '') === (b[i]!.nameEn ?? '') &&
      (c.descriptionEn ?? '') === (b[i]!.descriptionEn ?? ''),
  );
const sameRule = (a: ScoringRule, b: ScoringRule) =>
  a.aggregate === b.aggregate && a.minScoresForTrim === b.minScoresForTrim && a.tieBreak.length === b.tieBreak.length && a.tieBreak.every((t, i) => t === b.tieBreak[i]);

/** 评分细则 and the round's declared scoring rule (docs/rules/review.md, "Scoring rule and ranking"): editable until the round's first sheet. */
export function createRubricService(deps: Pick<ReviewDeps, 'db' | 'now' | 'rubrics' | 'settingsOf'>) {
  const { db, rubrics: store } = deps;
  const settingsRepo = createSettingsRepository(db);

  async function viewOf(tx: Db, round: ReviewRound): Promise<RubricView> {
    const [rubric, settings, locked] = [await store.get(tx, round), await deps.settingsOf(tx), await store.locked(tx, round)];
    return { round, criteria: rubric.criteria, rule: settings.review.rules[round], locked, version: rubric.version };
  }

  return {
    get: (round: ReviewRound) => viewOf(db, round),

    async put(actor: OperationActor, round: ReviewRound, input: RubricPut): Promise<RubricView> {
      return db.transaction(async (tx) => {
        // Same order as 大赛设置's save (settings lock, then the rubric's): never a deadlock.
        if (input.rule) await settingsRepo.lock(tx);
        await lockReviewRound(tx, round);
        if (await store.locked(tx, round)) throw rubricLockedError(round);
        const action = ROUND_ACCESS[round].groupEdit;
        const name = ROUND_NAMES[round];

        const current = await store.get(tx, round);
        const criteria = keyCriteria(input.criteria, current.criteria);
        // A round still on the defaults gets its row on the first save, so what was declared stays as declared.
        if (current.version === 0 || !sameCriteria(current.criteria, criteria)) {
          const at = deps.now();
          const version = current.version + 1;
          await store.save(tx, round, criteria, version, actor.auth.accountId, at);
          if (!sameCriteria(current.criteria, criteria)) {
            await recordOperation(tx, actor, {
              action,
              targetType: 'rubric',
              targetId: round,
              summary: `修改${name}评分细则：${describeCriteria(current.criteria)} -> ${describeCriteria(criteria)}`,
            });
          }
        }

        if (input.rule) {
          const rules = (await deps.settingsOf(tx)).review.rules;
          if (!sameRule(rules[round], input.rule)) {
            // Only this round's rule: the other round's stays as stored.
            await settingsRepo.write(tx, SETTINGS_KEYS.reviewRules, { ...rules, [round]: input.rule }, deps.now());
            await recordOperation(tx, actor, {
              action,
              targetType: 'rubric',
              targetId: round,
              summary: `修改${name}评分规则：${describeRule(rules[round])} -> ${describeRule(input.rule)}`,
            });
          }
        }
        return viewOf(tx, round);
      });
    },
  };
}
export type RubricService = ReturnType<typeof createRubricService>;
