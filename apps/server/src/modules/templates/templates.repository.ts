import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { messageTemplates } from '../../db/schema/templates.js';
import { accountsView } from '../auth/auth.read-model.js';

export type TemplateRow = typeof messageTemplates.$inferSelect;
export type TemplateValues = Pick<TemplateRow, 'name' | 'channels' | 'subject' | 'body' | 'smsText' | 'subjectEn' | 'bodyEn' | 'smsTextEn' | 'smsTemplateId'>;

/** message_templates: a handful of event templates and the bulk ones, read whole. */
export function createTemplatesRepository(db: Db) {
  return {
    /** Every stored template with the name of its last editor. */
    async all(tx: Db = db): Promise<Array<{ row: TemplateRow; editor: string | null }>> {
      const rows = await tx
        .select({ row: messageTemplates, editorName: accountsView.name, editorUsername: accountsView.username })
        .from(messageTemplates)
        .leftJoin(accountsView, eq(accountsView.id, messageTemplates.updatedBy))
        .orderBy(asc(messageTemplates.createdAt), asc(messageTemplates.id));
      return rows.map((r) => ({ row: r.row, editor: r.editorName || r.editorUsername || null }));
    },

    async editorName(tx: Db, accountId: string | null): Promise<string | null> {
      if (!accountId) return null;
      const [row] = await tx.select({ name: accountsView.name, username: accountsView.username }).from(accountsView).where(eq(accountsView.id, accountId)).limit(1);
      return row ? row.name || row.username : null;
    },

    async lockByCode(tx: Db, code: string): Promise<TemplateRow | undefined> {
      const [row] = await tx.select().from(messageTemplates).where(eq(messageTemplates.code, code)).limit(1).for('update');
      return row;
    },

    async lockById(tx: Db, id: string): Promise<TemplateRow | undefined> {
      const [row] = await tx.select().from(messageTemplates).where(eq(messageTemplates.id, id)).limit(1).for('update');
      return row;
    },

    async findById(id: string, tx: Db = db): Promise<TemplateRow | undefined> {
      const [row] = await tx.select().from(messageTemplates).where(eq(messageTemplates.id, id)).limit(1);
      return row;
    },

    async findByCode(code: string, tx: Db = db): Promise<TemplateRow | undefined> {
      const [row] = await tx.select().from(messageTemplates).where(eq(messageTemplates.code, code)).limit(1);
      return row;
    },

    /** The first save of an event template: null when another save created it meanwhile. */
    async insertEvent(tx: Db, code: string, values: TemplateValues & { enabled: boolean; updatedBy: string; at: Date }): Promise<TemplateRow | null> {
      const { at, ...rest } = values;
      const [row] = await tx
        .insert(messageTemplates)
        .values({ ...rest, code, version: 1, createdAt: at, updatedAt: at })
        .onConflictDoNothing()
        .returning();
      return row ?? null;
    },

    async insertBulk(tx: Db, values: TemplateValues & { updatedBy: string; at: Date }): Promise<TemplateRow> {
      const { at, ...rest } = values;
      const [row] = await tx
        .insert(messageTemplates)
        .values({ ...rest, code: null, enabled: true, version: 1, createdAt: at, updatedAt: at })
        .returning();
      return row!;
    },

    /** Writes over a locked row, raising its version. */
    async update(tx: Db, row: TemplateRow, values: Partial<TemplateValues> & { enabled?: boolean; updatedBy: string; at: Date }): Promise<TemplateRow> {
      const { at, ...rest } = values;
      const [updated] = await tx
        .update(messageTemplates)
        .set({ ...rest, version: row.version + 1, updatedAt: at })
        .where(eq(messageTemplates.id, row.id))
        .returning();
      return updated!;
    },

    async delete(tx: Db, id: string): Promise<void> {
      await tx.delete(messageTemplates).where(eq(messageTemplates.id, id));
    },
  };
}
export type TemplatesRepository = ReturnType<typeof createTemplatesRepository>;
