import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { solveSlider } from './support/slider.js';
import { submitLogin } from './support/login.js';
import { pdfWithText } from './support/pdf.js';
import { card, choose, clickInHoverMenu, item } from './support/ui.js';

/**
 * The participant's journey in Chromium against the built portal: the sign-up filled over two
 * sessions (the draft is kept), attachments uploaded, submitted, the detail shown and the form
 * closed; an approval made through the admin API; then the preliminary materials with the
 * application's counted characters. demo5 has no team in the demo data.
 */
let portal: Portal;
let files: string;

const USER = { username: 'demo5', password: 'Demo@2025' };
const VALID_CREDIT_CODE = '91350100M000100Y43';
// The server counts Latin letters and CJK characters: these words hold 40 letters.
const PDF_TEXT = 'Smart medical insurance fund supervision';
const PDF_CHARS = PDF_TEXT.replace(/[^A-Za-z]/g, '').length;

// A 1x1 PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  portal = await startPortal();
  files = mkdtempSync(join(tmpdir(), 'contest-journey-files-'));
  writeFileSync(join(files, '营业执照.png'), PNG);
  writeFileSync(join(files, '承诺书.pdf'), pdfWithText('Commitment letter signed'));
  writeFileSync(join(files, '申报书.pdf'), pdfWithText(PDF_TEXT));
  writeFileSync(join(files, '演示文稿.pdf'), pdfWithText('Presentation'));
});

