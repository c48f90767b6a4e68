import { and, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { attachments, directUploads } from '../../db/schema/files.js';
import { accountsView, sessionsView } from '../auth/auth.read-model.js';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = typeof attachments.$inferInsert;
export type DirectUploadRow = typeof directUploads.$inferSelect;
export type NewDirectUpload = typeof directUploads.$inferInsert;

/**
 * Sets which of `ids` (files of one origin) are public links: those in `publicIds` are, the others
 * are not. The module that decides (documents: an enabled PUBLIC document uses the file) calls it
 * in its own transaction; files are owned here (docs/architecture.md, "Database").
 */
export async function setPublicFlags(tx: Db, origin: AttachmentRow['origin'], ids: readonly string[], publicIds: ReadonlySet<string>): Promise<void> {
  if (!ids.length) return;
  const on = ids.filter((id) => publicIds.has(id));
  const off = ids.filter((id) => !publicIds.has(id));
  if (on.length) await tx.update(attachments).set({ isPublic: true }).where(and(inArray(attachments.id, on), eq(attachments.origin, origin)));
  if (off.length) await tx.update(attachments).set({ isPublic: false }).where(and(inArray(attachments.id, off), eq(attachments.origin, origin)));
}

export function createFilesRepository(db: Db) {
  return {
    async insert(tx: Db, values: NewAttachment): Promise<AttachmentRow> {
      const [row] = await tx.insert(attachments).values(values).returning();
      return row!;
    },

    async findByUniqueNo(uniqueNo: string, tx: Db = db): Promise<AttachmentRow | undefined> {
      const [row] = await tx.select().from(attachments).where(eq(attachments.uniqueNo, uniqueNo)).limit(1);
      return row;
    },

    // Direct uploads (docs/files.md, "Direct upload").

    async insertDirect(values: NewDirectUpload): Promise<DirectUploadRow> {
      const [row] = await db.insert(directUploads).values(values).returning();
      return row!;
    },

    async findDirect(id: string): Promise<DirectUploadRow | undefined> {
      const [row] = await db.select().from(directUploads).where(eq(directUploads.id, id)).limit(1);
      return row;
    },

    /** The upload locked for its completion: a second completion waits here, then finds it done. */
    async lockDirect(tx: Db, id: string): Promise<DirectUploadRow | undefined> {
      const [row] = await tx.select().from(directUploads).where(eq(directUploads.id, id)).for('update').limit(1);
      return row;
    },

    async updateDirect(tx: Db, id: string, values: Partial<Pick<DirectUploadRow, 'status' | 'uniqueNo'>>): Promise<void> {
      await tx.update(directUploads).set({ ...values, updatedAt: new Date() }).where(eq(directUploads.id, id));
    },

    /** Adds the checksums parts are signed for (one statement: concurrent signings of one upload each keep theirs). */
    async signDirectParts(id: string, sums: Record<string, string>): Promise<void> {
      await db
        .update(directUploads)
        .set({ partSha256: sql`${directUploads.partSha256} || ${JSON.stringify(sums)}::jsonb`, updatedAt: new Date() })
        .where(eq(directUploads.id, id));
    },

    /** Open uploads untouched since `before` (the sweep aborts them), a batch at a time. */
    async staleOpenDirect(before: Date, limit: number): Promise<DirectUploadRow[]> {
      return db
        .select()
        .from(directUploads)
        .where(and(eq(directUploads.status, 'OPEN'), lt(directUploads.updatedAt, before)))
        .limit(limit);
    },

    /** The owner's open uploads beyond the newest `keep` (the oldest are retired when another starts). */
    async openDirectBeyond(ownerId: string, keep: number): Promise<DirectUploadRow[]> {
      return db
        .select()
        .from(directUploads)
        .where(and(eq(directUploads.ownerId, ownerId), eq(directUploads.status, 'OPEN')))
        .orderBy(sql`${directUploads.createdAt} desc`, sql`${directUploads.id} desc`)
        .offset(keep);
    },

    /**
     * Marks an upload ABORTED if it is still open; false when it is not (a completion holding its
     * row lock commits first, and the update then finds it DONE).
     */
    async abortDirectIfOpen(id: string): Promise<boolean> {
      const rows = await db
        .update(directUploads)
        .set({ status: 'ABORTED', updatedAt: new Date() })
        .where(and(eq(directUploads.id, id), eq(directUploads.status, 'OPEN')))
        .returning({ id: directUploads.id });
      return rows.length > 0;
    },

    async deleteDirect(id: string): Promise<void> {
      await db.delete(directUploads).where(eq(directUploads.id, id));
    },

    /** Finished (done or aborted) uploads older than `before`: nobody completes them again. */
    async deleteFinishedDirect(before: Date): Promise<number> {
      const rows = await db
        .delete(directUploads)
        .where(and(ne(directUploads.status, 'OPEN'), lt(directUploads.updatedAt, before)))
        .returning({ id: directUploads.id });
      return rows.length;
    },

    /** Who a signed link was issued to, as the access rules need it. */
    async linkAccount(accountId: string) {
      const [row] = await db
        .select({ accountId: accountsView.id, realm: accountsView.realm, roleCode: accountsView.roleCode, enabled: accountsView.enabled })
        .from(accountsView)
        .where(eq(accountsView.id, accountId))
        .limit(1);
      return row;
    },

    /** True when the session is live (not revoked, not expired) and the account's: a bound link lives no longer than it. */
    async sessionLive(sessionId: string, accountId: string, at: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: sessionsView.id })
        .from(sessionsView)
        .where(and(eq(sessionsView.id, sessionId), eq(sessionsView.accountId, accountId), isNull(sessionsView.revokedAt), gt(sessionsView.expiresAt, at)))
        .limit(1);
      return row !== undefined;
    },
  };
}
export type FilesRepository = ReturnType<typeof createFilesRepository>;
