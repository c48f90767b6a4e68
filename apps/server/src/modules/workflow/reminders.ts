import type { Db } from '../../db/client.js';
import { reminders } from '../../db/schema.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { deliverMessage } from '../messages/deliver.js';
import type { SmsEnqueue } from './workflow.service.js';

/** Beijing calendar day (YYYY-MM-DD) of an instant: reminders are counted per Beijing day. */
export const beijingDay = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10);

export interface RemindTarget {
  id: string;
  ownerId: string;
}

export interface RemindRequest {
  subjectType: string;
  targets: RemindTarget[];
  actor: OperationActor;
  notice: { title: string; body: string; sms: { templateKey: string; params: string[]; text: string } };
  operation: { action: string; targetType: string; what: string };
}

/**
 * Reminds the owners of draft records, at most once per record per Beijing day: the unique
 * (subject, day) row is the claim, so two operators pressing 提醒 at once remind a team once.
 * One in-site message for all reminded owners (same text), SMS through the outbox when on, one
 * operation record; all in one transaction.
 */
export function createReminders({ now, enqueueSms, smsEnabled }: { now: () => Date; enqueueSms: SmsEnqueue; smsEnabled: (tx: Db) => Promise<boolean> }) {
  return {
    async remind(db: Db, req: RemindRequest): Promise<{ reminded: number; skipped: number; sms: boolean }> {
      if (req.targets.length === 0) return { reminded: 0, skipped: 0, sms: await smsEnabled(db) };
      return db.transaction(async (tx) => {
        const sms = await smsEnabled(tx);
        const day = beijingDay(now());
        const reminded: RemindTarget[] = [];
        for (let i = 0; i < req.targets.length; i += 1000) {
          const slice = req.targets.slice(i, i + 1000);
          const inserted = await tx
            .insert(reminders)
            .values(slice.map((t) => ({ subjectType: req.subjectType, subjectId: t.id, day, accountId: t.ownerId, actorId: req.actor.auth.accountId, sms })))
            .onConflictDoNothing()
            .returning({ subjectId: reminders.subjectId });
          const ids = new Set(inserted.map((r) => r.subjectId));
          reminded.push(...slice.filter((t) => ids.has(t.id)));
        }
        if (reminded.length) {
          await deliverMessage(tx, {
            title: req.notice.title,
            body: req.notice.body,
            kind: 'SYSTEM',
            audience: 'ACCOUNTS',
            senderId: req.actor.auth.accountId,
            accountIds: reminded.map((t) => t.ownerId),
          });
          if (sms) for (const t of reminded) await enqueueSms(tx, { accountId: t.ownerId, ...req.notice.sms });
          await recordOperation(tx, req.actor, {
            action: req.operation.action,
            targetType: req.operation.targetType,
            targetId: reminded.length === 1 ? reminded[0]!.id : null,
            summary: `提醒${req.operation.what} ${reminded.length} 个${sms ? '（站内信+短信）' : '（站内信）'}，今日已提醒跳过 ${req.targets.length - reminded.length} 个`,
          });
        }
        return { reminded: reminded.length, skipped: req.targets.length - reminded.length, sms };
      });
    },
  };
}
export type Reminders = ReturnType<typeof createReminders>;
