import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.js';
import { pdfWithText } from './support/pdf.js';
import { startPortal, type Portal } from './support/portal.js';
import { findGap, sliderVerdict } from './support/slider.js';
import { apiClient, collectErrors } from './support/ui.js';

/**
 * The four tasks of docs/security.md, "Accessibility", by keyboard alone and checked through what a
 * screen reader gets (roles, names, live regions, where focus lands): a participant signs in
 * through the slider captcha with the arrow keys, fills and submits a sign-up (selects, uploads and
 * the confirmation included); an operator signs in the same way and decides in the audit queue; an
 * expert accepts the agreement and scores a project. The mouse is never used: every action is
 * Tab/Shift+Tab, typing, arrows, Space or Enter (page.goto stands for typing an address).
 */
let portal: Portal;
let files: string;
let api: ReturnType<typeof apiClient>;
let superToken = '';
const DAY = 86_400_000;

// A 1x1 PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
  ({ accessToken: superToken } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' }));
  files = mkdtempSync(join(tmpdir(), 'contest-keyboard-files-'));
  writeFileSync(join(files, '营业执照.png'), PNG);
  writeFileSync(join(files, '承诺书.pdf'), pdfWithText('Commitment letter signed'));
});

afterAll(async () => {
  await portal?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

/** What has focus, for failure messages: role, name and text. */
const focusDescription = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    const name = el.getAttribute('aria-label') || el.getAttribute('placeholder') || el.innerText || '';
    return `${el.tagName.toLowerCase()}[role=${el.getAttribute('role') ?? ''}] "${name.trim().slice(0, 40)}"`;
  });

const isFocused = (target: Locator) => target.first().evaluate((el) => el === document.activeElement).catch(() => false);

