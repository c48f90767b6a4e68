import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accounts, noticeOutbox } from '../../db/schema.js';
import type { SmsProvider } from '../sms/sms.provider.js';

const MAX_ATTEMPTS = 5;
const BATCH = 50;

export interface OutboxLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Puts an SMS notice in the outbox, in the caller's transaction: it exists exactly when the
 * change it reports does. The owner's phone is read here; an account without one gets none.
 */
export async function enqueueSmsNotice(tx: Db, notice: { accountId: string; templateKey: string; params: string[]; text: string }): Promise<void> {
  const [owner] = await tx.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, notice.accountId)).limit(1);
  if (!owner?.phone) return;
  await tx.insert(noticeOutbox).values({
    channel: 'SMS',
    recipient: owner.phone,
    accountId: notice.accountId,
    templateKey: notice.templateKey,
    params: notice.params,
    text: notice.text,
  });
}

/**
 * Sends what the outbox holds. Rows are claimed with FOR UPDATE SKIP LOCKED and marked SENDING
 * in that claim, so two instances (or two drains) never send one row twice; a failure is retried
 * with backoff up to 5 times, then left FAILED with the provider's reason. A row left SENDING by
 * a crash is picked up again after 10 minutes (at-least-once for that rare case; the bulk-send
 * outbox of the messaging work adds per-recipient idempotency keys at the gateway).
 */
export function createNoticeOutbox({ db, sms, log, now = () => new Date() }: { db: Db; sms: SmsProvider; log?: OutboxLogger; now?: () => Date }) {
  let running: Promise<number> | null = null;
  let again = false;

  async function claim(): Promise<Array<typeof noticeOutbox.$inferSelect>> {
    return db.transaction(async (tx) => {
      const at = now();
      const stuck = new Date(at.getTime() - 10 * 60_000);
      const rows = await tx
        .select()
        .from(noticeOutbox)
        .where(
          sql`(${noticeOutbox.status} = 'QUEUED' and ${noticeOutbox.nextAttemptAt} <= ${at}) or (${noticeOutbox.status} = 'SENDING' and ${noticeOutbox.nextAttemptAt} <= ${stuck})`,
        )
        .orderBy(asc(noticeOutbox.createdAt))
        .limit(BATCH)
        .for('update', { skipLocked: true });
      if (rows.length) {
        await tx
          .update(noticeOutbox)
          .set({ status: 'SENDING', nextAttemptAt: at, attempts: sql`${noticeOutbox.attempts} + 1` })
          .where(inArray(noticeOutbox.id, rows.map((r) => r.id)));
      }
      return rows;
    });
  }

  async function drainOnce(): Promise<number> {
    let sent = 0;
    for (;;) {
      const rows = await claim();
      if (rows.length === 0) return sent;
      for (const row of rows) {
        try {
          await sms.send({ phone: row.recipient, templateKey: row.templateKey, params: row.params, text: row.text });
          await db.update(noticeOutbox).set({ status: 'SENT', sentAt: now(), lastError: null }).where(eq(noticeOutbox.id, row.id));
          sent++;
        } catch (err) {
          const attempts = row.attempts + 1;
          const failed = attempts >= MAX_ATTEMPTS;
          const backoff = 30_000 * 2 ** (attempts - 1);
          log?.warn({ id: row.id, err: (err as Error).message }, 'SMS notice failed');
          await db
            .update(noticeOutbox)
            .set({ status: failed ? 'FAILED' : 'QUEUED', lastError: String((err as Error).message ?? err).slice(0, 500), nextAttemptAt: new Date(now().getTime() + backoff) })
            .where(and(eq(noticeOutbox.id, row.id), eq(noticeOutbox.status, 'SENDING')));
        }
      }
    }
  }

  return {
    /** Sends everything due; concurrent calls share one run (and ask for one more pass). */
    drain(): Promise<number> {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        let total = 0;
        do {
          again = false;
          total += await drainOnce();
        } while (again);
        return total;
      })().finally(() => {
        running = null;
      });
      return running;
    },
    /** After a commit that queued notices: send soon, never failing the request. */
    kick(): void {
      setImmediate(() => {
        this.drain().catch((err: unknown) => log?.warn({ err: (err as Error).message }, 'outbox drain failed'));
      });
    },
  };
}
export type NoticeOutbox = ReturnType<typeof createNoticeOutbox>;
