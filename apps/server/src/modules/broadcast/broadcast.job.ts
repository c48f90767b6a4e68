import { and, eq } from 'drizzle-orm';
import { BROADCAST_MSG as M, renderBroadcast, usedVariables, type BroadcastChannel, type Segment } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { messageBatches } from '../../db/schema/broadcast.js';
import { addRecipients, batchMessage } from '../messages/deliver.js';
import { failQueuedNotices, queueBulkNotices } from '../notices/notice-outbox.js';
import type { KvStore } from '../../lib/kv-store.js';
import { takeDailyPhoneSlot } from '../sms/sms.service.js';
import { createBroadcastRepository } from './broadcast.repository.js';
import { countSegment, segmentSlice, type Reach, type Recipient } from './segment.js';

export const BROADCAST_JOB = 'broadcast';

/** What .../send puts in the job: the batch, and the SMS gateway template as it was at send time. */
export interface BroadcastJobPayload {
  batchId: string;
  smsTemplateId?: string | null;
}

/** The parts of the durable-jobs runner's job and context (lib/jobs.ts) the handler uses. */
export interface BroadcastJobRun {
  id: string;
  payload: Record<string, unknown>;
}
export interface BroadcastJobContext {
  db: Db;
  progress(done: number, total?: number): Promise<void>;
  /** Aborted when the instance stops or lost the job: the run stops between slices. */
  signal?: AbortSignal;
}

export interface BroadcastJobDeps {
  /** The SMS module's daily cap per phone (the counter verification codes use too). */
  kv: KvStore;
  smsDailyLimit: number;
  now?: () => Date;
  /** Recipients per slice (one statement, one transaction each). */
  sliceSize?: number;
  /** After outbox rows were written: the dispatcher may start sending (SMS, email). */
  afterOutbox?: () => void;
  /** Tests: runs before each slice (throwing stops the run half-way, as a kill would). */
  beforeSlice?: (index: number, batchId: string) => void | Promise<void>;
}

const REACH: Record<BroadcastChannel, Reach> = { INSITE: 'ALL', SMS: 'PHONE', EMAIL: 'EMAIL' };
const SLICE = 500;
/** Outbox rows of bulk SMS without a gateway template of their own. */
export const BROADCAST_TEMPLATE_KEY = 'BROADCAST';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const variablesOf = (r: Pick<Recipient, 'name' | 'username' | 'teamName' | 'orgName' | 'projectName'>) => ({
  name: r.name || r.username,
  teamName: r.teamName ?? '',
  orgName: r.orgName ?? '',
  projectName: r.projectName ?? '',
});

/**
 * The job of a bulk send. It walks the segment in slices (account id order) and delivers each
 * slice with inserts that skip what exists, so a run killed half-way and run again (the runner
 * restarts a job from the start) serves every recipient exactly once:
 * - INSITE: one `messages` row per batch (created under the batch's row lock), one recipient
 *   row per account (primary key message + account);
 * - SMS / EMAIL: one `notice_outbox` row per recipient (unique batch + account + channel), sent
 *   by the outbox dispatcher. An SMS whose phone reached the SMS module's daily cap is recorded
 *   FAILED with the reason instead of being queued.
 * The batch goes QUEUED -> RUNNING -> DONE; a recall (in-site) stops the walk.
 */
