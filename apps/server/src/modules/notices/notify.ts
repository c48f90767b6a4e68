import { readSettings, type TemplateEventCode } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { deliverMessage } from '../messages/deliver.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import { eventTemplate, renderEvent, renderTexts, type RenderedEvent, type TemplateVars } from '../templates/render.js';
import { enqueueEmailNotice, queueSmsNotice } from './notice-outbox.js';

export interface EventNotice {
  code: TemplateEventCode;
  /** Everyone receiving the same text (one in-site message for all of them). */
  accountIds: string[];
  vars: TemplateVars;
  /** The administrator or expert whose action it reports; null for the participant's own action. */
  senderId?: string | null;
  /**
   * Whether SMS and email may go out. Default: the settings 短信通知 / 邮件通知 (notify.sms,
   * notify.email), read through the transaction, so a change applies at once.
   */
  sms?: boolean;
  email?: boolean;
}

export interface EventNoticeResult {
  rendered: RenderedEvent;
  messageId: string | null;
  /** Outbox rows queued (recipients without a phone or address get none). */
  sms: number;
  email: number;
}

/** The notice settings 短信通知 / 邮件通知, read through `tx` (a change applies at once). */
async function notifySettings(tx: Db): Promise<{ sms: boolean; email: boolean }> {
  return readSettings(await createSettingsRepository(tx).readAll(tx)).notify;
}

/**
 * Which channels an event's notice goes out on now: those its template (edited or default,
 * enabled) has, SMS and email only when their setting is on. For callers that report or record
 * what was sent before sending (reminders); pass the result to notifyEvent as `sms` / `email` so
 * both agree.
 */
export async function noticeChannels(tx: Db, code: TemplateEventCode): Promise<{ insite: boolean; sms: boolean; email: boolean }> {
  // Whether a channel renders does not depend on the variables.
  const rendered = renderTexts(code, await eventTemplate(tx, code), {});
  const settings = rendered.sms || rendered.email ? await notifySettings(tx) : { sms: false, email: false };
  return { insite: rendered.insite !== null, sms: rendered.sms !== null && settings.sms, email: rendered.email !== null && settings.email };
}

/**
 * An event's notice on every channel its template has on, in the caller's transaction: the
 * in-site message delivered, SMS and email queued in the notice outbox (sent after commit: call
 * the outbox's kick()). The texts come from the template (renderEvent); channels the settings
 * turn off are skipped.
 */
export async function notifyEvent(tx: Db, notice: EventNotice): Promise<EventNoticeResult> {
  const rendered = await renderEvent(tx, notice.code, notice.vars);
  const accountIds = [...new Set(notice.accountIds)];
  const result: EventNoticeResult = { rendered, messageId: null, sms: 0, email: 0 };
  if (accountIds.length === 0) return result;
  if (rendered.insite) {
    result.messageId = await deliverMessage(tx, {
      title: rendered.insite.title,
      body: rendered.insite.body,
      kind: 'SYSTEM',
      senderId: notice.senderId ?? null,
      accountIds,
    });
  }
  if (!rendered.sms && !rendered.email) return result;
  const needSettings = (rendered.sms && notice.sms === undefined) || (rendered.email && notice.email === undefined);
  const settings = needSettings ? await notifySettings(tx) : null;
  const smsOn = notice.sms ?? settings?.sms ?? false;
  const emailOn = notice.email ?? settings?.email ?? false;
  for (const accountId of accountIds) {
    if (rendered.sms && smsOn) {
      const { templateKey, params, text } = rendered.sms;
      if (await queueSmsNotice(tx, { accountId, templateKey, params, text })) result.sms += 1;
    }
    if (rendered.email && emailOn) {
      if (await enqueueEmailNotice(tx, { accountId, subject: rendered.email.subject, text: rendered.email.text, templateKey: notice.code })) result.email += 1;
    }
  }
  return result;
}
