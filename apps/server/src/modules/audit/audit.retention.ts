/**
 * The audit module's part of retention (docs/retention.md): operation records past their period
 * are removed, and an anonymised person's name leaves the records about them. Called by
 * modules/retention inside its transactions (this module owns the table).
 */
import { and, asc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { operationRecords } from '../../db/schema/audit.js';

/** Operation records made before `cutoff`, oldest first (a retention plan's items). */
export async function operationRecordsBefore(db: Db, cutoff: Date, limit: number): Promise<Array<{ id: string; action: string; createdAt: Date }>> {
  return db
    .select({ id: operationRecords.id, action: operationRecords.action, createdAt: operationRecords.createdAt })
    .from(operationRecords)
    .where(lt(operationRecords.createdAt, cutoff))
    .orderBy(asc(operationRecords.createdAt), asc(operationRecords.id))
    .limit(limit);
}

/** Removes operation records by id; answers the ids that existed. */
export async function deleteOperationRecords(tx: Db, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx.delete(operationRecords).where(inArray(operationRecords.id, [...ids])).returning({ id: operationRecords.id });
  return rows.map((r) => r.id);
}

/**
 * Records made by the account or about it: the actor's name becomes the alias, address and browser
 * go, and the person's former texts (name, username, phone) are replaced in the summaries. Other
 * records that happen to quote them go with the operation records' own period.
 */
export async function anonymiseOperationActor(tx: Db, accountId: string, alias: string, texts: readonly (string | null)[]): Promise<void> {
  const mine = or(eq(operationRecords.accountId, accountId), eq(operationRecords.targetId, accountId));
  await tx.update(operationRecords).set({ username: alias, ip: null, userAgent: null }).where(eq(operationRecords.accountId, accountId));
  // Longest first, so a name that contains another is replaced whole.
  const words = [...new Set(texts.filter((w): w is string => !!w && w.trim().length >= 2))].sort((a, b) => b.length - a.length);
  for (const word of words) {
    await tx
      .update(operationRecords)
      .set({ summary: sql`replace(${operationRecords.summary}, ${word}::text, ${alias}::text)` })
      .where(and(mine, sql`strpos(${operationRecords.summary}, ${word}::text) > 0`));
  }
}
