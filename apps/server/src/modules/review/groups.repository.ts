import { and, asc, count, eq, inArray, ne, or, sql } from 'drizzle-orm';
import type { ReviewRound, RoundProjectQuery } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { reviewAssignments, reviewGroupExperts, reviewGroups, scoreSheets } from '../../db/schema/review.js';
import { dictItemsView } from '../dictionary/dictionary.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { teamsView } from '../team/team.read-model.js';
import { contains, equals } from '../../lib/list-query.js';
import { inRound } from './round-view.js';
import { lockReviewRound } from './round-lock.js';

export type GroupRow = typeof reviewGroups.$inferSelect;
export type NewAssignment = typeof reviewAssignments.$inferInsert & { createdAt: Date };

/** Rows of review_groups, review_group_experts and review_assignments, and the counts the group pages show. */
export function createGroupsRepository() {
  return {
    /**
     * Every write of the round's groups and placements holds the round's lock (rubric.service.ts)
     * exclusively: an apply recomputes from a state no other write can change under it, the "one
     * group per expert per round" check sees every earlier add (the unique index stays as the
     * last word), and the sheet checks see every committed save.
     */
    lockRound: (tx: Db, round: ReviewRound) => lockReviewRound(tx, round),

    /** The group if it is of the round, locked until the transaction ends. */
    async lockGroup(tx: Db, round: ReviewRound, id: string): Promise<GroupRow | undefined> {
      return (await tx.select().from(reviewGroups).where(and(eq(reviewGroups.id, id), eq(reviewGroups.round, round))).for('update').limit(1))[0];
    },

    async nameTaken(tx: Db, round: ReviewRound, name: string, exceptId?: string): Promise<boolean> {
      const rows = await tx
        .select({ id: reviewGroups.id })
        .from(reviewGroups)
        .where(and(eq(reviewGroups.round, round), eq(reviewGroups.name, name), exceptId ? ne(reviewGroups.id, exceptId) : undefined))
        .limit(1);
      return rows.length > 0;
    },

    /** New groups go last. */
    async insertGroup(tx: Db, round: ReviewRound, name: string, at: Date): Promise<GroupRow> {
      const [next] = await tx.select({ sort: sql<number>`coalesce(max(${reviewGroups.sort}), 0) + 1` }).from(reviewGroups).where(eq(reviewGroups.round, round));
      return (await tx.insert(reviewGroups).values({ round, name, sort: Number(next?.sort ?? 1), createdAt: at, updatedAt: at }).returning())[0]!;
    },

    /** Every change raises the version (the page's PUT carries the one it saw). */
    async touchGroup(tx: Db, id: string, values: { name: string }, at: Date): Promise<GroupRow> {
      return (await tx.update(reviewGroups).set({ ...values, version: sql`${reviewGroups.version} + 1`, updatedAt: at }).where(eq(reviewGroups.id, id)).returning())[0]!;
    },

    /** The group and its members; its placements first (their foreign key restricts). */
    async deleteGroup(tx: Db, round: ReviewRound, id: string): Promise<number> {
      const unplaced = await tx.delete(reviewAssignments).where(and(eq(reviewAssignments.round, round), eq(reviewAssignments.groupId, id))).returning({ id: reviewAssignments.prelimId });
      await tx.delete(reviewGroups).where(eq(reviewGroups.id, id));
      return unplaced.length;
    },

    async memberIds(tx: Db, groupId: string): Promise<string[]> {
      return (await tx.select({ id: reviewGroupExperts.expertId }).from(reviewGroupExperts).where(eq(reviewGroupExperts.groupId, groupId))).map((r) => r.id);
    },

    async addMembers(tx: Db, round: ReviewRound, groupId: string, expertIds: readonly string[], at: Date): Promise<void> {
      if (expertIds.length) await tx.insert(reviewGroupExperts).values(expertIds.map((expertId) => ({ groupId, round, expertId, createdAt: at })));
    },

    async removeMembers(tx: Db, groupId: string, expertIds: readonly string[]): Promise<void> {
      if (expertIds.length) await tx.delete(reviewGroupExperts).where(and(eq(reviewGroupExperts.groupId, groupId), inArray(reviewGroupExperts.expertId, [...expertIds])));
    },

    /** Which of these experts sit in another group of the round, and which. */
    async inOtherGroups(tx: Db, round: ReviewRound, expertIds: readonly string[], exceptGroupId?: string) {
      if (expertIds.length === 0) return [];
      return tx
        .select({ expertId: reviewGroupExperts.expertId, groupId: reviewGroups.id, groupName: reviewGroups.name })
        .from(reviewGroupExperts)
        .innerJoin(reviewGroups, eq(reviewGroups.id, reviewGroupExperts.groupId))
        .where(
          and(
            eq(reviewGroupExperts.round, round),
            inArray(reviewGroupExperts.expertId, [...expertIds]),
            exceptGroupId ? ne(reviewGroupExperts.groupId, exceptGroupId) : undefined,
          ),
        );
    },

    /** Of these experts, those with a sheet (any status) on a project placed in the group. */
    async expertsWithSheetsInGroup(tx: Db, round: ReviewRound, groupId: string, expertIds: readonly string[]): Promise<string[]> {
      if (expertIds.length === 0) return [];
      const rows = await tx
        .selectDistinct({ id: scoreSheets.expertId })
        .from(scoreSheets)
        .innerJoin(reviewAssignments, and(eq(reviewAssignments.round, scoreSheets.round), eq(reviewAssignments.prelimId, scoreSheets.prelimId)))
        .where(and(eq(scoreSheets.round, round), eq(reviewAssignments.groupId, groupId), inArray(scoreSheets.expertId, [...expertIds])));
      return rows.map((r) => r.id);
    },

    /** Sheets (any status) of the round on the projects of each group. */
    async sheetCountsByGroup(tx: Db, round: ReviewRound): Promise<Map<string, number>> {
      const rows = await tx
        .select({ groupId: reviewAssignments.groupId, n: count() })
        .from(scoreSheets)
        .innerJoin(reviewAssignments, and(eq(reviewAssignments.round, scoreSheets.round), eq(reviewAssignments.prelimId, scoreSheets.prelimId)))
        .where(eq(scoreSheets.round, round))
        .groupBy(reviewAssignments.groupId);
      return new Map(rows.map((r) => [r.groupId, Number(r.n)]));
    },

    /** Projects of the round per group (a placement whose project left the round is not counted). */
    async projectCountsByGroup(tx: Db, round: ReviewRound): Promise<Map<string, number>> {
      const rows = await tx
        .select({ groupId: reviewAssignments.groupId, n: count() })
        .from(prelimDocsView)
        .innerJoin(reviewAssignments, and(eq(reviewAssignments.prelimId, prelimDocsView.id), eq(reviewAssignments.round, round)))
        .where(inRound(round))
        .groupBy(reviewAssignments.groupId);
      return new Map(rows.map((r) => [r.groupId, Number(r.n)]));
    },

    /** Projects of the round, and those of them in no group. */
    async roundCounts(tx: Db, round: ReviewRound): Promise<{ eligible: number; unassigned: number }> {
      const [row] = await tx
        .select({ eligible: count(), unassigned: sql<number>`count(*) filter (where ${reviewAssignments.prelimId} is null)` })
        .from(prelimDocsView)
        .leftJoin(reviewAssignments, and(eq(reviewAssignments.prelimId, prelimDocsView.id), eq(reviewAssignments.round, round)))
        .where(inRound(round));
      return { eligible: Number(row?.eligible ?? 0), unassigned: Number(row?.unassigned ?? 0) };
    },

    /**
     * One page of the round's project ids under the list's filters, in the round view's order
     * (project name, id), and the filtered total. Only the page then goes through the round view
     * for its scorers and conflicts: a national round is 10,000 projects.
     */
    async pageIds(tx: Db, round: ReviewRound, q: RoundProjectQuery): Promise<{ ids: string[]; total: number }> {
      const keyword = q.keyword?.trim();
      const where = and(
        inRound(round),
        q.groupId === 'none' ? sql`${reviewAssignments.prelimId} is null` : equals(reviewAssignments.groupId, q.groupId),
        equals(prelimDocsView.track, q.track),
        keyword
          ? or(
              contains(prelimDocsView.projectName, keyword),
              sql`exists (select 1 from ${teamsView} where ${teamsView.id} = ${prelimDocsView.teamId} and ${contains([teamsView.teamName, teamsView.orgName], keyword)})`,
            )
          : undefined,
      );
      const placed = and(eq(reviewAssignments.prelimId, prelimDocsView.id), eq(reviewAssignments.round, round));
      const [counted] = await tx.select({ n: count() }).from(prelimDocsView).leftJoin(reviewAssignments, placed).where(where);
      const total = Number(counted?.n ?? 0);
      if (total === 0 || (q.page - 1) * q.size >= total) return { ids: [], total };
      const rows = await tx
        .select({ id: prelimDocsView.id })
        .from(prelimDocsView)
        .leftJoin(reviewAssignments, placed)
        .where(where)
        .orderBy(asc(prelimDocsView.projectName), asc(prelimDocsView.id))
        .limit(q.size)
        .offset((q.page - 1) * q.size);
      return { ids: rows.map((r) => r.id), total };
    },

    /** SQL condition for the round view: the projects with these ids. */
    idsIn: (ids: readonly string[]) => inArray(prelimDocsView.id, [...ids]),

    /** Per project of the round with any sheet: sheets saved and sheets submitted. */
    async sheetStats(tx: Db, round: ReviewRound, prelimIds?: readonly string[]): Promise<Map<string, { sheets: number; submitted: number }>> {
      if (prelimIds && prelimIds.length === 0) return new Map();
      const rows = await tx
        .select({ id: scoreSheets.prelimId, sheets: count(), submitted: sql<number>`count(*) filter (where ${scoreSheets.status} = 'SUBMITTED')` })
        .from(scoreSheets)
        .where(and(eq(scoreSheets.round, round), prelimIds ? inArray(scoreSheets.prelimId, [...prelimIds]) : undefined))
        .groupBy(scoreSheets.prelimId);
      return new Map(rows.map((r) => [r.id, { sheets: Number(r.sheets), submitted: Number(r.submitted) }]));
    },

    async projectHasSheets(tx: Db, round: ReviewRound, prelimId: string): Promise<boolean> {
      const rows = await tx.select({ one: sql<number>`1` }).from(scoreSheets).where(and(eq(scoreSheets.round, round), eq(scoreSheets.prelimId, prelimId))).limit(1);
      return rows.length > 0;
    },

    async groupHasSheets(tx: Db, round: ReviewRound, groupId: string): Promise<boolean> {
      const rows = await tx
        .select({ one: sql<number>`1` })
        .from(scoreSheets)
        .innerJoin(reviewAssignments, and(eq(reviewAssignments.round, scoreSheets.round), eq(reviewAssignments.prelimId, scoreSheets.prelimId)))
        .where(and(eq(scoreSheets.round, round), eq(reviewAssignments.groupId, groupId)))
        .limit(1);
      return rows.length > 0;
    },

    async place(tx: Db, row: NewAssignment): Promise<void> {
      await tx
        .insert(reviewAssignments)
        .values(row)
        .onConflictDoUpdate({
          target: [reviewAssignments.round, reviewAssignments.prelimId],
          set: { groupId: row.groupId, source: row.source, reason: row.reason, actorId: row.actorId, createdAt: row.createdAt },
        });
    },

    async unplace(tx: Db, round: ReviewRound, prelimId: string): Promise<void> {
      await tx.delete(reviewAssignments).where(and(eq(reviewAssignments.round, round), eq(reviewAssignments.prelimId, prelimId)));
    },

    /** Placements of projects still in no group; a project placed meanwhile keeps its group. Answers how many went in. */
    async placeNew(tx: Db, rows: readonly NewAssignment[]): Promise<number> {
      let placed = 0;
      // Kept well below PostgreSQL's 65 535 bind parameters per statement.
      for (let i = 0; i < rows.length; i += 1000) {
        const inserted = await tx
          .insert(reviewAssignments)
          .values(rows.slice(i, i + 1000))
          .onConflictDoNothing({ target: [reviewAssignments.round, reviewAssignments.prelimId] })
          .returning({ id: reviewAssignments.prelimId });
        placed += inserted.length;
      }
      return placed;
    },

    /** TRACK code -> name (every item, disabled ones too: old projects may still use them). */
    async trackNames(tx: Db): Promise<Record<string, string>> {
      const rows = await tx.select({ code: dictItemsView.code, name: dictItemsView.name }).from(dictItemsView).where(eq(dictItemsView.typeCode, 'TRACK')).orderBy(asc(dictItemsView.sort), asc(dictItemsView.code));
      return Object.fromEntries(rows.map((r) => [r.code, r.name]));
    },
  };
}
export type GroupsRepository = ReturnType<typeof createGroupsRepository>;
