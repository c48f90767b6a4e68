import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { siteContent } from '../../db/schema/site-content.js';
import { accountsView } from '../auth/auth.read-model.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';

export type SiteContentRow = typeof siteContent.$inferSelect;

export interface SiteBlockWrite {
  key: string;
  title: string;
  body: string;
  titleEn?: string | null;
  bodyEn?: string | null;
  updatedBy?: string | null;
}

export function createSiteContentRepository(db: Db) {
  return {
    async find(keys: string[]): Promise<SiteContentRow[]> {
      return db.select().from(siteContent).where(inArray(siteContent.key, keys));
    },

    /** Every stored block with the name of its last editor (the console's list). */
    async findAllWithEditor(tx: Db = db): Promise<Array<SiteContentRow & { editorName: string | null }>> {
      const rows = await tx
        .select({ block: siteContent, name: accountsView.name, username: accountsView.username })
        .from(siteContent)
        .leftJoin(accountsView, eq(accountsView.id, siteContent.updatedBy))
        .orderBy(asc(siteContent.key));
      return rows.map((r) => ({ ...r.block, editorName: r.name || r.username || null }));
    },

    /** Locks a block's row, when it exists, for the rest of the transaction. */
    async lock(key: string, tx: Db): Promise<SiteContentRow | undefined> {
      const [row] = await tx.select().from(siteContent).where(eq(siteContent.key, key)).for('update').limit(1);
      return row;
    },

    /** Writes a block (sanitised here, whoever calls). */
    async upsert(tx: Db, values: SiteBlockWrite): Promise<SiteContentRow> {
      const row = {
        key: values.key,
        title: values.title,
        body: sanitizeHtml(values.body),
        titleEn: values.titleEn ?? null,
        // A body that is nothing once sanitised is no English text: pages fall back to the Chinese.
        bodyEn: values.bodyEn ? sanitizeHtml(values.bodyEn) || null : null,
        updatedBy: values.updatedBy ?? null,
      };
      const [saved] = await tx
        .insert(siteContent)
        .values(row)
        .onConflictDoUpdate({
          target: siteContent.key,
          set: { title: row.title, body: row.body, titleEn: row.titleEn, bodyEn: row.bodyEn, updatedBy: row.updatedBy, updatedAt: sql`now()` },
        })
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
