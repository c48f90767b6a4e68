import { sql } from 'drizzle-orm';
import { bigint, boolean, check, foreignKey, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, roundCheck, updatedAt } from './columns.js';
import { attachments } from './files.js';
import { prelimDocs } from './prelim.js';
import { resultVersions } from './results.js';
import { teams } from './team.js';

// Owned by modules/certificates (docs/architecture.md, "Database"; docs/certificates.md): only that module
// reads or writes these tables; the others read its read model or call its exported functions.

const KINDS = sql`('AWARD', 'PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS')`;

/** A placed field as stored (CertificateField of @contest/shared, defaults filled in). */
export interface CertificateFieldJson {
  key: string;
  x: number;
  y: number;
  width: number;
  fontSize: number;
  align: 'left' | 'center' | 'right';
  bold: boolean;
  color: string;
  text?: string | null;
}

/**
 * A certificate or letter template. Its content lives in versions: every save writes a new
 * `certificate_template_versions` row and moves `current_version`; `enabled` (no new version)
 * decides whether issuing may pick it.
 */
export const certificateTemplates = pgTable(
  'certificate_templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Copies of the current version's name, kind and award level, for lists and issuing. */
    name: text('name').notNull(),
    kind: text('kind', { enum: ['AWARD', 'PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'] }).notNull(),
    awardLevel: text('award_level'),
    enabled: boolean('enabled').notNull().default(true),
    currentVersion: integer('current_version').notNull().default(1),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    updatedByName: text('updated_by_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('certificate_templates_kind_ck', sql`${t.kind} in ${KINDS}`), index('certificate_templates_kind_idx').on(t.kind, t.enabled)],
);

/** One saved version of a template; never changed once written (documents name the version they were made from). */
export const certificateTemplateVersions = pgTable(
  'certificate_template_versions',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => certificateTemplates.id, { onDelete: 'restrict' }),
    version: integer('version').notNull(),
    name: text('name').notNull(),
    kind: text('kind', { enum: ['AWARD', 'PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'] }).notNull(),
    awardLevel: text('award_level'),
    pageSize: text('page_size', { enum: ['A4', 'A5'] }).notNull(),
    orientation: text('orientation', { enum: ['PORTRAIT', 'LANDSCAPE'] }).notNull(),
    /** The background image (an upload of origin CERT), or none. */
    backgroundId: uuid('background_id').references(() => attachments.id, { onDelete: 'restrict' }),
    fields: jsonb('fields').$type<CertificateFieldJson[]>().notNull(),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.templateId, t.version] }),
    check('certificate_template_versions_page_ck', sql`${t.pageSize} in ('A4', 'A5') and ${t.orientation} in ('PORTRAIT', 'LANDSCAPE')`),
  ],
);

export interface CertificateRunSummaryJson {
  issued: number;
  unchanged: number;
  superseded: number;
  revoked: number;
}

/**
 * One issuing run of a round (the durable job `certificates.issue`): what was asked, by whom,
 * and the counts so far (updated in the transaction of each document it writes, so a run that
 * is retried after a crash keeps an exact tally).
 */
export const certificateRuns = pgTable(
  'certificate_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    jobId: uuid('job_id').notNull(),
    kinds: jsonb('kinds').$type<string[]>().notNull(),
    templateIds: jsonb('template_ids').$type<string[] | null>(),
    participationForAll: boolean('participation_for_all').notNull().default(false),
    /** The result version the run was asked for (the job uses the round's PUBLISHED version when it runs). */
    resultVersion: integer('result_version').notNull(),
    summary: jsonb('summary').$type<CertificateRunSummaryJson>().notNull().default({ issued: 0, unchanged: 0, superseded: 0, revoked: 0 }),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [check('certificate_runs_round_ck', roundCheck(t.round)), index('certificate_runs_round_idx').on(t.round, t.createdAt), uniqueIndex('certificate_runs_job_uq').on(t.jobId)],
);

/**
 * An issued document. `subject_id` is what it is about: the project (prelim_docs.id) for team
 * kinds, the expert's account for letters; at most one VALID document per round, kind and
 * subject (unique index), which is what makes issuing idempotent and two runs unable to
 * duplicate. `holder_name` is a snapshot (team or expert name) that data retention may replace
 * by initials (docs/certificates.md, "Retention").
 */
export const certificates = pgTable(
  'certificates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    serial: text('serial').notNull(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    kind: text('kind', { enum: ['AWARD', 'PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'] }).notNull(),
    holderType: text('holder_type', { enum: ['TEAM', 'EXPERT'] }).notNull(),
    subjectId: uuid('subject_id').notNull(),
    prelimId: uuid('prelim_id').references(() => prelimDocs.id, { onDelete: 'restrict' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'restrict' }),
    expertId: uuid('expert_id').references(() => accounts.id, { onDelete: 'restrict' }),
    holderName: text('holder_name').notNull(),
    projectName: text('project_name'),
    /** AWARD: the level's code and name; PROMOTION: 晋级决赛; else null. */
    awardCode: text('award_code'),
    award: text('award'),
    /** What the document states (kind, award): a later run keeps the document while this is unchanged. */
    fingerprint: text('fingerprint').notNull(),
    resultVersionId: uuid('result_version_id').references(() => resultVersions.id, { onDelete: 'restrict' }),
    resultVersion: integer('result_version').notNull(),
    templateId: uuid('template_id').notNull(),
    templateVersion: integer('template_version').notNull(),
    status: text('status', { enum: ['VALID', 'SUPERSEDED', 'REVOKED'] }).notNull().default('VALID'),
    successorId: uuid('successor_id'),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** The run that superseded or revoked it (the score log entry of that run lists it). */
    endedRunId: uuid('ended_run_id'),
    /** The stored PDF (lib/storage key), its size, SHA-256 and CRC-32 (the zip download writes them without reading twice). */
    storageKey: text('storage_key').notNull(),
    pdfSize: bigint('pdf_size', { mode: 'number' }).notNull(),
    pdfSha256: text('pdf_sha256').notNull(),
    pdfCrc32: bigint('pdf_crc32', { mode: 'number' }).notNull(),
    runId: uuid('run_id').references(() => certificateRuns.id, { onDelete: 'set null' }),
    issuedAt: timestamp('issued_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    uniqueIndex('certificates_serial_uq').on(t.serial),
    uniqueIndex('certificates_valid_uq').on(t.round, t.kind, t.subjectId).where(sql`${t.status} = 'VALID'`),
    check('certificates_kind_ck', sql`${t.kind} in ${KINDS}`),
    check('certificates_round_ck', roundCheck(t.round)),
    check('certificates_status_ck', sql`${t.status} in ('VALID', 'SUPERSEDED', 'REVOKED')`),
    check('certificates_holder_ck', sql`${t.holderType} in ('TEAM', 'EXPERT')`),
    foreignKey({ columns: [t.templateId, t.templateVersion], foreignColumns: [certificateTemplateVersions.templateId, certificateTemplateVersions.version], name: 'certificates_template_version_fk' }).onDelete('restrict'),
    index('certificates_team_idx').on(t.teamId),
    index('certificates_expert_idx').on(t.expertId),
    index('certificates_round_idx').on(t.round, t.kind, t.status),
    index('certificates_issued_idx').on(t.issuedAt, t.id),
  ],
);
