import { z } from 'zod';
import { optionalQuery, pageQueryFields, type IsoDateTime } from '../admin/common.js';
import { CONTENT_MSG as M } from './messages.js';

/** `unread`: unread first, then newest; `time`: newest first. */
export const MESSAGE_ORDERS = ['unread', 'time'] as const;
export type MessageOrder = (typeof MESSAGE_ORDERS)[number];

/** GET /messages */
export const messageListQuerySchema = z.object({
  ...pageQueryFields,
  order: optionalQuery(z.enum(MESSAGE_ORDERS, { error: M.messageOrderInvalid })).default('time'),
});
export type MessageListQuery = z.infer<typeof messageListQuerySchema>;

export interface InboxMessage {
  id: string;
  title: string;
  /** Plain text or allow-listed HTML: the Chinese as sent. */
  body: string;
  /**
   * An event notice in English, rendered when read from its event, variables and current template
   * (body: escaped text, lines as <br>); null for messages without an event (bulk sends, older
   * notices), which read as stored (docs/decisions.md, "English").
   */
  en: { title: string; body: string } | null;
  /**
   * The event of an event notice (a TEMPLATE_EVENTS code); null for bulk sends and for notices
   * stored before messages kept their event: only those fall back to the web's recognition of
   * the default Chinese (an event notice whose template's English is empty reads as sent).
   */
  event: string | null;
  /** SYSTEM: automatic notice (audit outcome); ADMIN: sent from the console. */
  kind: 'SYSTEM' | 'ADMIN';
  read: boolean;
  readAt: IsoDateTime | null;
  createdAt: IsoDateTime;
}

/** GET /messages/summary: the unread count of the badge. */
export interface MessageSummary {
  unreadCount: number;
}

/** PUT /messages/read-all */
export interface ReadAllResult {
  updated: number;
}
