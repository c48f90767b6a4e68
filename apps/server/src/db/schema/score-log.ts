import { bigint, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

// Owned by modules/score-log (docs/architecture.md, "Database"): only that module reads or writes these tables;
// the others read its read model or call its service.

export const scoreLog = pgTable(
  'score_log',
  {
    /** Position in the chain: 1, 2, 3... with no gaps (appends are serialised). */
    seq: bigint('seq', { mode: 'number' }).primaryKey(),
    /** Canonical form version: 1 hashed actorName; 2 (written since 0012) hashes v, not the name. */
    v: smallint('v').notNull().default(1),
    /** What happened: SCORE_SUBMITTED, SCORE_RETURNED, REREVIEW, PROMOTION, PUBLICATION, APPEAL_DECIDED... */
    kind: text('kind').notNull(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }),
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    actorId: uuid('actor_id'),
    actorName: text('actor_name').notNull().default(''),
    /** The facts recorded (scores, reason, ids...), as hashed: canonical JSON. */
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** Hex SHA-256 of the previous entry ('' … 64 zeros for the first). */
    prevHash: text('prev_hash').notNull(),
    /** Hex SHA-256 over prevHash and this entry's canonical fields. */
    hash: text('hash').notNull(),
  },
  (t) => [index('score_log_subject_idx').on(t.subjectType, t.subjectId), index('score_log_kind_idx').on(t.kind, t.round)],
);

/**
 * Published heads of the score log (docs/security.md): the chain head (seq and hash) and the RFC 9162
 * Merkle root over entries 1..seq, printed in the 公示 notice of a result version. Verification
 * recomputes both; a later rewrite, even of the whole chain, no longer matches.
 */
export const scoreLogAnchors = pgTable(
  'score_log_anchors',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    round: text('round', { enum: ['PRELIMINARY', 'FINAL'] }).notNull(),
    resultVersionId: uuid('result_version_id').notNull(),
    version: integer('version').notNull(),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    headHash: text('head_hash').notNull(),
    merkleRoot: text('merkle_root').notNull(),
    newsId: uuid('news_id'),
    publishedAt: timestamp('published_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('score_log_anchors_version_uq').on(t.resultVersionId), index('score_log_anchors_seq_idx').on(t.seq)],
);

// ---------------------------------------------------------------------------------------------
// Results publication (公示) and appeals (docs/rules/results.md). A round's result is published
// as version 1 and corrected by later versions after re-review; every version is kept with the
// rule it was built with and each project's line as published.
