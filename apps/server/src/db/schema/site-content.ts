import { pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { updatedAt } from './columns.js';

// Owned by modules/site-content (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** Editable site blocks (sign-up guide, home introduction): key -> sanitised HTML. */
export const siteContent = pgTable('site_content', {
  key: text('key').primaryKey(),
  title: text('title').notNull().default(''),
  body: text('body').notNull().default(''),
  titleEn: text('title_en'),
  bodyEn: text('body_en'),
  updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
  updatedAt: updatedAt(),
});
