import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { attachments } from '../../db/schema/files.js';
import { accountsView, sessionsView } from '../auth/auth.read-model.js';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = typeof attachments.$inferInsert;

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

    async findByUniqueNo(uniqueNo: string): Promise<AttachmentRow | undefined> {
      const [row] = await db.select().from(attachments).where(eq(attachments.uniqueNo, uniqueNo)).limit(1);
      return row;
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
