import { and, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { attachments, directUploads, pieceUploads, type PieceJoinHolder, type PieceMark } from '../../db/schema/files.js';
import { accountsView, sessionsView } from '../auth/auth.read-model.js';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = typeof attachments.$inferInsert;
export type DirectUploadRow = typeof directUploads.$inferSelect;
export type NewDirectUpload = typeof directUploads.$inferInsert;
export type PieceUploadRow = typeof pieceUploads.$inferSelect;
export type NewPieceUpload = Pick<typeof pieceUploads.$inferInsert, 'id' | 'ownerId' | 'origin' | 'name' | 'chunks' | 'bytesKey'>;

/**
 * The state of chunked uploads sent through the server (docs/files.md, "Chunked upload protocol"),
 * in the database so that any instance resumes or completes any upload. Every change is one
 * statement: concurrent requests for one upload (on any instance) never lose each other's piece,
 * and of concurrent claims exactly one wins.
 */
export function createPieceUploadState(db: Db) {
  const touch = () => new Date();
  return {
    async find(id: string): Promise<PieceUploadRow | undefined> {
      const [row] = await db.select().from(pieceUploads).where(eq(pieceUploads.id, id)).limit(1);
      return row;
    },

    /** Creates the upload unless it exists; the row that is there afterwards (a concurrent first piece's, maybe). */
    async open(values: NewPieceUpload): Promise<PieceUploadRow> {
      const [created] = await db.insert(pieceUploads).values({ ...values, pieces: {} }).onConflictDoNothing().returning();
      if (created) return created;
      const [row] = await db.select().from(pieceUploads).where(eq(pieceUploads.id, values.id)).limit(1);
      // Deleted between the two statements (discarded, swept): open it again.
      return row ?? this.open(values);
    },

    async setPiece(id: string, chunk: number, mark: PieceMark): Promise<void> {
      await db
        .update(pieceUploads)
        .set({ pieces: sql`${pieceUploads.pieces} || jsonb_build_object(${String(chunk)}::text, ${JSON.stringify(mark)}::jsonb)`, updatedAt: touch() })
        .where(eq(pieceUploads.id, id));
    },

    async unsetPiece(id: string, chunk: number): Promise<void> {
      await db
        .update(pieceUploads)
        .set({ pieces: sql`${pieceUploads.pieces} - ${String(chunk)}::text`, updatedAt: touch() })
        .where(eq(pieceUploads.id, id));
    },

    /**
     * Sets the join claim when it is free (`replacing` null) or still the stale one `replacing`
     * names (a takeover): true for the one caller that got it.
     */
    async claim(id: string, holder: PieceJoinHolder, at: Date, replacing: string | null): Promise<boolean> {
      const free = replacing === null ? isNull(pieceUploads.claim) : sql`${pieceUploads.claim}->>'token' = ${replacing}`;
      const rows = await db
        .update(pieceUploads)
        .set({ claim: holder, claimedAt: at, updatedAt: touch() })
        .where(and(eq(pieceUploads.id, id), isNull(pieceUploads.result), free))
        .returning({ id: pieceUploads.id });
      return rows.length > 0;
    },

    /** Refreshes a held claim (its heartbeat). */
    async beat(id: string, token: string, at: Date): Promise<void> {
      await db
        .update(pieceUploads)
        .set({ claimedAt: at, updatedAt: touch() })
        .where(and(eq(pieceUploads.id, id), sql`${pieceUploads.claim}->>'token' = ${token}`));
    },

    async setPlan(id: string, plan: NonNullable<PieceUploadRow['plan']>): Promise<void> {
      await db.update(pieceUploads).set({ plan, updatedAt: touch() }).where(eq(pieceUploads.id, id));
    },

    /** The stored file: pieces, claim and plan are done with; meta and result stay until the sweep. */
    async setResult(id: string, result: Record<string, unknown>): Promise<void> {
      await db.update(pieceUploads).set({ result, pieces: {}, claim: null, claimedAt: null, plan: null, updatedAt: touch() }).where(eq(pieceUploads.id, id));
    },

    async remove(id: string): Promise<void> {
      await db.delete(pieceUploads).where(eq(pieceUploads.id, id));
    },

    /** Uploads untouched since `before` (finished or not), removed; what they were, so their bytes go too. */
    async removeStale(before: Date): Promise<PieceUploadRow[]> {
      return db.delete(pieceUploads).where(lt(pieceUploads.updatedAt, before)).returning();
    },
  };
}
export type PieceUploadState = ReturnType<typeof createPieceUploadState>;

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
