import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';

// Owned by lib/ (docs/architecture.md, "Database"): durable jobs (lib/jobs.ts) and the key-value store
// (lib/kv-store.ts).

/**
 * Durable background jobs (docs/decisions.md, "Jobs, templates and email"): claimed with FOR UPDATE SKIP LOCKED, so one instance
 * runs each; a running job whose heartbeat stopped (process killed) is claimed again and resumes
 * from its own records (per-recipient idempotency lives in the work, e.g. notice_outbox's unique
 * batch + recipient + channel).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    status: text('status', { enum: ['QUEUED', 'RUNNING', 'DONE', 'FAILED'] }).notNull().default('QUEUED'),
    /** Units done of total (recipients, rows...), for progress bars. */
    done: integer('done').notNull().default(0),
    total: integer('total').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    /** At most one live job per key (e.g. the daily upload sweep). */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    check('jobs_status_ck', sql`${t.status} in ('QUEUED', 'RUNNING', 'DONE', 'FAILED')`),
    index('jobs_due_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_dedupe_uq').on(t.dedupeKey).where(sql`${t.dedupeKey} is not null and ${t.status} in ('QUEUED', 'RUNNING')`),
  ],
);

/**
 * Short-lived shared state (captcha nonces, SMS resend windows and daily caps) when no Redis is
 * configured (lib/kv-store.ts, createDbKvStore): kept here rather than in memory so a restart
 * does not reset the limits. Expired rows are ignored on read and removed by the kv.sweep job.
 */
export const kvStore = pgTable(
  'kv_store',
  {
    key: text('key').primaryKey(),
    value: text('value').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('kv_store_expires_idx').on(t.expiresAt)],
);

// ---------------------------------------------------------------------------------------------
// Tamper-evident score log (docs/rules/results.md, "Score log"): every score submission, return, re-review,
// promotion and publication appended in order; each entry carries the hash of the one before it,
// so an edit or deletion anywhere breaks the chain from that entry on.
