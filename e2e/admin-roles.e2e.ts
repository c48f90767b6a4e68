import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.js';
import { solveSlider } from './support/slider.js';
import { startPortal, type Portal } from './support/portal.js';
import { submitLogin } from './support/login.js';
import { ownPassword } from './support/ui.js';

/**
 * Roles end to end (docs/rules/admin.md, "Roles"): the super admin builds a role from a few menus and buttons and an
 * operator holding it; the operator sees exactly that, is refused other pages, works with tabs,
 * leaves a trail in 运营账号审计; disabling an account throws its open session out at its next call.
 * Three browsers: super admin, operator, participant (staff realms allow one session each).
 */
let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.stop();
});

const ROLE = { code: 'OPS_E2E', name: '运营专员' };
const OPERATOR = { username: 'opse2e', name: '运营一号' };
const PARTICIPANT = { username: 'demo2', password: 'Demo@2025' };

async function staffLogin(page: Page, username: string, password: string): Promise<void> {
  await page.goto(`${portal.url}/admin/login`);
  await page.getByTestId('staff-login-submit').waitFor();
  await page.getByPlaceholder('请输入用户名', { exact: true }).fill(username);
  await page.getByPlaceholder('请输入密码', { exact: true }).fill(password);
  await page.getByTestId('staff-login-submit').click();
  await solveSlider(page);
  await page.waitForURL('**/admin/home');
}

async function participantLogin(page: Page): Promise<void> {
  await page.goto(portal.url);
  await page.getByRole('button', { name: '登 录' }).or(page.getByRole('button', { name: '登录' })).first().click();
  const modal = page.getByTestId('auth-modal');
  await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(PARTICIPANT.username);
  await modal.getByPlaceholder('请输入密码', { exact: true }).fill(PARTICIPANT.password);
  await submitLogin(page, modal);
  await solveSlider(page);
  // demo2 has submitted a sign-up: the centre opens on its detail page.
  await page.waitForURL('**/my-sign**');
}

const tabLabels = (page: Page) => page.locator('[data-testid="console-tabs"] [data-tab-path]').allInnerTexts();
/** Top-level entries of the console menu (inline menu: submenus are their own titles). */
const topMenu = (page: Page) => page.locator('[data-testid="console-menu"] > li > .ant-menu-submenu-title, [data-testid="console-menu"] > li.ant-menu-item').allInnerTexts();
const row = (scope: Page | Locator, text: string) => scope.locator('tr.ant-table-row').filter({ hasText: text });
const openDialog = (page: Page) => page.locator('.ant-modal-wrap:not([style*="display: none"]) .ant-modal').last();

async function confirm(page: Page): Promise<void> {
  await page.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  await page.locator('.ant-modal-confirm').waitFor({ state: 'detached' });
}

/** Ticks a node of the role's permission tree by its title. */
async function tick(drawer: Locator, title: string): Promise<void> {
  const node = drawer.locator('.ant-tree-treenode').filter({ has: drawer.page().locator('.ant-tree-title', { hasText: new RegExp(`^${title}$`) }) });
  await node.locator('.ant-tree-checkbox').first().click();
}

function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    // A refused call is logged by the browser itself ("Failed to load resource"): expected here.
    if (msg.type() === 'error' && !msg.text().includes('Failed to load resource')) errors.push(msg.text());
  });
  return errors;
}

