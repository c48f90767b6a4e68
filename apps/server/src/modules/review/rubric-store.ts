import { DEFAULT_RUBRICS, type Criterion, type ReviewRound } from '@contest/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { rubrics, scoreSheets } from '../../db/schema/review.js';

/**
 * A criterion stored before it had English (or saved without it) gets the default's English when
 * it still is that default criterion (same key and Chinese name): English pages then read English.
 */
function withDefaultEnglish(round: ReviewRound, c: Criterion): Criterion {
  if (c.nameEn) return c;
  const standard = DEFAULT_RUBRICS[round].find((d) => d.key === c.key && d.name === c.name);
  if (!standard) return c;
  return { ...c, nameEn: standard.nameEn ?? '', descriptionEn: c.description === standard.description ? (standard.descriptionEn ?? '') : (c.descriptionEn ?? '') };
}

/** A round's rubric, read and written (stored, else the defaults of docs/rules/review.md, "Rubric") and whether it is locked. */
export function createRubricStore() {
  return {
    async get(tx: Db, round: ReviewRound): Promise<{ criteria: Criterion[]; version: number }> {
      const [row] = await tx.select().from(rubrics).where(eq(rubrics.round, round)).limit(1);
      return row ? { criteria: row.criteria.map((c) => withDefaultEnglish(round, c)), version: row.version } : { criteria: DEFAULT_RUBRICS[round].map((c) => ({ ...c })), version: 0 };
    },
    /** Locked once any sheet of the round exists (draft or submitted): the rubric and the rule are fixed from then on. */
    async locked(tx: Db, round: ReviewRound): Promise<boolean> {
      const [row] = await tx.select({ one: sql<number>`1` }).from(scoreSheets).where(and(eq(scoreSheets.round, round))).limit(1);
      return !!row;
    },
    /** Writes the round's criteria at `version` (the first save of a round still on the defaults creates its row). */
    async save(tx: Db, round: ReviewRound, criteria: Criterion[], version: number, by: string, at: Date): Promise<void> {
      await tx
        .insert(rubrics)
        .values({ round, criteria, version, updatedBy: by, updatedAt: at })
        .onConflictDoUpdate({ target: rubrics.round, set: { criteria, version, updatedBy: by, updatedAt: at } });
    },
  };
}
export type RubricStore = ReturnType<typeof createRubricStore>;