export function createBroadcastJob(deps: BroadcastJobDeps) {
  const now = deps.now ?? (() => new Date());
  const sliceSize = deps.sliceSize ?? SLICE;

  async function start(db: Db, batchId: string) {
    return db.transaction(async (tx) => {
      const repo = createBroadcastRepository(tx);
      const batch = await repo.lock(tx, batchId);
      if (!batch || batch.status === 'RECALLED' || batch.status === 'DONE') return null;
      const segment = batch.segment as Segment;
      const counts = await countSegment(tx, segment);
      const total = batch.channel === 'SMS' ? counts.withPhone : batch.channel === 'EMAIL' ? counts.withEmail : counts.total;
      await tx.update(messageBatches).set({ status: 'RUNNING', total }).where(eq(messageBatches.id, batchId));
      let messageId: string | null = null;
      if (batch.channel === 'INSITE') {
        messageId = await batchMessage(tx, batchId, {
          title: batch.title,
          // Written as plain text; inboxes show bodies as HTML, so it is escaped (as rendered templates are).
          body: escapeHtml(batch.body).replace(/\r?\n/g, '<br>'),
          kind: 'ADMIN',
          audience: segment.kind === 'ALL' ? 'ALL' : segment.kind === 'ACCOUNTS' ? 'ACCOUNTS' : 'SEGMENT',
          segment: segment as unknown as Record<string, unknown>,
          senderId: batch.senderId,
        });
      }
      return { batch, segment, total, messageId };
    });
  }

  async function deliverSms(db: Db, batchId: string, text: string, smsTemplateId: string | null, rows: Recipient[]): Promise<void> {
    const vars = usedVariables(text);
    await db.transaction(async (tx) => {
      const inserted = await queueBulkNotices(
        tx,
        rows.map((r) => {
            const values = variablesOf(r);
            return {
              channel: 'SMS' as const,
              recipient: r.phone!,
              accountId: r.id,
              templateKey: smsTemplateId ?? BROADCAST_TEMPLATE_KEY,
              params: vars.map((v) => values[v]),
              text: renderBroadcast(text, values),
            batchId,
          };
        }),
      );
      // Only rows written now take a slot: a restarted run never counts a phone twice.
      const capped: string[] = [];
      // The counters in the same transaction when they live in the database (no Redis).
      const kv = deps.kv.inTransaction?.(tx) ?? deps.kv;
      for (const row of inserted) {
        if (!(await takeDailyPhoneSlot(kv, row.recipient, deps.smsDailyLimit, now().getTime()).take())) capped.push(row.id);
      }
      await failQueuedNotices(tx, capped, M.dailyCapReached);
    });
  }

  async function deliverEmail(db: Db, batchId: string, subject: string, body: string, rows: Recipient[]): Promise<void> {
    await queueBulkNotices(
      db,
      rows.map((r) => {
          const values = variablesOf(r);
          return {
            channel: 'EMAIL' as const,
            recipient: r.email!,
            accountId: r.id,
            templateKey: BROADCAST_TEMPLATE_KEY,
            params: [],
            subject: renderBroadcast(subject, values),
            text: renderBroadcast(body, values),
          batchId,
        };
      }),
    );
  }

  return async function runBroadcast(job: BroadcastJobRun, ctx: BroadcastJobContext): Promise<void> {
    const payload = job.payload as unknown as BroadcastJobPayload;
    const db = ctx.db;
    const started = await start(db, payload.batchId);
    if (!started) return;
    const { batch, segment, total, messageId } = started;
    await ctx.progress(0, total);

    let after: string | null = null;
    let done = 0;
    for (let index = 0; ; index++) {
      const rows = await segmentSlice(db, segment, { reach: REACH[batch.channel], afterId: after, limit: sliceSize });
      if (rows.length === 0) break;
      // Stopping between slices loses nothing: the next run skips what this one delivered.
      ctx.signal?.throwIfAborted();
      await deps.beforeSlice?.(index, batch.id);
      if (batch.channel === 'INSITE') {
        await addRecipients(
          db,
          messageId!,
          rows.map((r) => r.id),
        );
      } else if (batch.channel === 'SMS') {
        await deliverSms(db, batch.id, batch.body, payload.smsTemplateId ?? null, rows);
      } else {
        await deliverEmail(db, batch.id, batch.title, batch.body, rows);
      }
      after = rows[rows.length - 1]!.id;
      done += rows.length;
      // Participants who joined the segment since the count keep the bar from passing its end.
      await ctx.progress(done, Math.max(total, done));
      if (batch.channel !== 'INSITE') deps.afterOutbox?.();
      // A recall during the walk: the rest of the segment is not served.
      const [current] = await db.select({ status: messageBatches.status }).from(messageBatches).where(eq(messageBatches.id, batch.id));
      if (current?.status === 'RECALLED') return;
    }
    await db
      .update(messageBatches)
      .set({ status: 'DONE', finishedAt: now() })
      .where(and(eq(messageBatches.id, batch.id), eq(messageBatches.status, 'RUNNING')));
  };
}
export type BroadcastJobHandler = ReturnType<typeof createBroadcastJob>;
