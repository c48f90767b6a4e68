import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { promotions, scoreSheetRevisions, scoreSheets } from '../../db/schema/review.js';
import { accountsView } from '../auth/auth.read-model.js';
import { dictItemsView } from '../dictionary/dictionary.read-model.js';
import { finalEntriesView } from '../final-entries/final-entries.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { remindersView, statusHistoryView } from '../workflow/workflow.read-model.js';

export type SheetRow = typeof scoreSheets.$inferSelect;
export type PromotionRow = typeof promotions.$inferSelect;

/** Reminders of a round's experts are keyed by expert id under this subject type (one per Beijing day). */
export const reminderSubject = (round: ReviewRound) => `REVIEW_${round}`;

// Arbitrary constant: the advisory lock that serialises promotion confirms across instances.
const PROMOTION_LOCK_ID = 71_100_011;

/**
 * The tables a round's scores are computed from (computeRound: round-view, rubric-store, the
 * sheets, settings) and which of their rows count: `ROUND` rows of the round, `EXPERTS` expert
 * accounts, `ALL` every row. scores-fingerprint.test.ts fails when round-view or rubric-store
 * reads a table missing here.
 */
export const FINGERPRINT_TABLES = {
  score_sheets: 'ROUND',
  prelim_docs: 'ALL',
  teams: 'ALL',
  final_entries: 'ALL',
  review_assignments: 'ROUND',
  review_groups: 'ROUND',
  review_group_experts: 'ROUND',
  review_extra_experts: 'ROUND',
  accounts: 'EXPERTS',
  expert_profiles: 'ALL',
  expert_conflicts: 'ALL',
  rubrics: 'ROUND',
  settings: 'ALL',
} as const satisfies Record<string, 'ROUND' | 'EXPERTS' | 'ALL'>;

