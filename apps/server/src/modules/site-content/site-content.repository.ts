import { inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { siteContent } from '../../db/schema.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';

export type SiteContentRow = typeof siteContent.$inferSelect;

export function createSiteContentRepository(db: Db) {
  return {
    async find(keys: string[]): Promise<SiteContentRow[]> {
      return db.select().from(siteContent).where(inArray(siteContent.key, keys));
    },

    /** Writes a block (sanitised here, whoever calls). */
    async upsert(tx: Db, values: { key: string; title: string; body: string; updatedBy?: string | null }): Promise<SiteContentRow> {
      const row = { key: values.key, title: values.title, body: sanitizeHtml(values.body), updatedBy: values.updatedBy ?? null };
      const [saved] = await tx
        .insert(siteContent)
        .values(row)
        .onConflictDoUpdate({ target: siteContent.key, set: { title: row.title, body: row.body, updatedBy: row.updatedBy, updatedAt: sql`now()` } })
        .returning();
      return saved!;
    },

    /** Seeds a block only when it is missing: admins edit them afterwards. */
    async insertIfMissing(tx: Db, values: { key: string; title: string; body: string }): Promise<void> {
      await tx.insert(siteContent).values({ ...values, body: sanitizeHtml(values.body) }).onConflictDoNothing();
    },
  };
}
export type SiteContentRepository = ReturnType<typeof createSiteContentRepository>;
