import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, updatedAt } from './columns.js';

// Owned by modules/feedback (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** Participant feedback (docs/rules/content.md): admins reply and close; the participant sees the reply. */
export const feedback = pgTable(
  'feedback',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    content: text('content').notNull(),
    contact: text('contact'),
    attachmentIds: jsonb('attachment_ids').$type<string[]>().notNull().default([]),
    status: text('status', { enum: ['OPEN', 'REPLIED', 'CLOSED'] }).notNull().default('OPEN'),
    reply: text('reply'),
    repliedBy: uuid('replied_by').references(() => accounts.id, { onDelete: 'set null' }),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('feedback_owner_idx').on(t.ownerId, t.createdAt), index('feedback_status_idx').on(t.status, t.createdAt)],
);
