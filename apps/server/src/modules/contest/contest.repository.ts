import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountsView } from '../auth/auth.read-model.js';
import { attachmentsView, type AttachmentsRow } from '../files/files.read-model.js';
import { dictItemsView } from '../dictionary/dictionary.read-model.js';
import { settingsView } from '../settings/settings.read-model.js';
import { statusHistoryView, type StatusHistoryRow } from '../workflow/workflow.read-model.js';

export type AttachmentRow = AttachmentsRow;
export type HistoryRow = StatusHistoryRow;

/** Reads shared by sign-up and materials: settings, dictionary codes, attachments, status history. */
export function createContestRepository(db: Db) {
  // Read on every sign-up and materials call (windows, caps), several times a call: prepared once
  // (docs/performance.md, "Hot path"); inside a transaction the query is built on it.
  const settingOf = db.select({ value: settingsView.value }).from(settingsView).where(eq(settingsView.key, sql.placeholder('key'))).limit(1).prepare('contest_setting');
  const historyOf = db
    .select()
    .from(statusHistoryView)
    .where(and(eq(statusHistoryView.subjectType, sql.placeholder('subjectType')), eq(statusHistoryView.subjectId, sql.placeholder('subjectId'))))
    .orderBy(asc(statusHistoryView.createdAt), asc(statusHistoryView.id))
    .prepare('contest_status_history');

  return {
    async setting(key: string, tx: Db = db): Promise<unknown> {
      const [row] = tx === db ? await settingOf.execute({ key }) : await tx.select({ value: settingsView.value }).from(settingsView).where(eq(settingsView.key, key)).limit(1);
      return row?.value;
    },

    async enabledCodes(typeCode: string, codes: readonly string[]): Promise<Set<string>> {
      if (codes.length === 0) return new Set();
      const rows = await db
        .select({ code: dictItemsView.code })
        .from(dictItemsView)
        .where(and(eq(dictItemsView.typeCode, typeCode), eq(dictItemsView.enabled, true), inArray(dictItemsView.code, [...new Set(codes)])));
      return new Set(rows.map((r) => r.code));
    },

    /** code -> name of every item (disabled included) of the given types, for exports. */
    async labels(typeCodes: readonly string[]): Promise<Map<string, Map<string, string>>> {
      const out = new Map<string, Map<string, string>>();
      if (typeCodes.length === 0) return out;
      const rows = await db.select({ type: dictItemsView.typeCode, code: dictItemsView.code, name: dictItemsView.name }).from(dictItemsView).where(inArray(dictItemsView.typeCode, [...typeCodes]));
      for (const r of rows) {
        if (!out.has(r.type)) out.set(r.type, new Map());
        out.get(r.type)!.set(r.code, r.name);
      }
      return out;
    },

    async attachmentsByUniqueNo(uniqueNos: readonly string[]): Promise<AttachmentRow[]> {
      if (uniqueNos.length === 0) return [];
      return db.select().from(attachmentsView).where(inArray(attachmentsView.uniqueNo, [...new Set(uniqueNos)]));
    },

    async attachmentsById(ids: readonly string[]): Promise<AttachmentRow[]> {
      if (ids.length === 0) return [];
      return db.select().from(attachmentsView).where(inArray(attachmentsView.id, [...new Set(ids)]));
    },

    async history(subjectType: string, subjectId: string): Promise<HistoryRow[]> {
      return historyOf.execute({ subjectType, subjectId });
    },

    async account(id: string, tx: Db = db) {
      const [row] = await tx
        .select({ id: accountsView.id, username: accountsView.username, name: accountsView.name, phone: accountsView.phone })
        .from(accountsView)
        .where(eq(accountsView.id, id))
        .limit(1);
      return row;
    },
  };
}
export type ContestRepository = ReturnType<typeof createContestRepository>;
