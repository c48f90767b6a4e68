import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type Browser } from './support/browser.js';
import { expectNoSeriousA11y } from './support/axe.js';
import { startPortal, type Portal } from './support/portal.js';
import { apiClient, collectErrors, passSlider } from './support/ui.js';

/**
 * The forced password change (docs/security.md "Accounts and reach"): the super admin resets a
 * system account's password; its holder signs in, is sent to change it before anything else,
 * changes it from the keyboard, then works in the console.
 */
let portal: Portal;
let api: ReturnType<typeof apiClient>;
let browser: Browser | undefined;

const SUPER = { username: 'admin', password: 'Admin@2025' };
const RUN = Math.random().toString(36).slice(2, 7);
const OPERATOR = { username: `reach${RUN}`, name: '重置测试' };
const NEW_PASSWORD = 'Mine@2025x';

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
});

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

describe('a password set by an admin is changed first', () => {
  it('the reset account signs in, is sent to change its password, then works', async () => {
    const { accessToken } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, SUPER);
    const role = await api.ok<{ id: string }>('POST', '/admin/role', accessToken, { code: `REACH_${RUN.toUpperCase()}`, name: `重置${RUN}`, buttonCodes: ['user:view'] });
    const created = await api.ok<{ account: { id: string } }>('POST', '/admin/system/account', accessToken, { ...OPERATOR, roleIds: [role.id] });
    const { password } = await api.ok<{ password: string }>('POST', `/admin/system/account/${created.account.id}/reset-password`, accessToken);

    browser = await openBrowser();
    const { page } = browser;
    const errors = collectErrors(page);
    await page.goto(`${portal.url}/admin/login`);
    await page.getByTestId('staff-login-submit').waitFor();
    await page.getByPlaceholder('请输入用户名', { exact: true }).fill(OPERATOR.username);
    await page.getByPlaceholder('请输入密码', { exact: true }).fill(password);
    await page.getByTestId('staff-login-submit').click();
    await passSlider(page, '**/admin/change-password');

    const form = page.getByTestId('admin-change-password');
    await form.waitFor();
    await browser.screenshot('account-reach-change-password');
    await expectNoSeriousA11y(page);
    // The console is closed until then: another page comes back here.
    await page.goto(`${portal.url}/admin/user/team`);
    await page.waitForURL('**/admin/change-password');

    // Usable from the keyboard: the old password has the focus, Enter in the last field submits.
    const change = page.getByTestId('admin-change-password');
    const old = change.getByLabel('原密码');
    await expect.poll(() => old.evaluate((e) => e === document.activeElement)).toBe(true);
    await old.fill(password);
    await change.getByLabel('新密码').fill(NEW_PASSWORD);
    await change.getByLabel('确认密码').fill(NEW_PASSWORD);
    await change.getByLabel('确认密码').press('Enter');
    await page.waitForURL((url) => !url.pathname.endsWith('/change-password')).catch(async (err: unknown) => {
      const shown = await page.locator('.ant-form-item-explain-error, .ant-message-notice').allInnerTexts();
      throw new Error(`still on the change page (${String(err)}): ${JSON.stringify(shown)}`);
    });
    expect(new URL(page.url()).pathname).toBe('/admin/home');
    await page.getByTestId('console-menu').getByText('注册用户管理', { exact: true }).click();
    await page.waitForURL('**/admin/user/team');
    await page.getByTestId('registered-users-page').waitFor();

    // The generated password is gone; the new one signs in straight to the console.
    const again = await api.ok<{ mustChangePassword: boolean }>('POST', '/admin/login', null, { username: OPERATOR.username, password: NEW_PASSWORD });
    expect(again.mustChangePassword).toBe(false);
    expect((await api.call('POST', '/admin/login', null, { username: OPERATOR.username, password })).status).toBe(400);
    expect(errors).toEqual([]);
  });
});
