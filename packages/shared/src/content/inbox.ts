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
  /** Plain text or allow-listed HTML. */
  body: string;
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
