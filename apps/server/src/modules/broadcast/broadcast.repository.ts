import { and, asc, count, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { BroadcastAccountsQuery, BroadcastChannel, BroadcastListQuery, BroadcastRecordsQuery, BroadcastStatus } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accounts, dictItems, jobs, messageBatches, messageRecipients, messageTemplates, messages, noticeOutbox, teams } from '../../db/schema.js';
import { contains, equals } from '../../lib/list-query.js';
import { piiSearch } from '../../lib/pii.js';

export type BatchRow = typeof messageBatches.$inferSelect;
export type TemplateRow = typeof messageTemplates.$inferSelect;

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
    sender: { id: accounts.id, name: accounts.name, username: accounts.username },
    job: { status: jobs.status, done: jobs.done, total: jobs.total },
  };
  const listed = (tx: Db) =>
    tx
      .select(listSelection)
      .from(messageBatches)
      .leftJoin(accounts, eq(accounts.id, messageBatches.senderId))
      .leftJoin(jobs, eq(jobs.id, messageBatches.jobId));

  return {
    /** A template a bulk send may use: of no event (code null) and enabled. */
    async bulkTemplate(id: string, tx: Db = db): Promise<TemplateRow | undefined> {
      const [row] = await tx
        .select()
        .from(messageTemplates)
        .where(and(eq(messageTemplates.id, id), isNull(messageTemplates.code), eq(messageTemplates.enabled, true)));
      return row;
    },

    /** TRACK dictionary names by code (disabled items too: an old batch keeps its words). */
    async trackNames(tx: Db = db): Promise<Record<string, string>> {
      const rows = await tx.select({ code: dictItems.code, name: dictItems.name }).from(dictItems).where(eq(dictItems.typeCode, TRACK_DICT));
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
            batchId: messages.batchId,
            recalledAt: messages.recalledAt,
            delivered: sql<number>`count(${messageRecipients.accountId})::int`,
            read: sql<number>`count(${messageRecipients.readAt})::int`,
          })
          .from(messages)
          .leftJoin(messageRecipients, eq(messageRecipients.messageId, messages.id))
          .where(inArray(messages.batchId, ids))
          .groupBy(messages.batchId, messages.id, messages.recalledAt);
        for (const r of rows) {
          const s = out.get(r.batchId!)!;
          s.delivered += r.delivered;
          s.read += r.read;
          s.recalledAt = r.recalledAt;
        }
        return out;
      }
      const rows = await db
        .select({ batchId: noticeOutbox.batchId, status: noticeOutbox.status, n: sql<number>`count(*)::int` })
        .from(noticeOutbox)
        .where(inArray(noticeOutbox.batchId, ids))
        .groupBy(noticeOutbox.batchId, noticeOutbox.status);
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
          q.status === 'READ' ? isNotNull(messageRecipients.readAt) : q.status === 'UNREAD' ? isNull(messageRecipients.readAt) : q.status ? sql`false` : undefined;
        const where = and(eq(messages.batchId, batch.id), filter);
        const [rows, [total]] = await Promise.all([
          db
            .select({
              accountId: messageRecipients.accountId,
              username: accounts.username,
              name: accounts.name,
              readAt: messageRecipients.readAt,
            })
            .from(messageRecipients)
            .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
            .leftJoin(accounts, eq(accounts.id, messageRecipients.accountId))
            .where(where)
            .orderBy(asc(messageRecipients.accountId))
            .limit(q.size)
            .offset(offset),
          db.select({ n: count() }).from(messageRecipients).innerJoin(messages, eq(messages.id, messageRecipients.messageId)).where(where),
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
      const statusFilter = q.status === 'READ' || q.status === 'UNREAD' ? sql`false` : equals(noticeOutbox.status, q.status);
      const where = and(eq(noticeOutbox.batchId, batch.id), statusFilter);
      const [rows, [total]] = await Promise.all([
        db
          .select({
            accountId: noticeOutbox.accountId,
            username: accounts.username,
            name: accounts.name,
            recipient: noticeOutbox.recipient,
            status: noticeOutbox.status,
            providerAnswer: noticeOutbox.providerAnswer,
            lastError: noticeOutbox.lastError,
            attempts: noticeOutbox.attempts,
            sentAt: noticeOutbox.sentAt,
          })
          .from(noticeOutbox)
          .leftJoin(accounts, eq(accounts.id, noticeOutbox.accountId))
          .where(where)
          // Failures first: what an operator opens this page for.
          .orderBy(sql`case ${noticeOutbox.status} when 'FAILED' then 0 else 1 end`, asc(noticeOutbox.createdAt), asc(noticeOutbox.id))
          .limit(q.size)
          .offset(offset),
        db.select({ n: count() }).from(noticeOutbox).where(where),
      ]);
      return { rows: rows.map((r) => ({ ...r, readAt: null })), total: total?.n ?? 0 };
    },

    /**
     * Participants to choose from (enabled, realm USER), newest first. `fullPii`: the caller may
     * see phones in full, so part of one finds the participant (lib/pii.ts); otherwise only the whole number.
     */
    async accounts(q: BroadcastAccountsQuery, fullPii: boolean) {
      const keyword = q.keyword ? or(contains([accounts.username, accounts.name], q.keyword), piiSearch(accounts.phone, q.keyword, fullPii)) : undefined;
      const where = and(eq(accounts.realm, 'USER'), eq(accounts.enabled, true), keyword);
      const [rows, [total]] = await Promise.all([
        db
          .select({ id: accounts.id, username: accounts.username, name: accounts.name, phone: accounts.phone, teamName: teams.teamName })
          .from(accounts)
          .leftJoin(teams, eq(teams.ownerId, accounts.id))
          .where(where)
          .orderBy(desc(accounts.createdAt), desc(accounts.id))
          .limit(q.size)
          .offset((q.page - 1) * q.size),
        db.select({ n: count() }).from(accounts).where(where),
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
      await tx.update(messages).set({ recalledAt: at }).where(and(eq(messages.batchId, id), isNull(messages.recalledAt)));
      return true;
    },
  };
}
export type BroadcastRepository = ReturnType<typeof createBroadcastRepository>;
