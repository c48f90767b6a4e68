import { eq, inArray, sql } from 'drizzle-orm';
import { SETTING_KEY_LIST, type SettingKey } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { settings } from '../../db/schema/settings.js';

/** Serialises settings writes across transactions and instances (PostgreSQL advisory lock id). */
const SETTINGS_LOCK_ID = 7_310_425_001;

/** The `settings` rows of the contest settings (key -> jsonb). */
export function createSettingsRepository(db: Db) {
  return {
    /** Every settings key that is stored, in one query. */
    async readAll(tx: Db = db): Promise<Record<string, unknown>> {
      const rows = await tx.select({ key: settings.key, value: settings.value }).from(settings).where(inArray(settings.key, [...SETTING_KEY_LIST]));
      return Object.fromEntries(rows.map((r) => [r.key, r.value]));
    },

    /** Held until the transaction ends: concurrent saves run one after the other. */
    async lock(tx: Db): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${SETTINGS_LOCK_ID})`);
    },

    async write(tx: Db, key: SettingKey, value: unknown, at: Date): Promise<void> {
      await tx
        .insert(settings)
        .values({ key, value, updatedAt: at })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: at } });
    },

    /** A setting whose value is "none" (no character cap) is not stored: absent reads as its default. */
    async remove(tx: Db, key: SettingKey): Promise<void> {
      await tx.delete(settings).where(eq(settings.key, key));
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