/** Presses Tab (or Shift+Tab) until `target` has focus: it must be reachable by keyboard. */
async function tabTo(page: Page, target: Locator, what: string, { limit = 60, back = false } = {}): Promise<void> {
  // Attached, not visible: antd's radio and checkbox inputs are drawn over, not shown themselves.
  await target.first().waitFor({ state: 'attached' });
  const seen: string[] = [];
  for (let i = 0; i < limit; i++) {
    if (await isFocused(target)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    if (i < 12) seen.push(await focusDescription(page));
  }
  throw new Error(`Tab never reached ${what}; first stops: ${seen.join(' → ')}; now at ${await focusDescription(page)}`);
}

/** Types into the field `target` after reaching it by Tab (replacing what it held). */
async function typeInto(page: Page, target: Locator, what: string, text: string): Promise<void> {
  await tabTo(page, target, what);
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type(text);
}

/**
 * Picks `option` in the select `combobox` (an antd Select, reached by Tab): typing filters a
 * searchable one; otherwise the arrows walk the options. Enter takes the active option.
 */
async function pickByKeyboard(page: Page, combobox: Locator, what: string, option: string, search = false): Promise<void> {
  await tabTo(page, combobox, what);
  if (search) {
    await page.keyboard.type(option);
  } else {
    await page.keyboard.press('ArrowDown');
  }
  const listId = `${await combobox.first().getAttribute('id')}_list`;
  for (let i = 0; i < 40; i++) {
    const active = await page.evaluate((id) => {
      const input = document.activeElement as HTMLElement | null;
      const option = input?.getAttribute('aria-activedescendant');
      const own = option ? document.getElementById(option) : null;
      // antd's accessible list carries the option's label as its aria-label or text.
      return own && document.getElementById(id)?.contains(own) ? (own.getAttribute('aria-label') ?? own.textContent ?? '') : null;
    }, listId);
    if (active !== null && active.includes(option)) {
      await page.keyboard.press('Enter');
      await expect.poll(() => combobox.first().evaluate((el) => el.closest('.ant-select')?.textContent ?? '')).toContain(option);
      return;
    }
    await page.keyboard.press('ArrowDown');
  }
  throw new Error(`${what}: the arrows never reached ${option}`);
}

/** Chooses a file through the button `trigger` pressed with Enter (the browser's file dialog). */
async function uploadByKeyboard(page: Page, trigger: Locator, what: string, file: string, done: Locator): Promise<void> {
  await tabTo(page, trigger, what);
  // Right after the previous select closed, a press can come to nothing on a loaded machine (the
  // dialog never opens): a person presses again.
  for (let attempt = 1; ; attempt++) {
    const chooser = page.waitForEvent('filechooser', { timeout: 5_000 });
    await page.keyboard.press('Enter');
    try {
      await (await chooser).setFiles(join(files, file));
      break;
    } catch (error) {
      if (attempt >= 4 || !(await isFocused(trigger))) throw error;
    }
  }
  await done.waitFor({ timeout: 30_000 });
}

/**
 * Solves the slider captcha with the arrow keys, as a sighted keyboard user does: Tab to the
 * handle, Shift+→ in big steps and → in small ones to the hole, Enter. The presses are spaced
 * unevenly (the server refuses a metronome). Tries a new picture when one is refused.
 */
async function slideByKeyboard(page: Page, attempts = 3): Promise<void> {
  const captcha = page.getByTestId('slider-captcha');
  for (let attempt = 1; ; attempt++) {
    await page.waitForFunction(() => {
      const root = document.querySelector<HTMLElement>('[data-testid="slider-captcha"]');
      const img = root?.querySelector<HTMLImageElement>('.slider-captcha__canvas');
      return root?.dataset.state === 'idle' && !!img && img.complete && img.naturalWidth > 0;
    }, undefined, { polling: 50 });
    const handle = captcha.getByRole('slider');
    // The screen reader's view: a slider with a name, its range and value.
    expect(await handle.getAttribute('aria-label') ?? await handle.getAttribute('aria-labelledby')).toBeTruthy();
    await tabTo(page, handle, 'the slider handle');
    const gap = await findGap(page);
    let x = 0;
    const pause = () => page.waitForTimeout(35 + Math.floor(Math.random() * 70));
    while (gap - x >= 20) {
      await page.keyboard.press('Shift+ArrowRight');
      x += 20;
      await pause();
    }
    while (gap - x >= 1) {
      await page.keyboard.press('ArrowRight');
      x += 2;
      await pause();
    }
    // Still on the handle after the presses: nothing took focus away from it on the way.
    expect(await isFocused(handle), `focus left the handle for ${await focusDescription(page)}`).toBe(true);
    await page.keyboard.press('Enter');
    const state = await sliderVerdict(page, 30_000).catch(async () => {
        const now = await captcha.getAttribute('data-state').catch(() => 'gone');
        throw new Error(`the slider did not answer after Enter: state ${now}, ${x} of ${gap} px, live: ${await liveTexts(page)}`);
      });
    if (state === 'success') return;
    if (attempt >= attempts) throw new Error(`the slider refused ${attempts} keyboard tries`);
  }
}

/** A staff login (/admin/login, /expert/login) typed and submitted by keyboard, the slider by the arrows. */
async function staffLoginByKeyboard(page: Page, realm: 'admin' | 'expert', username: string, password: string, landing: string): Promise<void> {
  await page.goto(`${portal.url}/${realm}/login`);
  await typeInto(page, page.getByPlaceholder('请输入用户名', { exact: true }), '用户名', username);
  await typeInto(page, page.getByPlaceholder('请输入密码', { exact: true }), '密码', password);
  await page.keyboard.press('Enter');
  await page.getByTestId('slider-captcha').waitFor();
  await slideByKeyboard(page);
  await page.waitForURL(landing, { timeout: 40_000 });
}

/** The texts of the page's live regions (what a screen reader is told without moving). */
const liveTexts = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[role="status"], [role="alert"], [aria-live="polite"], [aria-live="assertive"]'))
      .map((el) => el.textContent ?? '')
      .join(' | '),
  );

