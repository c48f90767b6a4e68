import { and, desc, eq } from 'drizzle-orm';
import type { ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { cutConfidenceRuns } from '../../db/schema/review.js';

export type CutConfidenceRunRow = typeof cutConfidenceRuns.$inferSelect;

/** The bootstrap runs of the confidence on the cut (docs/rules/judging-quality.md); only the review module writes them. */
export function createJudgingQualityRepository() {
  return {
    async insertRun(tx: Db, values: typeof cutConfidenceRuns.$inferInsert): Promise<CutConfidenceRunRow> {
      const [row] = await tx.insert(cutConfidenceRuns).values(values).returning();
      return row!;
    },
    /** Only a RUNNING run is finished: a run is written once more, never rewritten. */
    async finishRun(tx: Db, id: string, values: Pick<CutConfidenceRunRow, 'status' | 'result' | 'error' | 'finishedAt'>): Promise<void> {
      await tx
        .update(cutConfidenceRuns)
        .set(values)
        .where(and(eq(cutConfidenceRuns.id, id), eq(cutConfidenceRuns.status, 'RUNNING')));
    },
    async latestRun(tx: Db, round: ReviewRound): Promise<CutConfidenceRunRow | null> {
      const [row] = await tx.select().from(cutConfidenceRuns).where(eq(cutConfidenceRuns.round, round)).orderBy(desc(cutConfidenceRuns.startedAt), desc(cutConfidenceRuns.id)).limit(1);
      return row ?? null;
    },
    async latestDone(tx: Db, round: ReviewRound): Promise<CutConfidenceRunRow | null> {
      const [row] = await tx
        .select()
        .from(cutConfidenceRuns)
        .where(and(eq(cutConfidenceRuns.round, round), eq(cutConfidenceRuns.status, 'DONE')))
        .orderBy(desc(cutConfidenceRuns.startedAt), desc(cutConfidenceRuns.id))
        .limit(1);
      return row ?? null;
    },
  };
}
export type JudgingQualityRepository = ReturnType<typeof createJudgingQualityRepository>;
