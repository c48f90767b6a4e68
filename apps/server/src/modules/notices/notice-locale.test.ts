import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATE_MSG, unknownVariablesMessage, type InboxMessage, type MessageTemplateItem, type Page } from '@contest/shared';
import { accounts, noticeOutbox, teams } from '../../db/schema.js';
import { deliverMessage } from '../messages/deliver.js';
import type { Reply } from '../../../test/admin-helpers.js';
import { api, setSetting, withContest } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { startSmtpSink, type SmtpSink } from '../../../test/smtp-sink.js';
import { notifyEvent } from './notify.js';

/**
 * Notices in the recipient's language (docs/decisions.md, "English"): SMS and email rendered in
 * the account's locale when queued, in-site notices stored with their event and variables and
 * rendered in English when read, from the template as it is now.
 */

let t: TestApp;
let sink: SmtpSink;
let admin: SignedIn;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), SMTP_SECURE: 'false', SMTP_FROM: '智慧医保大赛 <noreply@contest.test>' });
  await withContest(t);
  admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN', name: '语言管理员' });
  await setSetting(t, 'notify.sms', true);
  await setSetting(t, 'notify.email', true);
}, 60_000);
afterAll(async () => {
  await t?.close();
  await sink?.close();
});

const db = () => t.database.db;
const SIGN_EN = '[Smart Medical-Insurance Competition] ';

const ok = async <T,>(res: Promise<Reply<T>>): Promise<Reply<T>> => {
  const r = await res;
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
  return r;
};

/** A participant in `locale` (set through the call the web makes on a language switch) whose sign-up waits for the audit. */
async function participant(locale: 'zh-CN' | 'en'): Promise<{ user: SignedIn; teamId: string; teamName: string; email: string }> {
  const user = await signIn(t, { realm: 'USER' });
  if (locale === 'en') await ok(api(t, 'PUT', '/api/user/locale', { headers: user.headers, body: { locale } }));
  const teamName = `语言队${user.username.slice(-4)}`;
  const [team] = await db()
    .insert(teams)
    .values({ ownerId: user.accountId, status: 'SUBMITTED', teamName, orgName: '示例医院', track: 'SMART_SUPERVISION', submittedAt: new Date() })
    .returning({ id: teams.id });
  const [row] = await db().select({ email: accounts.email }).from(accounts).where(eq(accounts.id, user.accountId));
  return { user, teamId: team!.id, teamName, email: row!.email! };
}

const approve = (teamId: string) => ok(api(t, 'POST', `/api/admin/team/${teamId}/audit`, { headers: admin.headers, body: { outcome: 'APPROVED' } }));
const outbox = async (accountId: string, channel: 'SMS' | 'EMAIL') =>
  db()
    .select({ text: noticeOutbox.text, subject: noticeOutbox.subject, params: noticeOutbox.params, templateKey: noticeOutbox.templateKey })
    .from(noticeOutbox)
    .where(and(eq(noticeOutbox.accountId, accountId), eq(noticeOutbox.channel, channel)))
    .orderBy(noticeOutbox.createdAt);
