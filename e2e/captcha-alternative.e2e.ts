import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11y } from './support/axe.js';
import { openBrowser, type Browser } from './support/browser.js';
import { dialogsStill } from './support/ui.js';
import { startPortal, type Portal } from './support/portal.js';
import { outboxLength, waitForSmsCode } from './support/sms-outbox.js';

/**
 * The slider captcha's non-visual form (docs/security.md, "Captcha code alternative"), as a
 * keyboard-only participant meets it: Tab and Enter open the login, the captcha dialog's
 * 无法完成滑块验证？改用验证码 sends a one-time code to the account's phone (read here from the
 * SMS outbox), and the code, typed and submitted with Enter, lets the login through. No mouse.
 */
let portal: Portal;
let b: Browser;

beforeAll(async () => {
  portal = await startPortal();
  b = await openBrowser();
});

afterAll(async () => {
  await b?.close();
  await portal?.stop();
});

// A seeded demo participant (apps/server/src/seed/demo-data.ts).
const demo = { username: 'demo2', password: 'Demo@2025', phone: '13800000002' };

/** What has focus: its role, accessible name as the page gives it, test id and text. */
async function focused(page: Page) {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return {
      tag: el?.tagName.toLowerCase() ?? '',
      testId: el?.getAttribute('data-testid') ?? el?.closest('[data-testid]')?.getAttribute('data-testid') ?? '',
      label: el?.getAttribute('aria-label') ?? '',
      text: (el?.textContent ?? '').replace(/\s+/g, ''),
    };
  });
}

/** Presses Tab until `wanted` holds for the focused element (a person tabbing through). */
async function tabTo(page: Page, wanted: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string, max = 60): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (wanted(await focused(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${what}; last focus: ${JSON.stringify(await focused(page))}`);
}

describe('captcha alternative by keyboard only', () => {
  it('a participant signs in through the one-time code instead of the slider', async () => {
    const errors: string[] = [];
    b.page.on('pageerror', (err) => errors.push(err.message));
    await b.page.goto(portal.url);
    await b.page.getByTestId('home-title').waitFor({ timeout: 30_000 });

    // The header's 登录 button, reached by Tab.
    await tabTo(b.page, (f) => f.tag === 'button' && f.text === '登录', 'the 登录 button');
    await b.page.keyboard.press('Enter');
    const modal = b.page.getByTestId('auth-modal');
    await modal.getByTestId('login-form').waitFor({ timeout: 30_000 });

    // The username field takes focus when the dialog opens; Tab goes on to the password.
    const username = modal.getByPlaceholder('请输入用户名', { exact: true });
    await b.page.waitForFunction(() => (document.activeElement as HTMLInputElement | null)?.placeholder === '请输入用户名', null, { timeout: 10_000, polling: 100 });
    await b.page.keyboard.type(demo.username);
    await b.page.keyboard.press('Tab');
    await b.page.keyboard.type(demo.password);
    expect(await username.inputValue()).toBe(demo.username);
    await b.page.keyboard.press('Enter');

    // The captcha dialog: focus starts on the slider; Tab reaches the named alternative.
    const dialog = b.page.getByTestId('captcha-dialog');
    await dialog.waitFor({ timeout: 30_000 });
    // A person starts once the dialog stands still (it zooms in; the first focus lands at the end).
    await dialogsStill(b.page);
    const toggle = dialog.getByRole('button', { name: '无法完成滑块验证？改用验证码' });
    await toggle.waitFor();
    await tabTo(b.page, (f) => f.testId === 'captcha-use-code', 'the code alternative');
    await b.page.keyboard.press('Enter');
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');

    await tabTo(b.page, (f) => f.testId === 'captcha-code-send', 'the send button');
    const before = outboxLength(portal.dataDir);
    await b.page.keyboard.press('Enter');
    const code = await waitForSmsCode(portal.dataDir, demo.phone, before, 30_000);
    expect(code).toMatch(/^\d{6}$/);
    // Said in the status region, and focus moved to the code field.
    await dialog.getByRole('status').filter({ hasText: '验证码已发送' }).waitFor({ timeout: 10_000 });
    await b.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'captcha-code-input', null, { timeout: 10_000, polling: 100 });
    await expectNoSeriousA11y(b.page, { screen: 'captcha dialog, code alternative open' });
    await b.screenshot('captcha-alternative-code');

    // A wrong code first: the alert says so, focus stays on the field.
    await b.page.keyboard.type(code === '000000' ? '111111' : '000000');
    await b.page.keyboard.press('Enter');
    await dialog.getByRole('alert').filter({ hasText: '验证码错误' }).waitFor({ timeout: 10_000 });

    // The right code, Enter: the nonce passes and the login goes through.
    await b.page.keyboard.press('Control+A');
    await b.page.keyboard.type(code);
    await b.page.keyboard.press('Enter');
    await b.page.waitForURL('**/my-sign**', { timeout: 30_000 });
    expect(await b.page.evaluate(() => localStorage.getItem('AccessToken'))).toBeTruthy();
    expect(errors).toEqual([]);
  });
});
