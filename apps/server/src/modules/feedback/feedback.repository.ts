import { and, count, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FeedbackStatus } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accounts, attachments, dictItems, feedback } from '../../db/schema.js';
import { contains, dateRange, equals } from '../../lib/list-query.js';
import { piiSearch } from '../../lib/pii.js';

export type FeedbackRow = typeof feedback.$inferSelect;
export type FeedbackAttachmentRow = Pick<typeof attachments.$inferSelect, 'id' | 'uniqueNo' | 'originalName' | 'size' | 'ownerId' | 'origin'>;
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
  id: attachments.id,
  uniqueNo: attachments.uniqueNo,
  originalName: attachments.originalName,
  size: attachments.size,
  ownerId: attachments.ownerId,
  origin: attachments.origin,
};

const replier = alias(accounts, 'replier');
const selection = {
  row: feedback,
  owner: { id: accounts.id, username: accounts.username, name: accounts.name, phone: accounts.phone },
  replier: { id: replier.id, username: replier.username, name: replier.name },
};

export function createFeedbackRepository(db: Db) {
  const filtersOf = (f: FeedbackFilter): SQL | undefined =>
    and(
      equals(feedback.ownerId, f.ownerId),
      equals(feedback.status, f.status),
      equals(feedback.type, f.type),
      f.keyword
        ? or(contains([feedback.content, accounts.username, accounts.name], f.keyword), piiSearch([feedback.contact, accounts.phone], f.keyword, f.fullPii ?? false))
        : undefined,
      dateRange(feedback.createdAt, f.from, f.to),
    );

  return {
    /** Items of a dictionary type, disabled ones too (old feedback keeps its type's name). */
    async dictItems(typeCode: string): Promise<{ code: string; name: string; enabled: boolean }[]> {
      return db.select({ code: dictItems.code, name: dictItems.name, enabled: dictItems.enabled }).from(dictItems).where(eq(dictItems.typeCode, typeCode));
    },

    async filesByUniqueNo(uniqueNos: string[]): Promise<FeedbackAttachmentRow[]> {
      if (!uniqueNos.length) return [];
      return db.select(fileColumns).from(attachments).where(inArray(attachments.uniqueNo, uniqueNos));
    },

    async filesByIds(ids: string[]): Promise<FeedbackAttachmentRow[]> {
      if (!ids.length) return [];
      return db.select(fileColumns).from(attachments).where(inArray(attachments.id, ids));
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
          .innerJoin(accounts, eq(accounts.id, feedback.ownerId))
          .leftJoin(replier, eq(replier.id, feedback.repliedBy))
          .where(cond)
          .orderBy(desc(feedback.createdAt), desc(feedback.id))
          .limit(size)
          .offset((page - 1) * size),
        db.select({ n: count() }).from(feedback).innerJoin(accounts, eq(accounts.id, feedback.ownerId)).where(cond),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** `lock` (inside a transaction): the row stays locked until it ends, so two admins acting at once take turns. */
    async find(id: string, tx: Db = db, lock = false): Promise<FoundFeedback | undefined> {
      const query = tx
        .select(selection)
        .from(feedback)
        .innerJoin(accounts, eq(accounts.id, feedback.ownerId))
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