const inbox = async (who: SignedIn) => (await ok(api<Page<InboxMessage>>(t, 'GET', '/api/messages', { headers: who.headers }))).body.data.list;
/** The mails the sink received for `address` once `n` have arrived. */
async function mailsTo(address: string, n: number) {
  const deadline = Date.now() + 5_000;
  while (sink.mails.filter((m) => m.to.includes(address)).length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  return sink.mails.filter((m) => m.to.includes(address));
}
const template = async (code: string) => (await ok(api<MessageTemplateItem>(t, 'GET', `/api/admin/templates/${code}`, { headers: admin.headers }))).body.data;
const saveTemplate = (item: MessageTemplateItem, patch: Record<string, unknown>) =>
  api<MessageTemplateItem>(t, 'PUT', `/api/admin/templates/${item.key}`, {
    headers: admin.headers,
    body: {
      name: item.name,
      channels: item.channels,
      subject: item.subject,
      body: item.body,
      smsText: item.smsText,
      subjectEn: item.subjectEn,
      bodyEn: item.bodyEn,
      smsTextEn: item.smsTextEn,
      smsTemplateId: item.smsTemplateId,
      version: item.version,
      ...patch,
    },
  });

describe('sign-up approved in the recipient language', () => {
  it('an English participant gets English SMS, email and inbox text; a Chinese one the spec Chinese unchanged', async () => {
    const en = await participant('en');
    const zh = await participant('zh-CN');
    await approve(en.teamId);
    await approve(zh.teamId);

    const enBody = `The sign-up of your team "${en.teamName}" has been approved. Please submit your preliminary-round materials within the submission period.`;
    expect(await outbox(en.user.accountId, 'SMS')).toEqual([
      // The gateway parameters stay those of its registered (Chinese) template.
      { text: `${SIGN_EN}Sign-up review result for your team "${en.teamName}": Approved.`, subject: null, params: [en.teamName, '审核通过'], templateKey: 'TEAM_AUDIT' },
    ]);
    expect(await outbox(en.user.accountId, 'EMAIL')).toEqual([{ text: enBody, subject: 'Sign-up approved', params: [], templateKey: 'TEAM_APPROVED' }]);
    expect((await mailsTo(en.email, 1)).map((m) => [m.subject, m.text.trim()])).toEqual([['Sign-up approved', enBody]]);
    const [enItem] = await inbox(en.user);
    expect(enItem).toMatchObject({ title: '报名审核通过', kind: 'SYSTEM', event: 'TEAM_APPROVED', en: { title: 'Sign-up approved', body: enBody } });

    const zhBody = `您的团队「${zh.teamName}」报名审核已通过，请在初赛材料提交时间内提交初赛材料。`;
    expect(await outbox(zh.user.accountId, 'SMS')).toEqual([
      { text: `【智慧医保大赛】您的团队「${zh.teamName}」报名审核结果：审核通过。`, subject: null, params: [zh.teamName, '审核通过'], templateKey: 'TEAM_AUDIT' },
    ]);
    expect(await outbox(zh.user.accountId, 'EMAIL')).toEqual([{ text: zhBody, subject: '报名审核通过', params: [], templateKey: 'TEAM_APPROVED' }]);
    expect((await mailsTo(zh.email, 1)).map((m) => [m.subject, m.text.trim()])).toEqual([['报名审核通过', zhBody]]);
    expect((await inbox(zh.user))[0]).toMatchObject({ title: '报名审核通过', body: zhBody });
  });
});

describe('switching the language', () => {
  it('a Chinese participant who switches to English reads the earlier notice in English; later SMS and email come in English', async () => {
    const p = await participant('zh-CN');
    await approve(p.teamId);
    expect((await outbox(p.user.accountId, 'SMS')).map((r) => r.text)).toEqual([`【智慧医保大赛】您的团队「${p.teamName}」报名审核结果：审核通过。`]);

    await ok(api(t, 'PUT', '/api/user/locale', { headers: p.user.headers, body: { locale: 'en' } }));
    // The stored notice keeps its Chinese and reads in English now (rendered when read).
    expect((await inbox(p.user))[0]).toMatchObject({ title: '报名审核通过', en: { title: 'Sign-up approved' } });

    await db().transaction((tx) => notifyEvent(tx, { code: 'FINAL_PROMOTED', accountIds: [p.user.accountId], vars: { projectName: '医保智审' } }));
    expect((await outbox(p.user.accountId, 'SMS')).map((r) => r.text)).toEqual([
      `【智慧医保大赛】您的团队「${p.teamName}」报名审核结果：审核通过。`,
      `${SIGN_EN}Congratulations! Your project "医保智审" has been promoted to the final. Please sign in to the contest website for details.`,
    ]);
    expect((await outbox(p.user.accountId, 'EMAIL')).map((r) => r.subject)).toEqual(['报名审核通过', 'Promoted to the final']);
  });
});

describe('results notices in the recipient language', () => {
  it('RESULT_PUBLISHED and RESULT_REVISED: the round, the outcome and the deadline in English; the Chinese as before', async () => {
    const en = await participant('en');
    const zh = await participant('zh-CN');
    const vars = { projectName: '医保智审', round: '初赛', result: '晋级决赛', periodEnd: '2026-12-05 18:00' };
    await db().transaction(async (tx) => {
      // As the publication sends them (results/publication.service.ts).
      await notifyEvent(tx, { code: 'RESULT_PUBLISHED', accountIds: [en.user.accountId, zh.user.accountId], vars: { ...vars, deadlineHint: '请在 2026-12-08 18:00（北京时间）前' } });
      await notifyEvent(tx, { code: 'RESULT_REVISED', accountIds: [en.user.accountId, zh.user.accountId], vars: { ...vars, result: '一等奖', reason: '复评结束' } });
    });

    const published =
      'The Preliminary Round results have been published and are open for public review until 2026-12-05 18:00 (Beijing time). Your project "医保智审": Promoted to the final. If you disagree, sign in to the contest website before 2026-12-08 18:00 (Beijing time) to file an appeal (one per round).';
    const revised =
      'The Preliminary Round results have been corrected after re-review and are open for public review until 2026-12-05 18:00 (Beijing time). Your project "医保智审": First prize. Reason for the correction: 复评结束';
    expect((await outbox(en.user.accountId, 'SMS')).map((r) => r.text)).toEqual([
      `${SIGN_EN}The Preliminary Round results are published. Your project "医保智审": Promoted to the final. Please sign in to the contest website for details.`,
      `${SIGN_EN}The Preliminary Round results have been corrected. Your project "医保智审": First prize. Please sign in to the contest website for details.`,
    ]);
    expect((await outbox(en.user.accountId, 'EMAIL')).map((r) => [r.subject, r.text])).toEqual([
      ['Preliminary Round results published', published],
      ['Preliminary Round results corrected', revised],
    ]);
    const items = await inbox(en.user);
    expect(items.map((m) => m.en).sort((a, b) => a!.title.localeCompare(b!.title))).toEqual([
      { title: 'Preliminary Round results corrected', body: revised },
      { title: 'Preliminary Round results published', body: published },
    ]);

    expect((await outbox(zh.user.accountId, 'SMS')).map((r) => r.text)).toEqual([
      '【智慧医保大赛】初赛结果已公示，您的项目「医保智审」：晋级决赛，请登录大赛官网查看。',
      '【智慧医保大赛】初赛结果已更正，您的项目「医保智审」：一等奖，请登录大赛官网查看。',
    ]);
    expect((await outbox(zh.user.accountId, 'EMAIL')).map((r) => [r.subject, r.text])).toEqual([
      ['初赛结果公示', '初赛结果已发布并进入公示期，公示期至 2026-12-05 18:00（北京时间）。您的项目「医保智审」：晋级决赛。如有异议，请在 2026-12-08 18:00（北京时间）前登录大赛官网提交申诉（每轮限一次）。'],
      ['初赛结果更正', '初赛结果经复评已发布更正版本，公示期至 2026-12-05 18:00（北京时间）。您的项目「医保智审」：一等奖。更正原因：复评结束'],
    ]);
    expect((await inbox(zh.user)).map((m) => m.title).sort()).toEqual(['初赛结果公示', '初赛结果更正']);
  });
});

describe('the English of a template, as edited in 模板管理', () => {
  it('an edited English template is what English readers get (and what their inbox shows now); emptied, they get the Chinese', async () => {
    const first = await participant('en');
    await approve(first.teamId);

    const current = await template('TEAM_APPROVED');
    expect(current).toMatchObject({ subjectEn: 'Sign-up approved', smsTextEn: `${SIGN_EN}Sign-up review result for your team "{teamName}": {status}.` });
    const edited = await ok(saveTemplate(current, { subjectEn: 'Welcome aboard, {teamName}', bodyEn: 'Team {teamName}: {status}.\nSee you in the preliminary round.', smsTextEn: 'Team {teamName}: {status}' }));
    expect(edited.body.data).toMatchObject({ subjectEn: 'Welcome aboard, {teamName}', bodyEn: 'Team {teamName}: {status}.\nSee you in the preliminary round.', smsTextEn: 'Team {teamName}: {status}' });
    try {
      const second = await participant('en');
      await approve(second.teamId);
      expect((await outbox(second.user.accountId, 'SMS')).map((r) => r.text)).toEqual([`Team ${second.teamName}: Approved`]);
      expect((await outbox(second.user.accountId, 'EMAIL')).map((r) => [r.subject, r.text])).toEqual([
        [`Welcome aboard, ${second.teamName}`, `Team ${second.teamName}: Approved.\nSee you in the preliminary round.`],
      ]);
      expect((await inbox(second.user))[0]!.en).toEqual({ title: `Welcome aboard, ${second.teamName}`, body: `Team ${second.teamName}: Approved.<br />See you in the preliminary round.` });
      // Rendered when read: the earlier notice follows the template as it is now; the Chinese stays as sent.
      expect((await inbox(first.user))[0]).toMatchObject({ title: '报名审核通过', en: { title: `Welcome aboard, ${first.teamName}` } });

      // Emptied English: English readers get the Chinese, with the variables as the Chinese has them.
      await ok(saveTemplate(await template('TEAM_APPROVED'), { subjectEn: '', bodyEn: '', smsTextEn: '' }));
      const third = await participant('en');
      await approve(third.teamId);
      expect((await outbox(third.user.accountId, 'SMS')).map((r) => r.text)).toEqual([`【智慧医保大赛】您的团队「${third.teamName}」报名审核结果：审核通过。`]);
      expect((await outbox(third.user.accountId, 'EMAIL')).map((r) => [r.subject, r.text])).toEqual([
        ['报名审核通过', `您的团队「${third.teamName}」报名审核已通过，请在初赛材料提交时间内提交初赛材料。`],
      ]);
      // With its event all the same: the web shows it as sent, not as the default it resembles.
      expect((await inbox(third.user))[0]).toMatchObject({ title: '报名审核通过', en: null, event: 'TEAM_APPROVED' });
      expect(await template('TEAM_APPROVED')).toMatchObject({ subjectEn: '', bodyEn: '', smsTextEn: '' });
    } finally {
      await ok(api(t, 'DELETE', '/api/admin/templates/TEAM_APPROVED', { headers: admin.headers }));
    }
    // Back to the defaults, the English defaults with it.
    expect(await template('TEAM_APPROVED')).toMatchObject({ version: 0, subjectEn: 'Sign-up approved' });
  });

  it('an over-long English text or an unknown variable in it is 400 with the module message, and nothing is written', async () => {
    const before = await template('TEAM_REVISING');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ subjectEn: 'x'.repeat(101) }, TEMPLATE_MSG.templateSubjectEnTooLong],
      [{ bodyEn: 'x'.repeat(2001) }, TEMPLATE_MSG.templateBodyEnTooLong],
      [{ smsTextEn: 'x'.repeat(501) }, TEMPLATE_MSG.templateSmsTextEnTooLong],
      [{ bodyEn: 'Team {teamName}: {score}' }, unknownVariablesMessage(['score'])],
      [{ subjectEn: 'About {projectName}' }, unknownVariablesMessage(['projectName'])],
    ];
    for (const [patch, message] of cases) {
      const res = await saveTemplate(before, patch);
      expect(res.statusCode, JSON.stringify(patch).slice(0, 60)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await template('TEAM_REVISING')).toEqual(before);
  });
});

describe('messages without an event', () => {
  it('a bulk or older message reads as stored, with no English', async () => {
    const reader = await participant('en');
    await db().transaction((tx) => deliverMessage(tx, { title: '系统维护通知', body: '今晚 22:00 维护', kind: 'ADMIN', accountIds: [reader.user.accountId] }));
    expect(await inbox(reader.user)).toMatchObject([{ title: '系统维护通知', body: '今晚 22:00 维护', en: null, event: null }]);
  });
});
