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
