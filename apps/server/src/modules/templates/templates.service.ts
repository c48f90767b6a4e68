import {
  MESSAGE_CHANNEL_LABELS,
  TEMPLATE_EVENTS,
  TEMPLATE_EVENT_CODES,
  TEMPLATE_MSG as M,
  isTemplateEventCode,
  unknownTemplateVariables,
  unknownVariablesMessage,
  variablesOf,
  type MessageChannel,
  type MessageTemplateItem,
  type Page,
  type TemplateBody,
  type TemplateEnabledBody,
  type TemplateEventCode,
  type TemplateListQuery,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { recordOperation, type OperationActor } from '../audit/operation-log.js';
import { englishTexts, eventDefaults } from './render.js';
import type { TemplateRow, TemplatesRepository, TemplateValues } from './templates.repository.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type Key = { kind: 'EVENT'; code: TemplateEventCode } | { kind: 'BULK'; id: string };

/** A path key: an event code of the catalogue, or a uuid (a bulk template); anything else is 404. */
function parseKey(key: string): Key {
  if (isTemplateEventCode(key)) return { kind: 'EVENT', code: key };
  if (UUID.test(key)) return { kind: 'BULK', id: key.toLowerCase() };
  throw notFound(M.templateNotFound);
}

const channelsText = (channels: readonly MessageChannel[]) => channels.map((c) => MESSAGE_CHANNEL_LABELS[c]).join('、');

function present(code: TemplateEventCode | null, row: TemplateRow | null, editor: string | null): MessageTemplateItem {
  const event = code ? TEMPLATE_EVENTS[code] : null;
  const d = code ? eventDefaults(code) : null;
  return {
    key: code ?? row!.id,
    id: row?.id ?? null,
    code,
    eventName: event?.name ?? null,
    audience: event?.audience ?? null,
    variables: [...variablesOf(code)],
    name: row?.name ?? event!.name,
    channels: [...(row?.channels ?? d!.channels)],
    subject: row?.subject ?? d!.subject,
    body: row?.body ?? d!.body,
    smsText: row?.smsText ?? d!.smsText,
    // Event templates: the English in force (stored, or the English default while never set).
    ...(code
      ? (({ subject, body, smsText }) => ({ subjectEn: subject, bodyEn: body, smsTextEn: smsText }))(englishTexts(code, row ?? d!))
      : { subjectEn: row?.subjectEn ?? '', bodyEn: row?.bodyEn ?? '', smsTextEn: row?.smsTextEn ?? '' }),
    smsTemplateId: row?.smsTemplateId ?? null,
    enabled: row?.enabled ?? true,
    version: row?.version ?? 0,
    customized: code !== null && row !== null,
    updatedAt: row?.updatedAt.toISOString() ?? null,
    updatedBy: row ? editor : null,
  };
}

/** 400 naming the variables the template may not use (its event's, or the bulk-send ones). */
function checkVariables(code: TemplateEventCode | null, body: TemplateBody): void {
  const texts: Array<[keyof TemplateBody, string]> = [
    ['subject', body.subject],
    ['body', body.body],
    ['smsText', body.smsText],
    ['subjectEn', body.subjectEn ?? ''],
    ['bodyEn', body.bodyEn ?? ''],
    ['smsTextEn', body.smsTextEn ?? ''],
  ];
  const allowed = variablesOf(code);
  const unknown = unknownTemplateVariables(
    texts.map(([, t]) => t),
    allowed,
  );
  if (unknown.length === 0) return;
  const field = texts.find(([, t]) => unknownTemplateVariables([t], allowed).length > 0)![0];
  throw badRequest(unknownVariablesMessage(unknown), { reason: 'UNKNOWN_VARIABLE', field, variables: unknown, allowed: [...allowed] });
}

/** What a save writes; an English text the body leaves out keeps the current one (`current`). */
const valuesOf = (body: TemplateBody, current?: Pick<TemplateValues, 'subjectEn' | 'bodyEn' | 'smsTextEn'>): TemplateValues => ({
  name: body.name,
  channels: [...body.channels],
  subject: body.subject,
  body: body.body,
  smsText: body.smsText,
  subjectEn: body.subjectEn ?? current?.subjectEn ?? null,
  bodyEn: body.bodyEn ?? current?.bodyEn ?? null,
  smsTextEn: body.smsTextEn ?? current?.smsTextEn ?? null,
  smsTemplateId: body.smsTemplateId,
});

function checkVersion(current: number, expected: number | undefined): void {
  if (expected !== undefined && expected !== current) throw badRequest(M.templateStale, { reason: 'STALE', version: current });
}

/**
 * Message templates (docs/rules/content.md, "Message templates"): the event templates of the catalogue (edited copies stored
 * by code; never-saved ones are their defaults) and the templates of bulk sends (code null).
 * Every write is audited in its transaction (action sms:template) and checks the version the
 * editor loaded, so two administrators saving at once cannot overwrite each other.
 */
export function createTemplatesService({ db, repo, now = () => new Date() }: { db: Db; repo: TemplatesRepository; now?: () => Date }) {
  async function itemOf(tx: Db, key: Key): Promise<MessageTemplateItem> {
    if (key.kind === 'EVENT') {
      const row = (await repo.findByCode(key.code, tx)) ?? null;
      return present(key.code, row, row ? await repo.editorName(tx, row.updatedBy) : null);
    }
    const row = await repo.findById(key.id, tx);
    if (!row || row.code !== null) throw notFound(M.templateNotFound);
    return present(null, row, await repo.editorName(tx, row.updatedBy));
  }

  /** Saves an event template over its stored copy, or stores it the first time (version 0 -> 1). */
  async function saveEvent(
    tx: Db,
    actor: OperationActor,
    code: TemplateEventCode,
    expected: number | undefined,
    change: (current: TemplateValues & { enabled: boolean }) => TemplateValues & { enabled: boolean },
  ): Promise<TemplateRow> {
    const at = now();
    const locked = await repo.lockByCode(tx, code);
    if (locked) {
      checkVersion(locked.version, expected);
      return repo.update(tx, locked, { ...change(locked), updatedBy: actor.auth.accountId, at });
    }
    checkVersion(0, expected);
    const d = eventDefaults(code);
    const base = {
      name: TEMPLATE_EVENTS[code].name,
      channels: [...d.channels],
      subject: d.subject,
      body: d.body,
      smsText: d.smsText,
      subjectEn: null,
      bodyEn: null,
      smsTextEn: null,
      smsTemplateId: null,
      enabled: true,
    };
    const inserted = await repo.insertEvent(tx, code, { ...change(base), updatedBy: actor.auth.accountId, at });
    // Another administrator's first save won the insert: the caller saw version 0, which is gone.
    if (!inserted) throw badRequest(M.templateStale, { reason: 'STALE' });
    return inserted;
  }

  return {
    /** GET /admin/templates: event templates in catalogue order, then bulk ones newest first. */
    async list(query: TemplateListQuery): Promise<Page<MessageTemplateItem>> {
      const stored = await repo.all();
      const byCode = new Map(stored.filter((s) => s.row.code).map((s) => [s.row.code!, s]));
      const events = TEMPLATE_EVENT_CODES.map((code) => {
        const s = byCode.get(code);
        return present(code, s?.row ?? null, s?.editor ?? null);
      });
      const bulk = stored
        .filter((s) => s.row.code === null)
        .reverse()
        .map((s) => present(null, s.row, s.editor));
      const keyword = query.keyword?.toLowerCase();
      const all = [...(query.kind === 'BULK' ? [] : events), ...(query.kind === 'EVENT' ? [] : bulk)].filter(
        (t) =>
          (!query.channel || t.channels.includes(query.channel)) &&
          (query.enabled === undefined || t.enabled === query.enabled) &&
          (!keyword || [t.name, t.subject, t.eventName ?? '', t.code ?? ''].some((s) => s.toLowerCase().includes(keyword))),
      );
      const start = (query.page - 1) * query.size;
      return { list: all.slice(start, start + query.size), page: query.page, size: query.size, total: all.length };
    },

    /** GET /admin/templates/{key} */
    async get(key: string): Promise<MessageTemplateItem> {
      return itemOf(db, parseKey(key));
    },

    /** POST /admin/templates: a bulk-send template (event templates exist already). */
    async create(actor: OperationActor, body: TemplateBody): Promise<MessageTemplateItem> {
      checkVariables(null, body);
      return db.transaction(async (tx) => {
        const row = await repo.insertBulk(tx, { ...valuesOf(body), updatedBy: actor.auth.accountId, at: now() });
        await recordOperation(tx, actor, {
          action: 'sms:template',
          targetType: 'message_template',
          targetId: row.id,
          summary: `新建消息模板「${row.name}」（${channelsText(row.channels)}）`,
        });
        return itemOf(tx, { kind: 'BULK', id: row.id });
      });
    },

    /** PUT /admin/templates/{key} */
    async update(actor: OperationActor, rawKey: string, body: TemplateBody): Promise<MessageTemplateItem> {
      const key = parseKey(rawKey);
      return db.transaction(async (tx) => {
        if (key.kind === 'EVENT') {
          checkVariables(key.code, body);
          const row = await saveEvent(tx, actor, key.code, body.version, (current) => ({ ...valuesOf(body, current), enabled: current.enabled }));
          await recordOperation(tx, actor, {
            action: 'sms:template',
            targetType: 'message_template',
            targetId: row.id,
            summary: `修改事件模板「${row.name}」（${key.code}；${channelsText(row.channels)}）`,
          });
          return itemOf(tx, key);
        }
        const locked = await repo.lockById(tx, key.id);
        if (!locked || locked.code !== null) throw notFound(M.templateNotFound);
        checkVariables(null, body);
        checkVersion(locked.version, body.version);
        const row = await repo.update(tx, locked, { ...valuesOf(body, locked), updatedBy: actor.auth.accountId, at: now() });
        await recordOperation(tx, actor, {
          action: 'sms:template',
          targetType: 'message_template',
          targetId: row.id,
          summary: `修改消息模板「${row.name}」（${channelsText(row.channels)}）`,
        });
        return itemOf(tx, key);
      });
    },

    /** PUT /admin/templates/{key}/enabled: a disabled event template sends no notice at all. */
    async setEnabled(actor: OperationActor, rawKey: string, input: TemplateEnabledBody): Promise<MessageTemplateItem> {
      const key = parseKey(rawKey);
      return db.transaction(async (tx) => {
        let row: TemplateRow;
        if (key.kind === 'EVENT') {
          row = await saveEvent(tx, actor, key.code, input.version, (current) => ({ ...current, enabled: input.enabled }));
        } else {
          const locked = await repo.lockById(tx, key.id);
          if (!locked || locked.code !== null) throw notFound(M.templateNotFound);
          checkVersion(locked.version, input.version);
          row = await repo.update(tx, locked, { enabled: input.enabled, updatedBy: actor.auth.accountId, at: now() });
        }
        await recordOperation(tx, actor, {
          action: 'sms:template',
          targetType: 'message_template',
          targetId: row.id,
          summary: `${input.enabled ? '启用' : '停用'}${key.kind === 'EVENT' ? '事件' : '消息'}模板「${row.name}」`,
        });
        return itemOf(tx, key);
      });
    },

    /**
     * DELETE /admin/templates/{key}: a bulk template is deleted (batches keep their own copy of
     * the text); an event template goes back to its defaults.
     */
    async remove(actor: OperationActor, rawKey: string): Promise<{ key: string; reset: boolean }> {
      const key = parseKey(rawKey);
      return db.transaction(async (tx) => {
        const row = key.kind === 'EVENT' ? await repo.lockByCode(tx, key.code) : await repo.lockById(tx, key.id);
        if (key.kind === 'BULK' && (!row || row.code !== null)) throw notFound(M.templateNotFound);
        if (row) {
          await repo.delete(tx, row.id);
          await recordOperation(tx, actor, {
            action: 'sms:template',
            targetType: 'message_template',
            targetId: row.id,
            summary: key.kind === 'EVENT' ? `恢复事件模板「${row.name}」为默认内容（${key.code}）` : `删除消息模板「${row.name}」`,
          });
        }
        return { key: rawKey, reset: key.kind === 'EVENT' };
      });
    },
  };
}
export type TemplatesService = ReturnType<typeof createTemplatesService>;
