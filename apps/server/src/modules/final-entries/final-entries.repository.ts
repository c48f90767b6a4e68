import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { finalEntries } from '../../db/schema/final-entries.js';

export type FinalEntryRow = typeof finalEntries.$inferSelect;

/** The only writer of final_entries (docs/architecture.md, "Workflow core"); readers join it where they list. */
export function createFinalEntriesRepository() {
  return {
    find: async (db: Db, prelimId: string): Promise<FinalEntryRow | undefined> => (await db.select().from(finalEntries).where(eq(finalEntries.prelimId, prelimId)).limit(1))[0],
    lock: async (tx: Db, prelimId: string): Promise<FinalEntryRow | undefined> =>
      (await tx.select().from(finalEntries).where(eq(finalEntries.prelimId, prelimId)).for('update').limit(1))[0],
    /** Creates the entry (first addition) or moves it; raises its version. */
    async write(tx: Db, prelimId: string, status: 'IN' | 'OUT', reason: string, at: Date): Promise<FinalEntryRow> {
      const [row] = await tx
        .insert(finalEntries)
        .values({ prelimId, status, reason, createdAt: at, updatedAt: at })
        .onConflictDoUpdate({ target: finalEntries.prelimId, set: { status, reason, updatedAt: at, version: sql`${finalEntries.version} + 1` } })
        .returning();
      return row!;
    },
  };
}
export type FinalEntriesRepository = ReturnType<typeof createFinalEntriesRepository>;
