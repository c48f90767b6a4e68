import { boolean, date, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt } from './columns.js';

// Owned by modules/workflow (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/**
 * Every status change of a workflow subject (sign-up, materials, final-round entry, and later
 * score sheets, appeals): who, when, from, to, why. The subject type is open: each workflow of
 * packages/shared/src/workflow names its own.
 */
export const statusHistory = pgTable(
  'status_history',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    reason: text('reason'),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorRealm: text('actor_realm', { enum: ['USER', 'ADMIN', 'EXPERT'] }).notNull(),
    actorName: text('actor_name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('status_history_subject_idx').on(t.subjectType, t.subjectId, t.createdAt)],
);

/** Reminders sent to a team about its draft: at most one per subject per Beijing day (unique). */
export const reminders = pgTable(
  'reminders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    subjectType: text('subject_type').notNull(),
    subjectId: uuid('subject_id').notNull(),
    /** Beijing calendar day of the reminder. */
    day: date('day', { mode: 'string' }).notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    sms: boolean('sms').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('reminders_subject_day_uq').on(t.subjectType, t.subjectId, t.day)],
);
