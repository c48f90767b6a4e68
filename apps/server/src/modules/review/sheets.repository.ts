import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { ReviewRound } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { reviewExtraExperts, scoreSheetRevisions, scoreSheets } from '../../db/schema/review.js';
import { accountsView } from '../auth/auth.read-model.js';
import { fieldsOf } from '../../db/read-model.js';
import { attachmentsView } from '../files/files.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { teamsView } from '../team/team.read-model.js';

export type SheetRow = typeof scoreSheets.$inferSelect;
export type NewSheetRow = typeof scoreSheets.$inferInsert;
export type RevisionRow = typeof scoreSheetRevisions.$inferSelect;

/**
 * Score sheets and their revisions (docs/rules/review.md, "Score sheets"). Every call takes the connection to read through:
 * inside a transaction that must be the transaction (PGlite has one connection).
 */
export function createSheetsRepository() {
  const own = (round: ReviewRound, prelimId: string, expertId: string) =>
    and(eq(scoreSheets.round, round), eq(scoreSheets.prelimId, prelimId), eq(scoreSheets.expertId, expertId));

  return {
    /** The expert's sheets of a round (all projects; callers keep those still assigned). */
    ofExpert: (tx: Db, round: ReviewRound, expertId: string) =>
      tx.select().from(scoreSheets).where(and(eq(scoreSheets.round, round), eq(scoreSheets.expertId, expertId))),

    /** Every sheet of some projects in a round (the live final's progress). */
    ofProjects: (tx: Db, round: ReviewRound, prelimIds: readonly string[]): Promise<SheetRow[]> =>
      prelimIds.length ? tx.select().from(scoreSheets).where(and(eq(scoreSheets.round, round), inArray(scoreSheets.prelimId, [...prelimIds]))) : Promise.resolve([]),

    own: async (tx: Db, round: ReviewRound, prelimId: string, expertId: string): Promise<SheetRow | undefined> =>
      (await tx.select().from(scoreSheets).where(own(round, prelimId, expertId)).limit(1))[0],

    lockOwn: async (tx: Db, round: ReviewRound, prelimId: string, expertId: string): Promise<SheetRow | undefined> =>
      (await tx.select().from(scoreSheets).where(own(round, prelimId, expertId)).for('update').limit(1))[0],

    lockById: async (tx: Db, round: ReviewRound, id: string): Promise<SheetRow | undefined> =>
      (await tx.select().from(scoreSheets).where(and(eq(scoreSheets.id, id), eq(scoreSheets.round, round))).for('update').limit(1))[0],

    /** Submitted sheets of one project, locked (re-review returns them all). */
    lockSubmittedOf: (tx: Db, round: ReviewRound, prelimId: string): Promise<SheetRow[]> =>
      tx
        .select()
        .from(scoreSheets)
        .where(and(eq(scoreSheets.round, round), eq(scoreSheets.prelimId, prelimId), eq(scoreSheets.status, 'SUBMITTED')))
        .orderBy(asc(scoreSheets.id))
        .for('update'),

    /**
     * A first save. null when a concurrent first save of the same sheet got there first (unique on
     * round + project + expert): the caller then locks that row and carries on as an update.
     */
    insert: async (tx: Db, values: NewSheetRow): Promise<SheetRow | null> =>
      (await tx.insert(scoreSheets).values(values).onConflictDoNothing({ target: [scoreSheets.round, scoreSheets.prelimId, scoreSheets.expertId] }).returning())[0] ?? null,

    /** Every write raises the version. */
    update: async (tx: Db, id: string, values: Partial<NewSheetRow>): Promise<SheetRow> =>
      (await tx.update(scoreSheets).set({ ...values, version: sql`${scoreSheets.version} + 1` }).where(eq(scoreSheets.id, id)).returning())[0]!,

    /** Keeps a submitted version before it is returned: no score is ever overwritten. */
    async addRevision(tx: Db, sheet: SheetRow, input: { reason: string; returnedBy: string; returnedAt: Date }): Promise<void> {
      await tx.insert(scoreSheetRevisions).values({
        sheetId: sheet.id,
        scores: sheet.scores,
        total: sheet.total ?? 0,
        comment: sheet.comment,
        submittedAt: sheet.submittedAt ?? sheet.updatedAt,
        returnedAt: input.returnedAt,
        returnedBy: input.returnedBy,
        reason: input.reason,
      });
    },

    revisionsOf: (tx: Db, sheetId: string): Promise<RevisionRow[]> =>
      tx.select().from(scoreSheetRevisions).where(eq(scoreSheetRevisions.sheetId, sheetId)).orderBy(asc(scoreSheetRevisions.returnedAt), asc(scoreSheetRevisions.id)),

    /** The materials and their team (what the expert's detail is built from). */
    async project(tx: Db, prelimId: string) {
      const [row] = await tx.select({ doc: fieldsOf(prelimDocsView), team: fieldsOf(teamsView) }).from(prelimDocsView).innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId)).where(eq(prelimDocsView.id, prelimId)).limit(1);
      return row;
    },

    projectName: async (tx: Db, prelimId: string): Promise<string> =>
      (await tx.select({ name: prelimDocsView.projectName }).from(prelimDocsView).where(eq(prelimDocsView.id, prelimId)).limit(1))[0]?.name ?? '',

    /** Serialises re-reviews of one project (two admins adding the same expert at once). */
    lockProject: async (tx: Db, prelimId: string) =>
      (await tx.select({ id: prelimDocsView.id, projectName: prelimDocsView.projectName }).from(prelimDocsView).where(eq(prelimDocsView.id, prelimId)).for('update').limit(1))[0],

    async addExtras(tx: Db, rows: { round: ReviewRound; prelimId: string; expertId: string; reason: string; actorId: string; createdAt: Date }[]): Promise<number> {
      if (rows.length === 0) return 0;
      const added = await tx.insert(reviewExtraExperts).values(rows).onConflictDoNothing().returning({ expertId: reviewExtraExperts.expertId });
      return added.length;
    },

    /** Whether the expert has accepted the review agreement. */
    agreed: async (tx: Db, accountId: string): Promise<boolean> =>
      !!(await tx.select({ agreedAt: accountsView.agreedAt }).from(accountsView).where(eq(accountsView.id, accountId)).limit(1))[0]?.agreedAt,

    attachmentsById: (tx: Db, ids: readonly string[]) => (ids.length ? tx.select().from(attachmentsView).where(inArray(attachmentsView.id, [...ids])) : Promise.resolve([])),
  };
}
export type SheetsRepository = ReturnType<typeof createSheetsRepository>;
