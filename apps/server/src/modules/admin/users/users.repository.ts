import { and, asc, count, desc, eq, gte, ilike, isNull, lt, type SQL } from 'drizzle-orm';
import type { UserFilter } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { accounts, teams } from '../../../db/schema.js';
import { containsPattern, createCountCache, rangeEndExclusive, rangeStart } from '../admin-util.js';

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

function whereOf(f: UserFilter): SQL | undefined {
  const where: SQL[] = [eq(accounts.realm, 'USER')];
  if (f.username) where.push(ilike(accounts.username, containsPattern(f.username)));
  if (f.phone) where.push(ilike(accounts.phone, containsPattern(f.phone)));
  if (f.orgName) where.push(ilike(teams.orgName, containsPattern(f.orgName)));
  if (f.teamStatus === 'NONE') where.push(isNull(teams.id));
  else if (f.teamStatus) where.push(eq(teams.status, f.teamStatus));
  if (f.enabled !== undefined) where.push(eq(accounts.enabled, f.enabled));
  const from = rangeStart(f.from);
  const to = rangeEndExclusive(f.to);
  if (from) where.push(gte(accounts.createdAt, from));
  if (to) where.push(lt(accounts.createdAt, to));
  return and(...where);
}

/** Participant (USER realm) accounts with their team, for the registered-users page. */
export function createUserRepository(db: Db) {
  const base = () => db.select(listColumns).from(accounts).leftJoin(teams, eq(teams.ownerId, accounts.id));
  const totals = createCountCache();
  const countOf = async (where: SQL | undefined) =>
    (await db.select({ n: count() }).from(accounts).leftJoin(teams, eq(teams.ownerId, accounts.id)).where(where))[0]?.n ?? 0;
  return {
    async page(f: UserFilter, page: number, size: number) {
      const where = whereOf(f);
      const [rows, total] = await Promise.all([
        base().where(where).orderBy(desc(accounts.createdAt), asc(accounts.id)).limit(size).offset((page - 1) * size),
        totals(JSON.stringify(f), () => countOf(where)),
      ]);
      return { rows: rows satisfies UserListRow[], total };
    },

    count: async (f: UserFilter) =>
      (await db.select({ n: count() }).from(accounts).leftJoin(teams, eq(teams.ownerId, accounts.id)).where(whereOf(f)))[0]?.n ?? 0,

    /** One batch of the export, in list order. */
    batch: async (f: UserFilter, offset: number, limit: number) =>
      (await base().where(whereOf(f)).orderBy(desc(accounts.createdAt), asc(accounts.id)).limit(limit).offset(offset)) satisfies UserListRow[],

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