/** Reads of the score query, monitoring and promotion (docs/rules/review.md); every call takes the db or the open transaction. */
export function createScoresRepository() {
  return {
    /**
     * Every sheet as the score-log check compares it with its entries (docs/api-results.md,
     * "Verification"): a batch after `afterId` in id order, with the expert's code and the
     * project's name to name a difference (no personal data).
     */
    async sheetsForLogCheck(tx: Db, afterId: string | null, limit: number) {
      return tx
        .select({
          id: scoreSheets.id,
          round: scoreSheets.round,
          prelimId: scoreSheets.prelimId,
          expertId: scoreSheets.expertId,
          status: scoreSheets.status,
          scores: scoreSheets.scores,
          total: scoreSheets.total,
          comment: scoreSheets.comment,
          expertCode: accountsView.code,
          projectName: prelimDocsView.projectName,
        })
        .from(scoreSheets)
        .leftJoin(accountsView, eq(accountsView.id, scoreSheets.expertId))
        .leftJoin(prelimDocsView, eq(prelimDocsView.id, scoreSheets.prelimId))
        .where(afterId ? sql`${scoreSheets.id} > ${afterId}` : undefined)
        .orderBy(asc(scoreSheets.id))
        .limit(limit);
    },

    /**
     * The submitted sheets of a round, only what the aggregation needs. A national round holds
     * ~70,000: they travel as one JSON text (parsed here), about twice as fast as as many rows.
     */
    async submittedScores(tx: Db, round: ReviewRound): Promise<{ prelimId: string; expertId: string; total: number | null; scores: Record<string, number> }[]> {
      const result = await tx.execute(
        sql`select coalesce(json_agg(json_build_array(${scoreSheets.prelimId}, ${scoreSheets.expertId}, ${scoreSheets.total}, ${scoreSheets.scores})), '[]')::text as j
            from ${scoreSheets} where ${scoreSheets.round} = ${round} and ${scoreSheets.status} = 'SUBMITTED'`,
      );
      const rows = JSON.parse(String((result as unknown as { rows: { j: string }[] }).rows[0]!.j)) as [string, string, number | null, Record<string, number>][];
      return rows.map(([prelimId, expertId, total, scores]) => ({ prelimId, expertId, total, scores }));
    },

    /**
     * A fingerprint of everything a round's scores are computed from: per table the row count
     * and the sum of the rows' xmin (the transaction that wrote each row version). An insert or
     * delete changes the count, an update gives its row a newer xmin, so any committed change
     * changes the fingerprint; equal fingerprints mean equal inputs. One scan per table (~0.1 s
     * at 10,000 projects), against seconds for the computation. Keep the list in step with
     * what computeRound reads (round-view, rubric-store, settings): a table missing here would
     * leave the score query stale after a change to it.
     */
    async fingerprint(tx: Db, round: ReviewRound): Promise<string> {
      const r = `'${round === 'FINAL' ? 'FINAL' : 'PRELIMINARY'}'`;
      const part = (table: string, where = '') => `(select count(*)::text || '.' || coalesce(sum(xmin::text::bigint), 0)::text from ${table} ${where})`;
      const parts = Object.entries(FINGERPRINT_TABLES).map(([table, scope]) =>
        part(table, scope === 'ROUND' ? `where round = ${r}` : scope === 'EXPERTS' ? `where realm = 'EXPERT'` : ''),
      );
      const result = await tx.execute(sql.raw(`select ${parts.join(` || '|' || `)} as fp`));
      return String((result as unknown as { rows: { fp: string }[] }).rows[0]!.fp);
    },

    /** Every sheet of a round without its content (monitoring counts). */
    async sheetStates(tx: Db, round: ReviewRound, expertId?: string) {
      return tx
        .select({
          id: scoreSheets.id,
          prelimId: scoreSheets.prelimId,
          expertId: scoreSheets.expertId,
          status: scoreSheets.status,
          total: scoreSheets.total,
          updatedAt: scoreSheets.updatedAt,
          submittedAt: scoreSheets.submittedAt,
        })
        .from(scoreSheets)
        .where(and(eq(scoreSheets.round, round), expertId ? eq(scoreSheets.expertId, expertId) : undefined));
    },

    async sheetsOfProject(tx: Db, round: ReviewRound, prelimId: string): Promise<SheetRow[]> {
      return tx.select().from(scoreSheets).where(and(eq(scoreSheets.round, round), eq(scoreSheets.prelimId, prelimId)));
    },

    /** Earlier submitted versions of the sheets, newest first, with the returning admin's name. */
    async revisions(tx: Db, sheetIds: readonly string[]) {
      if (sheetIds.length === 0) return [];
      return tx
        .select({
          sheetId: scoreSheetRevisions.sheetId,
          scores: scoreSheetRevisions.scores,
          total: scoreSheetRevisions.total,
          comment: scoreSheetRevisions.comment,
          submittedAt: scoreSheetRevisions.submittedAt,
          returnedAt: scoreSheetRevisions.returnedAt,
          returnedByName: sql<string | null>`coalesce(nullif(${accountsView.name}, ''), ${accountsView.username})`,
          reason: scoreSheetRevisions.reason,
        })
        .from(scoreSheetRevisions)
        .leftJoin(accountsView, eq(accountsView.id, scoreSheetRevisions.returnedBy))
        .where(inArray(scoreSheetRevisions.sheetId, [...sheetIds]))
        .orderBy(desc(scoreSheetRevisions.returnedAt), desc(scoreSheetRevisions.id));
    },

    /** The SHEET workflow's history of these sheets, newest first. */
    async sheetHistory(tx: Db, sheetIds: readonly string[]) {
      if (sheetIds.length === 0) return [];
      return tx
        .select()
        .from(statusHistoryView)
        .where(and(eq(statusHistoryView.subjectType, 'SHEET'), inArray(statusHistoryView.subjectId, [...sheetIds])))
        .orderBy(desc(statusHistoryView.createdAt), desc(statusHistoryView.id));
    },

    /** Submitted sheets of these projects with comment and expert, for the export's 专家评分 sheet. */
    async submittedForExport(tx: Db, round: ReviewRound, prelimIds: readonly string[]) {
      if (prelimIds.length === 0) return [];
      return tx
        .select({
          prelimId: scoreSheets.prelimId,
          expertId: scoreSheets.expertId,
          expertCode: accountsView.code,
          expertName: accountsView.name,
          scores: scoreSheets.scores,
          total: scoreSheets.total,
          comment: scoreSheets.comment,
          submittedAt: scoreSheets.submittedAt,
        })
        .from(scoreSheets)
        .innerJoin(accountsView, eq(accountsView.id, scoreSheets.expertId))
        .where(and(eq(scoreSheets.round, round), eq(scoreSheets.status, 'SUBMITTED'), inArray(scoreSheets.prelimId, [...prelimIds])))
        .orderBy(asc(accountsView.code), asc(scoreSheets.expertId));
    },

    /** Experts (ids) already reminded on this Beijing day in this round. */
    async remindedOn(tx: Db, round: ReviewRound, day: string): Promise<Set<string>> {
      const rows = await tx
        .select({ id: remindersView.subjectId })
        .from(remindersView)
        .where(and(eq(remindersView.subjectType, reminderSubject(round)), eq(remindersView.day, day)));
      return new Set(rows.map((r) => r.id));
    },

    async trackLabels(tx: Db): Promise<Map<string, string>> {
      const rows = await tx.select({ code: dictItemsView.code, name: dictItemsView.name }).from(dictItemsView).where(eq(dictItemsView.typeCode, 'TRACK'));
      return new Map(rows.map((r) => [r.code, r.name]));
    },

    async finalInIds(tx: Db): Promise<Set<string>> {
      const rows = await tx.select({ id: finalEntriesView.prelimId }).from(finalEntriesView).where(eq(finalEntriesView.status, 'IN'));
      return new Set(rows.map((r) => r.id));
    },

    async accountName(tx: Db, accountId: string, fallback: string): Promise<string> {
      const [row] = await tx.select({ name: accountsView.name }).from(accountsView).where(eq(accountsView.id, accountId)).limit(1);
      return row?.name || fallback;
    },

    /** Serialises promotion confirms (held to the end of the transaction). */
    async lockPromotions(tx: Db): Promise<void> {
      await tx.execute(sql`select pg_advisory_xact_lock(${PROMOTION_LOCK_ID})`);
    },

    lockDoc: async (tx: Db, id: string) =>
      (await tx.select({ id: prelimDocsView.id, status: prelimDocsView.status, projectName: prelimDocsView.projectName, ownerId: prelimDocsView.ownerId }).from(prelimDocsView).where(eq(prelimDocsView.id, id)).for('update').limit(1))[0],
    async insertPromotion(tx: Db, values: typeof promotions.$inferInsert): Promise<PromotionRow> {
      const [row] = await tx.insert(promotions).values(values).returning();
      return row!;
    },

    /** Without the stored rankings (each as long as the round). */
    async promotions(tx: Db) {
      return tx
        .select({
          id: promotions.id,
          mode: promotions.mode,
          n: promotions.n,
          count: sql<number>`jsonb_array_length(${promotions.promotedIds})`.mapWith(Number),
          actorName: promotions.actorName,
          createdAt: promotions.createdAt,
        })
        .from(promotions)
        .orderBy(desc(promotions.createdAt), desc(promotions.id));
    },
  };
}
export type ScoresRepository = ReturnType<typeof createScoresRepository>;
