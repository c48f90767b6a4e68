import { inArray } from 'drizzle-orm';
import {
  TEMPLATE_EVENTS,
  TEMPLATE_EVENTS_EN,
  englishTemplateVars,
  fillTemplate,
  type AccountLocale,
  type MessageChannel,
  type TemplateEventCode,
  type TemplateVariable,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { messageTemplates } from '../../db/schema/templates.js';

export type TemplateVars = Partial<Record<TemplateVariable, string>>;

/** What a template sends on each of its channels; null where the channel is off. */
export interface RenderedEvent {
  code: TemplateEventCode;
  /** The in-site message: plain title, body as escaped HTML (what the inbox expects). */
  insite: { title: string; body: string } | null;
  /** The SMS: text as read, and what a gateway rendering its own template needs. */
  sms: { templateKey: string; templateId: string | null; params: string[]; text: string } | null;
  /** The email: plain subject and text. */
  email: { subject: string; text: string } | null;
}

export interface TemplateTexts {
  channels: readonly MessageChannel[];
  subject: string;
  body: string;
  smsText: string;
  /** English texts: null = the event's English default; '' = send the Chinese. */
  subjectEn: string | null;
  bodyEn: string | null;
  smsTextEn: string | null;
  smsTemplateId: string | null;
  enabled: boolean;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * A template body as inbox HTML. Templates are plain text: the whole rendered text is escaped
 * (so neither a variable like a team name nor an administrator's template can inject markup),
 * and line breaks become <br>.
 */
export const toInsiteHtml = (plain: string) => escapeHtml(plain).replace(/\r?\n/g, '<br>');

/** The defaults of an event (product texts before templates): what an unedited template sends. */
export function eventDefaults(code: TemplateEventCode): TemplateTexts {
  const d = TEMPLATE_EVENTS[code].defaults;
  return { channels: d.channels, subject: d.subject, body: d.body, smsText: d.smsText, subjectEn: null, bodyEn: null, smsTextEn: null, smsTemplateId: null, enabled: true };
}

/** The English texts in force: the stored ones, or the event's English defaults where never set. */
export function englishTexts(code: TemplateEventCode, texts: Pick<TemplateTexts, 'subjectEn' | 'bodyEn' | 'smsTextEn'>): { subject: string; body: string; smsText: string } {
  const d = TEMPLATE_EVENTS_EN[code];
  return { subject: texts.subjectEn ?? d.subject, body: texts.bodyEn ?? d.body, smsText: texts.smsTextEn ?? d.smsText };
}

/**
 * Which English texts of a template are written (docs/decisions.md, "English"): the title and body
 * as a pair (an English subject over a Chinese body would be neither), the SMS on its own. An
 * empty English text sends the Chinese.
 */
export function englishParts(code: TemplateEventCode, texts: TemplateTexts): { message: boolean; sms: boolean; en: { subject: string; body: string; smsText: string } } {
  const en = englishTexts(code, texts);
  return { message: !!(en.subject.trim() && en.body.trim()), sms: !!en.smsText.trim(), en };
}

/**
 * Renders template texts for one event with `vars` (missing variables render empty), in
 * `locale`: English parts where written (englishParts), with the English of the variables'
 * known vocabularies (englishTemplateVars); the Chinese, with the variables as given, elsewhere.
 */
export function renderTexts(code: TemplateEventCode, texts: TemplateTexts, vars: TemplateVars, locale: AccountLocale = 'zh-CN'): RenderedEvent {
  const zh = renderIn(code, texts, vars);
  if (locale !== 'en') return zh;
  const parts = englishParts(code, texts);
  if (!parts.message && !parts.sms) return zh;
  const en = renderIn(code, { ...texts, ...parts.en }, englishTemplateVars(vars) as TemplateVars);
  return {
    code,
    insite: parts.message ? en.insite : zh.insite,
    email: parts.message ? en.email : zh.email,
    // The gateway's parameters stay the Chinese ones: they fill the gateway's registered template.
    sms: parts.sms && en.sms && zh.sms ? { ...zh.sms, text: en.sms.text } : zh.sms,
  };
}

function renderIn(code: TemplateEventCode, texts: TemplateTexts, vars: TemplateVars): RenderedEvent {
  const event = TEMPLATE_EVENTS[code];
  const on = (c: MessageChannel) => texts.enabled && texts.channels.includes(c);
  const values = vars as Readonly<Record<string, string | undefined>>;
  const subject = fillTemplate(texts.subject, values);
  const body = fillTemplate(texts.body, values);
  return {
    code,
    insite: on('INSITE') ? { title: subject, body: toInsiteHtml(body) } : null,
    sms: on('SMS') && texts.smsText
      ? {
          templateKey: event.smsKey,
          templateId: texts.smsTemplateId,
          params: event.smsParams.map((v) => values[v] ?? ''),
          text: fillTemplate(texts.smsText, values),
        }
      : null,
    email: on('EMAIL') ? { subject, text: body } : null,
  };
}

/** The stored (edited) template of an event, or its defaults. Reads through `tx`. */
export async function eventTemplate(tx: Db, code: TemplateEventCode): Promise<TemplateTexts> {
  return (await eventTemplates(tx, [code])).get(code)!;
}

/**
 * What each enabled channel of an event's notice would send, from the administrator's edited
 * template or the default. Pass the transaction of the change being reported (on PGlite a read
 * through `db` inside a transaction deadlocks). A disabled template sends nothing.
 */
export async function renderEvent(tx: Db, code: TemplateEventCode, vars: TemplateVars, locale: AccountLocale = 'zh-CN'): Promise<RenderedEvent> {
  return renderTexts(code, await eventTemplate(tx, code), vars, locale);
}

/** Several events' templates in one read (the inbox renders a page of notices). */
export async function eventTemplates(tx: Db, codes: readonly TemplateEventCode[]): Promise<Map<TemplateEventCode, TemplateTexts>> {
  const wanted = [...new Set(codes)];
  const out = new Map<TemplateEventCode, TemplateTexts>(wanted.map((c) => [c, eventDefaults(c)]));
  if (!wanted.length) return out;
  const rows = await tx
    .select({
      code: messageTemplates.code,
      channels: messageTemplates.channels,
      subject: messageTemplates.subject,
      body: messageTemplates.body,
      smsText: messageTemplates.smsText,
      subjectEn: messageTemplates.subjectEn,
      bodyEn: messageTemplates.bodyEn,
      smsTextEn: messageTemplates.smsTextEn,
      smsTemplateId: messageTemplates.smsTemplateId,
      enabled: messageTemplates.enabled,
    })
    .from(messageTemplates)
    .where(inArray(messageTemplates.code, wanted));
  for (const { code, ...texts } of rows) out.set(code as TemplateEventCode, texts);
  return out;
}
