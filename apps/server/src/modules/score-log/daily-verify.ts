/**
 * The daily verification (docs/security.md "Score log: anchors and receipts"): a
 * scheduled durable job (lib/jobs.ts) runs the whole check and, on any difference, tells every
 * enabled super admin by in-site message through the notice templates (event
 * SCORE_LOG_MISMATCH). An intact log sends nothing.
 */
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountsView } from '../auth/auth.read-model.js';
import { notifyEvent } from '../notices/notify.js';
import { verifyScoreLog } from './score-log.js';
import { describeVerify } from './score-log.service.js';

export const SCORE_LOG_VERIFY_JOB = 'score-log.verify';
export const SCORE_LOG_VERIFY_EVERY_MS = 24 * 60 * 60_000;

/** Runs the check; answers whether it was intact and how many were told. */
export async function runDailyVerify(db: Db): Promise<{ ok: boolean; notified: number }> {
  const result = await verifyScoreLog(db);
  if (result.ok) return { ok: true, notified: 0 };
  return db.transaction(async (tx) => {
    // Super admins are who may act on it (every menu); read like scoreLogActor reads accounts.
    const admins = await tx
      .select({ id: accountsView.id })
      .from(accountsView)
      .where(and(eq(accountsView.realm, 'ADMIN'), eq(accountsView.roleCode, 'SUPER_ADMIN'), eq(accountsView.enabled, true)));
    await notifyEvent(tx, { code: 'SCORE_LOG_MISMATCH', accountIds: admins.map((a) => a.id), vars: { reason: describeVerify(result) }, senderId: null });
    return { ok: false, notified: admins.length };
  });
}
