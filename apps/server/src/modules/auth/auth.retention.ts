/**
 * The auth module's part of retention (docs/retention.md): anonymising an account and removing
 * login records, called by modules/retention inside its transactions (this module owns the tables).
 */
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, loginRecords, sessions } from '../../db/schema/auth.js';

/**
 * An account becomes its pseudonym: username and name = alias, phone and e-mail removed, disabled
 * (it can no longer sign in), its sessions removed, and its login records no longer say what was
 * typed (often the phone) or from where. Idempotent. Answers the name and username it had (to
 * replace them in other free texts), or null when there is no such account.
 */
export async function anonymiseAccount(tx: Db, accountId: string, alias: string): Promise<{ name: string | null; username: string; phone: string | null } | null> {
  const [before] = await tx
    .select({ name: accounts.name, username: accounts.username, phone: accounts.phone })
    .from(accounts)
    .where(eq(accounts.id, accountId))
    .for('update');
  if (!before) return null;
  await tx.update(accounts).set({ username: alias, name: alias, phone: null, email: null, enabled: false, updatedAt: new Date() }).where(eq(accounts.id, accountId));
  await tx.delete(sessions).where(eq(sessions.accountId, accountId));
  await tx.update(loginRecords).set({ identifier: alias, ip: null, userAgent: null }).where(eq(loginRecords.accountId, accountId));
  return before;
}

/** Removes login records by id; answers the ids that existed. */
export async function deleteLoginRecords(tx: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.delete(loginRecords).where(inArray(loginRecords.id, [...ids])).returning({ id: loginRecords.id });
  return rows.map((r) => r.id);
}
