import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';
import { attachments } from './files.js';

// Owned by modules/documents (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** Downloadable documents (docs/rules/content.md): templates, guides, data documents, by audience. */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Well-known templates are found by code (e.g. COMMITMENT_LETTER) through /template/public. */
    code: text('code'),
    title: text('title').notNull(),
    titleEn: text('title_en'),
    attachmentId: uuid('attachment_id')
      .notNull()
      .references(() => attachments.id, { onDelete: 'restrict' }),
    category: text('category', { enum: ['TEMPLATE', 'GUIDE', 'DATA'] }).notNull(),
    audience: text('audience', { enum: ['PUBLIC', 'PARTICIPANT', 'APPROVED'] }).notNull().default('PUBLIC'),
    sort: integer('sort').notNull().default(0),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('documents_code_uq').on(t.code).where(sql`${t.code} is not null`),
    index('documents_category_idx').on(t.category, t.sort),
  ],
);
