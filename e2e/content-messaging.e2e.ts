import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { expectNoSeriousA11y } from './support/axe.js';
import { openBrowser, type Browser } from './support/browser.js';
import { submitLogin } from './support/login.js';
import { startPortal, type Portal } from './support/portal.js';
import { apiClient, choose, collectErrors, dialogsStill, item, openDialog, ownPassword, passSlider, row, staffLogin, tableSettled, toast } from './support/ui.js';
import { png } from './support/png.js';

/**
 * Content and messaging end to end (docs/rules/content.md), in Chromium against the built portal with its demo
 * data. An operator holding the news, SMS, in-site message and feedback pages writes an article in
 * 新闻资讯 with a picture uploaded through the editor, keeps it as a draft (not public, but the
 * preview shows it), publishes it (the public list and detail show it at once, the picture
 * loads); sends an in-site message to the teams whose sign-up was returned (demo3 in the demo
 * data), whose participant reads it (the unread badge drops, the console counts the read); sends
 * an SMS to two chosen accounts (one record per phone, masked, with the log provider's answer,
 * matching its outbox file); answers a participant's feedback (the participant sees the reply and
 * the notice). axe-core checks each screen; a 390 px window fits the console and the inbox.
 */
let portal: Portal;
let files: string;
let api: ReturnType<typeof apiClient>;
let superToken = '';

const SUPER = { username: 'admin', password: 'Admin@2025' };
const PARTICIPANT = { username: 'demo3', password: 'Demo@2025' };
const RUN = Math.random().toString(36).slice(2, 7).toUpperCase();
const OPS_ROLE = {
  code: `CONTENT_OPS_${RUN}`,
  name: '内容运营',
  menuCodes: ['home', 'siteContentManagement', 'NoteManage', 'InMailManage', 'UserFeedback'],
  buttonCodes: ['news:edit', 'news:publish', 'message:send', 'sms:send', 'feedback:reply', 'file:read'],
};
const OPERATOR = { username: `content${RUN.toLowerCase()}`, name: '内容运营一号', password: '' };
const ARTICLE = { title: `大赛动态测试稿${RUN}`, text: `决赛日程已确定，敬请关注${RUN}。` };
const INSITE = { title: `材料修改提醒${RUN}`, body: `请按审核意见修改报名材料后重新提交。${RUN}` };
const SMS_TEXT = `{name}您好，大赛门户有新通知，请登录查看。${RUN}`;
const FEEDBACK = { content: `上传申报书时进度条停在九成${RUN}`, reply: `已修复，请重新上传。${RUN}` };

interface AccountOption {
  id: string;
  username: string;
  name: string | null;
  phone: string | null;
}

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
  files = mkdtempSync(join(tmpdir(), 'contest-content-files-'));
  writeFileSync(join(files, '决赛现场.png'), png(160, 90));
  // The super admin works through the API only: the operator is the one in the browser.
  ({ accessToken: superToken } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, SUPER));
  const role = await api.ok<{ id: string }>('POST', '/admin/role', superToken, OPS_ROLE);
  ({ password: OPERATOR.password } = await api.ok<{ password: string }>('POST', '/admin/system/account', superToken, {
    username: OPERATOR.username,
    name: OPERATOR.name,
    roleIds: [role.id],
  }));
  // A generated password is changed at the first login (docs/security.md): done once here.
  OPERATOR.password = await ownPassword(portal.url, 'admin', OPERATOR.username, OPERATOR.password);
});

