import { and, eq, gt, isNull } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, attachments, sessions } from '../../db/schema.js';

export type AttachmentRow = typeof attachments.$inferSelect;
export type NewAttachment = typeof attachments.$inferInsert;

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
        .select({ accountId: accounts.id, realm: accounts.realm, roleCode: accounts.roleCode, enabled: accounts.enabled })
        .from(accounts)
        .where(eq(accounts.id, accountId))
        .limit(1);
      return row;
    },

    /** True when the session is live (not revoked, not expired) and the account's: a bound link lives no longer than it. */
    async sessionLive(sessionId: string, accountId: string, at: Date): Promise<boolean> {
      const [row] = await db
        .select({ id: sessions.id })
        .from(sessions)
        .where(and(eq(sessions.id, sessionId), eq(sessions.accountId, accountId), isNull(sessions.revokedAt), gt(sessions.expiresAt, at)))
        .limit(1);
      return row !== undefined;
    },
  };
}
export type FilesRepository = ReturnType<typeof createFilesRepository>;
