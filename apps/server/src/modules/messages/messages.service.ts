import {
  CONTENT_MSG,
  isTemplateEventCode,
  type InboxMessage,
  type MessageListQuery,
  type MessageSummary,
  type Page,
  type ReadAllResult,
  type TemplateEventCode,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import { englishParts, eventTemplates, renderTexts, type TemplateTexts, type TemplateVars } from '../templates/render.js';
import { createMessagesRepository, type InboxRow, type MessagesRepository } from './messages.repository.js';

/**
 * The English of an event notice, rendered now from its event, its variables and the current
 * template (docs/decisions.md, "English"); null for rows without an event (bulk sends typed by an
 * operator, notices stored before events were kept) and for a template whose English title or
 * body is empty (its English readers get the Chinese): those read as stored.
 */
function englishOf(row: InboxRow, templates: Map<TemplateEventCode, TemplateTexts>): InboxMessage['en'] {
  if (!row.eventCode || !isTemplateEventCode(row.eventCode)) return null;
  const texts = templates.get(row.eventCode);
  if (!texts || !englishParts(row.eventCode, texts).message) return null;
  // Rendered whatever the channels and switch say now: the message was sent; only its language is asked.
  const insite = renderTexts(row.eventCode, { ...texts, enabled: true, channels: ['INSITE'] }, (row.vars ?? {}) as TemplateVars, 'en').insite;
  return insite ? { title: insite.title, body: sanitizeHtml(insite.body) } : null;
}

async function templatesOf(db: Db, rows: readonly InboxRow[]): Promise<Map<TemplateEventCode, TemplateTexts>> {
  const codes = rows.map((r) => r.eventCode).filter((c): c is TemplateEventCode => c !== null && isTemplateEventCode(c));
  return eventTemplates(db, codes);
}

function toMessage(row: InboxRow, templates: Map<TemplateEventCode, TemplateTexts>): InboxMessage {
  return {
    id: row.id,
    title: row.title,
    // deliverMessage's callers store plain text or sanitised HTML; cleaned again on the way out.
    body: sanitizeHtml(row.body),
    en: englishOf(row, templates),
    event: row.eventCode,
    kind: row.kind,
    read: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The participant's inbox (/my-message). Messages are written by `deliverMessage` (deliver.ts). */
export function createMessagesService(repo: MessagesRepository, db: Db) {
  return {
    async list(accountId: string, query: MessageListQuery): Promise<Page<InboxMessage>> {
      const { rows, total } = await repo.page(accountId, query.order, query.page, query.size);
      const templates = await templatesOf(db, rows);
      return { list: rows.map((r) => toMessage(r, templates)), page: query.page, size: query.size, total };
    },

    /** Opening a message reads it. Someone else's message is 404, like a missing one. */
    async open(accountId: string, id: string): Promise<InboxMessage> {
      const row = UUID.test(id) ? await repo.open(accountId, id) : undefined;
      if (!row) throw notFound(CONTENT_MSG.messageNotFound);
      return toMessage(row, await templatesOf(db, [row]));
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
