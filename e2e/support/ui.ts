import type { Locator, Page } from 'playwright-core';
import { solveSlider } from './slider.js';

/**
 * What the console journeys do again and again: find antd form items, rows, dialogs and
 * toasts by what a person reads; log in through the slider; call the API as a script would.
 */

export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    // A refused call is logged by the browser itself ("Failed to load resource").
    if (msg.type() === 'error' && !msg.text().includes('Failed to load resource')) errors.push(msg.text());
  });
  return errors;
}

export const card = (page: Page, title: string) => page.locator('.ant-card').filter({ has: page.locator('.ant-card-head-title', { hasText: title }) });
// antd gives a string label its text as title; `has` needs a locator of the page, not of the scope.
export const item = (scope: Locator | Page, label: string) => {
  const page = 'page' in scope ? scope.page() : scope;
  return scope.locator('.ant-form-item').filter({ has: page.locator(`label[title="${label}"]`) }).first();
};
export const row = (scope: Page | Locator, text: string) => scope.locator('tr.ant-table-row').filter({ hasText: text });
export const openDialog = (page: Page) => page.locator('.ant-modal-wrap:not([style*="display: none"]) .ant-modal').last();
export const toast = (page: Page, text: string | RegExp) => page.locator('.ant-message-notice').filter({ hasText: text }).first();

/** Picks `option` in the select of the form item labelled `label`. */
export async function choose(page: Page, scope: Locator | Page, label: string, option: string, search = false): Promise<void> {
  await pickOption(page, item(scope, label).locator('.ant-select'), option, search);
}

/**
 * Picks `option` in an antd select and checks that it took: under load a click on an option
 * still sliding in once landed beside it (the select stayed empty), so the pick is tried again.
 */
export async function pickOption(page: Page, select: Locator, option: string, search = false): Promise<void> {
  // What the select shows (antd 6: the value of a single select in .ant-select-content, tags as items).
  const shown = () => select.innerText().then((text) => text.trim());
  for (let attempt = 1; ; attempt++) {
    const before = await shown();
    await select.click();
    // The dropdown of THIS select (its listbox is `<input id>_list`): another one may still be
    // fading out with the same options, and a click on that one never lands.
    const id = await select.locator('input').first().getAttribute('id');
    const dropdown = page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').filter({ has: page.locator(`[id="${id}_list"]`) });
    await dropdown.waitFor();
    if (search) await page.keyboard.type(option);
    await dropdown.locator('.ant-select-item-option').filter({ hasText: option }).first().click();
    // Taken: the select shows the option (or, for selects that show a shorter label, something new).
    let took = false;
    for (let waited = 0; waited < 5_000 && !took; waited += 100) {
      const now = await shown();
      took = now.includes(option) || (now !== '' && now !== before);
      if (!took) await page.waitForTimeout(100);
    }
    if (took) return;
    if (attempt === 3) throw new Error(`the select did not take "${option}" after three picks`);
    await page.keyboard.press('Escape');
  }
}

/**
 * Clicks an item of a menu that opens on hover (the account menus' 退出登录) until the page
 * reaches `reached`. Under load a click once landed while the menu was closing again and nothing
 * happened: the click gives up soon and the menu is opened again.
 */
export async function clickInHoverMenu(page: Page, trigger: Locator, menuItem: Locator, reached: (url: URL) => boolean, tries = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await trigger.hover();
    await menuItem.click({ timeout: 5_000 }).catch(() => undefined);
    const left = await page.waitForURL(reached, { timeout: 10_000 }).then(
      () => true,
      () => false,
    );
    if (left) return;
    if (attempt === tries) throw new Error(`the menu item did not lead on after ${tries} tries`);
  }
}

/**
 * Waits until the open dialogs stand still: they open with a zoom, and a click measured
 * mid-animation on a loaded machine can land beside its target.
 */
export async function dialogsStill(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const modals = Array.from(document.querySelectorAll<HTMLElement>('.ant-modal')).filter((m) => m.offsetParent !== null);
    return modals.length > 0 && modals.every((m) => m.getAnimations({ subtree: false }).length === 0 && getComputedStyle(m).opacity === '1');
  });
}

/** Waits until a console list has finished loading (antd shows a spinner over it meanwhile). */
export async function tableSettled(scope: Locator | Page): Promise<void> {
  await scope.locator('.ant-table-wrapper .ant-spin-spinning').first().waitFor({ state: 'detached' });
}

/**
 * Solves the slider and waits for the page the login leads to. Should the server ask for the
 * slider again (a proof did not hold), a person solves the new one: so does this, twice at most.
 */
export async function passSlider(page: Page, landing: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await solveSlider(page);
    const next = await Promise.race(
      [
        page.waitForURL(landing, { timeout: 40_000 }).then(() => 'landed' as const),
        page
          .locator('[data-testid="slider-captcha"][data-state="idle"]')
          .waitFor({ timeout: 40_000 })
          .then(() => 'slider' as const),
      ].map((p) => p.catch(() => 'timeout' as const)),
    );
    if (next === 'landed') return;
    if (next === 'timeout' || attempt >= 3) {
      const messages = await page.locator('.ant-message-notice, .ant-form-item-explain-error').allInnerTexts().catch(() => []);
      throw new Error(`login did not reach ${landing} (${next}, attempt ${attempt}): at ${page.url()}, ${JSON.stringify(messages)}`);
    }
  }
}

/** Signs in at /admin/login or /expert/login and lands on the console's home. */
export async function staffLogin(page: Page, base: string, realm: 'admin' | 'expert', username: string, password: string): Promise<void> {
  await page.goto(`${base}/${realm}/login`);
  await page.getByTestId('staff-login-submit').waitFor();
  await page.getByPlaceholder('请输入用户名', { exact: true }).fill(username);
  await page.getByPlaceholder('请输入密码', { exact: true }).fill(password);
  await page.getByTestId('staff-login-submit').click();
  await passSlider(page, realm === 'admin' ? '**/admin/home' : '**/expert/index');
}

export interface Envelope<T> {
  http: number;
  status: number;
  message: string;
  data: T;
}

/** The API as a script calls it: JSON in, the envelope out. */
export function apiClient(base: string) {
  async function call<T>(method: string, path: string, token: string | null, body?: unknown): Promise<Envelope<T>> {
    const res = await fetch(`${base}/api${path}`, {
      method,
      headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}) },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    const envelope = (await res.json()) as { status: number; message: string; data: T };
    return { http: res.status, ...envelope };
  }
  async function ok<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
    const answer = await call<T>(method, path, token, body);
    if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.message} ${JSON.stringify(answer.data)}`);
    return answer.data;
  }
  return { call, ok };
}

/**
 * A password set by someone else (created, reset, imported) must be changed at the next login
 * (docs/security.md "Accounts and reach"). Journeys that only need a working account change it
 * once through the API, to the given one with 'A1' appended (generated ones are 14 characters),
 * and use the answer from then on. account-reach.e2e.ts walks the change in the browser.
 */
export async function ownPassword(base: string, realm: 'admin' | 'expert', username: string, given: string): Promise<string> {
  const api = apiClient(base);
  const login = await api.ok<{ accessToken: string; mustChangePassword?: boolean }>('POST', `/${realm}/login`, null, { username, password: given });
  if (!login.mustChangePassword) return given;
  const mine = `${given.slice(0, 14)}A1`;
  await api.ok('POST', '/login/change/password', login.accessToken, { oldPassword: given, newPassword: mine });
  await api.call('POST', '/logout', login.accessToken);
  return mine;
}
