import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FeedbackStatus } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accounts, attachments, dictItems, feedback } from '../../db/schema.js';

export type FeedbackRow = typeof feedback.$inferSelect;
export type FeedbackAttachmentRow = Pick<typeof attachments.$inferSelect, 'id' | 'uniqueNo' | 'originalName' | 'size' | 'ownerId' | 'origin'>;
export interface FeedbackOwner {
  id: string;
  username: string;
  name: string | null;
  phone: string | null;
}

const fileColumns = {
  id: attachments.id,
  uniqueNo: attachments.uniqueNo,
  originalName: attachments.originalName,
  size: attachments.size,
  ownerId: attachments.ownerId,
  origin: attachments.origin,
};

export function createFeedbackRepository(db: Db) {
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

    async page(filter: { ownerId?: string; status?: FeedbackStatus; type?: string }, page: number, size: number) {
      const where: SQL[] = [];
      if (filter.ownerId) where.push(eq(feedback.ownerId, filter.ownerId));
      if (filter.status) where.push(eq(feedback.status, filter.status));
      if (filter.type) where.push(eq(feedback.type, filter.type));
      const cond = where.length ? and(...where) : undefined;
      const [rows, [total]] = await Promise.all([
        db
          .select({ row: feedback, owner: { id: accounts.id, username: accounts.username, name: accounts.name, phone: accounts.phone } })
          .from(feedback)
          .innerJoin(accounts, eq(accounts.id, feedback.ownerId))
          .where(cond)
          .orderBy(desc(feedback.createdAt), desc(feedback.id))
          .limit(size)
          .offset((page - 1) * size),
        db.select({ n: count() }).from(feedback).where(cond),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async find(id: string, tx: Db = db): Promise<{ row: FeedbackRow; owner: FeedbackOwner } | undefined> {
      const [found] = await tx
        .select({ row: feedback, owner: { id: accounts.id, username: accounts.username, name: accounts.name, phone: accounts.phone } })
        .from(feedback)
        .innerJoin(accounts, eq(accounts.id, feedback.ownerId))
        .where(eq(feedback.id, id));
      return found;
    },

    async reply(tx: Db, id: string, values: { reply: string; status: FeedbackStatus; repliedBy: string }): Promise<void> {
      await tx
        .update(feedback)
        .set({ ...values, repliedAt: new Date(), updatedAt: new Date() })
        .where(eq(feedback.id, id));
    },
  };
}
export type FeedbackRepository = ReturnType<typeof createFeedbackRepository>;
