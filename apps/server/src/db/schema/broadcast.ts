import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt } from './columns.js';
import { messageTemplates } from './templates.js';

// Owned by modules/broadcast (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** A bulk send (短信管理, 站内信管理, email): what, to whom (segment), how far it got. */
export const messageBatches = pgTable(
  'message_batches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channel: text('channel', { enum: ['INSITE', 'SMS', 'EMAIL'] }).notNull(),
    templateId: uuid('template_id').references(() => messageTemplates.id, { onDelete: 'set null' }),
    title: text('title').notNull().default(''),
    body: text('body').notNull().default(''),
    /** The recipients' description: { kind: 'ALL' | 'TEAM_STATUS' | 'PRELIM_STATUS' | 'TRACK' | 'ACCOUNTS', values: [...] }. */
    segment: jsonb('segment').$type<Record<string, unknown>>().notNull(),
    total: integer('total').notNull().default(0),
    status: text('status', { enum: ['QUEUED', 'RUNNING', 'DONE', 'FAILED', 'RECALLED'] }).notNull().default('QUEUED'),
    jobId: uuid('job_id'),
    senderId: uuid('sender_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('message_batches_status_ck', sql`${t.status} in ('QUEUED', 'RUNNING', 'DONE', 'FAILED', 'RECALLED')`),
    index('message_batches_channel_idx').on(t.channel, t.createdAt),
  ],
);
