import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, statusEnum, updatedAt } from './columns.js';
import { attachments } from './files.js';

// Owned by modules/team (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

export interface TeamPerson {
  name: string;
  phone?: string;
  email?: string;
  title?: string;
  organization?: string;
  role?: string;
}

export const teams = pgTable(
  'teams',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: statusEnum }).notNull().default('DRAFT'),
    orgName: text('org_name').notNull().default(''),
    orgType: text('org_type'),
    creditCode: text('credit_code'),
    region: text('region'),
    city: text('city'),
    track: text('track'),
    teamName: text('team_name').notNull().default(''),
    leader: jsonb('leader').$type<TeamPerson>(),
    members: jsonb('members').$type<TeamPerson[]>().notNull().default([]),
    advisor: jsonb('advisor').$type<TeamPerson | null>(),
    /** Organisation certificate (PDF/JPG/PNG), signed commitment letter (PDF), optional recommendation letter. */
    certificateFileId: uuid('certificate_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    commitmentFileId: uuid('commitment_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    recommendationFileId: uuid('recommendation_file_id').references(() => attachments.id, { onDelete: 'set null' }),
    /** Reason of the latest REVISING / REJECTED outcome (the full trail is in status_history). */
    auditReason: text('audit_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    auditedAt: timestamp('audited_at', { withTimezone: true }),
    /** Raised by every write: a decision names the version it saw (optimistic concurrency). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('teams_status_ck', sql`${t.status} in ('DRAFT', 'SUBMITTED', 'APPROVED', 'REVISING', 'REJECTED')`),
    uniqueIndex('teams_owner_uq').on(t.ownerId),
    index('teams_submitted_idx').on(t.status, t.submittedAt),
    // The console lists' orders (newest submitted first; by organisation), id as the tiebreak.
    index('teams_list_order_idx').on(t.submittedAt.desc().nullsLast(), t.id),
    index('teams_draft_order_idx').on(t.updatedAt.desc().nullsLast(), t.id),
    index('teams_org_name_order_idx').on(t.orgName, t.id),
    index('teams_status_idx').on(t.status),
    index('teams_track_idx').on(t.track),
    index('teams_org_name_trgm_idx').using('gin', sql`${t.orgName} gin_trgm_ops`),
  ],
);