describe('roles, operators and forced sign-out', () => {
  let admin: Browser;
  let op: Browser;
  let user: Browser;
  let operatorPassword = '';
  let adminErrors: string[] = [];
  let opErrors: string[] = [];

  afterAll(async () => {
    for (const b of [admin, op, user]) await b?.close();
  });

  it('the super admin creates a role with a few menus and buttons', async () => {
    admin = await openBrowser();
    adminErrors = collectErrors(admin.page);
    await staffLogin(admin.page, 'admin', 'Admin@2025');
    await admin.page.goto(`${portal.url}/admin/system/roleManage`);
    const roles = admin.page.getByTestId('roles-page');
    await roles.getByText('SUPER_ADMIN').waitFor();
    await roles.getByRole('button', { name: /新增角色/ }).click();
    const form = admin.page.getByTestId('role-form');
    await form.waitFor();
    await form.getByLabel('角色编码').fill(ROLE.code);
    await form.getByLabel('角色名称').fill(ROLE.name);
    for (const title of ['首页', '注册用户管理', '查看注册用户', '禁用/启用注册用户', '我的账号']) await tick(form, title);
    await form.getByRole('button', { name: '确认' }).click();
    await row(roles, ROLE.code).waitFor();
    await admin.screenshot('admin-roles-created');
  });

  it('creates an operator holding the role; the password is shown once', async () => {
    const page = admin.page;
    await page.getByTestId('console-menu').getByText('系统账号', { exact: true }).click();
    await page.waitForURL('**/admin/system/systemManage');
    const accounts = page.getByTestId('system-accounts-page');
    await row(accounts, 'admin').first().waitFor();
    await accounts.getByRole('button', { name: /新增账号/ }).click();
    const dialog = openDialog(page);
    await dialog.getByLabel('用户名').fill(OPERATOR.username);
    await dialog.getByLabel('姓名').fill(OPERATOR.name);
    await dialog.getByRole('combobox').click();
    await page.locator('.ant-select-item-option').filter({ hasText: ROLE.name }).click();
    await page.keyboard.press('Escape');
    await dialog.getByRole('button', { name: '确认' }).click();
    const generated = page.getByTestId('generated-password');
    await generated.waitFor();
    operatorPassword = (await generated.innerText()).trim();
    expect(operatorPassword).toMatch(/^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*?&]).{8,16}$/);
    await admin.screenshot('admin-operator-password');
    await openDialog(page).getByRole('button', { name: '确认' }).click();
    await row(accounts, OPERATOR.username).waitFor();
    expect(await row(accounts, OPERATOR.username).innerText()).toContain(ROLE.name);
    // The generated password is changed at the first login (docs/security.md; walked in the
    // browser by account-reach.e2e.ts): done here through the API.
    operatorPassword = await ownPassword(portal.url, 'admin', OPERATOR.username, operatorPassword);
  });

  it('the operator sees only those menus and buttons; another page goes to /404', async () => {
    op = await openBrowser();
    opErrors = collectErrors(op.page);
    await staffLogin(op.page, OPERATOR.username, operatorPassword);
    await op.page.getByTestId('console-menu').waitFor();
    expect(await topMenu(op.page)).toEqual(['首页', '注册用户管理', '账号管理']);
    await op.page.getByTestId('admin-home').getByTestId('home-stat-users').waitFor();

    await op.page.getByTestId('console-menu').getByText('注册用户管理', { exact: true }).click();
    await op.page.waitForURL('**/admin/user/team');
    const users = op.page.getByTestId('registered-users-page');
    // Fourteen demo participants fill more than the first page: find demo2 as an operator would.
    await users.getByLabel('用户名').fill(PARTICIPANT.username);
    await users.getByRole('button', { name: /查\s*询/ }).click();
    const demo = row(users, PARTICIPANT.username);
    await demo.waitFor();
    expect(await demo.getByRole('button', { name: '详情' }).count()).toBe(1);
    expect(await demo.getByRole('button', { name: '禁用' }).count()).toBe(1);
    expect(await demo.getByRole('button', { name: '重置密码' }).count()).toBe(0);
    expect(await users.getByRole('button', { name: /导出/ }).count()).toBe(0);
    await op.screenshot('admin-operator-users');

    for (const path of ['/admin/system/roleManage', '/admin/system/systemManage', '/admin/behaviorAuditing/AdminManage']) {
      await op.page.goto(`${portal.url}${path}`);
      await op.page.waitForURL('**/404');
      await op.page.getByTestId('not-found').waitFor();
    }
  });

  it('opens, closes and refreshes tabs, and keeps them over a reload', async () => {
    const page = op.page;
    await page.goto(`${portal.url}/admin/home`);
    const menu = page.getByTestId('console-menu');
    await menu.waitFor();
    await menu.getByText('注册用户管理', { exact: true }).click();
    await page.waitForURL('**/admin/user/team');
    await menu.getByText('账号管理', { exact: true }).click();
    await menu.getByText('我的账号', { exact: true }).click();
    await page.waitForURL('**/admin/account/accountManage');
    await page.getByTestId('my-account-page').waitFor();
    expect(await tabLabels(page)).toEqual(['首页', '注册用户管理', '我的账号']);

    // Close 注册用户管理 with its own close button.
    await page.locator('[data-testid="console-tabs"] .ant-tabs-tab').filter({ hasText: '注册用户管理' }).locator('.ant-tabs-tab-remove').click();
    await expect.poll(() => tabLabels(page)).toEqual(['首页', '我的账号']);
    expect(new URL(page.url()).pathname).toBe('/admin/account/accountManage');

    // Refresh remounts the page (its form loses what was typed) and keeps the tabs.
    const name = page.getByTestId('my-account-page').getByLabel('姓名');
    await expect.poll(() => name.inputValue()).toBe(OPERATOR.name);
    await name.fill('未保存的名字');
    await page.getByTestId('tabs-refresh').click();
    await expect.poll(() => page.getByTestId('my-account-page').getByLabel('姓名').inputValue()).toBe(OPERATOR.name);
    expect(await tabLabels(page)).toEqual(['首页', '我的账号']);

    await page.reload();
    await page.getByTestId('my-account-page').waitFor();
    expect(await tabLabels(page)).toEqual(['首页', '我的账号']);
    await page.locator('[data-testid="console-tabs"] [data-tab-path="/admin/home"]').click();
    await page.waitForURL('**/admin/home');
  });

  it('the operator disables a signed-in participant, who is thrown out at the next call', async () => {
    user = await openBrowser();
    await participantLogin(user.page);

    // The operator also edits their profile: another audited write.
    const page = op.page;
    await page.goto(`${portal.url}/admin/account/accountManage`);
    const profile = page.getByTestId('my-account-page');
    await expect.poll(() => profile.getByLabel('姓名').inputValue()).toBe(OPERATOR.name);
    await profile.getByLabel('姓名').fill(`${OPERATOR.name}（已改）`);
    await profile.getByRole('button', { name: '保存' }).click();
    await page.getByText('保存成功').first().waitFor();

    await page.goto(`${portal.url}/admin/user/team`);
    const users = page.getByTestId('registered-users-page');
    await users.getByLabel('用户名').fill(PARTICIPANT.username);
    await users.getByRole('button', { name: /查\s*询/ }).click();
    // The query's answer is in (the list shows that one user only) before pressing 禁用: a click
    // while the unfiltered list is replaced lands on a row being swapped out.
    await expect.poll(() => users.locator('tr.ant-table-row').allInnerTexts()).toEqual([expect.stringContaining(PARTICIPANT.username)]);
    const demo = row(users, PARTICIPANT.username);
    await demo.getByRole('button', { name: '禁用' }).click();
    await confirm(page);
    await demo.getByRole('button', { name: '启用' }).waitFor();

    // The participant's next call (a page of the centre) is refused: token gone, login dialog on /.
    await user.page.getByTestId('participant-nav').getByText('我的消息').click();
    await user.page.getByTestId('auth-modal').waitFor();
    await user.page.waitForURL((url) => url.pathname === '/');
    expect(await user.page.evaluate(() => localStorage.getItem('AccessToken'))).toBeNull();
    await user.screenshot('admin-disabled-participant');
  });

  it('the operator\u2019s actions appear in 运营账号审计', async () => {
    const page = admin.page;
    await page.goto(`${portal.url}/admin/behaviorAuditing/AdminManage`);
    const audit = page.getByTestId('audit-page-admin');
    await audit.waitFor();
    await audit.getByRole('tab', { name: '操作记录' }).click();
    const disable = row(audit, `禁用注册用户 ${PARTICIPANT.username}`);
    await disable.waitFor();
    // Operations show by name (the code stays in the cell's title, for the 操作 filter).
    expect(await disable.innerText()).toMatch(new RegExp(`${OPERATOR.username}\\s+禁用注册用户`));
    expect(await disable.locator('[title="user:disable"]').count()).toBe(1);
    expect(await row(audit, '编辑个人信息').filter({ hasText: OPERATOR.username }).count()).toBe(1);
    // The super admin's own writes are there too.
    expect(await row(audit, `新增角色 ${ROLE.code}`).count()).toBe(1);
    expect(await row(audit, `新增系统账号 ${OPERATOR.username}`).count()).toBe(1);
    await admin.screenshot('admin-audit-operations');
  });

  it('a disabled operator is thrown out at the next call', async () => {
    const page = admin.page;
    await page.goto(`${portal.url}/admin/system/systemManage`);
    const operator = row(page.getByTestId('system-accounts-page'), OPERATOR.username);
    await operator.getByRole('button', { name: '禁用' }).click();
    await confirm(page);
    await operator.getByRole('button', { name: '启用' }).waitFor();

    // The operator is still on 注册用户管理: pressing 查询 is the next call.
    expect(new URL(op.page.url()).pathname).toBe('/admin/user/team');
    await op.page.getByTestId('registered-users-page').getByRole('button', { name: '查询' }).click();
    await op.page.waitForURL('**/admin/login');
    expect(await op.page.evaluate(() => localStorage.getItem('AdminToken'))).toBeNull();
    expect(opErrors).toEqual([]);
    expect(adminErrors).toEqual([]);
  });
});
