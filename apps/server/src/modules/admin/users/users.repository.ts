import { and, count, eq, isNull } from 'drizzle-orm';
import type { UserFilter } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { updateAccount, type AccountPatch } from '../../auth/account-store.js';
import { accountsView, type AccountsRow } from '../../auth/auth.read-model.js';
import { teamsView, type TeamsRow } from '../../team/team.read-model.js';
import { contains, createListQuery, dateRange, equals, type Filters } from '../../../lib/list-query.js';
import { piiSearch } from '../../../lib/pii.js';
import type { UserListSortedQuery, UserSortKey } from './users.query.js';

export type UserAccountRow = AccountsRow;
export type TeamRow = TeamsRow;

const listColumns = {
  id: accountsView.id,
  username: accountsView.username,
  name: accountsView.name,
  phone: accountsView.phone,
  email: accountsView.email,
  enabled: accountsView.enabled,
  createdAt: accountsView.createdAt,
  lastLoginAt: accountsView.lastLoginAt,
  teamId: teamsView.id,
  teamName: teamsView.teamName,
  orgName: teamsView.orgName,
  teamStatus: teamsView.status,
  track: teamsView.track,
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
  eq(accountsView.realm, 'USER'),
  contains(accountsView.username, f.username),
  piiSearch(accountsView.phone, f.phone, fullPii),
  contains(teamsView.orgName, f.orgName),
  f.teamStatus === 'NONE' ? isNull(teamsView.id) : equals(teamsView.status, f.teamStatus),
  equals(accountsView.enabled, f.enabled),
  dateRange(accountsView.createdAt, f.from, f.to),
];

/** Participant (USER realm) accounts with their team, for the registered-users page. */
export function createUserRepository(db: Db) {
  const list = createListQuery({
    rows: () => db.select(listColumns).from(accountsView).leftJoin(teamsView, eq(teamsView.ownerId, accountsView.id)).$dynamic(),
    count: () => db.select({ n: count() }).from(accountsView).leftJoin(teamsView, eq(teamsView.ownerId, accountsView.id)).$dynamic(),
    sortable: { createdAt: accountsView.createdAt, username: accountsView.username, lastLoginAt: accountsView.lastLoginAt } satisfies Record<UserSortKey, unknown>,
    // Newest first; the export reads in this order too, by keyset (registration time, id).
    defaultOrder: [{ column: accountsView.createdAt, order: 'desc' }],
    tiebreak: { column: accountsView.id, order: 'asc' },
    cursor: (r) => r.id,
    keySource: accountsView,
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
      (await tx.select().from(accountsView).where(and(eq(accountsView.id, id), eq(accountsView.realm, 'USER'))).limit(1))[0],
    lockById: async (id: string, tx: Db) =>
      (await tx.select().from(accountsView).where(and(eq(accountsView.id, id), eq(accountsView.realm, 'USER'))).for('update').limit(1))[0],
    teamOf: async (accountId: string, tx: Db = db) => (await tx.select().from(teamsView).where(eq(teamsView.ownerId, accountId)).limit(1))[0],

    update: async (id: string, values: AccountPatch, tx: Db) => {
      await updateAccount(tx, id, values);
    },
  };
}
export type UserRepository = ReturnType<typeof createUserRepository>;
