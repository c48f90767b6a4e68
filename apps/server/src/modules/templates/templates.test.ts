import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_MSG,
  BULK_TEMPLATE_VARIABLES,
  type TEMPLATE_EVENTS,
  TEMPLATE_EVENT_CODES,
  TEMPLATE_MSG as M,
  unknownVariablesMessage,
  type MessageTemplateItem,
  type Page,
  type TemplateBodyInput,
} from '@contest/shared';
import { api, operationsBy } from '../../../test/admin-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { messageRecipients, messageTemplates, messages, noticeOutbox, settings } from '../../db/schema.js';
import { notifyEvent } from '../notices/notify.js';
import { eventDefaults, renderEvent, renderTexts } from './render.js';

let t: TestApp;
let editor: SignedIn;
let reader: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  editor = await signIn(t, { realm: 'ADMIN', buttons: ['sms:template'], name: '模板管理员' });
  reader = await signIn(t, { realm: 'ADMIN', menus: ['InMailManage'] });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const BASE = '/api/admin/templates';

const body = (over: Partial<TemplateBodyInput> = {}): TemplateBodyInput => ({
  name: '群发通知',
  channels: ['INSITE', 'SMS'],
  subject: '致{teamName}',
  body: '{name}您好，请于本周内完成材料补充。',
  smsText: '【智慧医保大赛】{name}您好，请登录大赛官网查看通知。',
  smsTemplateId: 'SMS_1001',
  ...over,
});

const get = (key: string, who: SignedIn = editor) => api<MessageTemplateItem>(t, 'GET', `${BASE}/${key}`, { headers: who.headers });
const put = (key: string, b: Partial<TemplateBodyInput> & { version?: number }, who: SignedIn = editor) =>
  api<MessageTemplateItem>(t, 'PUT', `${BASE}/${key}`, { headers: who.headers, body: { ...body(), ...b } });
const stored = (code: string) => db().select().from(messageTemplates).where(eq(messageTemplates.code, code));

/** The event's current texts as an edit body (what the console sends back with a change). */
async function eventBody(code: string, over: Partial<TemplateBodyInput> = {}) {
  const item = (await get(code)).body.data;
  return { name: item.name, channels: item.channels, subject: item.subject, body: item.body, smsText: item.smsText, smsTemplateId: item.smsTemplateId, version: item.version, ...over };
}

describe('templates: who may call', () => {
  it('401 without a session or with a participant token; 403 without the menu; writes need sms:template', async () => {
    const participant = await signIn(t, { realm: 'USER' });
    const stranger = await signIn(t, { realm: 'ADMIN', buttons: [] });
    expect((await api(t, 'GET', BASE)).statusCode).toBe(401);
    expect((await api(t, 'GET', BASE, { headers: participant.headers })).statusCode).toBe(401);
    expect((await api(t, 'GET', BASE, { headers: stranger.headers })).statusCode).toBe(403);
    expect((await api(t, 'GET', `${BASE}/TEAM_APPROVED`, { headers: stranger.headers })).statusCode).toBe(403);
    // Reading with the in-site page's menu; writing refused without the button.
    expect((await api(t, 'GET', BASE, { headers: reader.headers })).statusCode).toBe(200);
    expect((await api(t, 'POST', BASE, { headers: reader.headers, body: body() })).statusCode).toBe(403);
    expect((await put('TEAM_SUBMITTED', { version: 0 }, reader)).statusCode).toBe(403);
    expect((await api(t, 'PUT', `${BASE}/TEAM_SUBMITTED/enabled`, { headers: reader.headers, body: { enabled: false } })).statusCode).toBe(403);
    expect((await api(t, 'DELETE', `${BASE}/TEAM_SUBMITTED`, { headers: reader.headers })).statusCode).toBe(403);
    expect(await stored('TEAM_SUBMITTED')).toHaveLength(0);
  });

  it('404 for a key that is neither an event nor a bulk template', async () => {
    for (const key of ['NO_SUCH_EVENT', randomUUID(), 'team_approved']) {
      const res = await get(key);
      expect(res.statusCode, key).toBe(404);
      expect(res.body.message).toBe(M.templateNotFound);
    }
    expect((await put(randomUUID(), {})).statusCode).toBe(404);
    expect((await api(t, 'DELETE', `${BASE}/${randomUUID()}`, { headers: editor.headers })).statusCode).toBe(404);
  });
});

