import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, attachments, dictItems, settings, statusHistory } from '../../db/schema.js';

export type AttachmentRow = typeof attachments.$inferSelect;
export type HistoryRow = typeof statusHistory.$inferSelect;
export type NewHistoryRow = typeof statusHistory.$inferInsert;

/** Reads shared by sign-up and materials: settings, dictionary codes, attachments, status history. */
export function createContestRepository(db: Db) {
  return {
    async setting(key: string, tx: Db = db): Promise<unknown> {
      const [row] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, key)).limit(1);
      return row?.value;
    },

    async enabledCodes(typeCode: string, codes: readonly string[]): Promise<Set<string>> {
      if (codes.length === 0) return new Set();
      const rows = await db
        .select({ code: dictItems.code })
        .from(dictItems)
        .where(and(eq(dictItems.typeCode, typeCode), eq(dictItems.enabled, true), inArray(dictItems.code, [...new Set(codes)])));
      return new Set(rows.map((r) => r.code));
    },

    /** code -> name of every item (disabled included) of the given types, for exports. */
    async labels(typeCodes: readonly string[]): Promise<Map<string, Map<string, string>>> {
      const out = new Map<string, Map<string, string>>();
      if (typeCodes.length === 0) return out;
      const rows = await db.select({ type: dictItems.typeCode, code: dictItems.code, name: dictItems.name }).from(dictItems).where(inArray(dictItems.typeCode, [...typeCodes]));
      for (const r of rows) {
        if (!out.has(r.type)) out.set(r.type, new Map());
        out.get(r.type)!.set(r.code, r.name);
      }
      return out;
    },

    async attachmentsByUniqueNo(uniqueNos: readonly string[]): Promise<AttachmentRow[]> {
      if (uniqueNos.length === 0) return [];
      return db.select().from(attachments).where(inArray(attachments.uniqueNo, [...new Set(uniqueNos)]));
    },

    async attachmentsById(ids: readonly string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(attachments).where(inArray(attachments.id, [...new Set(ids)]));
    },

    async history(subjectType: string, subjectId: string): Promise<HistoryRow[]> {
      return db
        .select()
        .from(statusHistory)
        .where(and(eq(statusHistory.subjectType, subjectType), eq(statusHistory.subjectId, subjectId)))
        .orderBy(asc(statusHistory.createdAt), asc(statusHistory.id));
    },

    async insertHistory(tx: Db, row: NewHistoryRow): Promise<void> {
      await tx.insert(statusHistory).values(row);
    },

    async account(id: string, tx: Db = db) {
      const [row] = await tx
        .select({ id: accounts.id, username: accounts.username, name: accounts.name, phone: accounts.phone })
        .from(accounts)
        .where(eq(accounts.id, id))
        .limit(1);
      return row;
    },
  };
}
export type ContestRepository = ReturnType<typeof createContestRepository>;
