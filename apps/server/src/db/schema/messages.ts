import { index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt } from './columns.js';

// Owned by modules/messages (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** In-site messages (docs/rules/content.md): one row per message, one recipient row per account. */
export const messages = pgTable(
  'messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    title: text('title').notNull(),
    /** Plain text or allow-listed HTML, sanitised when stored. */
    body: text('body').notNull().default(''),
    /** SYSTEM for automatic notices (audit outcomes), ADMIN for messages sent from the console. */
    kind: text('kind', { enum: ['SYSTEM', 'ADMIN'] }).notNull().default('SYSTEM'),
    /** How recipients were chosen: everyone, a status segment, or a list of accounts. */
    audience: text('audience', { enum: ['ALL', 'SEGMENT', 'ACCOUNTS'] }).notNull().default('ACCOUNTS'),
    segment: jsonb('segment').$type<Record<string, unknown> | null>(),
    senderId: uuid('sender_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** The bulk send (站内信管理) this message belongs to; null for event notices. */
    batchId: uuid('batch_id'),
    /**
     * An event notice's event (TEMPLATE_EVENTS) and variables, so the inbox renders it in the
     * reader's language from the current template; null for bulk sends and rows written before
     * (shown as stored). `title`/`body` keep the Chinese as sent.
     */
    eventCode: text('event_code'),
    vars: jsonb('vars').$type<Record<string, string> | null>(),
    /** Recalled by an admin (sent by mistake): recipients no longer see it. */
    recalledAt: timestamp('recalled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('messages_created_idx').on(t.createdAt), index('messages_batch_idx').on(t.batchId)],
);

export const messageRecipients = pgTable(
  'message_recipients',
  {
    messageId: uuid('message_id')
      .notNull()
      .references(() => messages.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.messageId, t.accountId] }),
    index('message_recipients_inbox_idx').on(t.accountId, t.readAt, t.createdAt),
  ],
);
