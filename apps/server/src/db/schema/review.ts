import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, roundCheck, updatedAt } from './columns.js';
import { prelimDocs } from './prelim.js';

// Owned by modules/review (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** A round's rubric: criteria in order. The scoring rule lives in settings (`review.rules`). */
export interface RubricCriterion {
  key: string;
  name: string;
  description: string;
  max: number;
  nameEn?: string;
  descriptionEn?: string;
}

export const rubrics = pgTable(
  'rubrics',
  {
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).primaryKey(),
    criteria: jsonb('criteria').$type<RubricCriterion[]>().notNull(),
    version: integer('version').notNull().default(1),
    updatedBy: uuid('updated_by').references(() => accounts.id, { onDelete: 'set null' }),
    updatedAt: updatedAt(),
  },
  (t) => [check('rubrics_round_ck', roundCheck(t.round))],
);

export const reviewGroups = pgTable(
  'review_groups',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    name: text('name').notNull(),
    sort: integer('sort').notNull().default(0),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [check('review_groups_round_ck', roundCheck(t.round)), uniqueIndex('review_groups_round_name_uq').on(t.round, t.name)],
);

/** An expert sits in at most one group per round (unique on round + expert). */
export const reviewGroupExperts = pgTable(
  'review_group_experts',
  {
    groupId: uuid('group_id')
      .notNull()
      .references(() => reviewGroups.id, { onDelete: 'cascade' }),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.groupId, t.expertId] }),
    uniqueIndex('review_group_experts_round_expert_uq').on(t.round, t.expertId),
    check('review_group_experts_round_ck', roundCheck(t.round)),
  ],
);

/** A project's place in a round: one group per round (unique on round + project), with why. */
export const reviewAssignments = pgTable(
  'review_assignments',
  {
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    groupId: uuid('group_id')
      .notNull()
      .references(() => reviewGroups.id, { onDelete: 'restrict' }),
    /** AUTO (with the algorithm's reason) or MANUAL (with the admin's). */
    source: text('source', { enum: ['AUTO', 'MANUAL'] }).notNull(),
    reason: text('reason').notNull().default(''),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.round, t.prelimId] }),
    index('review_assignments_group_idx').on(t.groupId),
    check('review_assignments_round_ck', roundCheck(t.round)),
  ],
);

/** Re-review (复评): an expert added to one project beyond its group, with the admin's reason. */
export const reviewExtraExperts = pgTable(
  'review_extra_experts',
  {
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.round, t.prelimId, t.expertId] }), index('review_extra_experts_expert_idx').on(t.expertId, t.round)],
);

/**
 * One expert's score of one project in one round (SHEET workflow: DRAFT, SUBMITTED, RETURNED,
 * ABSTAINED: the expert stepped back, `return_reason` keeps why; docs/rules/review.md, "Abstaining").
 * `scores` maps criterion keys to points (0.5 steps); `total` is their sum, kept for ranking.
 * A returned sheet keeps its content until the expert saves again; every submitted version is
 * copied to score_sheet_revisions first, so no score is ever overwritten.
 */
export const scoreSheets = pgTable(
  'score_sheets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    expertId: uuid('expert_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    status: text('status', { enum: ['DRAFT', 'SUBMITTED', 'RETURNED', 'ABSTAINED'] }).notNull(),
    scores: jsonb('scores').$type<Record<string, number>>().notNull().default({}),
    total: integer('total_half_points'),
    comment: text('comment').notNull().default(''),
    returnReason: text('return_reason'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('score_sheets_status_ck', sql`${t.status} in ('DRAFT', 'SUBMITTED', 'RETURNED', 'ABSTAINED')`),
    check('score_sheets_round_ck', roundCheck(t.round)),
    uniqueIndex('score_sheets_round_project_expert_uq').on(t.round, t.prelimId, t.expertId),
    index('score_sheets_expert_idx').on(t.expertId, t.round, t.status),
    index('score_sheets_round_status_idx').on(t.round, t.status),
  ],
);

/** Every submitted version of a sheet, written when it is returned (re-review keeps the history). */
export const scoreSheetRevisions = pgTable(
  'score_sheet_revisions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sheetId: uuid('sheet_id')
      .notNull()
      .references(() => scoreSheets.id, { onDelete: 'cascade' }),
    scores: jsonb('scores').$type<Record<string, number>>().notNull(),
    total: integer('total_half_points').notNull(),
    comment: text('comment').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    returnedAt: timestamp('returned_at', { withTimezone: true }).notNull().defaultNow(),
    returnedBy: uuid('returned_by').references(() => accounts.id, { onDelete: 'set null' }),
    reason: text('reason').notNull(),
  },
  (t) => [index('score_sheet_revisions_sheet_idx').on(t.sheetId, t.returnedAt)],
);

/**
 * A promotion to the final round, kept as it was decided: the rule, N, the whole ranking at that
 * moment and who went, so later score changes never silently change who advanced.
 */
export const promotions = pgTable('promotions', {
  id: uuid('id').primaryKey().defaultRandom(),
  mode: text('mode', { enum: ['TOP_OVERALL', 'TOP_PER_TRACK', 'PICKED'] }).notNull(),
  n: integer('n'),
  rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
  ranking: jsonb('ranking').$type<unknown[]>().notNull(),
  promotedIds: jsonb('promoted_ids').$type<string[]>().notNull(),
  actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
  actorName: text('actor_name').notNull(),
  createdAt: createdAt(),
});

/**
 * A bootstrap of the confidence on a round's cut (docs/rules/judging-quality.md, "Confidence on
 * the cut"), computed off the request path: the seed, draws, N and rule it ran with, and the
 * round's input fingerprint when it started, so a later change marks it stale.
 */
export const cutConfidenceRuns = pgTable(
  'cut_confidence_runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    status: text('status', { enum: ['RUNNING', 'DONE', 'FAILED'] }).notNull(),
    topN: integer('top_n').notNull(),
    perTrack: boolean('per_track').notNull(),
    /** 32-bit unsigned; bigint so 2^31 and above fit. */
    seed: bigint('seed', { mode: 'number' }).notNull(),
    rounds: integer('rounds').notNull(),
    rule: jsonb('rule').$type<Record<string, unknown>>().notNull(),
    fingerprint: text('fingerprint').notNull(),
    result: jsonb('result').$type<unknown[]>(),
    error: text('error'),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('cut_confidence_runs_round_idx').on(t.round, t.startedAt)],
);

// ---------------------------------------------------------------------------------------------
// Messaging (docs/rules/content.md): one template model for the three channels, bulk
// sends, and durable jobs.