describe('templates: the event catalogue', () => {
  it('lists every event with its defaults, unedited (version 0), then filters', async () => {
    const res = await api<Page<MessageTemplateItem>>(t, 'GET', `${BASE}?kind=EVENT&size=100`, { headers: editor.headers });
    expect(res.statusCode).toBe(200);
    const codes = res.body.data.list.map((i) => i.code);
    expect(codes).toEqual(TEMPLATE_EVENT_CODES);
    const remind = res.body.data.list.find((i) => i.code === 'REVIEW_REMIND')!;
    expect(remind).toMatchObject({
      key: 'REVIEW_REMIND',
      eventName: '专家评审提醒',
      audience: 'EXPERT',
      variables: ['round', 'deadlineHint'],
      subject: '{round}评审提醒',
      channels: ['INSITE', 'SMS', 'EMAIL'],
      enabled: true,
      smsTemplateId: null,
    });

    const sms = await api<Page<MessageTemplateItem>>(t, 'GET', `${BASE}?kind=EVENT&channel=SMS&size=100`, { headers: editor.headers });
    expect(sms.body.data.list.every((i) => i.channels.includes('SMS'))).toBe(true);
    expect(sms.body.data.list.map((i) => i.code)).not.toContain('TEAM_SUBMITTED');
    const keyword = await api<Page<MessageTemplateItem>>(t, 'GET', `${BASE}?keyword=${encodeURIComponent('晋级')}`, { headers: editor.headers });
    expect(keyword.body.data.list.map((i) => i.code)).toEqual(['FINAL_PROMOTED']);
    const paged = await api<Page<MessageTemplateItem>>(t, 'GET', `${BASE}?kind=EVENT&page=2&size=5`, { headers: editor.headers });
    expect(paged.body.data).toMatchObject({ page: 2, size: 5, total: TEMPLATE_EVENT_CODES.length });
    expect(paged.body.data.list.map((i) => i.code)).toEqual(TEMPLATE_EVENT_CODES.slice(5, 10));

    const bad = await api(t, 'GET', `${BASE}?kind=OTHER`, { headers: editor.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.body.message).toBe(M.templateKindInvalid);
  });

  it('default texts send exactly what the services sent before templates', () => {
    const render = (code: keyof typeof TEMPLATE_EVENTS, vars: Record<string, string>) => renderTexts(code, eventDefaults(code), vars);
    const team = '<b>医保</b>&队';
    const escaped = '&lt;b&gt;医保&lt;/b&gt;&amp;队';
    expect(render('TEAM_APPROVED', { teamName: team, status: '审核通过' })).toEqual({
      code: 'TEAM_APPROVED',
      insite: { title: '报名审核通过', body: `您的团队「${escaped}」报名审核已通过，请在初赛材料提交时间内提交初赛材料。` },
      sms: { templateKey: 'TEAM_AUDIT', templateId: null, params: [team, '审核通过'], text: `【智慧医保大赛】您的团队「${team}」报名审核结果：审核通过。` },
      email: { subject: '报名审核通过', text: `您的团队「${team}」报名审核已通过，请在初赛材料提交时间内提交初赛材料。` },
    });
    expect(render('TEAM_REVISING', { teamName: team, status: '退回修改', reason: '缺少"推荐函"' })).toMatchObject({
      insite: { title: '报名信息需修改', body: `您的团队「${escaped}」报名审核结果：退回修改。审核意见：缺少&quot;推荐函&quot;` },
      sms: { text: `【智慧医保大赛】您的团队「${team}」报名审核结果：退回修改，请登录大赛官网查看审核意见。` },
    });
    expect(render('PRELIM_REJECTED', { projectName: 'P', status: '形式审查不通过', reason: 'r' })).toMatchObject({
      insite: { title: '初赛材料形式审查未通过', body: '您的项目「P」初赛材料审查结果：形式审查不通过。审核意见：r' },
      sms: { templateKey: 'PRELIM_AUDIT', params: ['P', '形式审查不通过'], text: '【智慧医保大赛】您的项目「P」初赛材料审查结果：形式审查不通过，请登录大赛官网查看审核意见。' },
    });
    expect(render('TEAM_SUBMITTED', { teamName: team })).toMatchObject({ insite: { title: '报名信息已提交', body: `您的团队「${escaped}」的报名信息已提交，请等待审核。` }, sms: null });
    expect(render('PRELIM_DRAFT_REMIND', {})).toMatchObject({
      insite: { title: '请尽快提交初赛材料', body: '您的初赛材料尚未提交。请在初赛材料提交截止前完善并提交，逾期将无法参加初赛评审。' },
      sms: { templateKey: 'PRELIM_DRAFT_REMIND', params: [], text: '【智慧医保大赛】您的初赛材料尚未提交，请在截止前登录大赛官网完成提交。' },
    });
    expect(render('FINAL_PROMOTED', { projectName: 'P' }).sms).toEqual({ templateKey: 'FINAL_PROMOTED', templateId: null, params: ['P'], text: '【智慧医保大赛】恭喜！您的项目「P」已晋级决赛，请登录大赛官网查看。' });
    expect(render('REVIEW_REMIND', { round: '决赛', deadlineHint: '请尽快' })).toMatchObject({
      insite: { title: '决赛评审提醒', body: '您在决赛评审中还有项目未提交评分，请尽快登录专家评审系统完成评分。' },
      sms: { templateKey: 'REVIEW_REMIND', params: ['决赛'] },
    });
    expect(render('SCORE_RETURNED', { projectName: 'P', round: '初赛', reason: '<x>' }).insite).toEqual({
      title: '评分被退回',
      body: '您对项目「P」的初赛评分已被退回。退回原因：&lt;x&gt;。请在评审时间内重新评分并提交。',
    });
    expect(render('FEEDBACK_REPLIED', { submittedDate: '2025-09-01' }).insite?.body).toBe('您于 2025-09-01 提交的反馈已有回复，请在“我的反馈”中查看。');
  });
});

describe('templates: editing an event template', () => {
  it('saves an edit (version 0 -> 1) with an operation record, and renderEvent sends the edited text', async () => {
    const input = await eventBody('TEAM_APPROVED', {
      subject: '【{teamName}】审核通过',
      body: '恭喜{teamName}！\n请按时提交初赛材料。',
      smsText: '【智慧医保大赛】{teamName}审核{status}',
      smsTemplateId: 'TPL-88',
      channels: ['EMAIL', 'INSITE', 'SMS'],
    });
    expect(input.version).toBe(0);
    const res = await put('TEAM_APPROVED', input);
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(M.templateSaved);
    expect(res.body.data).toMatchObject({ key: 'TEAM_APPROVED', code: 'TEAM_APPROVED', version: 1, customized: true, updatedBy: '模板管理员', channels: ['INSITE', 'SMS', 'EMAIL'] });
    const [op] = await operationsBy(t, editor.accountId);
    expect(op).toMatchObject({ action: 'sms:template', targetType: 'message_template', targetId: res.body.data.id });
    expect(op!.summary).toContain('TEAM_APPROVED');

    const rendered = await db().transaction((tx) => renderEvent(tx, 'TEAM_APPROVED', { teamName: 'A<队>', status: '审核通过' }));
    expect(rendered).toEqual({
      code: 'TEAM_APPROVED',
      insite: { title: '【A<队>】审核通过', body: '恭喜A&lt;队&gt;！<br>请按时提交初赛材料。' },
      sms: { templateKey: 'TEAM_AUDIT', templateId: 'TPL-88', params: ['A<队>', '审核通过'], text: '【智慧医保大赛】A<队>审核审核通过' },
      email: { subject: '【A<队>】审核通过', text: '恭喜A<队>！\n请按时提交初赛材料。' },
    });

    // Back to the defaults: the row goes, version 0 again, what is sent is the default again.
    const reset = await api(t, 'DELETE', `${BASE}/TEAM_APPROVED`, { headers: editor.headers });
    expect(reset.statusCode).toBe(200);
    expect(reset.body.message).toBe(M.templateReset);
    expect((await get('TEAM_APPROVED')).body.data).toMatchObject({ id: null, version: 0, customized: false, subject: '报名审核通过', updatedBy: null });
    expect((await db().transaction((tx) => renderEvent(tx, 'TEAM_APPROVED', { teamName: 'A', status: '审核通过' }))).insite?.title).toBe('报名审核通过');
    expect((await operationsBy(t, editor.accountId))[0]!.summary).toContain('恢复');
  });

  it('refuses variables the event does not offer, naming them, and writes nothing', async () => {
    const before = (await operationsBy(t, editor.accountId)).length;
    const res = await put('TEAM_REJECTED', await eventBody('TEAM_REJECTED', { body: '{teamName}未通过：{reason}，详见{projectName}与{foo}{projectName}' }));
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(unknownVariablesMessage(['projectName', 'foo']));
    expect(res.body.message).toBe('模板中有未知变量：{projectName}、{foo}');
    expect(res.body.data).toMatchObject({ reason: 'UNKNOWN_VARIABLE', field: 'body', variables: ['projectName', 'foo'], allowed: ['teamName', 'status', 'reason'] });
    // In the SMS text or subject too.
    const sms = await put('TEAM_REJECTED', await eventBody('TEAM_REJECTED', { smsText: '【智慧医保大赛】{deadline}' }));
    expect(sms.body).toMatchObject({ message: '模板中有未知变量：{deadline}', data: { field: 'smsText' } });
    const subject = await put('TEAM_REJECTED', await eventBody('TEAM_REJECTED', { subject: '{round}' }));
    expect(subject.body).toMatchObject({ message: '模板中有未知变量：{round}', data: { field: 'subject' } });
    expect(await stored('TEAM_REJECTED')).toHaveLength(0);
    expect(await operationsBy(t, editor.accountId)).toHaveLength(before);
  });

  it.each([
    [{ name: '' }, M.templateNameRequired],
    [{ name: 'x'.repeat(51) }, M.templateNameTooLong],
    [{ channels: [] }, M.templateChannelsRequired],
    [{ channels: ['FAX'] }, M.templateChannelInvalid],
    [{ subject: '' }, M.templateSubjectRequired],
    [{ subject: 'x'.repeat(101) }, M.templateSubjectTooLong],
    [{ body: '   ' }, M.templateBodyRequired],
    [{ body: 'x'.repeat(2001) }, M.templateBodyTooLong],
    [{ channels: ['SMS'], smsText: '' }, M.templateSmsTextRequired],
    [{ smsText: 'x'.repeat(501) }, M.templateSmsTextTooLong],
    [{ smsTemplateId: 'bad id!' }, M.templateSmsIdInvalid],
    [{ version: -1 }, M.templateVersionInvalid],
  ] as Array<[Record<string, unknown>, string]>)('400 for %o with its text', async (over, message) => {
    const res = await put('PRELIM_SUBMITTED', { ...(await eventBody('PRELIM_SUBMITTED')), ...over } as Partial<TemplateBodyInput>);
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await stored('PRELIM_SUBMITTED')).toHaveLength(0);
  });

  it('an SMS-only template needs no subject or body; one without SMS needs no SMS text', async () => {
    const smsOnly = await put('TEAM_DRAFT_REMIND', { ...(await eventBody('TEAM_DRAFT_REMIND')), channels: ['SMS'], subject: '', body: '' });
    expect(smsOnly.statusCode, JSON.stringify(smsOnly.body)).toBe(200);
    const rendered = await db().transaction((tx) => renderEvent(tx, 'TEAM_DRAFT_REMIND', {}));
    expect(rendered).toMatchObject({ insite: null, email: null, sms: { templateKey: 'TEAM_DRAFT_REMIND' } });
    await api(t, 'DELETE', `${BASE}/TEAM_DRAFT_REMIND`, { headers: editor.headers });
  });

  it('two editors saving the same version at once: one wins, the other is told STALE', async () => {
    // First save of an unedited template, twice at once.
    const first = await eventBody('PRELIM_APPROVED');
    const results = await Promise.all([put('PRELIM_APPROVED', { ...first, subject: 'A' }), put('PRELIM_APPROVED', { ...first, subject: 'B' })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const lost = results.find((r) => r.statusCode === 400)!;
    expect(lost.body).toMatchObject({ message: M.templateStale, data: { reason: 'STALE' } });
    const winner = results.find((r) => r.statusCode === 200)!.body.data;
    expect((await stored('PRELIM_APPROVED'))[0]).toMatchObject({ version: 1, subject: winner.subject });

    // Then an edit of the saved one.
    const next = await Promise.all([put('PRELIM_APPROVED', { ...first, version: 1, subject: 'C' }), put('PRELIM_APPROVED', { ...first, version: 1, subject: 'D' })]);
    expect(next.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const [row] = await stored('PRELIM_APPROVED');
    expect(row!.version).toBe(2);
    expect(row!.subject).toBe(next.find((r) => r.statusCode === 200)!.body.data.subject);
    // An old version is refused with the current one.
    const old = await put('PRELIM_APPROVED', { ...first, version: 1, subject: 'E' });
    expect(old.body).toMatchObject({ message: M.templateStale, data: { reason: 'STALE', version: 2 } });
    expect((await stored('PRELIM_APPROVED'))[0]!.subject).toBe(row!.subject);
  });

  it('a disabled event template sends nothing; enabling it again restores it', async () => {
    const off = await api<MessageTemplateItem>(t, 'PUT', `${BASE}/FINAL_PROMOTED/enabled`, { headers: editor.headers, body: { enabled: false, version: 0 } });
    expect(off.statusCode).toBe(200);
    expect(off.body).toMatchObject({ message: M.templateDisabled, data: { enabled: false, version: 1, subject: '晋级决赛' } });
    expect(await db().transaction((tx) => renderEvent(tx, 'FINAL_PROMOTED', { projectName: 'P' }))).toEqual({ code: 'FINAL_PROMOTED', insite: null, sms: null, email: null });
    const list = await api<Page<MessageTemplateItem>>(t, 'GET', `${BASE}?enabled=false&kind=EVENT`, { headers: editor.headers });
    expect(list.body.data.list.map((i) => i.code)).toContain('FINAL_PROMOTED');
    const stale = await api(t, 'PUT', `${BASE}/FINAL_PROMOTED/enabled`, { headers: editor.headers, body: { enabled: true, version: 0 } });
    expect(stale.body.data).toMatchObject({ reason: 'STALE' });
    const bad = await api(t, 'PUT', `${BASE}/FINAL_PROMOTED/enabled`, { headers: editor.headers, body: { enabled: 'yes' } });
    expect(bad.body.message).toBe(ADMIN_MSG.enabledInvalid);
    const on = await api<MessageTemplateItem>(t, 'PUT', `${BASE}/FINAL_PROMOTED/enabled`, { headers: editor.headers, body: { enabled: true, version: 1 } });
    expect(on.body).toMatchObject({ message: M.templateEnabled, data: { enabled: true, version: 2 } });
    expect((await db().transaction((tx) => renderEvent(tx, 'FINAL_PROMOTED', { projectName: 'P' }))).insite?.title).toBe('晋级决赛');
  });
});

describe('templates: bulk-send templates', () => {
  it('creates, lists, edits, disables and deletes one, each with an operation record', async () => {
    const created = await api<MessageTemplateItem>(t, 'POST', BASE, { headers: editor.headers, body: body({ body: '{name}（{orgName}）您好，{projectName}' }) });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(200);
    expect(created.body.message).toBe(M.templateCreated);
    const item = { ...created.body.data, id: created.body.data.id! };
    expect(item).toMatchObject({ code: null, eventName: null, key: item.id, version: 1, enabled: true, smsTemplateId: 'SMS_1001', variables: [...BULK_TEMPLATE_VARIABLES] });
    expect((await operationsBy(t, editor.accountId))[0]).toMatchObject({ action: 'sms:template', targetId: item.id, summary: '新建消息模板「群发通知」（站内信、短信）' });

    const list = await api<Page<MessageTemplateItem>>(t, 'GET', `${BASE}?kind=BULK`, { headers: reader.headers });
    expect(list.body.data.list.map((i) => i.key)).toContain(item.id);
    expect(list.body.data.list.every((i) => i.code === null)).toBe(true);
    expect((await get(item.id, reader)).body.data.subject).toBe('致{teamName}');

    const edited = await put(item.id, { name: '改名', version: 1 });
    expect(edited.body.data).toMatchObject({ name: '改名', version: 2 });
    expect((await put(item.id, { version: 1 })).body.data).toMatchObject({ reason: 'STALE' });
    const disabled = await api<MessageTemplateItem>(t, 'PUT', `${BASE}/${item.id}/enabled`, { headers: editor.headers, body: { enabled: false } });
    expect(disabled.body.data).toMatchObject({ enabled: false, version: 3 });

    const deleted = await api(t, 'DELETE', `${BASE}/${item.id}`, { headers: editor.headers });
    expect(deleted.body.message).toBe(M.templateDeleted);
    expect((await get(item.id)).statusCode).toBe(404);
    expect((await operationsBy(t, editor.accountId)).slice(0, 4).map((o) => o.summary)).toEqual([
      '删除消息模板「改名」',
      '停用消息模板「改名」',
      '修改消息模板「改名」（站内信、短信）',
      '新建消息模板「群发通知」（站内信、短信）',
    ]);
  });

  it('refuses event variables in a bulk template, and writes nothing', async () => {
    const count = (await db().select().from(messageTemplates)).length;
    const res = await api(t, 'POST', BASE, { headers: editor.headers, body: body({ smsText: '{reason}{name}' }) });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatchObject({ message: '模板中有未知变量：{reason}', data: { reason: 'UNKNOWN_VARIABLE', field: 'smsText' } });
    expect(await db().select().from(messageTemplates)).toHaveLength(count);
    const missing = await api(t, 'POST', BASE, { headers: editor.headers, body: { channels: ['INSITE'] } });
    expect(missing.statusCode).toBe(400);
    expect(missing.body.message).toBe(M.templateNameRequired);
  });

  it('an event code is not a bulk id: its template cannot be deleted away', async () => {
    const res = await api(t, 'DELETE', `${BASE}/SCORE_RETURNED`, { headers: editor.headers });
    // Nothing stored: still the defaults, nothing to record.
    expect(res.statusCode).toBe(200);
    expect((await get('SCORE_RETURNED')).body.data).toMatchObject({ version: 0, enabled: true });
  });
});

describe('notifyEvent: the notice on every channel its template and the settings allow', () => {
  async function setNotify(sms: boolean, email: boolean) {
    for (const [key, value] of [
      ['notify.sms', sms],
      ['notify.email', email],
    ] as const) {
      await db().insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    }
  }
  const outboxOf = (ids: string[]) => db().select().from(noticeOutbox).where(inArray(noticeOutbox.accountId, ids));

  it('in-site always; SMS and email only when their settings are on and the account has a phone / address', async () => {
    const a = await signIn(t, { realm: 'USER' });
    const b = await signIn(t, { realm: 'USER' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    const ids = [a.accountId, b.accountId, expert.accountId];

    await setNotify(false, false);
    const quiet = await db().transaction((tx) => notifyEvent(tx, { code: 'PRELIM_REVISING', accountIds: [...ids, a.accountId], vars: { projectName: '<P>', status: '退回修改', reason: 'r' }, senderId: editor.accountId }));
    expect(quiet).toMatchObject({ sms: 0, email: 0 });
    const inbox = await db()
      .select({ title: messages.title, body: messages.body, accountId: messageRecipients.accountId })
      .from(messageRecipients)
      .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
      .where(eq(messages.id, quiet.messageId!));
    expect(inbox.map((r) => r.accountId).sort()).toEqual([...ids].sort());
    expect(inbox[0]).toMatchObject({ title: '初赛材料需修改', body: '您的项目「&lt;P&gt;」初赛材料审查结果：退回修改。审核意见：r' });
    expect(await outboxOf(ids)).toHaveLength(0);

    await setNotify(true, true);
    const loud = await db().transaction((tx) => notifyEvent(tx, { code: 'PRELIM_REVISING', accountIds: ids, vars: { projectName: '<P>', status: '退回修改', reason: 'r' } }));
    // The expert (from signIn) has neither phone nor address.
    expect(loud).toMatchObject({ sms: 2, email: 2 });
    const rows = await outboxOf(ids);
    expect(rows.filter((r) => r.channel === 'SMS').map((r) => [r.templateKey, r.params, r.text])).toEqual([
      ['PRELIM_AUDIT', ['<P>', '退回修改'], '【智慧医保大赛】您的项目「<P>」初赛材料审查结果：退回修改，请登录大赛官网查看审核意见。'],
      ['PRELIM_AUDIT', ['<P>', '退回修改'], '【智慧医保大赛】您的项目「<P>」初赛材料审查结果：退回修改，请登录大赛官网查看审核意见。'],
    ]);
    const mails = rows.filter((r) => r.channel === 'EMAIL');
    expect(mails.map((r) => r.recipient).sort()).toEqual([`${a.username}@example.com`, `${b.username}@example.com`].sort());
    expect(mails[0]).toMatchObject({ templateKey: 'PRELIM_REVISING', subject: '初赛材料需修改', text: '您的项目「<P>」初赛材料审查结果：退回修改。审核意见：r', status: 'QUEUED' });

    // An explicit choice wins over the settings (callers that already know, e.g. a reminder batch).
    const c = await signIn(t, { realm: 'USER' });
    expect(await db().transaction((tx) => notifyEvent(tx, { code: 'TEAM_APPROVED', accountIds: [c.accountId], vars: { teamName: 'T', status: '审核通过' }, sms: false }))).toMatchObject({
      sms: 0,
      email: 1,
    });
    await setNotify(false, false);
  });

  it('a template without a channel, or disabled, sends nothing on it', async () => {
    const a = await signIn(t, { realm: 'USER' });
    const res = await put('REREVIEW_INVITED', { ...(await eventBody('REREVIEW_INVITED')), channels: ['EMAIL'] });
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    const result = await db().transaction((tx) => notifyEvent(tx, { code: 'REREVIEW_INVITED', accountIds: [a.accountId], vars: { projectName: 'P', round: '初赛', reason: 'r' }, email: true }));
    expect(result).toMatchObject({ messageId: null, email: 1, sms: 0 });
    await api(t, 'PUT', `${BASE}/REREVIEW_INVITED/enabled`, { headers: editor.headers, body: { enabled: false } });
    const none = await db().transaction((tx) => notifyEvent(tx, { code: 'REREVIEW_INVITED', accountIds: [a.accountId], vars: {}, email: true, sms: true }));
    expect(none).toMatchObject({ messageId: null, email: 0, sms: 0 });
    expect(await db().select().from(noticeOutbox).where(and(eq(noticeOutbox.accountId, a.accountId), eq(noticeOutbox.channel, 'EMAIL')))).toHaveLength(1);
  });
});
