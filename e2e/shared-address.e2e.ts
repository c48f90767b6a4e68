import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, TOKEN_KEYS } from '@contest/shared';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { apiClient } from './support/ui.js';

/**
 * Many people behind one address (docs/security.md, "Limits behind one address"): when the API
 * answers 429 the page says so with the server's message, in the participant site and in the
 * console alike, instead of staying blank.
 */
let portal: Portal;
let browser: Browser | undefined;

const SUPER = { username: 'admin', password: 'Admin@2025' };
const TOO_MANY = { status: 429, code: 'RATE_LIMITED', message: MSG.tooManyRequests, data: null };

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

describe('a 429 shows the server message', () => {
  it('on the public site and in the console, the page is kept and the message shown', async () => {
    browser = await openBrowser();
    const { page } = browser;
    const refuse = (route: { fulfill(o: object): Promise<void> }) =>
      route.fulfill({ status: 429, contentType: 'application/json', headers: { 'retry-after': '60' }, body: JSON.stringify(TOO_MANY) });

    // Public site: the news list is refused; the page and its header stay, the message shows.
    await page.route('**/api/news?**', refuse);
    await page.goto(`${portal.url}/`);
    await page.getByText(MSG.tooManyRequests).first().waitFor();
    expect(await page.locator('header').count()).toBeGreaterThan(0);
    await page.unroute('**/api/news?**');

    // Console: the list of 资格管理 is refused; a toast says why (it said nothing before).
    const { accessToken } = await apiClient(portal.url).ok<{ accessToken: string }>('POST', '/admin/login', null, SUPER);
    await page.evaluate(([key, token]) => localStorage.setItem(key!, token!), [TOKEN_KEYS.ADMIN, accessToken]);
    await page.route('**/api/admin/team/list**', refuse);
    await page.goto(`${portal.url}/admin/competition/qualification`);
    await page.getByText(MSG.tooManyRequests).first().waitFor();
    await browser.screenshot('shared-address-429');
    expect(await page.getByTestId('route-error').count()).toBe(0);
  });
});
