import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, updatedAt } from './columns.js';

// Owned by modules/retention (docs/retention.md): only that module reads or writes these tables;
// the others read its read model or call its service.

/**
 * One retention run: a plan (the dry run's items, stored) and its execution. A run of source
 * REQUEST is one participant's approved deletion. The real run executes exactly the items its
 * plan stored (docs/retention.md, "One plan").
 */
export const retentionRuns = pgTable(
  'retention_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    source: text('source', { enum: ['RETENTION', 'REQUEST'] }).notNull().default('RETENTION'),
    status: text('status', { enum: ['PLANNED', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'DISCARDED'] }).notNull().default('PLANNED'),
    /** The deletion request this run carries out (source REQUEST). */
    requestId: uuid('request_id'),
    /** Per kind: the cut-off the plan used (records) or the due date that made it due. */
    cutoffs: jsonb('cutoffs').$type<Record<string, string>>().notNull().default({}),
    counts: jsonb('counts').$type<Record<string, number>>().notNull().default({}),
    done: jsonb('done').$type<Record<string, number>>().notNull().default({}),
    skipped: integer('skipped').notNull().default(0),
    samples: jsonb('samples').$type<Array<{ kind: string; label: string; at: string | null }>>().notNull().default([]),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name').notNull().default(''),
    startedBy: uuid('started_by').references(() => accounts.id, { onDelete: 'set null' }),
    startedByName: text('started_by_name'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    jobId: uuid('job_id'),
    lastError: text('last_error'),
    dryRun: boolean('dry_run').notNull().default(true),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    check('retention_runs_status_ck', sql`${t.status} in ('PLANNED', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'DISCARDED')`),
    index('retention_runs_created_idx').on(t.createdAt),
    // One run per approved deletion request, however often the approval is pressed.
    uniqueIndex('retention_runs_request_uq').on(t.requestId).where(sql`${t.requestId} is not null`),
    // One periodic run executes at a time (two admins pressing 执行 at once: one wins); deletion runs may overlap it.
    uniqueIndex('retention_runs_active_uq').on(t.source).where(sql`${t.source} = 'RETENTION' and ${t.status} in ('QUEUED', 'RUNNING')`),
  ],
);

/**
 * The items of a run's plan, in order (`seq`). PENDING -> DONE (or SKIPPED: already gone); a file
 * goes PENDING -> MARKED (its row removed, its key kept here, in one transaction) -> DONE (the
 * object removed from the store), so a kill between the two leaves a MARKED item the resumed run
 * finishes, and nothing is removed twice (docs/retention.md, "Crash safety").
 */
export const retentionItems = pgTable(
  'retention_items',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    runId: uuid('run_id')
      .notNull()
      .references(() => retentionRuns.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    /** Attachment id, account id, login/operation record id. */
    targetId: text('target_id').notNull(),
    /** Files: the storage key, kept from MARKED until the object is gone. */
    storageKey: text('storage_key'),
    state: text('state', { enum: ['PENDING', 'MARKED', 'DONE', 'SKIPPED'] }).notNull().default('PENDING'),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [
    check('retention_items_state_ck', sql`${t.state} in ('PENDING', 'MARKED', 'DONE', 'SKIPPED')`),
    uniqueIndex('retention_items_run_target_uq').on(t.runId, t.kind, t.targetId),
    index('retention_items_run_state_idx').on(t.runId, t.state, t.seq),
  ],
);

/**
 * The pseudonym of an anonymised person (参赛者#12, 专家#3): a number per realm drawn at
 * anonymisation, stable for the person and unrelated to their phone or name.
 */
export const retentionPseudonyms = pgTable(
  'retention_pseudonyms',
  {
    accountId: uuid('account_id').primaryKey(),
    realm: text('realm', { enum: ['USER', 'EXPERT'] }).notNull(),
    no: integer('no').notNull(),
    /** Set when the person's data was anonymised (a pseudonym may be drawn by a plan first). */
    anonymisedAt: timestamp('anonymised_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('retention_pseudonyms_realm_no_uq').on(t.realm, t.no)],
);

/**
 * A participant's personal data request (docs/retention.md): an export (a zip made by a job,
 * downloadable by its owner until `expiresAt`) or a deletion (decided by an admin).
 */
export const dataRequests = pgTable(
  'data_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['EXPORT', 'DELETE'] }).notNull(),
    status: text('status', { enum: ['QUEUED', 'READY', 'EXPIRED', 'FAILED', 'PENDING', 'REJECTED', 'WAITING', 'DONE'] }).notNull(),
    reason: text('reason'),
    reply: text('reply'),
    waitReason: text('wait_reason'),
    decidedBy: uuid('decided_by').references(() => accounts.id, { onDelete: 'set null' }),
    decidedByName: text('decided_by_name'),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    doneAt: timestamp('done_at', { withTimezone: true }),
    /** The export's zip in the store. */
    storageKey: text('storage_key'),
    size: bigint('size', { mode: 'number' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastError: text('last_error'),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('data_requests_status_ck', sql`${t.status} in ('QUEUED', 'READY', 'EXPIRED', 'FAILED', 'PENDING', 'REJECTED', 'WAITING', 'DONE')`),
    index('data_requests_account_idx').on(t.accountId, t.kind, t.createdAt),
    index('data_requests_status_idx').on(t.status, t.createdAt),
    // One open deletion request per participant (two sent at once: one is kept).
    uniqueIndex('data_requests_open_delete_uq').on(t.accountId).where(sql`${t.kind} = 'DELETE' and ${t.status} in ('PENDING', 'WAITING')`),
  ],
);
