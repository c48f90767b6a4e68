import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, updatedAt } from './columns.js';
import { prelimDocs } from './prelim.js';

// Owned by modules/live-final (docs/architecture.md, "Database"): only that module reads or writes these tables.
// The sheets a live judge submits are the review module's (score_sheets), written through its service.

/** A live-final session (场次, LIVE_SESSION workflow). `version` is raised by every chair action (docs/live-final.md, "Calls"). */
export const liveSessions = pgTable(
  'live_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    venue: text('venue').notNull(),
    /** YYYY-MM-DD */
    date: text('date').notNull(),
    /** HH:mm or null */
    startTime: text('start_time'),
    presentationMinutes: integer('presentation_minutes').notNull(),
    qaMinutes: integer('qa_minutes').notNull(),
    status: text('status', { enum: ['PLANNED', 'LIVE', 'ENDED'] }).notNull().default('PLANNED'),
    /** The project on stage (prelim_docs id), null before OPEN. */
    currentPrelimId: uuid('current_prelim_id'),
    version: integer('version').notNull().default(1),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('live_sessions_status_ck', sql`${t.status} in ('PLANNED', 'LIVE', 'ENDED')`), index('live_sessions_date_idx').on(t.date, t.name)],
);

/** The judges of a session (enabled experts of a FINAL review group when chosen). */
export const liveSessionJudges = pgTable(
  'live_session_judges',
  {
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    sort: integer('sort').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sessionId, t.expertId] }), index('live_session_judges_expert_idx').on(t.expertId)],
);

/**
 * A project of a session (LIVE_PROJECT workflow), at most one session per project. The timer is
 * derived from the stored timestamps (docs/live-final.md, "State machine"): never in memory.
 */
export const liveSessionProjects = pgTable(
  'live_session_projects',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    sort: integer('sort').notNull(),
    status: text('status', { enum: ['WAITING', 'PRESENTING', 'QA', 'SCORING', 'CLOSED', 'REVEALED', 'ABSENT', 'SKIPPED'] })
      .notNull()
      .default('WAITING'),
    /** The judges expected to score, fixed at START (null before). */
    expectedJudgeIds: jsonb('expected_judge_ids').$type<string[]>(),
    presentingAt: timestamp('presenting_at', { withTimezone: true }),
    qaAt: timestamp('qa_at', { withTimezone: true }),
    scoringAt: timestamp('scoring_at', { withTimezone: true }),
    /** Set while the timer is paused. */
    pausedAt: timestamp('paused_at', { withTimezone: true }),
    /** Paused milliseconds accumulated in the running phase (reset when the phase changes). */
    pausedMs: integer('paused_ms').notNull().default(0),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    closeReason: text('close_reason'),
    revealedAt: timestamp('revealed_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('live_session_projects_status_ck', sql`${t.status} in ('WAITING', 'PRESENTING', 'QA', 'SCORING', 'CLOSED', 'REVEALED', 'ABSENT', 'SKIPPED')`),
    uniqueIndex('live_session_projects_prelim_uq').on(t.prelimId),
    index('live_session_projects_session_idx').on(t.sessionId, t.sort),
  ],
);

/** A big-screen link: the token is shown once, only its SHA-256 is kept. */
export const liveDisplayLinks = pgTable(
  'live_display_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    name: text('name').notNull().default(''),
    tokenHash: text('token_hash').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('live_display_links_token_uq').on(t.tokenHash), index('live_display_links_session_idx').on(t.sessionId)],
);

/** A judge's submit key (idempotency, docs/live-final.md, "Judges' submissions"): recorded once per judge. */
export const liveSubmitKeys = pgTable(
  'live_submit_keys',
  {
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: uuid('key').notNull(),
    sessionId: uuid('session_id')
      .notNull()
      .references(() => liveSessions.id, { onDelete: 'cascade' }),
    prelimId: uuid('prelim_id').notNull(),
    /** The score sheet written (review's score_sheets.id). */
    sheetId: uuid('sheet_id'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.expertId, t.key] })],
);
