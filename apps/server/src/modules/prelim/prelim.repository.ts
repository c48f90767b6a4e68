import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { prelimDocs, teams } from '../../db/schema.js';

export type PrelimRow = typeof prelimDocs.$inferSelect;
export type NewPrelimRow = typeof prelimDocs.$inferInsert;

export function createPrelimRepository(db: Db) {
  return {
    teamOf: async (ownerId: string, tx: Db = db) => (await tx.select().from(teams).where(eq(teams.ownerId, ownerId)).limit(1))[0],
    teamById: async (id: string) => (await db.select().from(teams).where(eq(teams.id, id)).limit(1))[0],
    byTeam: async (teamId: string) => (await db.select().from(prelimDocs).where(eq(prelimDocs.teamId, teamId)).limit(1))[0],
    byId: async (id: string) => (await db.select().from(prelimDocs).where(eq(prelimDocs.id, id)).limit(1))[0],
    lockByTeam: async (teamId: string, tx: Db) => (await tx.select().from(prelimDocs).where(eq(prelimDocs.teamId, teamId)).for('update').limit(1))[0],
    lockById: async (id: string, tx: Db) => (await tx.select().from(prelimDocs).where(eq(prelimDocs.id, id)).for('update').limit(1))[0],
    /** null when a concurrent first save created the row first. */
    insert: async (tx: Db, values: NewPrelimRow) =>
      (await tx.insert(prelimDocs).values(values).onConflictDoNothing({ target: prelimDocs.teamId }).returning())[0] ?? null,
    update: async (tx: Db, id: string, values: Partial<NewPrelimRow>) => (await tx.update(prelimDocs).set(values).where(eq(prelimDocs.id, id)).returning())[0]!,
  };
}
export type PrelimRepository = ReturnType<typeof createPrelimRepository>;
