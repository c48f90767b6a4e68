import { and, count, desc, eq, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { MessageOrder } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { messageRecipients, messages } from '../../db/schema/messages.js';

export interface InboxRow {
  id: string;
  title: string;
  body: string;
  kind: 'SYSTEM' | 'ADMIN';
  eventCode: string | null;
  vars: Record<string, string> | null;
  readAt: Date | null;
  createdAt: Date;
}

const inboxColumns = {
  id: messages.id,
  title: messages.title,
  body: messages.body,
  kind: messages.kind,
  eventCode: messages.eventCode,
  vars: messages.vars,
  readAt: messageRecipients.readAt,
  createdAt: messageRecipients.createdAt,
};

/** A recalled bulk message (站内信管理 撤回) leaves every inbox and badge: recipient rows whose message stands. */
const notRecalled = sql`not exists (select 1 from ${messages} where ${messages.id} = ${messageRecipients.messageId} and ${messages.recalledAt} is not null)`;

/**
 * `exists (an unread message of this account)`, to fold the badge into another query: GET
 * /user/account selects `hasUnReadMessage: hasUnreadExpr(accounts.id)` and stays one round trip.
 */
export const hasUnreadExpr = (accountId: AnyColumn | SQL) =>
  sql<boolean>`exists (select 1 from ${messageRecipients} where ${messageRecipients.accountId} = ${accountId} and ${messageRecipients.readAt} is null and ${notRecalled})`;

/** One participant's inbox: message_recipients rows of the account, joined to their message. */
export function createMessagesRepository(db: Db) {
  const mine = (accountId: string) =>
    db.select(inboxColumns).from(messageRecipients).innerJoin(messages, eq(messages.id, messageRecipients.messageId)).where(and(eq(messageRecipients.accountId, accountId), isNull(messages.recalledAt)));

  // The badge of every participant page: prepared on first use (built once per repository, and on
  // PostgreSQL parsed and planned once per pooled connection).
  let unread: ReturnType<typeof prepareUnreadCount> | undefined;
  const prepareUnreadCount = () =>
    db
      .select({ n: count() })
      .from(messageRecipients)
      .where(and(eq(messageRecipients.accountId, sql.placeholder('accountId')), isNull(messageRecipients.readAt), notRecalled))
      .prepare('messages_unread_count');

  return {
    async page(accountId: string, order: MessageOrder, page: number, size: number): Promise<{ rows: InboxRow[]; total: number }> {
      const byTime = [desc(messageRecipients.createdAt), desc(messages.id)];
      const orderBy = order === 'unread' ? [sql`${messageRecipients.readAt} is not null`, ...byTime] : byTime;
      const [rows, [total]] = await Promise.all([
        mine(accountId).orderBy(...orderBy).limit(size).offset((page - 1) * size),
        db.select({ n: count() }).from(messageRecipients).where(and(eq(messageRecipients.accountId, accountId), notRecalled)),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    /** Marks the message read (keeping the first read time) and returns it; undefined when not the caller's. */
    async open(accountId: string, messageId: string): Promise<InboxRow | undefined> {
      await db
        .update(messageRecipients)
        .set({ readAt: sql`now()` })
        .where(and(eq(messageRecipients.accountId, accountId), eq(messageRecipients.messageId, messageId), isNull(messageRecipients.readAt), notRecalled));
      const [row] = await db
        .select(inboxColumns)
        .from(messageRecipients)
        .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
        .where(and(eq(messageRecipients.accountId, accountId), eq(messageRecipients.messageId, messageId), isNull(messages.recalledAt)));
      return row;
    },

    async unreadCount(accountId: string): Promise<number> {
      const [row] = await (unread ??= prepareUnreadCount()).execute({ accountId });
      return row?.n ?? 0;
    },

    /** Cheaper than counting: stops at the first unread row (index on account, read_at). */
    async hasUnread(accountId: string): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(messageRecipients)
        .where(and(eq(messageRecipients.accountId, accountId), isNull(messageRecipients.readAt), notRecalled))
        .limit(1);
      return !!row;
    },

    async readAll(accountId: string): Promise<number> {
      const rows = await db
        .update(messageRecipients)
        .set({ readAt: sql`now()` })
        .where(and(eq(messageRecipients.accountId, accountId), isNull(messageRecipients.readAt), notRecalled))
        .returning({ id: messageRecipients.messageId });
      return rows.length;
    },
  };
}
export type MessagesRepository = ReturnType<typeof createMessagesRepository>;
