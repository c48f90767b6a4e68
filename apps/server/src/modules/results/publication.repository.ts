import { and, asc, count, desc, eq, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import type { AppealStatus, ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { appeals, resultEntries, resultVersions } from '../../db/schema/results.js';
import { accountsView, accountsViewAs } from '../auth/auth.read-model.js';
import { attachmentsView } from '../files/files.read-model.js';
import { insertResultNews, unpublishNews } from '../news/news.repository.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { promotionsView } from '../review/review.read-model.js';
import { statusHistoryView } from '../workflow/workflow.read-model.js';
import { teamsView } from '../team/team.read-model.js';
import { contains, equals } from '../../lib/list-query.js';

export type VersionRow = typeof resultVersions.$inferSelect;
export type EntryRow = typeof resultEntries.$inferSelect;
export type AppealRow = typeof appeals.$inferSelect;

/**
 * Advisory lock per round's result, held to the end of the transaction. EXCLUSIVE: publishing a
 * version (1 or later). SHARED: filing and deciding appeals. So an appeal is always filed against
 * the version that is current when it commits, and a new version never resolves an appeal whose
 * re-review started after it read the scores. Taken before any row lock of the transaction
 * (then the promotions lock, materials rows, score log last).
 */
const RESULTS_LOCK_ID: Record<ReviewRound, number> = { PRELIMINARY: 7_310_425_201, FINAL: 7_310_425_202 };

export async function lockResults(tx: Db, round: ReviewRound, mode: 'exclusive' | 'shared'): Promise<void> {
  if (mode === 'shared') await tx.execute(sql`select pg_advisory_xact_lock_shared(${RESULTS_LOCK_ID[round]})`);
  else await tx.execute(sql`select pg_advisory_xact_lock(${RESULTS_LOCK_ID[round]})`);
}

/** A project of a round with who owns it (materials, team, owner account). */
export interface ProjectRef {
  id: string;
  teamId: string;
  ownerId: string;
  projectName: string;
  teamName: string;
  orgName: string;
  track: string | null;
}

const projectRefColumns = {
  id: prelimDocsView.id,
  teamId: prelimDocsView.teamId,
  ownerId: prelimDocsView.ownerId,
  projectName: prelimDocsView.projectName,
  teamName: teamsView.teamName,
  orgName: teamsView.orgName,
  track: prelimDocsView.track,
};

export interface AppealFilter {
  round?: ReviewRound | undefined;
  status?: AppealStatus | undefined;
  keyword?: string | undefined;
  overdueAt?: Date | undefined;
}

const decider = accountsViewAs('decider');
const appealSelection = {
  appeal: appeals,
  projectName: resultEntries.projectName,
  teamName: resultEntries.teamName,
  orgName: resultEntries.orgName,
  deciderName: sql<string | null>`coalesce(${decider.name}, ${decider.username})`,
};
export type FoundAppeal = { appeal: AppealRow; projectName: string; teamName: string; orgName: string; deciderName: string | null };

export function createPublicationRepository() {
  const appealWhere = (f: AppealFilter): SQL | undefined =>
    and(
      equals(appeals.round, f.round),
      equals(appeals.status, f.status),
      f.overdueAt ? and(eq(appeals.status, 'SUBMITTED'), lt(appeals.dueAt, f.overdueAt)) : undefined,
      contains([resultEntries.projectName, resultEntries.teamName, resultEntries.orgName, appeals.reason], f.keyword),
    );
  // The names of an appeal's project are those of the version it was filed against.
  const appealFrom = (tx: Db) =>
    tx
      .select(appealSelection)
      .from(appeals)
      .innerJoin(resultEntries, and(eq(resultEntries.versionId, appeals.resultVersionId), eq(resultEntries.prelimId, appeals.prelimId)))
      .leftJoin(decider, eq(decider.id, appeals.decidedBy))
      .$dynamic();

  return {
    // ---------------------------------------------------------------- versions
    async current(tx: Db, round: ReviewRound): Promise<VersionRow | undefined> {
      const [row] = await tx.select().from(resultVersions).where(and(eq(resultVersions.round, round), eq(resultVersions.status, 'PUBLISHED'))).limit(1);
      return row;
    },

    async versionByNumber(tx: Db, round: ReviewRound, version: number): Promise<VersionRow | undefined> {
      const [row] = await tx.select().from(resultVersions).where(and(eq(resultVersions.round, round), eq(resultVersions.version, version))).limit(1);
      return row;
    },

    /** Newest first. */
    async versions(tx: Db, round: ReviewRound): Promise<VersionRow[]> {
      return tx.select().from(resultVersions).where(eq(resultVersions.round, round)).orderBy(desc(resultVersions.version));
    },

    async lastVersionNumber(tx: Db, round: ReviewRound): Promise<number> {
      const [row] = await tx.select({ n: sql<number | null>`max(${resultVersions.version})` }).from(resultVersions).where(eq(resultVersions.round, round));
      return Number(row?.n ?? 0);
    },

    async insertVersion(tx: Db, values: typeof resultVersions.$inferInsert): Promise<VersionRow> {
      const [row] = await tx.insert(resultVersions).values(values).returning();
      return row!;
    },

    async supersede(tx: Db, id: string, at: Date): Promise<void> {
      await tx.update(resultVersions).set({ status: 'SUPERSEDED', supersededAt: at }).where(eq(resultVersions.id, id));
    },

    async setNews(tx: Db, versionId: string, newsId: string): Promise<void> {
      await tx.update(resultVersions).set({ newsId }).where(eq(resultVersions.id, versionId));
    },

    async insertEntries(tx: Db, rows: (typeof resultEntries.$inferInsert)[]): Promise<void> {
      for (let i = 0; i < rows.length; i += 500) await tx.insert(resultEntries).values(rows.slice(i, i + 500));
    },

    async entries(tx: Db, versionId: string): Promise<EntryRow[]> {
      return tx.select().from(resultEntries).where(eq(resultEntries.versionId, versionId));
    },

    async entryOf(tx: Db, versionId: string, prelimId: string): Promise<EntryRow | undefined> {
      const [row] = await tx.select().from(resultEntries).where(and(eq(resultEntries.versionId, versionId), eq(resultEntries.prelimId, prelimId))).limit(1);
      return row;
    },

    /** Per version: [total, selected] and per award level counts, in one query each. */
    async entryCounts(tx: Db, versionIds: string[]): Promise<{ versionId: string; outcome: string; awardCode: string | null; awardName: string | null; n: number }[]> {
      if (!versionIds.length) return [];
      return tx
        .select({ versionId: resultEntries.versionId, outcome: resultEntries.outcome, awardCode: resultEntries.awardCode, awardName: resultEntries.awardName, n: count() })
        .from(resultEntries)
        .where(inArray(resultEntries.versionId, versionIds))
        .groupBy(resultEntries.versionId, resultEntries.outcome, resultEntries.awardCode, resultEntries.awardName);
    },

    // ---------------------------------------------------------------- inputs
    /** The latest confirmed promotion with its frozen ranking. */
    async latestPromotion(tx: Db) {
      const [row] = await tx.select().from(promotionsView).orderBy(desc(promotionsView.createdAt), desc(promotionsView.id)).limit(1);
      return row;
    },

    /** Projects of the preliminary round (approved materials) or the given ids, with their team and owner. */
    async projectRefs(tx: Db, filter: { approved: true } | { ids: string[] }): Promise<ProjectRef[]> {
      if ('ids' in filter && filter.ids.length === 0) return [];
      return tx
        .select(projectRefColumns)
        .from(prelimDocsView)
        .innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId))
        .where('ids' in filter ? inArray(prelimDocsView.id, filter.ids) : eq(prelimDocsView.status, 'APPROVED'));
    },

    /** The participant's own project (one materials row per account), with its team. */
    async projectOfOwner(tx: Db, ownerId: string): Promise<ProjectRef | undefined> {
      const [row] = await tx.select(projectRefColumns).from(prelimDocsView).innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId)).where(eq(prelimDocsView.ownerId, ownerId)).limit(1);
      return row;
    },

    async accountName(tx: Db, accountId: string, fallback: string): Promise<string> {
      const [row] = await tx.select({ name: accountsView.name }).from(accountsView).where(eq(accountsView.id, accountId)).limit(1);
      return row?.name || fallback;
    },

    // ---------------------------------------------------------------- news and history
    insertNews: insertResultNews,
    newsOffline: unpublishNews,

    /** The appeal's own history and the project's result history, oldest first. */
    async history(tx: Db, appealId: string, prelimId: string) {
      return tx
        .select()
        .from(statusHistoryView)
        .where(
          or(
            and(eq(statusHistoryView.subjectType, 'APPEAL'), eq(statusHistoryView.subjectId, appealId)),
            and(eq(statusHistoryView.subjectType, 'RESULT'), eq(statusHistoryView.subjectId, prelimId)),
          ),
        )
        .orderBy(asc(statusHistoryView.createdAt), asc(statusHistoryView.id));
    },

    // ---------------------------------------------------------------- appeals
    /** Inserts unless the team already appealed in the round (unique round + team): undefined then. */
    async insertAppeal(tx: Db, values: typeof appeals.$inferInsert): Promise<AppealRow | undefined> {
      const [row] = await tx.insert(appeals).values(values).onConflictDoNothing({ target: [appeals.round, appeals.teamId] }).returning();
      return row;
    },

    async appealOfTeam(tx: Db, round: ReviewRound, teamId: string): Promise<AppealRow | undefined> {
      const [row] = await tx.select().from(appeals).where(and(eq(appeals.round, round), eq(appeals.teamId, teamId))).limit(1);
      return row;
    },

    async lockAppeal(tx: Db, id: string): Promise<AppealRow | undefined> {
      const [row] = await tx.select().from(appeals).where(eq(appeals.id, id)).for('update').limit(1);
      return row;
    },

    async updateAppeal(tx: Db, id: string, values: Partial<typeof appeals.$inferInsert>): Promise<AppealRow> {
      const [row] = await tx
        .update(appeals)
        .set({ ...values, version: sql`${appeals.version} + 1` })
        .where(eq(appeals.id, id))
        .returning();
      return row!;
    },

    /** ACCEPTED appeals of a round, locked (a new version resolves them), in filing order. */
    async lockAccepted(tx: Db, round: ReviewRound): Promise<AppealRow[]> {
      return tx.select().from(appeals).where(and(eq(appeals.round, round), eq(appeals.status, 'ACCEPTED'))).orderBy(asc(appeals.createdAt), asc(appeals.id)).for('update');
    },

    async appealsOfRound(tx: Db, round: ReviewRound): Promise<AppealRow[]> {
      return tx.select().from(appeals).where(eq(appeals.round, round)).orderBy(asc(appeals.createdAt), asc(appeals.id));
    },

    async appealCounts(tx: Db, round: ReviewRound, now: Date) {
      return tx
        .select({
          versionId: appeals.resultVersionId,
          status: appeals.status,
          n: count(),
          overdue: sql<number>`count(*) filter (where ${appeals.status} = 'SUBMITTED' and ${appeals.dueAt} < ${now})`.mapWith(Number),
        })
        .from(appeals)
        .where(eq(appeals.round, round))
        .groupBy(appeals.resultVersionId, appeals.status);
    },

    async findAppeal(tx: Db, id: string): Promise<FoundAppeal | undefined> {
      const [row] = await appealFrom(tx).where(eq(appeals.id, id)).limit(1);
      return row;
    },

    /** SUBMITTED first by due date (the work queue), then the others newest first. */
    async appealPage(tx: Db, filter: AppealFilter, page: number, size: number): Promise<{ rows: FoundAppeal[]; total: number }> {
      const where = appealWhere(filter);
      const [rows, [total]] = await Promise.all([
        appealFrom(tx)
          .where(where)
          .orderBy(
            sql`case when ${appeals.status} = 'SUBMITTED' then 0 else 1 end`,
            sql`case when ${appeals.status} = 'SUBMITTED' then ${appeals.dueAt} end asc`,
            desc(appeals.createdAt),
            desc(appeals.id),
          )
          .limit(size)
          .offset((page - 1) * size),
        tx
          .select({ n: count() })
          .from(appeals)
          .innerJoin(resultEntries, and(eq(resultEntries.versionId, appeals.resultVersionId), eq(resultEntries.prelimId, appeals.prelimId)))
          .where(where),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    async filesByUniqueNo(tx: Db, uniqueNos: string[]) {
      if (!uniqueNos.length) return [];
      return tx
        .select({ id: attachmentsView.id, uniqueNo: attachmentsView.uniqueNo, originalName: attachmentsView.originalName, size: attachmentsView.size, ownerId: attachmentsView.ownerId, origin: attachmentsView.origin })
        .from(attachmentsView)
        .where(inArray(attachmentsView.uniqueNo, uniqueNos));
    },

    async filesByIds(tx: Db, ids: string[]) {
      if (!ids.length) return [];
      return tx
        .select({ id: attachmentsView.id, uniqueNo: attachmentsView.uniqueNo, originalName: attachmentsView.originalName, size: attachmentsView.size })
        .from(attachmentsView)
        .where(inArray(attachmentsView.id, ids));
    },
  };
}
export type PublicationRepository = ReturnType<typeof createPublicationRepository>;
