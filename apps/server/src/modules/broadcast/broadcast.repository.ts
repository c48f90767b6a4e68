import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { BroadcastAccountsQuery, BroadcastChannel, BroadcastListQuery, BroadcastRecordsQuery, BroadcastStatus } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { messageBatches } from '../../db/schema/broadcast.js';
import { accountsView } from '../auth/auth.read-model.js';
import { dictItemsView } from '../dictionary/dictionary.read-model.js';
import { jobsView } from '../../lib/jobs.js';
import { recallBatchMessage } from '../messages/deliver.js';
import { messageRecipientsView, messagesView } from '../messages/messages.read-model.js';
import { messageTemplatesView, type MessageTemplatesRow } from '../templates/templates.read-model.js';
import { noticeOutboxView } from '../notices/notices.read-model.js';
import { teamsView } from '../team/team.read-model.js';
import { contains, equals, inMonth } from '../../lib/list-query.js';
import { piiSearch } from '../../lib/pii.js';

export type BatchRow = typeof messageBatches.$inferSelect;
export type TemplateRow = MessageTemplatesRow;

export interface BatchListRow {
  batch: BatchRow;
  sender: { id: string; name: string | null; username: string } | null;
  job: { status: string; done: number; total: number } | null;
}

export interface BatchStats {
  delivered: number;
  read: number;
  sent: number;
  failed: number;
  pending: number;
  recalledAt: Date | null;
}

export interface RecordRow {
  accountId: string | null;
  username: string | null;
  name: string | null;
  recipient: string | null;
  status: string;
  providerAnswer: string | null;
  lastError: string | null;
  attempts: number;
  sentAt: Date | null;
  readAt: Date | null;
}

const TRACK_DICT = 'TRACK';

