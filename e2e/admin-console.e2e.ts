import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11y } from './support/axe.js';
import { openBrowser, type Browser } from './support/browser.js';
import { solveSlider } from './support/slider.js';
import { startPortal, type Portal } from './support/portal.js';
import { clickInHoverMenu } from './support/ui.js';

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.stop();
});

/** Signs the seeded super admin in through the real login page: the slider is solved from its pictures (support/slider.ts). */
async function loginAsAdmin(page: Page): Promise<void> {
  await page.goto(`${portal.url}/admin/login`);
  await page.getByTestId('staff-login-submit').waitFor();
  await page.getByPlaceholder('请输入用户名', { exact: true }).fill('admin');
  await page.getByPlaceholder('请输入密码', { exact: true }).fill('Admin@2025');
  await page.getByTestId('staff-login-submit').click();
  await solveSlider(page);
  await page.waitForURL('**/admin/home');
}

const tabLabels = (page: Page) => page.locator('[data-testid="console-tabs"] [data-tab-path]').allInnerTexts();

describe('the admin console', () => {
  let b: Browser;
  const errors: string[] = [];

  afterAll(async () => b?.close());

  it('opens the console with the menu from the server', async () => {
    b = await openBrowser({ locale: 'zh-CN' });
    b.page.on('pageerror', (err) => errors.push(err.message));
    b.page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    await loginAsAdmin(b.page);
    await b.page.goto(`${portal.url}/admin`);
    await b.page.waitForURL('**/admin/home');
    const menu = b.page.getByTestId('console-menu');
    await menu.waitFor();
    for (const name of ['首页', '注册用户管理', '系统管理', '行为审计']) {
      expect(await menu.getByText(name, { exact: true }).first().isVisible()).toBe(true);
    }
    expect(await tabLabels(b.page)).toEqual(['首页']);
    // The home's figures come from the demo data: fourteen participants (demo1..demo14; eight of
    // them with approved projects to try the review, demo14 with its materials saved as a draft).
    const home = b.page.getByTestId('admin-home');
    await expect.poll(() => home.getByTestId('home-stat-users').innerText()).toMatch(/注册用户\s+14\b/);
    await home.getByTestId('home-registrations').waitFor();
    await home.getByTestId('home-teams-by-status').waitFor();
    await b.screenshot('admin-home');
    await b.page.setViewportSize({ width: 375, height: 812 });
    await b.page.reload();
    await home.getByTestId('home-teams-by-status').waitFor();
    // On a phone the menu gives the page the whole width and opens over it on demand.
    expect(await b.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    expect(await b.page.getByTestId('console-menu').isVisible()).toBe(false);
    await b.screenshot('admin-home-narrow');
    // The emblem alone links home on a phone: it is named all the same.
    await expectNoSeriousA11y(b.page, { screen: '首页 375 px' });
    await b.page.getByTestId('console-nav-toggle').click();
    await b.page.getByTestId('console-menu').getByText('注册用户管理', { exact: true }).waitFor();
    // The menu slides open: the screenshot waits until its transition has ended (infinite
    // animations, such as spinners, never end and are not waited for).
    await b.page.waitForFunction(() =>
      document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().iterations === Infinity),
    );
    await b.screenshot('admin-home-narrow-menu');
    await b.page.setViewportSize({ width: 1366, height: 860 });
    await b.page.reload();
    await home.getByTestId('home-teams-by-status').waitFor();
  });

  it('opens pages from the menu as tabs and keeps them after a reload', async () => {
    const menu = b.page.getByTestId('console-menu');
    await menu.getByText('系统管理', { exact: true }).click();
    await menu.getByText('系统账号', { exact: true }).click();
    await b.page.waitForURL('**/admin/system/systemManage');
    await b.page.getByTestId('system-accounts-page').getByText('admin', { exact: true }).first().waitFor();
    await b.screenshot('admin-system-accounts');

    await menu.getByText('角色管理', { exact: true }).click();
    await b.page.waitForURL('**/admin/system/roleManage');
    await b.page.getByText('SUPER_ADMIN').first().waitFor();

    await menu.getByText('注册用户管理', { exact: true }).click();
    await b.page.waitForURL('**/admin/user/team');
    // Some demo participant (fourteen of them: which come first on the page is not fixed).
    await b.page.getByTestId('registered-users-page').getByText(/^demo\d+$/).first().waitFor();
    await b.screenshot('admin-registered-users');
    // Four closable open tabs (a tablist of tabs only), status tags, a scrolling table.
    await expectNoSeriousA11y(b.page, { screen: '注册用户管理 with four open tabs' });

    expect(await tabLabels(b.page)).toEqual(['首页', '系统账号', '角色管理', '注册用户管理']);
    await b.page.reload();
    await b.page.getByTestId('console-menu').waitFor();
    expect(await tabLabels(b.page)).toEqual(['首页', '系统账号', '角色管理', '注册用户管理']);
  });

  it('closes other tabs and all tabs', async () => {
    await b.page.getByTestId('tabs-close-others').click();
    expect(await tabLabels(b.page)).toEqual(['注册用户管理']);
    await b.page.getByTestId('tabs-close-all').click();
    await b.page.waitForURL('**/admin/home');
    await expect.poll(() => tabLabels(b.page)).toEqual(['首页']);
  });

  it('shows the login records of operators', async () => {
    await b.page.goto(`${portal.url}/admin/behaviorAuditing/AdminManage`);
    await b.page.getByTestId('audit-page-admin').waitFor();
    await b.page.getByText('成功', { exact: true }).first().waitFor();
    await b.screenshot('admin-audit');
  });

  it('shows an unknown admin page as a 404 inside the console, and a menu group its first entry', async () => {
    await b.page.goto(`${portal.url}/admin/no-such-page`);
    await b.page.getByTestId('admin-console').getByTestId('console-not-found').waitFor();
    await b.page.getByRole('button', { name: '返回控制台首页' }).click();
    await b.page.waitForURL('**/admin/home');
    await b.page.goto(`${portal.url}/admin/behaviorAuditing`);
    await b.page.waitForURL('**/admin/behaviorAuditing/UserManage');
  });

  it('logs out: token and tabs removed, back to the login page', async () => {
    await b.page.goto(`${portal.url}/admin/home`);
    await clickInHoverMenu(b.page, b.page.getByTestId('staff-account'), b.page.getByTestId('console-logout'), (url) => url.pathname === '/admin/login');
    const stored = await b.page.evaluate(() => [localStorage.getItem('AdminToken'), localStorage.getItem('adminTabs')]);
    expect(stored).toEqual([null, null]);
    expect(errors).toEqual([]);
  });
});
