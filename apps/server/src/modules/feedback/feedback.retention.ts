/** The feedback module's part of retention (docs/retention.md): an anonymised participant's feedback loses its contact line. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { feedback } from '../../db/schema/feedback.js';

export async function anonymiseFeedbackOf(tx: Db, ownerId: string): Promise<void> {
  await tx.update(feedback).set({ contact: null }).where(eq(feedback.ownerId, ownerId));
}