afterAll(async () => {
  await portal?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

async function login(page: Page, username = USER.username): Promise<void> {
  await page.goto(portal.url);
  await page.getByRole('button', { name: '登 录' }).or(page.getByRole('button', { name: '登录' })).first().click();
  const modal = page.getByTestId('auth-modal');
  await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(username);
  await modal.getByPlaceholder('请输入密码', { exact: true }).fill(USER.password);
  await submitLogin(page, modal);
  await solveSlider(page);
  await page.waitForURL('**/my-sign');
}

async function logout(page: Page): Promise<void> {
  // Opens on hover (a click would toggle it shut again).
  await clickInHoverMenu(page, page.getByTestId('account-menu'), page.getByRole('menuitem', { name: '退出登录' }), (url) => url.pathname === '/');
}

async function upload(scope: Locator, label: string, file: string): Promise<void> {
  const formItem = item(scope, label);
  await formItem.getByTestId('upload-input').setInputFiles(join(files, file));
  await formItem.locator('[data-status="ok"]').first().waitFor({ timeout: 30_000 });
}

/**
 * Confirms the submit dialog and waits for the detail page. Should the submission be refused, the
 * failure names the toast's text instead of timing out on the URL (seen once in CI, under load).
 */
async function confirmSubmit(page: Page, detailUrl: string): Promise<void> {
  const confirm = page.locator('.ant-modal-confirm');
  await confirm.getByRole('button', { name: /确\s*认/ }).click();
  // A refusal shows as a toast or above the form (form-refusal).
  const refused = page.locator('.ant-message-error, .ant-message-warning, [data-testid="form-refusal"]').first();
  const outcome = await Promise.race([
    page.waitForURL(detailUrl, { timeout: 60_000 }).then(() => 'navigated' as const),
    refused.waitFor({ timeout: 60_000 }).then(() => 'refused' as const),
  ]).catch(() => 'timeout' as const);
  if (outcome === 'refused') throw new Error(`the submission was refused: ${await refused.innerText()}`);
  if (outcome === 'timeout') {
    // Say where the page stood (seen once with two journeys at once): its address, and a screenshot.
    await page.screenshot({ path: fileURLToPath(new URL('./artifacts/participant-submit-timeout.png', import.meta.url)), fullPage: true }).catch(() => undefined);
    const modal = await page.locator('.ant-modal-confirm').count();
    throw new Error(`no detail page after 60 s: at ${page.url()}, confirm dialogs open: ${modal}; the portal said:\n${portal.output().slice(-4000)}`);
  }
}

async function api<T>(method: string, path: string, token: string, body?: unknown): Promise<T> {
  const res = await fetch(`${portal.url}/api${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await res.json()) as { status: number; message: string; data: T };
  if (envelope.status !== 200) throw new Error(`${method} ${path}: ${envelope.status} ${envelope.message}`);
  return envelope.data;
}

describe('participant journey: sign-up, approval, preliminary materials', () => {
  let b: Browser;
  let errors: string[];
  afterAll(async () => b?.close());

  it('starts a sign-up and keeps the draft for the next session', async () => {
    b = await openBrowser();
    errors = watchErrors(b.page);
    await login(b.page);
    await b.page.getByTestId('sign-form').waitFor();
    await item(b.page, '单位名称').locator('input').fill('福州数字医保研究院');
    await choose(b.page, b.page, '单位类型', '企业');
    await item(b.page, '团队名称').locator('input').fill('智审先锋');
    await b.page.getByTestId('save-draft').click();
    await b.page.getByText('暂存成功').first().waitFor();
    await logout(b.page);

    await login(b.page);
    await b.page.getByTestId('sign-form').waitFor();
    expect(await item(b.page, '单位名称').locator('input').inputValue()).toBe('福州数字医保研究院');
    expect(await item(b.page, '团队名称').locator('input').inputValue()).toBe('智审先锋');
  });

  it('checks the form, uploads the attachments and submits', async () => {
    const page = b.page;
    await page.getByTestId('submit').click();
    await page.getByText('请输入统一社会信用代码').waitFor();
    await item(page, '统一社会信用代码').locator('input').fill('91350100M000100Y44');
    await page.getByText('统一社会信用代码不正确，请核对').waitFor();
    await item(page, '统一社会信用代码').locator('input').fill(VALID_CREDIT_CODE);
    await choose(page, page, '所在省份', '福建省', true);
    await item(page, '所在城市').locator('input').fill('福州');
    await choose(page, page, '参赛方向', '智能监管与基金安全');

    const leader = card(page, '团队负责人');
    await item(leader, '姓名').locator('input').fill('张三');
    await item(leader, '手机号').locator('input').fill('13900000005');
    await item(leader, '邮箱').locator('input').fill('zhang@example.com');
    await choose(page, leader, '职称', '正高级');

    const member = page.getByTestId('member-row').first();
    await item(member, '姓名').locator('input').fill('李四');
    await item(member, '所在单位').locator('input').fill('福州数字医保研究院');
    await choose(page, member, '职称', '中级');
    await choose(page, member, '团队角色', '研发');

    const filesCard = card(page, '附件材料');
    expect(await filesCard.getByTestId('commitment-template').getAttribute('href')).toContain('/api/template/public?code=');
    await upload(filesCard, '单位证明材料', '营业执照.png');
    await upload(filesCard, '参赛承诺书（签字盖章）', '承诺书.pdf');
    await b.screenshot('journey-sign-form-zh');

    await page.getByTestId('submit').click();
    await confirmSubmit(page, '**/my-sign/detail');
    await page.getByTestId('sign-detail').waitFor();
    expect(await page.getByTestId('contest-status').innerText()).toBe('已提交');
    expect(await page.getByTestId('attachment-row').count()).toBe(2);
    expect(await page.getByTestId('status-history').innerText()).toContain('已提交');
    await b.screenshot('journey-sign-detail-zh');

    // The form is closed once submitted.
    await page.goto(`${portal.url}/my-sign`);
    await page.waitForURL('**/my-sign/detail');
  });

  it('submits the preliminary materials once approved and shows the counted characters', async () => {
    const page = b.page;
    await page.goto(`${portal.url}/material-submission`);
    await page.getByTestId('materials-closed').waitFor();

    const userToken = (await page.evaluate(() => localStorage.getItem('AccessToken')))!;
    const team = await api<{ id: string }>('GET', '/team/my', userToken);
    const admin = await fetch(`${portal.url}/api/admin/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin', password: 'Admin@2025' }),
    });
    const adminToken = ((await admin.json()) as { data: { accessToken: string } }).data.accessToken;
    await api('POST', `/admin/team/${team.id}/audit`, adminToken, { outcome: 'APPROVED', reason: '' });

    await page.reload();
    await page.getByTestId('materials-form').waitFor();
    await item(page, '项目名称').locator('input').fill('医保基金智能审核');
    await item(page, '项目简介').locator('textarea').fill('基于规则与模型的医保基金智能审核系统。');
    const keywords = item(page, '关键词').locator('input');
    await keywords.fill('智能审核');
    await keywords.press('Enter');
    const filesCard = card(page, '材料文件');
    await upload(filesCard, '申报书（PDF）', '申报书.pdf');
    // Counted in the browser right after the upload...
    await page.getByTestId('application-chars').filter({ hasText: `${PDF_CHARS}` }).waitFor({ timeout: 30_000 });
    await upload(filesCard, '演示文稿（PDF/PPT/PPTX）', '演示文稿.pdf');
    await page.getByTestId('save-draft').click();
    await page.getByText('暂存成功').first().waitFor();
    // ...and by the server once saved.
    await page.getByTestId('application-chars').filter({ hasText: `申报书字数：${PDF_CHARS}` }).waitFor();
    await b.screenshot('journey-materials-form-zh');

    await page.getByTestId('submit').click();
    await confirmSubmit(page, '**/material-submission/detail');
    expect(await page.getByTestId('application-chars').innerText()).toBe(`申报书字数：${PDF_CHARS}`);
    expect(await page.getByTestId('contest-status').innerText()).toBe('已提交');
    await b.screenshot('journey-materials-detail-zh');
    expect(errors).toEqual([]);
  });

  it('reads a message: the unread badge drops, and the data page opens for the approved team', async () => {
    const page = b.page;
    await page.goto(`${portal.url}/my-message`);
    const badge = page.getByTestId('message-badge');
    const unreadCount = async () => Number((await badge.locator('.ant-scroll-number').getAttribute('title')) ?? '0');
    // The welcome message of the demo data and the approval notice at least.
    await page.locator('[data-testid="message-row"][data-read="false"]').first().waitFor();
    const before = await unreadCount();
    expect(before).toBeGreaterThanOrEqual(2);
    const rows = page.locator('[data-testid="message-row"][data-read="false"]');
    expect(await rows.count()).toBe(before);
    await b.screenshot('journey-inbox-zh');
    await rows.filter({ hasText: '审核' }).first().click();
    await page.getByTestId('message-body').waitFor();
    await b.screenshot('journey-message-open-zh');
    await page.keyboard.press('Escape');
    await page.waitForFunction(
      (n) => Number(document.querySelector('[data-testid="message-badge"] .ant-scroll-number')?.getAttribute('title') ?? '0') === n,
      before - 1,
    );
    expect(await page.locator('[data-testid="message-row"][data-read="false"]').count()).toBe(before - 1);

    // The data page takes its title from the user info (dataDocMenuName) and lists the documents.
    await page.getByTestId('participant-nav').getByRole('menuitem').nth(3).click();
    await page.waitForURL('**/module');
    const title = await page.getByTestId('module-title').innerText();
    expect(title.length).toBeGreaterThan(0);
    expect(await page.title()).toContain(title);
    await page.getByTestId('data-doc').first().waitFor();
    await b.screenshot('journey-module-zh');
    expect(errors).toEqual([]);
  });

  it('reads well on a narrow window and in English', async () => {
    const page = b.page;
    await page.setViewportSize({ width: 375, height: 760 });
    await page.goto(`${portal.url}/my-sign/detail`);
    await page.getByTestId('sign-detail').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await b.screenshot('journey-sign-detail-narrow-zh');
    await page.goto(`${portal.url}/material-submission/detail?lang=en`);
    await page.getByTestId('materials-detail').waitFor();
    expect(await page.getByTestId('contest-status').innerText()).toBe('Submitted');
    await b.screenshot('journey-materials-detail-narrow-en');
    await page.setViewportSize({ width: 1366, height: 860 });
    await page.goto(`${portal.url}/my-sign/detail?lang=en`);
    await page.getByTestId('sign-detail').waitFor();
    await b.screenshot('journey-sign-detail-en');
    expect(errors).toEqual([]);
  });

  it('shows the form of a draft team (demo4) on a narrow window', async () => {
    const narrow = await openBrowser();
    try {
      const narrowErrors = watchErrors(narrow.page);
      // Logged in wide: the narrow gateway header tucks the login button into its menu.
      await login(narrow.page, 'demo4');
      await narrow.page.setViewportSize({ width: 375, height: 760 });
      await narrow.page.getByTestId('sign-form').waitFor();
      expect(await narrow.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
      await narrow.screenshot('journey-sign-form-narrow-zh');
      await narrow.page.goto(`${portal.url}/my-sign?lang=en`);
      await narrow.page.getByTestId('sign-form').waitFor();
      await narrow.screenshot('journey-sign-form-narrow-en');
      expect(narrowErrors).toEqual([]);
    } finally {
      await narrow.close();
    }
  });
});
