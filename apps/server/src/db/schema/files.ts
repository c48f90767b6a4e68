import { bigint, boolean, index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt } from './columns.js';

// Owned by modules/files (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/**
 * Stored files (docs/files.md). `uniqueNo` is the public handle that appears in
 * filePath links; `id` never leaves the server except through it. Content is immutable: a
 * new upload is a new row.
 */
export const attachments = pgTable(
  'attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    uniqueNo: text('unique_no').notNull(),
    ownerId: uuid('owner_id').references(() => accounts.id, { onDelete: 'set null' }),
    origin: text('origin', { enum: ['TEAM', 'PRELIM', 'NEWS', 'DOC', 'FEEDBACK', 'OTHER'] }).notNull(),
    originalName: text('original_name').notNull(),
    extension: text('extension').notNull(),
    /** The content type found by reading the file's first bytes, not the client's claim. */
    mimeType: text('mime_type').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    storageKey: text('storage_key').notNull(),
    /** Readable by anyone (news images, public documents). */
    isPublic: boolean('is_public').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('attachments_unique_no_uq').on(t.uniqueNo),
    index('attachments_owner_idx').on(t.ownerId, t.createdAt),
    index('attachments_sha256_idx').on(t.sha256),
  ],
);
