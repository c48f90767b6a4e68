import { sql } from 'drizzle-orm';
import { index, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt } from './columns.js';

// Owned by modules/audit (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/**
 * One row per admin or expert write anywhere in the portal, written in the same transaction as
 * the change. Append-only: no API updates or deletes these.
 */
export const operationRecords = pgTable(
  'operation_records',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    realm: text('realm', { enum: ['USER', 'ADMIN', 'EXPERT'] }).notNull(),
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** Kept as written so the record still reads well after the account is renamed or removed. */
    username: text('username').notNull(),
    /** Permission-style code of what was done, e.g. `account:disable`, `role:edit`. */
    action: text('action').notNull(),
    /** Kind of thing acted on (`account`, `role`, `dict_item`, ...) and its id. */
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    /** Human-readable summary of the change (no passwords, no tokens). */
    summary: text('summary').notNull().default(''),
    result: text('result', { enum: ['SUCCESS', 'FAILURE'] }).notNull().default('SUCCESS'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: createdAt(),
  },
  (t) => [
    index('operation_records_realm_idx').on(t.realm, t.createdAt),
    index('operation_records_account_idx').on(t.accountId, t.createdAt),
    index('operation_records_username_trgm_idx').using('gin', sql`${t.username} gin_trgm_ops`),
  ],
);
