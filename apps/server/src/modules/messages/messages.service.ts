import { CONTENT_MSG, type InboxMessage, type MessageListQuery, type MessageSummary, type Page, type ReadAllResult } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { createMessagesRepository, type InboxRow, type MessagesRepository } from './messages.repository.js';

function toMessage(row: InboxRow): InboxMessage {
  return {
    id: row.id,
    title: row.title,
    // deliverMessage's callers store plain text or sanitised HTML; cleaned again on the way out.
    body: sanitizeHtml(row.body),
    kind: row.kind,
    read: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The participant's inbox (/my-message). Messages are written by `deliverMessage` (deliver.ts). */
export function createMessagesService(repo: MessagesRepository) {
  return {
    async list(accountId: string, query: MessageListQuery): Promise<Page<InboxMessage>> {
      const { rows, total } = await repo.page(accountId, query.order, query.page, query.size);
      return { list: rows.map(toMessage), page: query.page, size: query.size, total };
    },

    /** Opening a message reads it. Someone else's message is 404, like a missing one. */
    async open(accountId: string, id: string): Promise<InboxMessage> {
      const row = UUID.test(id) ? await repo.open(accountId, id) : undefined;
      if (!row) throw notFound(CONTENT_MSG.messageNotFound);
      return toMessage(row);
    },

    async summary(accountId: string): Promise<MessageSummary> {
      return { unreadCount: await repo.unreadCount(accountId) };
    },

    async readAll(accountId: string): Promise<ReadAllResult> {
      return { updated: await repo.readAll(accountId) };
    },

    hasUnread: (accountId: string) => repo.hasUnread(accountId),
  };
}
export type MessagesService = ReturnType<typeof createMessagesService>;

/** For GET /user/account (`hasUnReadMessage`): one indexed lookup, no count. */
export function hasUnread(db: Db, accountId: string): Promise<boolean> {
  return createMessagesRepository(db).hasUnread(accountId);
}