/** The focused element's text once it is a heading (focus was moved to a page or record title). */
const focusedHeading = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el && (/^H[1-6]$/.test(el.tagName) || el.getAttribute('role') === 'heading') ? (el.textContent ?? '') : null;
  });

async function setPhases(stage: 'signUp' | 'review'): Promise<void> {
  const settings = await api.ok<{ phases: Record<string, unknown> }>('GET', '/admin/settings', superToken);
  const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
  settings.phases =
    stage === 'signUp'
      ? { signUp: { start: at(-1), end: at(10) }, prelimSubmission: null, prelimReview: null, finalReview: null }
      : { signUp: { start: at(-30), end: at(-20) }, prelimSubmission: { start: at(-20), end: at(-0.01) }, prelimReview: { start: at(-0.005), end: at(10) }, finalReview: null };
  await api.ok('PUT', '/admin/settings', superToken, settings);
}

describe('the four tasks by keyboard alone, as a screen reader gets them', () => {
  let b: Browser;
  let errors: string[];
  afterAll(async () => b?.close());

  it('a participant signs in through the slider with the arrow keys', async () => {
    await setPhases('signUp');
    b = await openBrowser({ width: 1366 });
    const page = b.page;
    errors = collectErrors(page);
    await page.goto(portal.url);
    await page.getByRole('button', { name: /登\s*录/ }).first().waitFor();
    // The skip link comes first.
    await page.keyboard.press('Tab');
    expect(await focusDescription(page)).toContain('跳到主要内容');
    await tabTo(page, page.getByRole('button', { name: /登\s*录/ }), '登录');
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('auth-modal');
    await dialog.waitFor();
    await typeInto(page, dialog.getByPlaceholder('请输入用户名', { exact: true }), '用户名', 'demo5');
    await typeInto(page, dialog.getByPlaceholder('请输入密码', { exact: true }), '密码', 'Demo@2025');
    await page.keyboard.press('Enter');
    await page.getByTestId('slider-captcha').waitFor().catch(async (e) => {
      await b.screenshot('keyboard-login-no-slider');
      throw e;
    });
    await slideByKeyboard(page);
    await page.waitForURL('**/my-sign', { timeout: 40_000 });
    // After the route change focus is on the new page's heading.
    await expect.poll(() => focusedHeading(page), { timeout: 10_000 }).toBeTruthy();
  });

  it('the participant fills and submits the sign-up: fields, selects, uploads, confirmation', async () => {
    const page = b.page;
    const form = page.getByTestId('sign-form');
    await form.waitFor();
    await typeInto(page, form.getByRole('textbox', { name: '单位名称' }), '单位名称', '福州数字医保研究院');
    await pickByKeyboard(page, form.getByRole('combobox', { name: '单位类型' }), '单位类型', '企业');
    await typeInto(page, form.getByRole('textbox', { name: '统一社会信用代码' }), '统一社会信用代码', '91350100M000100Y43');
    await pickByKeyboard(page, form.getByRole('combobox', { name: '所在省份' }), '所在省份', '福建省', true);
    await typeInto(page, form.getByRole('textbox', { name: '所在城市' }), '所在城市', '福州');
    await typeInto(page, form.getByRole('textbox', { name: '团队名称' }), '团队名称', '键盘先锋');
    await pickByKeyboard(page, form.getByRole('combobox', { name: '参赛方向' }), '参赛方向', '智能监管与基金安全');

    const leader = page.locator('.ant-card').filter({ hasText: '团队负责人' }).first();
    await typeInto(page, leader.getByRole('textbox', { name: '姓名' }), '负责人姓名', '张三');
    await typeInto(page, leader.getByRole('textbox', { name: '手机号' }), '负责人手机号', '13900000005');
    await typeInto(page, leader.getByRole('textbox', { name: '邮箱' }), '负责人邮箱', 'zhang@example.com');
    await pickByKeyboard(page, leader.getByRole('combobox', { name: '职称' }), '负责人职称', '正高级');

    const member = page.getByTestId('member-row').first();
    await typeInto(page, member.getByRole('textbox', { name: '姓名' }), '成员姓名', '李四');
    await typeInto(page, member.getByRole('textbox', { name: '所在单位' }), '成员单位', '福州数字医保研究院');
    await pickByKeyboard(page, member.getByRole('combobox', { name: '职称' }), '成员职称', '中级');
    await pickByKeyboard(page, member.getByRole('combobox', { name: '团队角色' }), '团队角色', '研发');

    const filesCard = page.locator('.ant-card').filter({ hasText: '附件材料' }).first();
    const proof = filesCard.locator('.ant-form-item').filter({ hasText: '单位证明材料' }).first();
    await uploadByKeyboard(page, proof.getByRole('button', { name: /上传/ }).first(), '单位证明材料', '营业执照.png', proof.locator('[data-status="ok"]'));
    const letter = filesCard.locator('.ant-form-item').filter({ hasText: '参赛承诺书' }).first();
    await uploadByKeyboard(page, letter.getByRole('button', { name: /上传/ }).first(), '参赛承诺书', '承诺书.pdf', letter.locator('[data-status="ok"]'));

    await tabTo(page, page.getByTestId('submit'), '提交');
    await page.keyboard.press('Enter');
    // The confirmation takes focus; Enter answers it.
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await expect.poll(() => confirm.evaluate((el) => el.contains(document.activeElement))).toBe(true);
    const ok = confirm.getByRole('button', { name: /确\s*认/ });
    await tabTo(page, ok, '确认');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/my-sign/detail', { timeout: 60_000 });
    await page.getByTestId('sign-detail').waitFor();
    expect(await page.getByTestId('contest-status').innerText()).toBe('已提交');
  });

  it('an operator signs in by keyboard and decides in the audit queue; focus follows the next record', async () => {
    const page = b.page;
    await staffLoginByKeyboard(page, 'admin', 'admin', 'Admin@2025', '**/admin/home');

    await page.goto(`${portal.url}/admin/competition/qualification-audit`);
    const panel = page.getByTestId('audit-panel');
    await panel.waitFor();
    const first = await page.locator('.kit-detail__title').first().innerText();
    // The outcome group has a name; 通过 is chosen with the arrows (the group is one Tab stop).
    const group = panel.getByRole('radiogroup', { name: '审核结果' });
    await group.waitFor();
    await tabTo(page, panel.getByRole('radio').first(), '审核结果');
    const approve = panel.getByRole('radio', { name: '通过', exact: true });
    for (let i = 0; i < 4 && !(await approve.isChecked()); i++) await page.keyboard.press('ArrowRight');
    expect(await approve.isChecked()).toBe(true);
    await tabTo(page, panel.getByRole('button', { name: '提交审核' }), '提交审核');
    await page.keyboard.press('Enter');
    // The next record is shown and focus is on its title: the screen reader says which team it is.
    await expect.poll(() => focusedHeading(page), { timeout: 20_000 }).not.toBeNull();
    const next = (await focusedHeading(page)) ?? '';
    expect(next).not.toBe(first);
    // The decision is acknowledged where a screen reader hears it without moving.
    await expect.poll(() => liveTexts(page), { timeout: 10_000 }).toContain('审核完成');
  });

  it('an expert accepts the agreement and scores a project by keyboard; focus lands on the heading that says 已提交', async () => {
    // The operator's browser session ended the script's (one live session per admin account): sign in again.
    ({ accessToken: superToken } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' }));
    // A project of demo1 in the preliminary review of expert E0002 (through the API, as in blind-review.e2e.ts).
    const { accessToken: team } = await api.ok<{ accessToken: string }>('POST', '/login', null, { isPhoneLogin: false, username: 'demo1', password: 'Demo@2025' });
    const upload = async (name: string, text: string) => {
      const form = new FormData();
      form.append('origin', 'PRELIM');
      form.append('name', name);
      form.append('file', new Blob([new Uint8Array(pdfWithText(text))], { type: 'application/pdf' }), name);
      const res = await fetch(`${portal.url}/api/attachment/upload/public`, { method: 'POST', headers: { authorization: `Bearer ${team}` }, body: form });
      return ((await res.json()) as { data: { uniqueNo: string } }).data.uniqueNo;
    };
    const settings = await api.ok<{ phases: Record<string, unknown> }>('GET', '/admin/settings', superToken);
    const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
    settings.phases = { signUp: { start: at(-30), end: at(-20) }, prelimSubmission: { start: at(-1), end: at(10) }, prelimReview: null, finalReview: null };
    await api.ok('PUT', '/admin/settings', superToken, settings);
    const application = await upload('申报书.pdf', 'Keyboard scoring plan');
    const presentation = await upload('演示材料.pdf', 'Slides');
    const mine = await api.ok<{ track: string }>('GET', '/prelim-doc/my', team);
    const submitted = await api.ok<{ id: string }>('POST', '/prelim-doc/my/submit', team, {
      projectName: '键盘评审项目',
      track: mine.track,
      summary: '键盘可达的评审',
      keywords: ['医保'],
      application,
      presentation,
      video: null,
      others: [],
    });
    const detail = await api.ok<{ version: number }>('GET', `/admin/prelim-doc/${submitted.id}`, superToken);
    await api.ok('POST', `/admin/prelim-doc/${submitted.id}/audit`, superToken, { outcome: 'APPROVED', reason: '', version: detail.version });
    await setPhases('review');
    const experts = await api.ok<{ list: { id: string; code: string }[] }>('GET', '/admin/expert/list?size=100', superToken);
    const e2 = experts.list.find((e) => e.code === 'E0002')!;
    const group = await api.ok<{ id: string }>('POST', '/admin/review/prelim/groups', superToken, { name: '键盘组', expertIds: [e2.id] });
    await api.ok('POST', `/admin/review/prelim/projects/${submitted.id}/move`, superToken, { groupId: group.id, reason: '键盘评审' });

    const page = b.page;
    await staffLoginByKeyboard(page, 'expert', 'e0002', 'Demo@2025', '**/expert/**');
    const agreement = page.getByTestId('review-agreement');
    const home = page.getByTestId('round-PRELIMINARY');
    await agreement.or(home).first().waitFor();
    if (await agreement.isVisible()) {
      await tabTo(page, agreement.getByRole('checkbox'), '同意评审协议');
      await page.keyboard.press('Space');
      await tabTo(page, page.getByTestId('agreement-accept'), '接受');
      await page.keyboard.press('Enter');
      await home.waitFor();
    }

    await page.goto(`${portal.url}/expert/review-detail/${submitted.id}`);
    const formCard = page.getByTestId('score-form');
    await formCard.waitFor();
    const inputs = formCard.getByRole('spinbutton');
    const count = await inputs.count();
    expect(count).toBeGreaterThan(0);
    for (let i = 0; i < count; i++) {
      const input = inputs.nth(i);
      // Each score field tells its range.
      const max = Number(await input.getAttribute('aria-valuemax'));
      expect(max).toBeGreaterThan(0);
      expect(await input.getAttribute('aria-valuemin')).toBe('0');
      await typeInto(page, input, `score ${i + 1}`, String(Math.floor(max * 0.8)));
    }
    await typeInto(page, formCard.getByRole('textbox', { name: '评语' }), '评语', '结构清晰，可行性高');
    await tabTo(page, formCard.getByRole('button', { name: '提交评分' }), '提交评分');
    await page.keyboard.press('Enter');
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await tabTo(page, confirm.getByRole('button', { name: /确\s*定/ }), '确定');
    await page.keyboard.press('Enter');
    await expect.poll(() => focusedHeading(page), { timeout: 20_000 }).toContain('已提交');
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('键盘评审项目');
    expect(errors).toEqual([]);
  });
});
