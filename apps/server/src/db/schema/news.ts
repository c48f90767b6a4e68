import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, updatedAt } from './columns.js';

// Owned by modules/news (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

export const news = pgTable(
  'news',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    category: text('category', { enum: ['MEDICAL_INSURANCE', 'CONTEST_DYNAMIC'] }).notNull(),
    title: text('title').notNull(),
    coverPath: text('cover_path'),
    summary: text('summary').notNull().default(''),
    /** Rich text, already sanitised by the allow-list when stored. */
    body: text('body').notNull().default(''),
    /** English version (optional): English pages show it, falling back to the Chinese. */
    titleEn: text('title_en'),
    summaryEn: text('summary_en'),
    bodyEn: text('body_en'),
    source: text('source'),
    status: text('status', { enum: ['DRAFT', 'PUBLISHED', 'OFFLINE'] }).notNull().default('DRAFT'),
    pinned: boolean('pinned').notNull().default(false),
    publishAt: timestamp('publish_at', { withTimezone: true }),
    authorId: uuid('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('news_listing_idx').on(t.category, t.status, t.pinned, t.publishAt)],
);
