import { and, asc, count, eq, inArray, notInArray, sql, type SQL } from 'drizzle-orm';
import type { PrelimAdminFilter, PrelimSortKey } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { prelimDocs } from '../../db/schema/prelim.js';
import { accountsView } from '../auth/auth.read-model.js';
import { finalEntriesView } from '../final-entries/final-entries.read-model.js';
import { remindersView } from '../workflow/workflow.read-model.js';
import { teamsView } from '../team/team.read-model.js';
import { contains, dateRange, equals } from '../../lib/list-query.js';
import { createCountCache } from '../../lib/count-cache.js';

export type PrelimRow = typeof prelimDocs.$inferSelect;
export type NewPrelimRow = typeof prelimDocs.$inferInsert;

const lastReminded = sql<string | null>`(select max(${remindersView.day})::text from ${remindersView} where ${remindersView.subjectType} = 'PRELIM' and ${remindersView.subjectId} = ${prelimDocs.id})`;

const listColumns = {
  doc: prelimDocs,
  teamName: teamsView.teamName,
  orgName: teamsView.orgName,
  ownerUsername: accountsView.username,
  lastRemindedOn: lastReminded,
  finalStatus: finalEntriesView.status,
  finalVersion: finalEntriesView.version,
  finalReason: finalEntriesView.reason,
  finalAt: finalEntriesView.updatedAt,
};
export interface PrelimListRow {
  doc: PrelimRow;
  teamName: string;
  orgName: string;
  ownerUsername: string;
  lastRemindedOn: string | null;
  finalStatus: 'IN' | 'OUT' | null;
  finalVersion: number | null;
  finalReason: string | null;
  finalAt: Date | null;
}

const SORT: Record<PrelimSortKey, SQL> = {
  submittedAt: sql`${prelimDocs.submittedAt}`,
  updatedAt: sql`${prelimDocs.updatedAt}`,
  createdAt: sql`${prelimDocs.createdAt}`,
  projectName: sql`${prelimDocs.projectName}`,
  applicationChars: sql`${prelimDocs.applicationChars}`,
};

function whereOf(f: PrelimAdminFilter, finalOnly: boolean): SQL | undefined {
  return and(
    contains(prelimDocs.projectName, f.projectName),
    contains(teamsView.teamName, f.teamName),
    contains(teamsView.orgName, f.orgName),
    equals(prelimDocs.track, f.track),
    equals(prelimDocs.status, f.status),
    dateRange(prelimDocs.submittedAt, f.submittedFrom, f.submittedTo),
    finalOnly || f.inFinal === true ? eq(finalEntriesView.status, 'IN') : undefined,
    f.inFinal === false ? sql`${finalEntriesView.status} is distinct from 'IN'` : undefined,
  );
}

function orderOf(f: PrelimAdminFilter, fallback: PrelimSortKey): SQL[] {
  const key = f.sort ?? fallback;
  const dir = (f.order ?? (f.sort ? 'asc' : 'desc')) === 'asc' ? sql`asc` : sql`desc`;
  return [sql`${SORT[key]} ${dir} nulls last`, asc(prelimDocs.id)];
}

