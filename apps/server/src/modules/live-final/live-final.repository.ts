import { and, asc, count, desc, eq, ilike, inArray, isNull, or, sql } from 'drizzle-orm';
import type { LiveSessionListQuery } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { teamsView } from '../team/team.read-model.js';
import { liveDisplayLinks, liveSessionJudges, liveSessionProjects, liveSessions, liveSubmitKeys } from '../../db/schema/live-final.js';

export type SessionRow = typeof liveSessions.$inferSelect;
export type NewSessionRow = typeof liveSessions.$inferInsert;
export type SessionProjectRow = typeof liveSessionProjects.$inferSelect;
export type DisplayLinkRow = typeof liveDisplayLinks.$inferSelect;

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The live final's tables (docs/live-final.md). Every call takes the connection to read through:
 * inside a transaction that must be the transaction (PGlite has one connection).
 */
export function createLiveFinalRepository() {
  return {
    // ---------------------------------------------------------------- sessions
    async list(tx: Db, q: LiveSessionListQuery): Promise<{ rows: SessionRow[]; total: number }> {
      const where = and(
        q.status ? eq(liveSessions.status, q.status) : undefined,
        q.keyword ? or(ilike(liveSessions.name, `%${likeEscape(q.keyword)}%`), ilike(liveSessions.venue, `%${likeEscape(q.keyword)}%`)) : undefined,
      );
      const [{ n }] = (await tx.select({ n: count() }).from(liveSessions).where(where)) as [{ n: number }];
      const rows = await tx
        .select()
        .from(liveSessions)
        .where(where)
        .orderBy(desc(liveSessions.date), asc(liveSessions.name), asc(liveSessions.id))
        .limit(q.size)
        .offset((q.page - 1) * q.size);
      return { rows, total: Number(n) };
    },

    get: async (tx: Db, id: string): Promise<SessionRow | undefined> => (await tx.select().from(liveSessions).where(eq(liveSessions.id, id)).limit(1))[0],

    lock: async (tx: Db, id: string): Promise<SessionRow | undefined> =>
      (await tx.select().from(liveSessions).where(eq(liveSessions.id, id)).for('update').limit(1))[0],

    insert: async (tx: Db, values: NewSessionRow): Promise<SessionRow> => (await tx.insert(liveSessions).values(values).returning())[0]!,

    /** Every write raises the version. */
    update: async (tx: Db, id: string, values: Partial<NewSessionRow>): Promise<SessionRow> =>
      (await tx.update(liveSessions).set({ ...values, version: sql`${liveSessions.version} + 1`, updatedAt: new Date() }).where(eq(liveSessions.id, id)).returning())[0]!,

    delete: async (tx: Db, id: string) => tx.delete(liveSessions).where(eq(liveSessions.id, id)),

    /** Counts per session: judges, projects, done (revealed, absent, skipped). */
    async counts(tx: Db, ids: readonly string[]): Promise<Map<string, { judges: number; projects: number; done: number }>> {
      const out = new Map(ids.map((id) => [id, { judges: 0, projects: 0, done: 0 }]));
      if (!ids.length) return out;
      const js = await tx.select({ id: liveSessionJudges.sessionId, n: count() }).from(liveSessionJudges).where(inArray(liveSessionJudges.sessionId, [...ids])).groupBy(liveSessionJudges.sessionId);
      const ps = await tx
        .select({ id: liveSessionProjects.sessionId, n: count(), done: sql<number>`count(*) filter (where ${liveSessionProjects.status} in ('REVEALED', 'ABSENT', 'SKIPPED'))` })
        .from(liveSessionProjects)
        .where(inArray(liveSessionProjects.sessionId, [...ids]))
        .groupBy(liveSessionProjects.sessionId);
      for (const j of js) out.get(j.id)!.judges = Number(j.n);
      for (const p of ps) Object.assign(out.get(p.id)!, { projects: Number(p.n), done: Number(p.done) });
      return out;
    },

    // ---------------------------------------------------------------- judges
    judgeIds: async (tx: Db, sessionId: string): Promise<string[]> =>
      (await tx.select({ id: liveSessionJudges.expertId }).from(liveSessionJudges).where(eq(liveSessionJudges.sessionId, sessionId)).orderBy(asc(liveSessionJudges.sort))).map((r) => r.id),

    async setJudges(tx: Db, sessionId: string, expertIds: readonly string[]): Promise<void> {
      await tx.delete(liveSessionJudges).where(eq(liveSessionJudges.sessionId, sessionId));
      if (expertIds.length) await tx.insert(liveSessionJudges).values(expertIds.map((expertId, sort) => ({ sessionId, expertId, sort })));
    },

    isJudge: async (tx: Db, sessionId: string, expertId: string): Promise<boolean> =>
      (await tx.select({ id: liveSessionJudges.expertId }).from(liveSessionJudges).where(and(eq(liveSessionJudges.sessionId, sessionId), eq(liveSessionJudges.expertId, expertId))).limit(1)).length > 0,

    sessionsOfJudge: (tx: Db, expertId: string): Promise<SessionRow[]> =>
      tx
        .select(fieldsOfSessions)
        .from(liveSessions)
        .innerJoin(liveSessionJudges, eq(liveSessionJudges.sessionId, liveSessions.id))
        .where(eq(liveSessionJudges.expertId, expertId))
        .orderBy(desc(liveSessions.date), asc(liveSessions.name)),

    // ---------------------------------------------------------------- projects of a session
    projects: (tx: Db, sessionId: string): Promise<SessionProjectRow[]> =>
      tx.select().from(liveSessionProjects).where(eq(liveSessionProjects.sessionId, sessionId)).orderBy(asc(liveSessionProjects.sort), asc(liveSessionProjects.id)),

    lockProjects: (tx: Db, sessionId: string): Promise<SessionProjectRow[]> =>
      tx.select().from(liveSessionProjects).where(eq(liveSessionProjects.sessionId, sessionId)).orderBy(asc(liveSessionProjects.sort), asc(liveSessionProjects.id)).for('update'),

    lockProject: async (tx: Db, sessionId: string, prelimId: string): Promise<SessionProjectRow | undefined> =>
      (await tx.select().from(liveSessionProjects).where(and(eq(liveSessionProjects.sessionId, sessionId), eq(liveSessionProjects.prelimId, prelimId))).for('update').limit(1))[0],

    /** Which session holds each of these projects (a project is in one session at most). */
    placed: async (tx: Db, prelimIds?: readonly string[]) =>
      prelimIds && prelimIds.length === 0
        ? []
        : tx
            .select({ prelimId: liveSessionProjects.prelimId, sessionId: liveSessionProjects.sessionId, sessionName: liveSessions.name })
            .from(liveSessionProjects)
            .innerJoin(liveSessions, eq(liveSessions.id, liveSessionProjects.sessionId))
            .where(prelimIds ? inArray(liveSessionProjects.prelimId, [...prelimIds]) : undefined),

    insertProjects: async (tx: Db, sessionId: string, items: { prelimId: string; sort: number }[]) => {
      if (items.length) await tx.insert(liveSessionProjects).values(items.map((i) => ({ sessionId, prelimId: i.prelimId, sort: i.sort })));
    },

    removeProjects: async (tx: Db, sessionId: string, prelimIds: readonly string[]) => {
      if (prelimIds.length) await tx.delete(liveSessionProjects).where(and(eq(liveSessionProjects.sessionId, sessionId), inArray(liveSessionProjects.prelimId, [...prelimIds])));
    },

    setSort: async (tx: Db, id: string, sort: number) => tx.update(liveSessionProjects).set({ sort }).where(eq(liveSessionProjects.id, id)),

    /** Every write raises the version. */
    updateProject: async (tx: Db, id: string, values: Partial<typeof liveSessionProjects.$inferInsert>): Promise<SessionProjectRow> =>
      (await tx.update(liveSessionProjects).set({ ...values, version: sql`${liveSessionProjects.version} + 1`, updatedAt: new Date() }).where(eq(liveSessionProjects.id, id)).returning())[0]!,

    /** Names and organisations of some projects (the final is not blind), through the owners' read models. */
    projectInfo: (tx: Db, prelimIds: readonly string[]) =>
      prelimIds.length === 0
        ? Promise.resolve([])
        : tx
            .select({
              id: prelimDocsView.id,
              projectName: prelimDocsView.projectName,
              track: prelimDocsView.track,
              teamName: teamsView.teamName,
              orgName: teamsView.orgName,
              creditCode: teamsView.creditCode,
            })
            .from(prelimDocsView)
            .innerJoin(teamsView, eq(teamsView.id, prelimDocsView.teamId))
            .where(inArray(prelimDocsView.id, [...prelimIds])),

    /** Projects being presented or scored on site now: their single scores are sealed (docs/live-final.md, "Sealing"). */
    sealedPrelimIds: async (tx: Db): Promise<string[]> =>
      (await tx.select({ id: liveSessionProjects.prelimId }).from(liveSessionProjects).where(inArray(liveSessionProjects.status, ['PRESENTING', 'QA', 'SCORING']))).map((r) => r.id),

    // ---------------------------------------------------------------- display links
    links: (tx: Db, sessionId: string): Promise<DisplayLinkRow[]> =>
      tx.select().from(liveDisplayLinks).where(eq(liveDisplayLinks.sessionId, sessionId)).orderBy(desc(liveDisplayLinks.createdAt), asc(liveDisplayLinks.id)),

    activeLinks: async (tx: Db, sessionId: string): Promise<number> =>
      Number(((await tx.select({ n: count() }).from(liveDisplayLinks).where(and(eq(liveDisplayLinks.sessionId, sessionId), isNull(liveDisplayLinks.revokedAt)))) as [{ n: number }])[0].n),

    insertLink: async (tx: Db, values: typeof liveDisplayLinks.$inferInsert): Promise<DisplayLinkRow> => (await tx.insert(liveDisplayLinks).values(values).returning())[0]!,

    linkByHash: async (tx: Db, tokenHash: string): Promise<DisplayLinkRow | undefined> =>
      (await tx.select().from(liveDisplayLinks).where(eq(liveDisplayLinks.tokenHash, tokenHash)).limit(1))[0],

    lockLink: async (tx: Db, sessionId: string, id: string): Promise<DisplayLinkRow | undefined> =>
      (await tx.select().from(liveDisplayLinks).where(and(eq(liveDisplayLinks.id, id), eq(liveDisplayLinks.sessionId, sessionId))).for('update').limit(1))[0],

    revokeLink: async (tx: Db, id: string, at: Date) => tx.update(liveDisplayLinks).set({ revokedAt: at }).where(eq(liveDisplayLinks.id, id)),

    seenLink: async (tx: Db, id: string, at: Date) => tx.update(liveDisplayLinks).set({ lastSeenAt: at }).where(eq(liveDisplayLinks.id, id)),

    // ---------------------------------------------------------------- submit keys
    /**
     * Claims a judge's submit key: true when this call recorded it. A concurrent claim of the same
     * key waits on the primary key until the first commits (then false) or rolls back (then true).
     */
    claimKey: async (tx: Db, row: { expertId: string; key: string; sessionId: string; prelimId: string }): Promise<boolean> =>
      (await tx.insert(liveSubmitKeys).values(row).onConflictDoNothing().returning({ key: liveSubmitKeys.key })).length > 0,

    setKeySheet: async (tx: Db, expertId: string, key: string, sheetId: string) =>
      tx.update(liveSubmitKeys).set({ sheetId }).where(and(eq(liveSubmitKeys.expertId, expertId), eq(liveSubmitKeys.key, key))),

    key: async (tx: Db, expertId: string, key: string) =>
      (await tx.select().from(liveSubmitKeys).where(and(eq(liveSubmitKeys.expertId, expertId), eq(liveSubmitKeys.key, key))).limit(1))[0],
  };
}
export type LiveFinalRepository = ReturnType<typeof createLiveFinalRepository>;

const fieldsOfSessions = {
  id: liveSessions.id,
  name: liveSessions.name,
  venue: liveSessions.venue,
  date: liveSessions.date,
  startTime: liveSessions.startTime,
  presentationMinutes: liveSessions.presentationMinutes,
  qaMinutes: liveSessions.qaMinutes,
  status: liveSessions.status,
  currentPrelimId: liveSessions.currentPrelimId,
  version: liveSessions.version,
  createdBy: liveSessions.createdBy,
  createdAt: liveSessions.createdAt,
  updatedAt: liveSessions.updatedAt,
};
