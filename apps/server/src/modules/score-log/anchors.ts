/**
 * Published heads and receipts of the score log (docs/security.md "Score log:
 * anchors and receipts"). The results module calls `anchorHead` and `saveAnchor` inside the
 * transaction that publishes a version, and prints the head in its notice; a team's receipt is
 * its entries with their Merkle inclusion paths under the root published with the version.
 */
import { and, asc, desc, eq, inArray, lte, or, sql } from 'drizzle-orm';
import {
  MERKLE_ALGORITHM,
  SCORE_LOG_GENESIS,
  SCORE_RECEIPT_FORMAT,
  merkleLevels,
  merklePath,
  merkleRootOf,
  scoreLogCanonical,
  type ReviewRound,
  type ScoreLogAnchorView,
  type ScoreReceipt,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { scoreLog, scoreLogAnchors } from '../../db/schema/score-log.js';
import { hashedOf, sha256Bytes } from './score-log.js';

export type AnchorRow = typeof scoreLogAnchors.$inferSelect;

/** The chain head and the Merkle root over every entry, as committed now. */
export interface ScoreLogHead {
  seq: number;
  headHash: string;
  merkleRoot: string;
}

/** Entry hashes of seq 1..upTo (all when omitted), in order (the tree's leaves). */
async function entryHashes(tx: Db, upTo?: number): Promise<string[]> {
  // One text instead of one row per entry: a national log holds ~100,000 entries.
  const result = await tx.execute(
    sql`select coalesce(string_agg(${scoreLog.hash}, ',' order by ${scoreLog.seq}), '') as h from ${scoreLog} ${upTo !== undefined ? sql`where ${scoreLog.seq} <= ${upTo}` : sql``}`,
  );
  const text = String((result as unknown as { rows: { h: string | null }[] }).rows[0]?.h ?? '');
  return text ? text.split(',') : [];
}

/**
 * The head to publish, read in the publishing transaction. Appends are serialised and commit in
 * seq order, so the committed entries are always 1..N with no hole: the head names a prefix that
 * never changes, whatever is appended after it (the publication's own entry comes later and
 * records this head).
 */
export async function anchorHead(tx: Db): Promise<ScoreLogHead> {
  const hashes = await entryHashes(tx);
  return { seq: hashes.length, headHash: hashes[hashes.length - 1] ?? SCORE_LOG_GENESIS, merkleRoot: merkleRootOf(sha256Bytes, merkleLevels(sha256Bytes, hashes)) };
}

export async function saveAnchor(
  tx: Db,
  input: { round: ReviewRound; resultVersionId: string; version: number; newsId: string | null; publishedAt: Date; head: ScoreLogHead },
): Promise<AnchorRow> {
  const { head, ...rest } = input;
  const [row] = await tx.insert(scoreLogAnchors).values({ ...rest, seq: head.seq, headHash: head.headHash, merkleRoot: head.merkleRoot }).returning();
  return row!;
}

export const anchorView = (a: AnchorRow): ScoreLogAnchorView => ({
  id: a.id,
  round: a.round,
  resultVersionId: a.resultVersionId,
  version: a.version,
  seq: a.seq,
  headHash: a.headHash,
  merkleRoot: a.merkleRoot,
  newsId: a.newsId,
  publishedAt: a.publishedAt.toISOString(),
});

export async function anchorOfVersion(db: Db, resultVersionId: string): Promise<AnchorRow | undefined> {
  return (await db.select().from(scoreLogAnchors).where(eq(scoreLogAnchors.resultVersionId, resultVersionId)).limit(1))[0];
}

export async function listAnchors(db: Db): Promise<AnchorRow[]> {
  return db.select().from(scoreLogAnchors).orderBy(desc(scoreLogAnchors.publishedAt), desc(scoreLogAnchors.seq));
}

/** The kinds that are about one project (its scores, returns, re-reviews, its appeal's decision). */
const PROJECT_KINDS = ['SCORE_SUBMITTED', 'SCORE_RETURNED', 'SCORE_ABSTAINED', 'REREVIEW', 'APPEAL_DECIDED'];

/**
 * A team's receipt for one published head: the project's entries up to the head, each with the
 * text that was hashed and its inclusion path, computed from the log as it is now. If the log
 * changed after publication, the paths no longer lead to the published root and the receipt
 * fails its check: that is the point.
 */
export async function buildReceipt(db: Db, anchor: AnchorRow, project: { id: string; name: string }, now: Date): Promise<ScoreReceipt> {
  return db.transaction(
    async (tx) => {
      const hashes = await entryHashes(tx, anchor.seq);
      const levels = merkleLevels(sha256Bytes, hashes);
      const rows = await tx
        .select()
        .from(scoreLog)
        .where(
          and(
            lte(scoreLog.seq, anchor.seq),
            inArray(scoreLog.kind, PROJECT_KINDS),
            or(and(eq(scoreLog.subjectType, 'prelim_doc'), eq(scoreLog.subjectId, project.id)), sql`${scoreLog.payload}->>'projectId' = ${project.id}`),
          ),
        )
        .orderBy(asc(scoreLog.seq));
      const inTree = (seq: number) => seq >= 1 && seq <= hashes.length;
      return {
        format: SCORE_RECEIPT_FORMAT,
        formatVersion: 1,
        algorithm: MERKLE_ALGORITHM,
        publication: { anchorId: anchor.id, round: anchor.round, resultVersionId: anchor.resultVersionId, version: anchor.version, publishedAt: anchor.publishedAt.toISOString(), newsId: anchor.newsId },
        head: { seq: anchor.seq, hash: anchor.headHash, path: anchor.seq > 0 && inTree(anchor.seq) ? merklePath(levels, anchor.seq - 1) : [] },
        merkle: { size: anchor.seq, root: anchor.merkleRoot },
        project,
        entries: rows
          .filter((r) => inTree(r.seq))
          .map((r) => ({
            seq: r.seq,
            hash: r.hash,
            // A v1 entry hashed the actor's name: its text is withheld when that names someone.
            canonical: r.v >= 2 || r.actorName === '' ? scoreLogCanonical(hashedOf(r)) : null,
            path: merklePath(levels, r.seq - 1),
          })),
        generatedAt: now.toISOString(),
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}
