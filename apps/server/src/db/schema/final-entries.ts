import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { prelimDocs } from './prelim.js';

// Owned by modules/final-entries (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** A project's place in the final round (FINAL workflow): added by promotion or by hand, removed with a reason. */
export const finalEntries = pgTable(
  'final_entries',
  {
    prelimId: uuid('prelim_id')
      .primaryKey()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['IN', 'OUT'] }).notNull(),
    reason: text('reason'),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('final_entries_status_ck', sql`${t.status} in ('IN', 'OUT')`), index('final_entries_status_idx').on(t.status, t.updatedAt)],
);
