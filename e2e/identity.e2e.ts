import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { solveSlider } from './support/slider.js';
import { outboxLength, waitForSmsCode } from './support/sms-outbox.js';
import { submitLogin } from './support/login.js';

/**
 * Identity journeys in Chromium against the built portal: register with the code from the SMS
 * outbox, slider login, SMS login, password recovery, the admin and expert consoles, and the
 * single staff session (409 in the first browser when a second one signs in).
 */
let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.stop();
});

const user = { username: 'e2euser01', password: 'E2e@20250', email: 'e2e01@example.com', phone: '13655550001' };
const newPassword = 'Reset@2026';
// A code can be re-sent to one phone only after 60 s, so the SMS journeys use seeded demo accounts.
const smsUser = { username: 'demo4', phone: '13800000004' };
const forgetful = { username: 'demo5', phone: '13800000005' };

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

async function sendCode(page: Page, phone: string): Promise<string> {
  const before = outboxLength(portal.dataDir);
  const button = page.getByTestId('sms-code-button');
  await button.click();
  // The button counts down once the server accepted the request (spec: 60 s).
  await page.waitForFunction(() => /\d+/.test(document.querySelector('[data-testid="sms-code-button"]')?.textContent ?? ''));
  return waitForSmsCode(portal.dataDir, phone, before);
}

async function passwordLogin(page: Page, username: string, password: string): Promise<void> {
  const modal = page.getByTestId('auth-modal');
  await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(username);
  await modal.getByPlaceholder('请输入密码', { exact: true }).fill(password);
  await submitLogin(page, modal);
  await solveSlider(page);
}

describe('participant identity', () => {
  let b: Browser;
  afterAll(async () => b?.close());

  it('registers in two steps with the code from the SMS outbox', async () => {
    b = await openBrowser();
    const errors = watchErrors(b.page);
    await b.page.goto(portal.url);
    await b.page.getByRole('button', { name: '注 册' }).or(b.page.getByRole('button', { name: '注册' })).first().click();
    const modal = b.page.getByTestId('auth-modal');
    await modal.waitFor();
    expect(await b.page.locator('.ant-modal-title').innerText()).toContain('欢迎');
    await modal.getByPlaceholder('请输入用户名（小写字母或数字）').fill(user.username);
    await modal.getByPlaceholder('请输入密码（8-16位，含数字、字母和特殊字符）').fill(user.password);
    await modal.getByPlaceholder('请再次输入密码').fill('Mismatch@1');
    await modal.getByTestId('register-next').click();
    await modal.getByText('两次输入密码不同，请核查').waitFor();
    await modal.getByPlaceholder('请再次输入密码').fill(user.password);
    await modal.getByTestId('register-next').click();
    await modal.getByTestId('register-step-info').waitFor({ state: 'visible' });
    await modal.getByPlaceholder('请输入邮箱地址').fill(user.email);
    await modal.getByPlaceholder('请输入手机号').fill(user.phone);
    const code = await sendCode(b.page, user.phone);
    expect(code).toMatch(/^\d{6}$/);
    await modal.getByPlaceholder('请输入验证码').fill(code);
    await modal.getByTestId('register-agreement').check();
    await b.screenshot('identity-register-step2');
    await modal.getByTestId('register-submit').click();
    await b.page.getByText('注册成功').first().waitFor();
    // Back on the login tab with the new username filled in.
    await modal.getByTestId('login-form').waitFor();
    expect(await modal.getByPlaceholder('请输入用户名', { exact: true }).inputValue()).toBe(user.username);
    expect(errors).toEqual([]);
  });

  it('logs in with the password and the slider, lands on /my-sign, and logs out', async () => {
    await passwordLogin(b.page, user.username, user.password);
    await b.page.waitForURL('**/my-sign');
    expect(await b.page.evaluate(() => localStorage.getItem('AccessToken'))).toBeTruthy();
    await b.screenshot('identity-after-login');
    await logoutByMenu(b.page);
    await b.page.waitForURL((url) => url.pathname === '/');
    expect(await b.page.evaluate(() => localStorage.getItem('AccessToken'))).toBeNull();
  });

  it('refuses a wrong password under the password field', async () => {
    await b.page.getByRole('button', { name: '登 录' }).or(b.page.getByRole('button', { name: '登录' })).first().click();
    await passwordLogin(b.page, user.username, 'Wrong@2025x');
    const modal = b.page.getByTestId('auth-modal');
    await modal.locator('.ant-form-item-explain-error').first().waitFor();
    expect(await modal.locator('.ant-form-item-explain-error').first().innerText()).toMatch(/密码|错误/);
    expect(await b.page.evaluate(() => localStorage.getItem('AccessToken'))).toBeNull();
  });

  it('logs in by SMS code', async () => {
    const modal = b.page.getByTestId('auth-modal');
    await modal.getByRole('tab', { name: '短信登录' }).click();
    const sms = modal.locator('form[id="sms-login"]');
    await sms.getByPlaceholder('请输入手机号').fill(smsUser.phone);
    const code = await sendCode(b.page, smsUser.phone);
    await sms.getByPlaceholder('请输入验证码').fill(code);
    await sms.getByTestId('login-submit').click();
    await solveSlider(b.page);
    await b.page.waitForURL('**/my-sign**');
    expect(await b.page.evaluate(() => localStorage.getItem('AccessToken'))).toBeTruthy();
    await logoutByMenu(b.page);
    await b.page.waitForURL((url) => url.pathname === '/');
  });

  it('recovers the password on /forget-password, then signs in with the new one', async () => {
    await b.page.goto(`${portal.url}/forget-password`);
    await b.page.getByTestId('forget-password-submit').waitFor();
    expect(await b.page.getByTestId('gateway-footer').count()).toBe(0);
    await b.page.getByPlaceholder('请输入手机号').fill(forgetful.phone);
    const code = await sendCode(b.page, forgetful.phone);
    await b.page.getByPlaceholder('请输入验证码').fill(code);
    await b.page.getByPlaceholder('请输入密码（8-16位，含数字、字母和特殊字符）').fill(newPassword);
    await b.page.getByPlaceholder('请再次输入密码').fill(newPassword);
    await b.screenshot('identity-forget-password');
    await b.page.getByTestId('forget-password-submit').click();
    // Success opens the login dialog.
    await b.page.getByTestId('auth-modal').waitFor();
    await passwordLogin(b.page, forgetful.username, newPassword);
    await b.page.waitForURL('**/my-sign**');
  });
});

