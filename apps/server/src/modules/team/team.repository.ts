import { and, asc, count, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { TeamAdminFilter, TeamSortKey } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { teams } from '../../db/schema/team.js';
import { accountsView } from '../auth/auth.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { remindersView } from '../workflow/workflow.read-model.js';
import { contains, dateRange, equals } from '../../lib/list-query.js';
import { createCountCache } from '../../lib/count-cache.js';

export type TeamRow = typeof teams.$inferSelect;
export type NewTeamRow = typeof teams.$inferInsert;

const lastReminded = sql<string | null>`(select max(${remindersView.day})::text from ${remindersView} where ${remindersView.subjectType} = 'TEAM' and ${remindersView.subjectId} = ${teams.id})`;

const listColumns = {
  team: teams,
  ownerUsername: accountsView.username,
  ownerPhone: accountsView.phone,
  lastRemindedOn: lastReminded,
};
export interface TeamListRow {
  team: TeamRow;
  ownerUsername: string;
  ownerPhone: string | null;
  lastRemindedOn: string | null;
}

const SORT: Record<TeamSortKey, SQL> = {
  submittedAt: sql`${teams.submittedAt}`,
  updatedAt: sql`${teams.updatedAt}`,
  createdAt: sql`${teams.createdAt}`,
  orgName: sql`${teams.orgName}`,
  teamName: sql`${teams.teamName}`,
};

function whereOf(f: TeamAdminFilter): SQL | undefined {
  return and(
    contains(teams.orgName, f.orgName),
    contains(teams.teamName, f.teamName),
    equals(teams.orgType, f.orgType),
    equals(teams.track, f.track),
    equals(teams.region, f.region),
    equals(teams.status, f.status),
    dateRange(teams.submittedAt, f.submittedFrom, f.submittedTo),
  );
}

function orderOf(f: TeamAdminFilter, fallback: TeamSortKey): SQL[] {
  const key = f.sort ?? fallback;
  const dir = (f.order ?? (f.sort ? 'asc' : 'desc')) === 'asc' ? sql`asc` : sql`desc`;
  // Nulls (never submitted) last either way; the id makes the order total, so pages never overlap.
  return [sql`${SORT[key]} ${dir} nulls last`, asc(teams.id)];
}

export function createTeamRepository(db: Db) {
  const totals = createCountCache();
  const base = (tx: Db = db) => tx.select(listColumns).from(teams).innerJoin(accountsView, eq(accountsView.id, teams.ownerId));
  /**
   * A page in two steps (a deferred join): the ids in list order first, which an index on the
   * order serves without touching the wide rows, then those rows with their owner and last
   * reminder. Sorting and skipping the full rows cost 50-190 ms a page at 20,000 teams
   * (bench/team-list.bench.ts); the ids alone cost a few.
   */
  async function slice(where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<TeamListRow[]> {
    const ids = (await db.select({ id: teams.id }).from(teams).where(where).orderBy(...order).limit(limit).offset(offset)).map((r) => r.id);
    if (ids.length === 0) return [];
    const rows = (await base().where(inArray(teams.id, ids))) as TeamListRow[];
    const byId = new Map(rows.map((r) => [r.team.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
  return {
    byOwner: async (ownerId: string, tx: Db = db) => (await tx.select().from(teams).where(eq(teams.ownerId, ownerId)).limit(1))[0],

    /** Locks the row for the rest of the transaction, so two saves or an audit never interleave. */
    lockByOwner: async (ownerId: string, tx: Db) => (await tx.select().from(teams).where(eq(teams.ownerId, ownerId)).for('update').limit(1))[0],
    lockById: async (id: string, tx: Db) => (await tx.select().from(teams).where(eq(teams.id, id)).for('update').limit(1))[0],
    byId: async (id: string) => (await db.select().from(teams).where(eq(teams.id, id)).limit(1))[0],

    /** null when another request created the owner's team first (unique owner). */
    insert: async (tx: Db, values: NewTeamRow) => (await tx.insert(teams).values(values).onConflictDoNothing({ target: teams.ownerId }).returning())[0] ?? null,
    /** Every write raises the version (optimistic concurrency of the console's decisions). */
    update: async (tx: Db, id: string, values: Partial<NewTeamRow>) =>
      (await tx.update(teams).set({ ...values, version: sql`${teams.version} + 1` }).where(eq(teams.id, id)).returning())[0]!,

    prelimStatusOfTeam: async (teamId: string) =>
      (await db.select({ status: prelimDocsView.status }).from(prelimDocsView).where(eq(prelimDocsView.teamId, teamId)).limit(1))[0]?.status ?? null,

    async page(f: TeamAdminFilter, page: number, size: number, fallbackSort: TeamSortKey = 'submittedAt') {
      const where = whereOf(f);
      const [rows, total] = await Promise.all([
        slice(where, orderOf(f, fallbackSort), size, (page - 1) * size),
        totals(JSON.stringify({ ...f, sort: undefined, order: undefined }), async () => (await db.select({ n: count() }).from(teams).where(where))[0]?.n ?? 0),
      ]);
      return { rows, total };
    },

    count: async (f: TeamAdminFilter) => (await db.select({ n: count() }).from(teams).where(whereOf(f)))[0]?.n ?? 0,

    /** One batch of an export, in list order. */
    batch: (f: TeamAdminFilter, offset: number, limit: number) => slice(whereOf(f), orderOf(f, 'submittedAt'), limit, offset),

    lastRemindedOn: async (id: string) =>
      (await db.select({ day: sql<string | null>`max(${remindersView.day})::text` }).from(remindersView).where(and(eq(remindersView.subjectType, 'TEAM'), eq(remindersView.subjectId, id))))[0]?.day ?? null,

    /** The audit queue: the oldest SUBMITTED sign-up not skipped, and how many wait in all. */
    async nextSubmitted(exclude: readonly string[]) {
      const where = and(eq(teams.status, 'SUBMITTED'), exclude.length ? notInArray(teams.id, [...exclude]) : undefined);
      const [next] = await db.select({ id: teams.id }).from(teams).where(where).orderBy(asc(teams.submittedAt), asc(teams.id)).limit(1);
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(teams).where(eq(teams.status, 'SUBMITTED'));
      return { id: next?.id ?? null, remaining: n };
    },

    /** Drafts to remind: the given ids (that are drafts) or all, with their owners. */
    async draftOwners(ids: readonly string[] | 'all') {
      const where = and(eq(teams.status, 'DRAFT'), ids === 'all' ? undefined : inArray(teams.id, [...ids]));
      return db.select({ id: teams.id, ownerId: teams.ownerId, teamName: teams.teamName }).from(teams).where(where).orderBy(asc(teams.id));
    },
  };
}
export type TeamRepository = ReturnType<typeof createTeamRepository>;
