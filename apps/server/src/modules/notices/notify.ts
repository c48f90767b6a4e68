import { inArray } from 'drizzle-orm';
import { readSettings, type AccountLocale, type TemplateEventCode } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { accountsView } from '../auth/auth.read-model.js';
import { deliverMessage } from '../messages/deliver.js';
import { createSettingsRepository } from '../settings/settings.repository.js';
import { eventTemplate, renderTexts, type RenderedEvent, type TemplateVars } from '../templates/render.js';
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
  const template = await eventTemplate(tx, notice.code);
  const rendered = renderTexts(notice.code, template, notice.vars);
  const accountIds = [...new Set(notice.accountIds)];
  const result: EventNoticeResult = { rendered, messageId: null, sms: 0, email: 0 };
  if (accountIds.length === 0) return result;
  if (rendered.insite) {
    // The Chinese as sent, with the event and its variables: the inbox renders each reader's
    // language from them (docs/decisions.md, "English").
    result.messageId = await deliverMessage(tx, {
      title: rendered.insite.title,
      body: rendered.insite.body,
      kind: 'SYSTEM',
      senderId: notice.senderId ?? null,
      accountIds,
      event: { code: notice.code, vars: definedVars(notice.vars) },
    });
  }
  if (!rendered.sms && !rendered.email) return result;
  const needSettings = (rendered.sms && notice.sms === undefined) || (rendered.email && notice.email === undefined);
  const settings = needSettings ? await notifySettings(tx) : null;
  const smsOn = notice.sms ?? settings?.sms ?? false;
  const emailOn = notice.email ?? settings?.email ?? false;
  if (!(rendered.sms && smsOn) && !(rendered.email && emailOn)) return result;
  // SMS and email in each recipient's language (the account's locale, read through `tx`).
  const locales = await localesOf(tx, accountIds);
  const byLocale = new Map<AccountLocale, RenderedEvent>([['zh-CN', rendered]]);
  const renderedFor = (locale: AccountLocale) => {
    let r = byLocale.get(locale);
    if (!r) byLocale.set(locale, (r = renderTexts(notice.code, template, notice.vars, locale)));
    return r;
  };
  for (const accountId of accountIds) {
    const mine = renderedFor(locales.get(accountId) ?? 'zh-CN');
    if (mine.sms && smsOn) {
      const { templateKey, params, text } = mine.sms;
      if (await queueSmsNotice(tx, { accountId, templateKey, params, text })) result.sms += 1;
    }
    if (mine.email && emailOn) {
      if (await enqueueEmailNotice(tx, { accountId, subject: mine.email.subject, text: mine.email.text, templateKey: notice.code })) result.email += 1;
    }
  }
  return result;
}

/** The variables that have a value (what the message row keeps). */
function definedVars(vars: TemplateVars): Record<string, string> {
  return Object.fromEntries(Object.entries(vars).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

/** Each account's language; an unknown id reads as Chinese. */
async function localesOf(tx: Db, accountIds: readonly string[]): Promise<Map<string, AccountLocale>> {
  const out = new Map<string, AccountLocale>();
  for (let i = 0; i < accountIds.length; i += 1000) {
    const rows = await tx.select({ id: accountsView.id, locale: accountsView.locale }).from(accountsView).where(inArray(accountsView.id, accountIds.slice(i, i + 1000)));
    for (const r of rows) out.set(r.id, r.locale);
  }
  return out;
}
