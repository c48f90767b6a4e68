import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, jsonValue, updatedAt } from './columns.js';

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
    origin: text('origin', { enum: ['TEAM', 'PRELIM', 'NEWS', 'DOC', 'FEEDBACK', 'OTHER', 'CERT'] }).notNull(),
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

/**
 * Uploads going straight to the object store (docs/files.md, "Direct upload"): the state any
 * instance needs to sign parts, resume and complete; the parts themselves are the store's
 * (ListParts). `partSha256` holds, per 0-based chunk, the base64 SHA-256 its last link was signed
 * for. A finished upload keeps its attachment's `uniqueNo`, so a repeated completion answers the
 * same file.
 */
export const directUploads = pgTable(
  'direct_uploads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    origin: text('origin', { enum: ['TEAM', 'PRELIM', 'NEWS', 'DOC', 'FEEDBACK', 'OTHER', 'CERT'] }).notNull(),
    name: text('name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    chunks: integer('chunks').notNull(),
    /** Hex SHA-256 of the whole file, as declared at the start. */
    sha256: text('sha256').notNull(),
    partSha256: jsonValue('part_sha256').$type<Record<string, string>>().notNull(),
    storageKey: text('storage_key').notNull(),
    /** The store's multipart upload id. */
    multipartId: text('multipart_id').notNull(),
    status: text('status', { enum: ['OPEN', 'DONE', 'ABORTED'] }).notNull().default('OPEN'),
    uniqueNo: text('unique_no'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('direct_uploads_owner_idx').on(t.ownerId), index('direct_uploads_open_idx').on(t.status, t.updatedAt)],
);

/** A received piece of a chunked upload: its size and a token naming the write that put it in place. */
export interface PieceMark {
  size: number;
  token: string;
}

/** Who holds an upload's join (docs/files.md, "Chunked upload protocol"): a host's process, by its start. */
export interface PieceJoinHolder {
  host: string;
  pid: number;
  instance: string;
  token: string;
}

/**
 * The state of a chunked upload sent through the server (docs/files.md, "Chunked upload
 * protocol"): what its first piece fixed, the pieces received (`pieces`: chunk -> mark), the join
 * claim (`claim`, refreshed in `claimedAt`), the ids a join chose (`plan`) and the stored file
 * (`result`). `id` is the client's upload id. Only the pieces' bytes live elsewhere (the disk
 * store: DATA_DIR/uploads; S3: the store, under `bytesKey`).
 */
export const pieceUploads = pgTable(
  'piece_uploads',
  {
    id: text('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    origin: text('origin', { enum: ['TEAM', 'PRELIM', 'NEWS', 'DOC', 'FEEDBACK', 'OTHER', 'CERT'] }).notNull(),
    name: text('name').notNull(),
    chunks: integer('chunks').notNull(),
    /** Server-made storage key prefix the pieces' bytes live under in an S3 store. */
    bytesKey: text('bytes_key').notNull(),
    pieces: jsonValue('pieces').$type<Record<string, PieceMark>>().notNull(),
    claim: jsonValue('claim').$type<PieceJoinHolder>(),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    plan: jsonValue('plan').$type<{ id: string; uniqueNo: string; storageKey: string; size: number; sha256: string }>(),
    result: jsonValue('result').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('piece_uploads_owner_idx').on(t.ownerId), index('piece_uploads_updated_idx').on(t.updatedAt)],
);