/** Bulk sends: their batches, templates, and what their deliveries became. */
export function createBroadcastRepository(db: Db) {
  const listSelection = {
    batch: messageBatches,
    sender: { id: accountsView.id, name: accountsView.name, username: accountsView.username },
    job: { status: jobsView.status, done: jobsView.done, total: jobsView.total },
  };
  const listed = (tx: Db) =>
    tx
      .select(listSelection)
      .from(messageBatches)
      .leftJoin(accountsView, eq(accountsView.id, messageBatches.senderId))
      .leftJoin(jobsView, eq(jobsView.id, messageBatches.jobId));

  return {
    /** A template a bulk send may use: of no event (code null) and enabled. */
    async bulkTemplate(id: string, tx: Db = db): Promise<TemplateRow | undefined> {
      const [row] = await tx
        .select()
        .from(messageTemplatesView)
        .where(and(eq(messageTemplatesView.id, id), isNull(messageTemplatesView.code), eq(messageTemplatesView.enabled, true)));
      return row;
    },

    /** TRACK dictionary names by code (disabled items too: an old batch keeps its words). */
    async trackNames(tx: Db = db): Promise<Record<string, string>> {
      const rows = await tx.select({ code: dictItemsView.code, name: dictItemsView.name }).from(dictItemsView).where(eq(dictItemsView.typeCode, TRACK_DICT));
      return Object.fromEntries(rows.map((r) => [r.code, r.name]));
    },

    async insertBatch(tx: Db, values: typeof messageBatches.$inferInsert): Promise<BatchRow> {
      const [row] = await tx.insert(messageBatches).values(values).returning();
      return row!;
    },

    async setJob(tx: Db, batchId: string, jobId: string): Promise<void> {
      await tx.update(messageBatches).set({ jobId }).where(eq(messageBatches.id, batchId));
    },

    async find(id: string, tx: Db = db): Promise<BatchListRow | undefined> {
      const [row] = await listed(tx).where(eq(messageBatches.id, id));
      return row;
    },

    /** The batch row locked for the rest of the transaction (recall, and the job's steps). */
    async lock(tx: Db, id: string): Promise<BatchRow | undefined> {
      const [row] = await tx.select().from(messageBatches).where(eq(messageBatches.id, id)).for('update');
      return row;
    },

    async page(q: BroadcastListQuery): Promise<{ rows: BatchListRow[]; total: number }> {
      const where = and(
        eq(messageBatches.channel, q.channel),
        equals(messageBatches.status, q.status),
        contains([messageBatches.title, messageBatches.body], q.keyword),
        inMonth(messageBatches.createdAt, q.month),
      );
      const [rows, [total]] = await Promise.all([
        listed(db)
          .where(where)
          .orderBy(desc(messageBatches.createdAt), desc(messageBatches.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        db.select({ n: count() }).from(messageBatches).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Delivery counts of the batches of one page: two grouped queries, whatever the page size. */
    async stats(ids: string[], channel: BroadcastChannel): Promise<Map<string, BatchStats>> {
      const out = new Map<string, BatchStats>(ids.map((id) => [id, { delivered: 0, read: 0, sent: 0, failed: 0, pending: 0, recalledAt: null }]));
      if (!ids.length) return out;
      if (channel === 'INSITE') {
        const rows = await db
          .select({
            batchId: messagesView.batchId,
            recalledAt: messagesView.recalledAt,
            delivered: sql<number>`count(${messageRecipientsView.accountId})::int`,
            read: sql<number>`count(${messageRecipientsView.readAt})::int`,
          })
          .from(messagesView)
          .leftJoin(messageRecipientsView, eq(messageRecipientsView.messageId, messagesView.id))
          .where(inArray(messagesView.batchId, ids))
          .groupBy(messagesView.batchId, messagesView.id, messagesView.recalledAt);
        for (const r of rows) {
          const s = out.get(r.batchId!)!;
          s.delivered += r.delivered;
          s.read += r.read;
          s.recalledAt = r.recalledAt;
        }
        return out;
      }
      const rows = await db
        .select({ batchId: noticeOutboxView.batchId, status: noticeOutboxView.status, n: sql<number>`count(*)::int` })
        .from(noticeOutboxView)
        .where(inArray(noticeOutboxView.batchId, ids))
        .groupBy(noticeOutboxView.batchId, noticeOutboxView.status);
      for (const r of rows) {
        const s = out.get(r.batchId!)!;
        if (r.status === 'SENT') s.sent += r.n;
        else if (r.status === 'FAILED') s.failed += r.n;
        else s.pending += r.n;
      }
      return out;
    },

    /** One page of a batch's per-recipient records. */
    async records(batch: Pick<BatchRow, 'id' | 'channel'>, q: BroadcastRecordsQuery): Promise<{ rows: RecordRow[]; total: number }> {
      const offset = (q.page - 1) * q.size;
      if (batch.channel === 'INSITE') {
        const filter: SQL | undefined =
          q.status === 'READ' ? isNotNull(messageRecipientsView.readAt) : q.status === 'UNREAD' ? isNull(messageRecipientsView.readAt) : q.status ? sql`false` : undefined;
        const where = and(eq(messagesView.batchId, batch.id), filter);
        const [rows, [total]] = await Promise.all([
          db
            .select({
              accountId: messageRecipientsView.accountId,
              username: accountsView.username,
              name: accountsView.name,
              readAt: messageRecipientsView.readAt,
            })
            .from(messageRecipientsView)
            .innerJoin(messagesView, eq(messagesView.id, messageRecipientsView.messageId))
            .leftJoin(accountsView, eq(accountsView.id, messageRecipientsView.accountId))
            .where(where)
            .orderBy(asc(messageRecipientsView.accountId))
            .limit(q.size)
            .offset(offset),
          db.select({ n: count() }).from(messageRecipientsView).innerJoin(messagesView, eq(messagesView.id, messageRecipientsView.messageId)).where(where),
        ]);
        return {
          rows: rows.map((r) => ({
            ...r,
            recipient: null,
            status: r.readAt ? 'READ' : 'UNREAD',
            providerAnswer: null,
            lastError: null,
            attempts: 0,
            sentAt: null,
          })),
          total: total?.n ?? 0,
        };
      }
      const statusFilter = q.status === 'READ' || q.status === 'UNREAD' ? sql`false` : equals(noticeOutboxView.status, q.status);
      const where = and(eq(noticeOutboxView.batchId, batch.id), statusFilter);
      const [rows, [total]] = await Promise.all([
        db
          .select({
            accountId: noticeOutboxView.accountId,
            username: accountsView.username,
            name: accountsView.name,
            recipient: noticeOutboxView.recipient,
            status: noticeOutboxView.status,
            providerAnswer: noticeOutboxView.providerAnswer,
            lastError: noticeOutboxView.lastError,
            attempts: noticeOutboxView.attempts,
            sentAt: noticeOutboxView.sentAt,
          })
          .from(noticeOutboxView)
          .leftJoin(accountsView, eq(accountsView.id, noticeOutboxView.accountId))
          .where(where)
          // Failures first: what an operator opens this page for.
          .orderBy(sql`case ${noticeOutboxView.status} when 'FAILED' then 0 else 1 end`, asc(noticeOutboxView.createdAt), asc(noticeOutboxView.id))
          .limit(q.size)
          .offset(offset),
        db.select({ n: count() }).from(noticeOutboxView).where(where),
      ]);
      return { rows: rows.map((r) => ({ ...r, readAt: null })), total: total?.n ?? 0 };
    },

    /**
     * Participants to choose from (enabled, realm USER), newest first. `fullPii`: the caller may
     * see phones in full, so part of one finds the participant (lib/pii.ts); otherwise only the whole number.
     */
    async accounts(q: BroadcastAccountsQuery, fullPii: boolean) {
      const keyword = q.keyword ? or(contains([accountsView.username, accountsView.name], q.keyword), piiSearch(accountsView.phone, q.keyword, fullPii)) : undefined;
      const where = and(eq(accountsView.realm, 'USER'), eq(accountsView.enabled, true), keyword);
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: accountsView.id, username: accountsView.username, name: accountsView.name, phone: accountsView.phone, teamName: teamsView.teamName })
          .from(accountsView)
          .leftJoin(teamsView, eq(teamsView.ownerId, accountsView.id))
          .where(where)
          .orderBy(desc(accountsView.createdAt), desc(accountsView.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        db.select({ n: count() }).from(accountsView).where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Marks the batch and its message recalled; false when it already was. */
    async recall(tx: Db, id: string, at: Date): Promise<boolean> {
      const updated = await tx
        .update(messageBatches)
        .set({ status: 'RECALLED' satisfies BroadcastStatus })
        .where(and(eq(messageBatches.id, id), sql`${messageBatches.status} <> 'RECALLED'`))
        .returning({ id: messageBatches.id });
      if (!updated.length) return false;
      await recallBatchMessage(tx, id, at);
      return true;
    },
  };
}
export type BroadcastRepository = ReturnType<typeof createBroadcastRepository>;
