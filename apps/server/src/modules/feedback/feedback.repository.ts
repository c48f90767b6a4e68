import { and, count, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { FeedbackStatus } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { feedback } from '../../db/schema/feedback.js';
import { accountsView, accountsViewAs } from '../auth/auth.read-model.js';
import { attachmentsView, type AttachmentsRow } from '../files/files.read-model.js';
import { dictItemsView } from '../dictionary/dictionary.read-model.js';
import { contains, dateRange, equals } from '../../lib/list-query.js';
import { piiSearch } from '../../lib/pii.js';

export type FeedbackRow = typeof feedback.$inferSelect;
export type FeedbackAttachmentRow = Pick<AttachmentsRow, 'id' | 'uniqueNo' | 'originalName' | 'size' | 'ownerId' | 'origin'>;
export interface FeedbackOwner {
  id: string;
  username: string;
  name: string | null;
  phone: string | null;
}
export interface FeedbackReplier {
  id: string;
  username: string;
  name: string | null;
}
export interface FoundFeedback {
  row: FeedbackRow;
  owner: FeedbackOwner;
  replier: FeedbackReplier | null;
}

export interface FeedbackFilter {
  ownerId?: string | undefined;
  status?: FeedbackStatus | undefined;
  type?: string | undefined;
  keyword?: string | undefined;
  /** The caller may see contacts and phones in full: part of one matches (lib/pii.ts); otherwise only the whole value. */
  fullPii?: boolean | undefined;
  from?: string | undefined;
  to?: string | undefined;
}

const fileColumns = {
  id: attachmentsView.id,
  uniqueNo: attachmentsView.uniqueNo,
  originalName: attachmentsView.originalName,
  size: attachmentsView.size,
  ownerId: attachmentsView.ownerId,
  origin: attachmentsView.origin,
};

const replier = accountsViewAs('replier');
const selection = {
  row: feedback,
  owner: { id: accountsView.id, username: accountsView.username, name: accountsView.name, phone: accountsView.phone },
  replier: { id: replier.id, username: replier.username, name: replier.name },
};

export function createFeedbackRepository(db: Db) {
  const filtersOf = (f: FeedbackFilter): SQL | undefined =>
    and(
      equals(feedback.ownerId, f.ownerId),
      equals(feedback.status, f.status),
      equals(feedback.type, f.type),
      f.keyword
        ? or(contains([feedback.content, accountsView.username, accountsView.name], f.keyword), piiSearch([feedback.contact, accountsView.phone], f.keyword, f.fullPii ?? false))
        : undefined,
      dateRange(feedback.createdAt, f.from, f.to),
    );

  return {
    /** Items of a dictionary type, disabled ones too (old feedback keeps its type's name). */
    async dictItems(typeCode: string): Promise<{ code: string; name: string; enabled: boolean }[]> {
      return db.select({ code: dictItemsView.code, name: dictItemsView.name, enabled: dictItemsView.enabled }).from(dictItemsView).where(eq(dictItemsView.typeCode, typeCode));
    },

    async filesByUniqueNo(uniqueNos: string[]): Promise<FeedbackAttachmentRow[]> {
      if (!uniqueNos.length) return [];
      return db.select(fileColumns).from(attachmentsView).where(inArray(attachmentsView.uniqueNo, uniqueNos));
    },

    async filesByIds(ids: string[]): Promise<FeedbackAttachmentRow[]> {
      if (!ids.length) return [];
      return db.select(fileColumns).from(attachmentsView).where(inArray(attachmentsView.id, ids));
    },

    async insert(tx: Db, values: typeof feedback.$inferInsert): Promise<FeedbackRow> {
      const [row] = await tx.insert(feedback).values(values).returning();
      return row!;
    },

    async page(filter: FeedbackFilter, page: number, size: number): Promise<{ rows: FoundFeedback[]; total: number }> {
      const cond = filtersOf(filter);
      const [rows, [total]] = await Promise.all([
        db
          .select(selection)
          .from(feedback)
          .innerJoin(accountsView, eq(accountsView.id, feedback.ownerId))
          .leftJoin(replier, eq(replier.id, feedback.repliedBy))
          .where(cond)
          .orderBy(desc(feedback.createdAt), desc(feedback.id))
          .limit(size)
          .offset((page - 1) * size),
        db.select({ n: count() }).from(feedback).innerJoin(accountsView, eq(accountsView.id, feedback.ownerId)).where(cond),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** `lock` (inside a transaction): the row stays locked until it ends, so two admins acting at once take turns. */
    async find(id: string, tx: Db = db, lock = false): Promise<FoundFeedback | undefined> {
      const query = tx
        .select(selection)
        .from(feedback)
        .innerJoin(accountsView, eq(accountsView.id, feedback.ownerId))
        .leftJoin(replier, eq(replier.id, feedback.repliedBy))
        .where(eq(feedback.id, id))
        .$dynamic();
      const [found] = await (lock ? query.for('update', { of: feedback }) : query);
      return found;
    },

    async reply(tx: Db, id: string, values: { reply: string; status: FeedbackStatus; repliedBy: string }, at: Date): Promise<void> {
      await tx
        .update(feedback)
        .set({ ...values, repliedAt: at, updatedAt: at })
        .where(eq(feedback.id, id));
    },

    async close(tx: Db, id: string, at: Date): Promise<void> {
      await tx.update(feedback).set({ status: 'CLOSED', updatedAt: at }).where(eq(feedback.id, id));
    },
  };
}
export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
