import { REVIEW_ROUNDS, SETTING_KEY_LABELS, readSettings, settingsToStored, type ContestSettings, type SettingKey } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { createRubricStore } from '../review/rubric-store.js';
import { lockReviewRound, rubricLockedError } from '../review/rubric.service.js';
import { createSettingsRepository, type SettingsRepository } from './settings.repository.js';

/** How modules read the contest settings: every key in one query, defaults for anything absent or malformed. */
export interface SettingsReader {
  get(): Promise<ContestSettings>;
}

/**
 * The reader other modules use (contest windows and caps, notifications' `notify.sms`, review
 * rules, 公示 and appeal periods). It reads per call, never caches, so a saved change applies to
 * the very next request.
 */
export function createSettingsReader(db: Db): SettingsReader {
  const repo = createSettingsRepository(db);
  return { get: async () => readSettings(await repo.readAll()) };
}

/** JSON with object keys sorted, so equal values compare equal whatever order they were built in. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** Each side of an audit summary stays readable and the whole within the record's 2 000 characters. */
const VALUE_MAX = 900;
const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? 'null';
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
};

export function createSettingsService({ db, repo, now = () => new Date() }: { db: Db; repo: SettingsRepository; now?: () => Date }) {
  const rubrics = createRubricStore();

  /**
   * A round's scoring rule is declared before scoring (docs/rules/review.md, "Scoring rule and ranking"): once the round has a sheet
   * it is fixed, here as on the rubric page. The round's review lock (after the settings lock, the
   * order the rubric page takes them in) keeps a first sheet save from slipping in between.
   */
  async function assertRulesEditable(tx: Db, before: ContestSettings, after: ContestSettings): Promise<void> {
    for (const round of REVIEW_ROUNDS) {
      if (canonical(before.review.rules[round]) === canonical(after.review.rules[round])) continue;
      await lockReviewRound(tx, round);
      if (await rubrics.locked(tx, round)) throw rubricLockedError(round);
    }
  }

  return {
    async get(): Promise<ContestSettings> {
      return readSettings(await repo.readAll());
    },

    /**
     * Saves the whole (validated) object in one transaction: only keys whose value changed are
     * written, each with one operation record holding its old and new value. Saves are serialised,
     * so the old value in a record is always what the previous save left.
     */
    async update(actor: OperationActor, input: ContestSettings): Promise<ContestSettings> {
      return db.transaction(async (tx) => {
        await repo.lock(tx);
        const current = readSettings(await repo.readAll(tx));
        // A save without the per-expert cap (a client that predates it) keeps the stored one.
        input = { ...input, review: { ...input.review, maxProjectsPerExpert: input.review.maxProjectsPerExpert ?? current.review.maxProjectsPerExpert } };
        // Likewise the retention periods (docs/retention.md).
        input = { ...input, retention: input.retention ?? current.retention };
        await assertRulesEditable(tx, current, input);
        const before = settingsToStored(current);
        const after = settingsToStored(input);
        const at = now();
        for (const key of Object.keys(after) as SettingKey[]) {
          if (canonical(before[key]) === canonical(after[key])) continue;
          if (after[key] === null) await repo.remove(tx, key);
          else await repo.write(tx, key, after[key], at);
          await recordOperation(tx, actor, {
            action: 'settings:edit',
            targetType: 'settings',
            targetId: key,
            summary: `修改${SETTING_KEY_LABELS[key]}（${key}）：${shown(before[key])} -> ${shown(after[key])}`,
          });
        }
        return readSettings(await repo.readAll(tx));
      });
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
