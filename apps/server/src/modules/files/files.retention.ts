/**
 * The files module's part of retention (docs/retention.md): a retained file's row goes first, in
 * the retention item's transaction, and its stored object after that commits (modules/retention
 * keeps the key until then). Sign-up and materials rows point at attachments with ON DELETE SET
 * NULL, so they simply lose the file.
 */
import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { attachments } from '../../db/schema/files.js';

/** Removes attachment rows; answers the storage keys of those that existed. */
export async function removeAttachmentRows(tx: Db, ids: readonly string[]): Promise<Array<{ id: string; storageKey: string }>> {
  if (ids.length === 0) return [];
  return tx.delete(attachments).where(inArray(attachments.id, [...ids])).returning({ id: attachments.id, storageKey: attachments.storageKey });
}
