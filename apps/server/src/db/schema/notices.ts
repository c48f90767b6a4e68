import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt } from './columns.js';

// Owned by modules/notices (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/**
 * Notices for channels outside the database (SMS now, email later), written in the same
 * transaction as the change they report and sent after commit by the outbox dispatcher, which
 * claims rows with SKIP LOCKED: a notice exists exactly when its change does, and is sent once.
 */
export const noticeOutbox = pgTable(
  'notice_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['SMS', 'EMAIL'] }).notNull(),
    recipient: text('recipient').notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    templateKey: text('template_key').notNull(),
    params: jsonb('params').$type<string[]>().notNull().default([]),
    text: text('text').notNull(),
    /** Email subject (EMAIL only). */
    subject: text('subject'),
    /** The bulk send this delivery belongs to (短信管理, email): one row per recipient and channel. */
    batchId: uuid('batch_id'),
    /** What the provider answered (message id, or its refusal), kept per phone/address. */
    providerAnswer: text('provider_answer'),
    status: text('status', { enum: ['QUEUED', 'SENDING', 'SENT', 'FAILED'] }).notNull().default('QUEUED'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    check('notice_outbox_status_ck', sql`${t.status} in ('QUEUED', 'SENDING', 'SENT', 'FAILED')`),
    index('notice_outbox_due_idx').on(t.status, t.nextAttemptAt),
    // A bulk send delivers once per recipient and channel, however often its job is restarted.
    uniqueIndex('notice_outbox_batch_recipient_uq').on(t.batchId, t.accountId, t.channel).where(sql`${t.batchId} is not null`),
  ],
);

// ---------------------------------------------------------------------------------------------
// Expert review (docs/rules/review.md). A "project" is a preliminary-materials row
// (prelim_docs.id) in both rounds; the final round's projects are those with a final entry IN.
