/**
 * The experts module's part of retention (docs/retention.md): an anonymised expert keeps their
 * organisation (conflicts of interest in the kept history still read) and loses their title.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { expertProfiles } from '../../db/schema/experts.js';

export async function anonymiseExpertProfile(tx: Db, accountId: string): Promise<void> {
  await tx.update(expertProfiles).set({ title: null }).where(eq(expertProfiles.accountId, accountId));
}