async function staffLogin(page: Page, path: string, username: string, password: string): Promise<void> {
  await page.goto(`${portal.url}${path}`);
  await page.getByTestId('staff-login-submit').waitFor();
  await page.getByPlaceholder('请输入用户名', { exact: true }).fill(username);
  await page.getByPlaceholder('请输入密码', { exact: true }).fill(password);
  await page.getByTestId('staff-login-submit').click();
  await solveSlider(page);
}

describe('staff consoles', () => {
  const browsers: Browser[] = [];
  afterAll(async () => {
    for (const b of browsers) await b.close();
  });

  it('signs an expert in at /expert/login', async () => {
    const b = await openBrowser();
    browsers.push(b);
    await staffLogin(b.page, '/expert/login', 'e0001', 'Demo@2025');
    await b.page.waitForURL('**/expert/index');
    expect(await b.page.evaluate(() => localStorage.getItem('ExpertToken'))).toBeTruthy();
    await b.screenshot('identity-expert-home');
  });

  it('signs an admin in, and a second sign-in elsewhere ends the first session with 409', async () => {
    const first = await openBrowser();
    browsers.push(first);
    await staffLogin(first.page, '/admin/login', 'admin', 'Admin@2025');
    await first.page.waitForURL('**/admin/home');
    expect(await first.page.evaluate(() => localStorage.getItem('AdminToken'))).toBeTruthy();
    await first.screenshot('identity-admin-home');

    const second = await openBrowser();
    browsers.push(second);
    await staffLogin(second.page, '/admin/login', 'admin', 'Admin@2025');
    await second.page.waitForURL('**/admin/home');

    await first.page.reload();
    await first.page.getByText('您的账号已在其他地方登录，请重新登录').waitFor();
    await first.screenshot('identity-admin-409');
    await first.page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await first.page.waitForURL('**/admin/login');
    expect(await first.page.evaluate(() => localStorage.getItem('AdminToken'))).toBeNull();
    // The second browser is still signed in.
    await second.page.reload();
    await second.page.waitForURL('**/admin/home');
  });
});

/**
 * Opens the account menu (on hover: a click would toggle it shut again) and presses 退出登录. On a
 * loaded machine the hover can land before the header has settled; a person moves the mouse
 * again, so does this.
 */
async function logoutByMenu(page: import('playwright-core').Page): Promise<void> {
  // A hover menu: under load it may close between showing 退出登录 and the click landing, so the
  // whole gesture is tried again until the token is gone (the app drops it at once on the click).
  const item = page.getByRole('menuitem', { name: '退出登录' });
  for (let attempt = 1; ; attempt++) {
    await page.mouse.move(0, 0);
    await page.getByTestId('account-menu').hover();
    try {
      await item.waitFor({ timeout: 5_000 });
      await item.click({ timeout: 5_000 });
      await page.waitForFunction(() => localStorage.getItem('AccessToken') === null, undefined, { timeout: 5_000 });
      return;
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}