afterAll(async () => {
  await portal?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** The unread count on the participant's 我的消息 entry (the badge shows nothing at 0). */
async function unreadBadge(page: Page): Promise<number> {
  return page.evaluate(() => {
    const sup = document.querySelector('[data-testid="message-badge"] sup, .participant-layout__menu-label sup');
    return sup ? Number(sup.getAttribute('title') ?? sup.textContent ?? '0') : 0;
  });
}

/** Picks an option in an antd Select (found by any locator); `search` types first. */
async function pick(page: Page, select: Locator, option: string | RegExp, search?: string): Promise<void> {
  await select.click();
  const id = await select.locator('input').first().getAttribute('id');
  const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').filter({ has: page.locator(`[id="${id}_list"]`) });
  await dropdown.waitFor();
  if (search) await page.keyboard.type(search);
  await dropdown.locator('.ant-select-item-option').filter({ hasText: option }).first().click();
}

/** True when the page scrolls sideways (something wider than the window). */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

describe('content and messaging: news, in-site messages, SMS, feedback', () => {
  let op: Browser;
  let user: Browser;
  let opErrors: string[] = [];
  let userErrors: string[] = [];
  let newsId = '';

  afterAll(async () => {
    for (const b of [op, user]) await b?.close();
  });

  afterEach(async (ctx) => {
    const result = ctx.task.result;
    if (result?.state !== 'fail' && !result?.errors?.length) return;
    for (const [name, b] of [['operator', op], ['participant', user]] as const) {
      if (!b) continue;
      const path = await b.screenshot(`content-failed-${name}`).catch(() => 'none');
      console.error(`[${ctx.task.name}] ${name} at ${b.page.url()}: ${path}`);
    }
  });

  it('news: a draft with an uploaded picture stays private (the preview shows it), then publishing shows it at once', async () => {
    op = await openBrowser({ width: 1440, height: 900 });
    opErrors = collectErrors(op.page);
    const page = op.page;
    await staffLogin(page, portal.url, 'admin', OPERATOR.username, OPERATOR.password);
    await page.goto(`${portal.url}/admin/user/siteContentManagement`);
    const list = page.getByTestId('news-list-page');
    await tableSettled(list);
    await list.locator('tr.ant-table-row').first().waitFor();
    await expectNoSeriousA11y(page, { screen: '新闻资讯 list' });

    await list.getByTestId('news-create').click();
    await page.waitForURL('**/admin/user/siteContentManagement-edit');
    const form = page.getByTestId('news-edit-page');
    await item(form, '标题').locator('input').fill(ARTICLE.title);
    await choose(page, form, '类别', '大赛动态');
    const body = item(form, '正文');
    const editable = body.getByRole('textbox', { name: '正文', exact: true });
    await editable.click();
    await page.keyboard.type(ARTICLE.text);
    await page.keyboard.press('Enter');
    // The editor's own image control: its button opens the file chooser.
    const chooser = page.waitForEvent('filechooser');
    await body.getByTestId('editor-image').click();
    await (await chooser).setFiles(join(files, '决赛现场.png'));
    const inserted = editable.locator('img[src^="/api/attachment/stream/"]');
    await inserted.waitFor();
    expect(await inserted.getAttribute('src')).toMatch(/^\/api\/attachment\/stream\/[A-Za-z0-9_-]+\?preview=1$/);
    await expectNoSeriousA11y(page, { screen: '新闻资讯 editor' });

    await form.getByTestId('news-save').click();
    await toast(page, '新增成功').waitFor();
    await page.waitForURL(/siteContentManagement-edit\/[^/]+$/);
    newsId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    await form.getByText('草稿').first().waitFor();

    // Not public: the list of its category does not show it.
    const publicPage = await op.context.newPage();
    await publicPage.goto(`${portal.url}/contest-dynamic`);
    const publicList = publicPage.getByTestId('news-list-CONTEST_DYNAMIC');
    await publicList.locator('[data-testid="news-row"], .site-empty').first().waitFor();
    expect(await publicList.getByTestId('news-row').filter({ hasText: ARTICLE.title }).count()).toBe(0);
    expect((await api.call('GET', `/news/${newsId}`, null)).status).toBe(404);
    // A tab in the background gets no animation frames: antd's dialogs and dropdowns would not
    // finish opening there. The console's tab comes back to the front before it is used again.
    await page.bringToFront();

    // The preview (a new tab of the signed-in operator) shows the draft with its picture.
    const [preview] = await Promise.all([op.context.waitForEvent('page'), form.getByTestId('news-preview').click()]);
    await preview.getByTestId('news-article').getByText(ARTICLE.title).waitFor();
    await preview.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="article-body"] img');
      return !!img && img.complete && img.naturalWidth === 160;
    });
    expect(await preview.getByTestId('article-body').innerText()).toContain(ARTICLE.text);
    await preview.close();
    await page.bringToFront();

    await form.getByTestId('news-publish').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await dialogsStill(page);
    await confirm.getByRole('button', { name: /确\s*认/ }).click();
    await toast(page, '发布成功').waitFor();
    await page.waitForURL('**/admin/user/siteContentManagement');
    await row(list, ARTICLE.title).getByText('已发布').waitFor();

    // At once on the public list, and the detail page draws the picture.
    await publicPage.bringToFront();
    await publicPage.reload();
    const published = publicList.getByTestId('news-row').filter({ hasText: ARTICLE.title });
    await published.waitFor();
    await published.getByRole('link').click();
    await publicPage.waitForURL(`**/dynamic-detail?id=${newsId}`);
    await publicPage.getByTestId('news-article').getByText(ARTICLE.title).waitFor();
    await publicPage.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="article-body"] img');
      return !!img && img.complete && img.naturalWidth > 0;
    });
    await expectNoSeriousA11y(publicPage, { screen: 'public news detail' });
    await publicPage.close();
    await page.bringToFront();
    expect(opErrors).toEqual([]);
  });

  it('in-site message to the teams whose sign-up was returned: sent, read by the participant, counted in the console', async () => {
    const page = op.page;
    // The demo data returns demo3's sign-up (REVISING); the preview must count what the server counts.
    const segment = { kind: 'TEAM_STATUS', values: ['REVISING'] };
    const expected = await api.ok<{ total: number; samples: { username: string }[] }>('POST', '/admin/broadcast/insite/preview', superToken, { segment, title: 'x', body: 'x' });
    expect(expected.samples.map((s) => s.username)).toContain(PARTICIPANT.username);

    await page.goto(`${portal.url}/admin/information/InMailManage`);
    const screen = page.getByTestId('inmail-page');
    await tableSettled(screen);
    await expectNoSeriousA11y(page, { screen: '站内信管理' });
    await screen.getByTestId('compose-open').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('compose-form').waitFor();
    await dialogsStill(page);
    await pick(page, dialog.getByTestId('segment-kind'), '按报名状态');
    await pick(page, dialog.getByTestId('segment-values'), '退回修改');
    await page.keyboard.press('Escape');
    await item(dialog, '标题').locator('input').fill(INSITE.title);
    await item(dialog, '内容').locator('textarea').fill(INSITE.body);
    await dialog.getByTestId('compose-preview').click();
    await dialog.getByTestId('preview-total').filter({ hasText: `符合条件的参赛者 ${expected.total} 人` }).waitFor();
    await dialog.getByTestId('compose-send').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText(`确定向 ${expected.total} 位参赛者发送站内信「${INSITE.title}」吗？`).waitFor();
    await dialogsStill(page);
    await confirm.getByRole('button', { name: /发\s*送/ }).click();
    // The list polls while the job runs: DONE, delivered to everyone, read by nobody yet.
    const batch = row(screen, INSITE.title);
    await batch.getByTestId('batch-status').filter({ hasText: /^已完成$/ }).waitFor({ timeout: 20_000 });
    expect(await batch.getByTestId('batch-read').innerText()).toBe('0（0%）');

    // The participant signs in: the badge counts the message, opening it lowers the count.
    user = await openBrowser();
    userErrors = collectErrors(user.page);
    const upage = user.page;
    await upage.goto(portal.url);
    await upage.getByRole('button', { name: '登 录' }).or(upage.getByRole('button', { name: '登录' })).first().click();
    const modal = upage.getByTestId('auth-modal');
    await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(PARTICIPANT.username);
    await modal.getByPlaceholder('请输入密码', { exact: true }).fill(PARTICIPANT.password);
    await submitLogin(upage, modal);
    await passSlider(upage, '**/my-sign');
    await upage.locator('[data-testid="message-badge"] sup').waitFor();
    const before = await unreadBadge(upage);
    expect(before).toBeGreaterThanOrEqual(1);

    await upage.getByRole('menuitem', { name: /我的消息/ }).click();
    await upage.waitForURL('**/my-message');
    const message = upage.getByTestId('message-row').filter({ hasText: INSITE.title });
    await message.waitFor();
    expect(await message.getAttribute('data-read')).toBe('false');
    await expectNoSeriousA11y(upage, { screen: 'participant inbox' });
    await message.click();
    const opened = upage.locator('.ant-modal').filter({ hasText: INSITE.title });
    await opened.getByTestId('message-body').getByText(INSITE.body).waitFor();
    await expectNoSeriousA11y(upage, { screen: 'participant inbox message' });
    await upage.keyboard.press('Escape');
    await expect.poll(() => unreadBadge(upage)).toBe(before - 1);
    await expect.poll(() => message.getAttribute('data-read')).toBe('true');

    await page.reload();
    await expect.poll(() => row(screen, INSITE.title).getByTestId('batch-read').innerText()).toBe(`1（${Math.round(100 / expected.total)}%）`);
    expect(opErrors).toEqual([]);
    expect(userErrors).toEqual([]);
  });

  it('SMS to two chosen accounts: one record per phone, masked, with the provider’s answer, as in the outbox', async () => {
    const page = op.page;
    const found = async (username: string) =>
      (await api.ok<{ list: AccountOption[] }>('GET', `/admin/broadcast/accounts?keyword=${username}&size=20`, superToken)).list.find((a) => a.username === username)!;
    const chosen = [await found('demo1'), await found('demo2')];

    await page.goto(`${portal.url}/admin/information/NoteManage`);
    const screen = page.getByTestId('note-page');
    await tableSettled(screen);
    await screen.getByTestId('compose-open').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('compose-form').waitFor();
    await dialogsStill(page);
    await pick(page, dialog.getByTestId('segment-kind'), '指定用户');
    const accounts = dialog.getByTestId('segment-accounts');
    for (const account of chosen) await pick(page, accounts, `（${account.username}）`, account.username);
    await page.keyboard.press('Escape');
    await item(dialog, '短信内容').locator('textarea').fill(SMS_TEXT);
    await dialog.getByTestId('compose-preview').click();
    const result = dialog.getByTestId('compose-preview-result');
    await result.getByText('其中有手机号的 2 人将收到短信').waitFor();
    // Samples come in account id order: each recipient's name filled into the text.
    const samples = await result.getByTestId('preview-sample').allInnerTexts();
    expect(samples).toHaveLength(2);
    for (const account of chosen) expect(samples.filter((s) => s.includes(`${account.name}您好`) && s.includes(account.phone!))).toHaveLength(1);
    await dialog.getByTestId('compose-send').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.getByText('确定向 2 个手机号发送短信吗？短信发出后无法撤回。').waitFor();
    await dialogsStill(page);
    await confirm.getByRole('button', { name: /发\s*送/ }).click();

    const batch = row(screen, RUN);
    await batch.getByTestId('batch-status').filter({ hasText: /^已完成$/ }).waitFor({ timeout: 20_000 });
    await batch.getByTestId('batch-open').click();
    const drawer = page.getByRole('dialog').filter({ has: page.getByTestId('records-table') });
    const records = drawer.getByTestId('records-table').locator('tr.ant-table-row');
    // The drawer polls while the outbox sends.
    await expect.poll(async () => (await records.allInnerTexts()).filter((r) => r.includes('发送成功')).length, { timeout: 20_000 }).toBe(2);
    await expectNoSeriousA11y(page, { screen: '短信管理 records drawer' });

    // What the log provider wrote: one line per phone, the name filled in.
    const outbox = join(portal.dataDir, 'sms-outbox.jsonl');
    expect(existsSync(outbox)).toBe(true);
    const lines = readFileSync(outbox, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { phone: string; text: string })
      .filter((l) => l.text.includes(RUN));
    expect(lines).toHaveLength(2);
    expect(new Set(lines.map((l) => l.phone)).size).toBe(2);
    for (const account of chosen) {
      const line = lines.find((l) => l.text.includes(`${account.name}您好`))!;
      expect(line, `outbox line for ${account.username}`).toBeTruthy();
      expect(line.phone).toMatch(/^1\d{10}$/);
      const masked = `${line.phone.slice(0, 3)}****${line.phone.slice(-4)}`;
      expect(account.phone).toBe(masked);
      const record = records.filter({ hasText: account.username });
      const cells = await record.locator('td').allInnerTexts();
      expect(cells).toContain(masked);
      expect(cells).toContain('发送成功');
      expect(cells).toContain('log: accepted');
      expect(cells.join(' ')).not.toContain(line.phone);
    }
    await page.keyboard.press('Escape');
    expect(opErrors).toEqual([]);
  });

  it('feedback: the participant writes, the operator filters and replies, the participant reads the reply and the notice', async () => {
    const upage = user.page;
    await upage.goto(`${portal.url}/my-message?tab=feedback`);
    const desk = upage.getByTestId('feedback');
    const types = await api.ok<Record<string, { code: string; name: string }[]>>('GET', '/dic/module?module=FEEDBACK', null);
    const type = Object.values(types).flat()[0]!;
    await choose(upage, desk, '反馈类型', type.name);
    await item(desk, '反馈内容').locator('textarea').fill(FEEDBACK.content);
    await item(desk, '联系方式').locator('input').fill('13800000003');
    await desk.getByRole('button', { name: /提\s*交\s*反\s*馈/ }).click();
    await toast(upage, '反馈已提交').waitFor();
    const card = desk.getByTestId('feedback-row').filter({ hasText: FEEDBACK.content });
    await card.getByText('待回复').waitFor();
    const before = await unreadBadge(upage);

    const page = op.page;
    await page.goto(`${portal.url}/admin/information/UserFeedback`);
    const screen = page.getByTestId('user-feedback-page');
    await tableSettled(screen);
    const search = screen.getByTestId('kit-search-form').first();
    await item(search, '关键字').locator('input').fill(RUN);
    await choose(page, search, '状态', '待回复');
    await search.getByRole('button', { name: /查\s*询/ }).click();
    await page.waitForURL((url) => url.searchParams.get('keyword') === RUN);
    await tableSettled(screen);
    await expect.poll(() => screen.locator('tr.ant-table-row').count()).toBe(1);
    await row(screen, FEEDBACK.content.slice(0, 10)).getByTestId('feedback-view').click();
    const detail = page.getByTestId('feedback-detail');
    await detail.getByTestId('feedback-content').filter({ hasText: FEEDBACK.content }).waitFor();
    await expectNoSeriousA11y(page, { screen: '用户反馈 detail' });
    await item(detail, '回复内容').locator('textarea').fill(FEEDBACK.reply);
    await detail.getByTestId('feedback-reply-submit').click();
    await toast(page, '回复成功').waitFor();
    await detail.waitFor({ state: 'detached' });

    await upage.reload();
    await card.getByTestId('feedback-reply').getByText(FEEDBACK.reply).waitFor();
    await card.getByText('已回复').waitFor();
    await expect.poll(() => unreadBadge(upage)).toBe(before + 1);
    await upage.getByRole('tab', { name: '站内消息' }).click();
    await upage.getByTestId('message-row').filter({ hasText: '您的反馈已回复' }).first().waitFor();
    expect(opErrors).toEqual([]);
    expect(userErrors).toEqual([]);
  });

  it('390 px: the console’s 用户反馈 and the participant inbox fit without sideways scrolling', async () => {
    const page = op.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${portal.url}/admin/information/UserFeedback`);
    const screen = page.getByTestId('user-feedback-page');
    await screen.locator('tr.ant-table-row').first().waitFor();
    await tableSettled(screen);
    expect(await scrollsSideways(page)).toBe(false);
    await op.screenshot('content-feedback-390');

    const upage = user.page;
    await upage.setViewportSize({ width: 390, height: 844 });
    await upage.goto(`${portal.url}/my-message`);
    await upage.getByTestId('message-row').first().waitFor();
    expect(await scrollsSideways(upage)).toBe(false);
    await user.screenshot('content-inbox-390');
    expect(opErrors).toEqual([]);
    expect(userErrors).toEqual([]);
  });
});
