import { and, count, eq, isNull } from 'drizzle-orm';
import type { UserFilter } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { accounts, teams } from '../../../db/schema.js';
import { contains, createListQuery, dateRange, equals, type Filters } from '../../../lib/list-query.js';
import { piiSearch } from '../../../lib/pii.js';
import type { UserListSortedQuery, UserSortKey } from './users.query.js';

export type UserAccountRow = typeof accounts.$inferSelect;
export type TeamRow = typeof teams.$inferSelect;

const listColumns = {
  id: accounts.id,
  username: accounts.username,
  name: accounts.name,
  phone: accounts.phone,
  email: accounts.email,
  enabled: accounts.enabled,
  createdAt: accounts.createdAt,
  lastLoginAt: accounts.lastLoginAt,
  teamId: teams.id,
  teamName: teams.teamName,
  orgName: teams.orgName,
  teamStatus: teams.status,
  track: teams.track,
};
export interface UserListRow {
  id: string;
  username: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  enabled: boolean;
  createdAt: Date;
  lastLoginAt: Date | null;
  teamId: string | null;
  teamName: string | null;
  orgName: string | null;
  teamStatus: TeamRow['status'] | null;
  track: string | null;
}

/** `fullPii`: the caller may see phones in full, so part of one finds it (lib/pii.ts). */
const filtersOf = (f: UserFilter, fullPii: boolean): Filters => [
  eq(accounts.realm, 'USER'),
  contains(accounts.username, f.username),
  piiSearch(accounts.phone, f.phone, fullPii),
  contains(teams.orgName, f.orgName),
  f.teamStatus === 'NONE' ? isNull(teams.id) : equals(teams.status, f.teamStatus),
  equals(accounts.enabled, f.enabled),
  dateRange(accounts.createdAt, f.from, f.to),
];

/** Participant (USER realm) accounts with their team, for the registered-users page. */
export function createUserRepository(db: Db) {
  const list = createListQuery({
    rows: () => db.select(listColumns).from(accounts).leftJoin(teams, eq(teams.ownerId, accounts.id)).$dynamic(),
    count: () => db.select({ n: count() }).from(accounts).leftJoin(teams, eq(teams.ownerId, accounts.id)).$dynamic(),
    sortable: { createdAt: accounts.createdAt, username: accounts.username, lastLoginAt: accounts.lastLoginAt } satisfies Record<UserSortKey, unknown>,
    // Newest first; the export reads in this order too, by keyset (registration time, id).
    defaultOrder: [{ column: accounts.createdAt, order: 'desc' }],
    tiebreak: { column: accounts.id, order: 'asc' },
    cursor: (r) => r.id,
  });
  return {
    async page(q: UserListSortedQuery, fullPii: boolean): Promise<{ rows: UserListRow[]; total: number }> {
      return list.page(filtersOf(q, fullPii), q);
    },

    count: (f: UserFilter, fullPii: boolean) => list.count(filtersOf(f, fullPii)),

    /** One batch of the export, in list order, after `last` (the previous batch's last row). */
    batch: async (f: UserFilter, fullPii: boolean, offset: number, limit: number, last?: UserListRow): Promise<UserListRow[]> =>
      list.batch(filtersOf(f, fullPii), { offset, limit, after: last }),

    findById: async (id: string, tx: Db = db) =>
      (await tx.select().from(accounts).where(and(eq(accounts.id, id), eq(accounts.realm, 'USER'))).limit(1))[0],
    lockById: async (id: string, tx: Db) =>
      (await tx.select().from(accounts).where(and(eq(accounts.id, id), eq(accounts.realm, 'USER'))).for('update').limit(1))[0],
    teamOf: async (accountId: string, tx: Db = db) => (await tx.select().from(teams).where(eq(teams.ownerId, accountId)).limit(1))[0],

    update: async (id: string, values: Partial<typeof accounts.$inferInsert>, tx: Db) => {
      await tx.update(accounts).set(values).where(eq(accounts.id, id));
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
