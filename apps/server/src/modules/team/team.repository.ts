import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { prelimDocs, teams } from '../../db/schema.js';

export type TeamRow = typeof teams.$inferSelect;
export type NewTeamRow = typeof teams.$inferInsert;

export function createTeamRepository(db: Db) {
  return {
    byOwner: async (ownerId: string, tx: Db = db) => (await tx.select().from(teams).where(eq(teams.ownerId, ownerId)).limit(1))[0],

    /** Locks the row for the rest of the transaction, so two saves or an audit never interleave. */
    lockByOwner: async (ownerId: string, tx: Db) => (await tx.select().from(teams).where(eq(teams.ownerId, ownerId)).for('update').limit(1))[0],
    lockById: async (id: string, tx: Db) => (await tx.select().from(teams).where(eq(teams.id, id)).for('update').limit(1))[0],
    byId: async (id: string) => (await db.select().from(teams).where(eq(teams.id, id)).limit(1))[0],

    /** null when another request created the owner's team first (unique owner). */
    insert: async (tx: Db, values: NewTeamRow) => (await tx.insert(teams).values(values).onConflictDoNothing({ target: teams.ownerId }).returning())[0] ?? null,
    update: async (tx: Db, id: string, values: Partial<NewTeamRow>) => (await tx.update(teams).set(values).where(eq(teams.id, id)).returning())[0]!,

    prelimStatusOfTeam: async (teamId: string) =>
      (await db.select({ status: prelimDocs.status }).from(prelimDocs).where(eq(prelimDocs.teamId, teamId)).limit(1))[0]?.status ?? null,
  };
}
export type TeamRepository = ReturnType<typeof createTeamRepository>;
