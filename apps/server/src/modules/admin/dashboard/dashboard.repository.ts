import { and, count, desc, eq, gte, lt, notExists, sql } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { accountsView } from '../../auth/auth.read-model.js';
import { dictItemsView } from '../../dictionary/dictionary.read-model.js';
import { prelimDocsView } from '../../prelim/prelim.read-model.js';
import { teamsView } from '../../team/team.read-model.js';

/**
 * The console home's figures. Every method is one aggregate query: the database counts,
 * no row list ever reaches the server, so the home stays fast with any number of users.
 */
export function createDashboardRepository(db: Db) {
  // Beijing has no daylight saving: a fixed +8 h offset gives the Beijing calendar day
  // whatever the session time zone is.
  const beijingDay = sql<string>`to_char((${accountsView.createdAt} at time zone 'UTC') + interval '8 hours', 'YYYY-MM-DD')`;
  return {
    /** Participant registrations per Beijing day in [from, to); days without any are absent. */
    registrationsPerDay: (from: Date, to: Date) =>
      db
        .select({ date: beijingDay, count: count() })
        .from(accountsView)
        .where(and(eq(accountsView.realm, 'USER'), gte(accountsView.createdAt, from), lt(accountsView.createdAt, to)))
        .groupBy(beijingDay),

    userCount: async () => (await db.select({ n: count() }).from(accountsView).where(eq(accountsView.realm, 'USER')))[0]?.n ?? 0,

    teamsByStatus: () => db.select({ key: teamsView.status, count: count() }).from(teamsView).groupBy(teamsView.status),

    teamsByTrack: () =>
      db
        .select({ key: teamsView.track, name: dictItemsView.name, nameEn: dictItemsView.nameEn, count: count() })
        .from(teamsView)
        .leftJoin(dictItemsView, and(eq(dictItemsView.typeCode, 'TRACK'), eq(dictItemsView.code, teamsView.track)))
        .groupBy(teamsView.track, dictItemsView.name, dictItemsView.nameEn)
        .orderBy(desc(count()), teamsView.track),

    prelimByStatus: () => db.select({ key: prelimDocsView.status, count: count() }).from(prelimDocsView).groupBy(prelimDocsView.status),

    /** Approved teams that have saved no materials yet (docs/rules/prelim.md: no row = NOT_FILLED). */
    prelimNotFilled: async () =>
      (
        await db
          .select({ n: count() })
          .from(teamsView)
          .where(and(eq(teamsView.status, 'APPROVED'), notExists(db.select({ one: sql`1` }).from(prelimDocsView).where(eq(prelimDocsView.teamId, teamsView.id)))))
      )[0]?.n ?? 0,
  };
}
export type DashboardRepository = ReturnType<typeof createDashboardRepository>;