export function createPrelimRepository(db: Db) {
  const totals = createCountCache();
  const from = (tx: Db = db) =>
    tx
      .select(listColumns)
      .from(prelimDocs)
      .innerJoin(teamsView, eq(teamsView.id, prelimDocs.teamId))
      .innerJoin(accountsView, eq(accountsView.id, prelimDocs.ownerId))
      .leftJoin(finalEntriesView, eq(finalEntriesView.prelimId, prelimDocs.id));
  const countOf = async (where: SQL | undefined) =>
    (
      await db
        .select({ n: count() })
        .from(prelimDocs)
        .innerJoin(teamsView, eq(teamsView.id, prelimDocs.teamId))
        .leftJoin(finalEntriesView, eq(finalEntriesView.prelimId, prelimDocs.id))
        .where(where)
    )[0]?.n ?? 0;

  /** As the sign-up list: ids in order first (narrow join for the filters), then those rows. */
  async function slice(where: SQL | undefined, order: SQL[], limit: number, offset: number): Promise<PrelimListRow[]> {
    const ids = (
      await db
        .select({ id: prelimDocs.id })
        .from(prelimDocs)
        .innerJoin(teamsView, eq(teamsView.id, prelimDocs.teamId))
        .leftJoin(finalEntriesView, eq(finalEntriesView.prelimId, prelimDocs.id))
        .where(where)
        .orderBy(...order)
        .limit(limit)
        .offset(offset)
    ).map((r) => r.id);
    if (ids.length === 0) return [];
    const rows = (await from().where(inArray(prelimDocs.id, ids))) as PrelimListRow[];
    const byId = new Map(rows.map((r) => [r.doc.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  // The materials page's own reads (its poll, every draft save): prepared once, as the account
  // calls are (docs/performance.md, "Hot path"); inside a transaction the query is built on it.
  const teamOfOwner = db.select().from(teamsView).where(eq(teamsView.ownerId, sql.placeholder('ownerId'))).limit(1).prepare('prelim_team_of_owner');
  const docOfTeam = db.select().from(prelimDocs).where(eq(prelimDocs.teamId, sql.placeholder('teamId'))).limit(1).prepare('prelim_doc_of_team');

  return {
    teamOf: async (ownerId: string, tx: Db = db) =>
      (tx === db ? await teamOfOwner.execute({ ownerId }) : await tx.select().from(teamsView).where(eq(teamsView.ownerId, ownerId)).limit(1))[0],
    teamById: async (id: string) => (await db.select().from(teamsView).where(eq(teamsView.id, id)).limit(1))[0],
    byTeam: async (teamId: string) => (await docOfTeam.execute({ teamId }))[0],
    byId: async (id: string) => (await db.select().from(prelimDocs).where(eq(prelimDocs.id, id)).limit(1))[0],
    lockByTeam: async (teamId: string, tx: Db) => (await tx.select().from(prelimDocs).where(eq(prelimDocs.teamId, teamId)).for('update').limit(1))[0],
    lockById: async (id: string, tx: Db) => (await tx.select().from(prelimDocs).where(eq(prelimDocs.id, id)).for('update').limit(1))[0],
    /** null when a concurrent first save created the row first. */
    insert: async (tx: Db, values: NewPrelimRow) =>
      (await tx.insert(prelimDocs).values(values).onConflictDoNothing({ target: prelimDocs.teamId }).returning())[0] ?? null,
    /** Every write raises the version. */
    update: async (tx: Db, id: string, values: Partial<NewPrelimRow>) =>
      (await tx.update(prelimDocs).set({ ...values, version: sql`${prelimDocs.version} + 1` }).where(eq(prelimDocs.id, id)).returning())[0]!,

    async page(f: PrelimAdminFilter, page: number, size: number, opts: { fallbackSort?: PrelimSortKey; finalOnly?: boolean } = {}) {
      const where = whereOf(f, opts.finalOnly ?? false);
      const [rows, total] = await Promise.all([
        slice(where, orderOf(f, opts.fallbackSort ?? 'submittedAt'), size, (page - 1) * size),
        totals(JSON.stringify({ ...f, sort: undefined, order: undefined, final: opts.finalOnly }), () => countOf(where)),
      ]);
      return { rows, total };
    },
    count: (f: PrelimAdminFilter, finalOnly = false) => countOf(whereOf(f, finalOnly)),
    batch: (f: PrelimAdminFilter, offset: number, limit: number, finalOnly = false) => slice(whereOf(f, finalOnly), orderOf(f, 'submittedAt'), limit, offset),

    lastRemindedOn: async (id: string) =>
      (await db.select({ day: sql<string | null>`max(${remindersView.day})::text` }).from(remindersView).where(and(eq(remindersView.subjectType, 'PRELIM'), eq(remindersView.subjectId, id))))[0]?.day ?? null,

    async nextSubmitted(exclude: readonly string[]) {
      const where = and(eq(prelimDocs.status, 'SUBMITTED'), exclude.length ? notInArray(prelimDocs.id, [...exclude]) : undefined);
      const [next] = await db.select({ id: prelimDocs.id }).from(prelimDocs).where(where).orderBy(asc(prelimDocs.submittedAt), asc(prelimDocs.id)).limit(1);
      const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(prelimDocs).where(eq(prelimDocs.status, 'SUBMITTED'));
      return { id: next?.id ?? null, remaining: n };
    },

    async draftOwners(ids: readonly string[] | 'all') {
      const where = and(eq(prelimDocs.status, 'DRAFT'), ids === 'all' ? undefined : inArray(prelimDocs.id, [...ids]));
      return db.select({ id: prelimDocs.id, ownerId: prelimDocs.ownerId }).from(prelimDocs).where(where).orderBy(asc(prelimDocs.id));
    },

    finalEntry: async (prelimId: string) => (await db.select().from(finalEntriesView).where(eq(finalEntriesView.prelimId, prelimId)).limit(1))[0],
  };
}
export type PrelimRepository = ReturnType<typeof createPrelimRepository>;
