import { pgTable, text } from 'drizzle-orm/pg-core';
import { jsonValue, updatedAt } from './columns.js';

// Owned by modules/settings (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** Contest settings (name, phase windows, caps) as key/value JSON, edited by admins. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonValue('value').notNull(),
  updatedAt: updatedAt(),
});
