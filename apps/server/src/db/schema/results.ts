import { sql } from 'drizzle-orm';
import { check, doublePrecision, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './auth.js';
import { createdAt, roundCheck, updatedAt } from './columns.js';
import { news } from './news.js';
import { prelimDocs } from './prelim.js';
import { teams } from './team.js';

// Owned by modules/results (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

/** The rule a version was built with (ResultRuleSnapshot of @contest/shared). */
export type ResultRuleJson = Record<string, unknown>;

export const resultVersions = pgTable(
  'result_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    /** 1, 2, 3... per round. */
    version: integer('version').notNull(),
    /** Exactly one PUBLISHED (current) version per published round; earlier ones SUPERSEDED. */
    status: text('status', { enum: ['PUBLISHED', 'SUPERSEDED'] }).notNull(),
    rule: jsonb('rule').$type<ResultRuleJson>().notNull(),
    /** Why a later version was published (null for version 1). */
    reason: text('reason'),
    /** The public notice in 大赛动态. */
    newsId: uuid('news_id').references(() => news.id, { onDelete: 'set null' }),
    actorId: uuid('actor_id').references(() => accounts.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
    /** End of the 公示 period and of the appeal window this version started. */
    periodEndsAt: timestamp('period_ends_at', { withTimezone: true }).notNull(),
    appealEndsAt: timestamp('appeal_ends_at', { withTimezone: true }).notNull(),
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
  },
  (t) => [
    check('result_versions_round_ck', roundCheck(t.round)),
    check('result_versions_status_ck', sql`${t.status} in ('PUBLISHED', 'SUPERSEDED')`),
    uniqueIndex('result_versions_round_version_uq').on(t.round, t.version),
    // Two publications racing: one current version per round whatever the application checks.
    uniqueIndex('result_versions_round_current_uq').on(t.round).where(sql`${t.status} = 'PUBLISHED'`),
  ],
);

/** One project's line of a version, names as they were when published. */
export const resultEntries = pgTable(
  'result_entries',
  {
    versionId: uuid('version_id')
      .notNull()
      .references(() => resultVersions.id, { onDelete: 'cascade' }),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'restrict' }),
    projectName: text('project_name').notNull(),
    teamName: text('team_name').notNull(),
    orgName: text('org_name').notNull(),
    track: text('track'),
    rank: integer('rank'),
    trackRank: integer('track_rank'),
    /** The rule score rounded to 2 decimals (what the console shows and ranks by). */
    score: doublePrecision('score'),
    /** PROMOTED / NOT_PROMOTED (preliminary), AWARDED / NONE (final). */
    outcome: text('outcome', { enum: ['PROMOTED', 'NOT_PROMOTED', 'AWARDED', 'NONE'] }).notNull(),
    awardCode: text('award_code'),
    awardName: text('award_name'),
  },
  (t) => [
    primaryKey({ columns: [t.versionId, t.prelimId] }),
    check('result_entries_outcome_ck', sql`${t.outcome} in ('PROMOTED', 'NOT_PROMOTED', 'AWARDED', 'NONE')`),
    index('result_entries_prelim_idx').on(t.prelimId),
    index('result_entries_team_idx').on(t.teamId),
  ],
);

export interface AppealRereviewJson {
  mode: 'RETURN_SCORES' | 'ADD_EXPERTS';
  expertIds: string[];
}

/**
 * A team's appeal against a round's published result: one per team and round (unique), filed
 * during the appeal window, answered by admins (reject, or accept and re-review); RESOLVED when
 * a new version of the result is published after its re-review.
 */
export const appeals = pgTable(
  'appeals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    /** The version appealed against (its number is kept too, for lists). */
    resultVersionId: uuid('result_version_id')
      .notNull()
      .references(() => resultVersions.id, { onDelete: 'restrict' }),
    resultVersion: integer('result_version').notNull(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'restrict' }),
    prelimId: uuid('prelim_id')
      .notNull()
      .references(() => prelimDocs.id, { onDelete: 'restrict' }),
    /** The participant account that filed it. */
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'restrict' }),
    reason: text('reason').notNull(),
    attachmentIds: jsonb('attachment_ids').$type<string[]>().notNull().default([]),
    status: text('status', { enum: ['SUBMITTED', 'REJECTED', 'ACCEPTED', 'RESOLVED'] }).notNull().default('SUBMITTED'),
    reply: text('reply'),
    rereview: jsonb('rereview').$type<AppealRereviewJson | null>(),
    decidedBy: uuid('decided_by').references(() => accounts.id, { onDelete: 'set null' }),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
    /** The organisers answer by then (the end of the version's 公示 period). */
    dueAt: timestamp('due_at', { withTimezone: true }).notNull(),
    resolvedVersion: integer('resolved_version'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    /** Raised by every write: a decision names the version it saw (STALE otherwise). */
    version: integer('version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check('appeals_round_ck', roundCheck(t.round)),
    check('appeals_status_ck', sql`${t.status} in ('SUBMITTED', 'REJECTED', 'ACCEPTED', 'RESOLVED')`),
    // One appeal per team and round, also when two are sent at once.
    uniqueIndex('appeals_round_team_uq').on(t.round, t.teamId),
    index('appeals_status_due_idx').on(t.status, t.dueAt),
    index('appeals_round_created_idx').on(t.round, t.createdAt),
    index('appeals_prelim_idx').on(t.prelimId),
  ],
);
