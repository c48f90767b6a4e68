import { sql } from 'drizzle-orm';
import type { ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';

/**
 * One PostgreSQL advisory lock per round, held to the end of the transaction, guarding what must
 * not change under a first score (docs/rules/review.md, "Rubric"). A row lock on `rubrics` cannot do it: before the
 * first save there may be no row to lock, and a plain read never waits on a row lock.
 *
 * - EXCLUSIVE: a change of the round's rubric or rule (here and in 大赛设置), and every write of
 *   its groups and placements (groups.service: edits, moves, automatic assignment). Each then
 *   checks for sheets under the lock.
 * - SHARED: a sheet save (scoring), taken before it checks the assignment and reads the rubric.
 *   Saves never wait on each other, but a change and a save are serialised; whichever commits
 *   first, the other sees it (READ COMMITTED: a fresh snapshot per statement): the change then
 *   answers 400 (rubricLocked, projectHasScores, groupExpertHasScores, groupHasScores), or the
 *   save sees the new rubric and the new placement.
 * Lock order when several are taken: the settings lock (settings.repository) first, then this.
 */
const ROUND_LOCK_ID: Record<ReviewRound, number> = { PRELIMINARY: 7_310_425_101, FINAL: 7_310_425_102 };

export async function lockReviewRound(tx: Db, round: ReviewRound, mode: 'exclusive' | 'shared' = 'exclusive'): Promise<void> {
  if (mode === 'shared') await tx.execute(sql`select pg_advisory_xact_lock_shared(${ROUND_LOCK_ID[round]})`);
  else await tx.execute(sql`select pg_advisory_xact_lock(${ROUND_LOCK_ID[round]})`);
}

