import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { noticeOutbox } from '../../db/schema/notices.js';
import { accountsView } from '../auth/auth.read-model.js';
import type { EmailProvider } from '../email/email.provider.js';
import type { SmsProvider } from '../sms/sms.provider.js';

const MAX_ATTEMPTS = 5;
const BATCH = 50;

export interface OutboxLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Puts an SMS notice in the outbox, in the caller's transaction: it exists exactly when the
 * change it reports does. The owner's phone is read here; an account without one gets none
 * (false). Services send notices through notifyEvent (notify.ts), which calls this.
 */
export async function queueSmsNotice(tx: Db, notice: { accountId: string; templateKey: string; params: string[]; text: string }): Promise<boolean> {
  const [owner] = await tx.select({ phone: accountsView.phone }).from(accountsView).where(eq(accountsView.id, notice.accountId)).limit(1);
  if (!owner?.phone) return false;
  await tx.insert(noticeOutbox).values({
    channel: 'SMS',
    recipient: owner.phone,
    accountId: notice.accountId,
    templateKey: notice.templateKey,
    params: notice.params,
    text: notice.text,
  });
  return true;
}

/**
 * Puts an email notice in the outbox, in the caller's transaction, like queueSmsNotice: the
 * owner's address is read here and an account without one gets none. Whether email notices are
 * on (settings `notify.email`) is the caller's check, as for SMS (notifyEvent does both).
 * False when the account has no address.
 */
export async function enqueueEmailNotice(tx: Db, notice: { accountId: string; subject: string; text: string; templateKey?: string }): Promise<boolean> {
  const [owner] = await tx.select({ email: accountsView.email }).from(accountsView).where(eq(accountsView.id, notice.accountId)).limit(1);
  if (!owner?.email) return false;
  await tx.insert(noticeOutbox).values({
    channel: 'EMAIL',
    recipient: owner.email,
    accountId: notice.accountId,
    templateKey: notice.templateKey ?? 'EMAIL',
    subject: notice.subject,
    text: notice.text,
  });
  return true;
}

/** A bulk send's notice (短信管理, email), rendered for its recipient. */
export type BulkNotice = Pick<typeof noticeOutbox.$inferInsert, 'channel' | 'recipient' | 'accountId' | 'templateKey' | 'params' | 'text' | 'subject' | 'batchId'>;

/**
 * Puts a bulk send's slice of notices in the outbox; a notice the batch already holds for that
 * recipient is skipped (a restarted run sends nobody twice). Answers the rows written now. The
 * outbox is owned here (docs/architecture.md, "Database"); the bulk send calls this in its transaction.
 */
export async function queueBulkNotices(tx: Db, rows: readonly BulkNotice[]): Promise<{ id: string; recipient: string }[]> {
  if (!rows.length) return [];
  return tx.insert(noticeOutbox).values([...rows]).onConflictDoNothing().returning({ id: noticeOutbox.id, recipient: noticeOutbox.recipient });
}

/** Marks queued notices failed before sending (a daily cap reached), with the reason the operator sees. */
export async function failQueuedNotices(tx: Db, ids: readonly string[], reason: string): Promise<void> {
  if (!ids.length) return;
  await tx.update(noticeOutbox).set({ status: 'FAILED', lastError: reason }).where(inArray(noticeOutbox.id, [...ids]));
}

/** What a provider's send resolved to, as the row keeps it. */
function answerOf(result: unknown, provider: string): string {
  if (typeof result === 'string' && result) return result.slice(0, 500);
  if (result && typeof result === 'object' && typeof (result as { answer?: unknown }).answer === 'string') return (result as { answer: string }).answer.slice(0, 500);
  return `${provider}: accepted`;
}

/** What a provider's refusal said: its own answer when it gives one, else the error. */
function refusalOf(err: unknown): string {
  const e = err as { answer?: unknown; code?: unknown; message?: unknown };
  if (typeof e?.answer === 'string' && e.answer) return e.answer.slice(0, 500);
  return [typeof e?.code === 'string' ? e.code : null, String(e?.message ?? err)].filter(Boolean).join(' ').slice(0, 500);
}

/**
 * Sends what the outbox holds. Rows are claimed with FOR UPDATE SKIP LOCKED and marked SENDING
 * in that claim, so two instances (or two drains) never send one row twice; a failure is retried
 * with backoff up to 5 times, then left FAILED with the provider's reason. A row left SENDING by
 * a crash is picked up again after 10 minutes (at-least-once for that rare case; the bulk-send
 * outbox of the messaging work adds per-recipient idempotency keys at the gateway).
 *
 * SMS rows go to `sms`, EMAIL rows (subject + text) to `email`; without an email provider EMAIL
 * rows wait. What the provider answered (message id, or its refusal) is kept on the row.
 */
export function createNoticeOutbox({
  db,
  sms,
  email,
  log,
  now: testClock,
}: {
  db: Db;
  sms: SmsProvider;
  email?: EmailProvider;
  log?: OutboxLogger;
  /**
   * Tests move the clock. Without it every time is the database's now(), the clock that stamps
   * a queued row's next_attempt_at (one clock: docs/decisions.md, "One clock for jobs").
   */
  now?: () => Date;
}) {
  const now = (): Date | SQL => (testClock ? testClock() : sql`now()`);
  const nowPlus = (ms: number): Date | SQL =>
    testClock ? new Date(testClock().getTime() + ms) : sql`(now() + ${ms}::double precision * interval '1 millisecond')`;
  let running: Promise<number> | null = null;
  let again = false;
  const channels: Array<'SMS' | 'EMAIL'> = email ? ['SMS', 'EMAIL'] : ['SMS'];

  async function deliver(row: typeof noticeOutbox.$inferSelect): Promise<string> {
    if (row.channel === 'EMAIL') {
      if (!email) throw new Error('no email provider');
      return answerOf(await email.send({ to: row.recipient, subject: row.subject ?? '', text: row.text }), email.name);
    }
    const result: unknown = await sms.send({ phone: row.recipient, templateKey: row.templateKey, params: row.params, text: row.text });
    return answerOf(result, sms.name);
  }

  async function claim(): Promise<Array<typeof noticeOutbox.$inferSelect>> {
    return db.transaction(async (tx) => {
      const at = now();
      const stuck = nowPlus(-10 * 60_000);
      const rows = await tx
        .select()
        .from(noticeOutbox)
        .where(
          and(
            inArray(noticeOutbox.channel, channels),
            sql`((${noticeOutbox.status} = 'QUEUED' and ${noticeOutbox.nextAttemptAt} <= ${at}) or (${noticeOutbox.status} = 'SENDING' and ${noticeOutbox.nextAttemptAt} <= ${stuck}))`,
          ),
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
          const answer = await deliver(row);
          await db.update(noticeOutbox).set({ status: 'SENT', sentAt: now(), lastError: null, providerAnswer: answer }).where(eq(noticeOutbox.id, row.id));
          sent++;
        } catch (err) {
          const attempts = row.attempts + 1;
          const failed = attempts >= MAX_ATTEMPTS;
          const backoff = 30_000 * 2 ** (attempts - 1);
          log?.warn({ id: row.id, channel: row.channel, err: (err as Error).message }, `${row.channel} notice failed`);
          await db
            .update(noticeOutbox)
            .set({
              status: failed ? 'FAILED' : 'QUEUED',
              lastError: String((err as Error).message ?? err).slice(0, 500),
              providerAnswer: refusalOf(err),
              nextAttemptAt: nowPlus(backoff),
            })
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
