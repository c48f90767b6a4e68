import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, statusEnum, updatedAt } from './columns.js';
import { attachments } from './files.js';
import { teams } from './team.js';

// Owned by modules/prelim (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** Preliminary materials (docs/rules/prelim.md): one row per approved team once first saved; no row = NOT_FILLED. */
export const prelimDocs = pgTable(
  'prelim_docs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'restrict' }),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: statusEnum }).notNull().default('DRAFT'),
    projectName: text('project_name').notNull().default(''),
    track: text('track'),
    summary: text('summary').notNull().default(''),
    keywords: jsonb('keywords').$type<string[]>().notNull().default([]),
    applicationFileId: uuid('application_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    /** Counted characters of the application PDF, computed by the server from the stored file. */
    applicationChars: integer('application_chars'),
    presentationFileId: uuid('presentation_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    videoFileId: uuid('video_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    otherFileIds: jsonb('other_file_ids').$type<string[]>().notNull().default([]),
    auditReason: text('audit_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    auditedAt: timestamp('audited_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('prelim_docs_status_ck', sql`${t.status} in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED')`),
    uniqueIndex('prelim_docs_team_uq').on(t.teamId),
    index('prelim_docs_submitted_idx').on(t.status, t.submittedAt),
    index('prelim_docs_list_order_idx').on(t.submittedAt.desc().nullsLast(), t.id),
    index('prelim_docs_draft_order_idx').on(t.updatedAt.desc().nullsLast(), t.id),
    index('prelim_docs_project_trgm_idx').using('gin', sql`${t.projectName} gin_trgm_ops`),
    uniqueIndex('prelim_docs_owner_uq').on(t.ownerId),
    index('prelim_docs_status_idx').on(t.status),
  ],
);
