import { boolean, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns.js';

// Owned by modules/dictionary (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

export const dictTypes = pgTable('dict_types', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
  /** English name; English pages fall back to `name` when empty. */
  nameEn: text('name_en'),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const dictItems = pgTable(
  'dict_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    typeCode: text('type_code')
      .notNull()
      .references(() => dictTypes.code, { onDelete: 'restrict' }),
    code: text('code').notNull(),
    name: text('name').notNull(),
    /** English name; English pages fall back to `name` when empty. */
    nameEn: text('name_en'),
    sort: integer('sort').notNull().default(0),
    /** Disabled items disappear from selects but keep old records readable. */
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('dict_items_type_code_uq').on(t.typeCode, t.code)],
);
