import { and, count, desc, eq, gte, lt, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { accounts, dictItems, prelimDocs, teams } from '../../../db/schema.js';

/**
 * The console home's figures. Every method is one aggregate query: the database counts,
 * no row list ever reaches the server, so the home stays fast with any number of users.
 */
export function createDashboardRepository(db: Db) {
  // Beijing has no daylight saving: a fixed +8 h offset gives the Beijing calendar day
  // whatever the session time zone is.
  const beijingDay = sql<string>`to_char((${accounts.createdAt} at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD')`;
  return {
    /** Participant registrations per Beijing day in [from, to); days without any are absent. */
    registrationsPerDay: (from: Date, to: Date) =>
      db
        .select({ date: beijingDay, count: count() })
        .from(accounts)
        .where(and(eq(accounts.realm, 'USER'), gte(accounts.createdAt, from), lt(accounts.createdAt, to)))
        .groupBy(beijingDay),

    userCount: async () => (await db.select({ n: count() }).from(accounts).where(eq(accounts.realm, 'USER')))[0]?.n ?? 0,

    teamsByStatus: () => db.select({ key: teams.status, count: count() }).from(teams).groupBy(teams.status),

    teamsByTrack: () =>
      db
        .select({ key: teams.track, name: dictItems.name, count: count() })
        .from(teams)
        .leftJoin(dictItems, and(eq(dictItems.typeCode, 'TRACK'), eq(dictItems.code, teams.track)))
        .groupBy(teams.track, dictItems.name)
        .orderBy(desc(count()), teams.track),

    prelimByStatus: () => db.select({ key: prelimDocs.status, count: count() }).from(prelimDocs).groupBy(prelimDocs.status),

    /** Approved teams that have saved no materials yet (docs/rules/prelim.md: no row = NOT_FILLED). */
    prelimNotFilled: async () =>
      (
        await db
          .select({ n: count() })
          .from(teams)
          .where(and(eq(teams.status, 'APPROVED'), notExists(db.select({ one: sql`1` }).from(prelimDocs).where(eq(prelimDocs.teamId, teams.id)))))
      )[0]?.n ?? 0,
  };
}
export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
