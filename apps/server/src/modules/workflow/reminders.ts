import { MESSAGE_CHANNEL_LABELS } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { reminders } from '../../db/schema/workflow.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { noticeChannels, notifyEvent, type EventNotice } from '../notices/notify.js';

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
  /** The reminder's event (TEAM_DRAFT_REMIND, ...) and variables: the same text for everyone reminded. */
  notice: Pick<EventNotice, 'code' | 'vars'>;
  operation: { action: string; targetType: string; what: string };
}

/**
 * Reminds the owners of draft records, at most once per record per Beijing day: the unique
 * (subject, day) row is the claim, so two operators pressing 提醒 at once remind a team once.
 * One notice for all reminded owners (notifyEvent: the event's template, SMS and email through
 * the outbox when on), one operation record; all in one transaction. `sms` in the answer: SMS
 * reminders go out (短信通知 on and the template sends SMS).
 */
export function createReminders({ now }: { now: () => Date }) {
  return {
    async remind(db: Db, req: RemindRequest): Promise<{ reminded: number; skipped: number; sms: boolean }> {
      if (req.targets.length === 0) return { reminded: 0, skipped: 0, sms: (await noticeChannels(db, req.notice.code)).sms };
      return db.transaction(async (tx) => {
        const channels = await noticeChannels(tx, req.notice.code);
        const day = beijingDay(now());
        const reminded: RemindTarget[] = [];
        for (let i = 0; i < req.targets.length; i += 1000) {
          const slice = req.targets.slice(i, i + 1000);
          const inserted = await tx
            .insert(reminders)
            .values(slice.map((t) => ({ subjectType: req.subjectType, subjectId: t.id, day, accountId: t.ownerId, actorId: req.actor.auth.accountId, sms: channels.sms })))
            .onConflictDoNothing()
            .returning({ subjectId: reminders.subjectId });
          const ids = new Set(inserted.map((r) => r.subjectId));
          reminded.push(...slice.filter((t) => ids.has(t.id)));
        }
        if (reminded.length) {
          await notifyEvent(tx, {
            ...req.notice,
            accountIds: reminded.map((t) => t.ownerId),
            senderId: req.actor.auth.accountId,
            sms: channels.sms,
            email: channels.email,
          });
          const sent = { INSITE: channels.insite, SMS: channels.sms, EMAIL: channels.email };
          const words = (Object.keys(sent) as (keyof typeof sent)[]).filter((c) => sent[c]).map((c) => MESSAGE_CHANNEL_LABELS[c]);
          await recordOperation(tx, req.actor, {
            action: req.operation.action,
            targetType: req.operation.targetType,
            targetId: reminded.length === 1 ? reminded[0]!.id : null,
            summary: `提醒${req.operation.what} ${reminded.length} 个（${words.length ? words.join('+') : '模板已停用，未发送'}），今日已提醒跳过 ${req.targets.length - reminded.length} 个`,
          });
        }
        return { reminded: reminded.length, skipped: req.targets.length - reminded.length, sms: channels.sms };
      });
    },
  };
}
export type Reminders = ReturnType<typeof createReminders>;
