import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api } from '../../lib/api';
import { ok } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';
import type { StaffInfo } from '../../lib/session';
import { ADMIN_MENUS, type MenuSeed } from '@contest/shared';
import { menuTree, operator, superAdmin } from '../../components/admin-kit/staff-fixtures';

function signIn(info: StaffInfo, answers: Record<string, unknown> = {}) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(info);
    if (url in answers) return ok(answers[url]);
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (get: { mock: { calls: unknown[][] } }, url: string) => get.mock.calls.filter(([u]) => u === url).length;

const storedTabs = () => JSON.parse(localStorage.getItem('adminTabs') ?? '[]') as { path: string; title: string }[];
const tabLabels = () =>
  Array.from(screen.getByTestId('console-tabs').querySelectorAll('[data-tab-path]')).map((el) => el.textContent);

describe('admin layout', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the header, the menu from the server and a tab for the page', async () => {
    signIn(superAdmin());
    renderRoute('/admin/home');
    expect(await screen.findByText('超级管理员', {}, { timeout: 15_000 })).toBeTruthy();
    const menu = await screen.findByTestId('console-menu', {}, { timeout: 15_000 });
    for (const name of ['首页', '注册用户管理', '报名管理', '系统管理', '账号管理']) {
      expect(within(menu).getByText(name)).toBeTruthy();
    }
    expect(screen.getByRole('link', { name: /大赛管理后台/ }).getAttribute('href')).toBe('/admin/home');
    await waitFor(() => expect(tabLabels()).toEqual(['首页']));
    expect(storedTabs()).toEqual([{ path: '/admin/home', title: 'admin:titles.home' }]);
    expect(screen.getByRole('heading', { level: 1, name: '首页' })).toBeTruthy();
  });

  it('opens pages from the menu as tabs, restores them after a reload, and closes them', async () => {
    signIn(superAdmin());
    const first = renderRoute('/admin/home');
    const menu = await screen.findByTestId('console-menu', {}, { timeout: 15_000 });
    fireEvent.click(within(menu).getByText('消息管理'));
    fireEvent.click(await within(menu).findByText('用户反馈'));
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/admin/information/UserFeedback'));
    await waitFor(() => expect(tabLabels()).toEqual(['首页', '用户反馈']));
    first.unmount();

    const second = renderRoute('/admin/system/dataField');
    await waitFor(() => expect(tabLabels()).toEqual(['首页', '用户反馈', '数据字典']));

    // Clicking a tab opens its page.
    fireEvent.click(screen.getByText('用户反馈', { selector: '[data-tab-path] , [data-tab-path] *' }));
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/admin/information/UserFeedback'));

    // Closing the current tab shows its neighbour.
    await waitFor(() => expect(screen.getByRole('tab', { name: '用户反馈' }).getAttribute('aria-selected')).toBe('true'));
    const current = screen.getByRole('tab', { name: '用户反馈' }).closest('.ant-tabs-tab')!;
    fireEvent.click(current.querySelector('.ant-tabs-tab-remove')!);
    await waitFor(() => expect(second.router.state.location.pathname).toBe('/admin/system/dataField'));
    await waitFor(() => expect(tabLabels()).toEqual(['首页', '数据字典']));
  });

  it('closes the other tabs, closes all tabs (back home) and refreshes the current one', async () => {
    localStorage.setItem(
      'adminTabs',
      JSON.stringify([
        { path: '/admin/home', title: 'admin:titles.home' },
        { path: '/admin/system/roleManage', title: 'admin:titles.roleManage' },
        { path: '/admin/user/docManage', title: 'admin:titles.docManage' },
      ]),
    );
    const get = signIn(superAdmin(), { '/admin/role/list': [] });
    const { router } = renderRoute('/admin/system/roleManage');
    await waitFor(() => expect(tabLabels()).toEqual(['首页', '角色管理', '文档管理']));
    await waitFor(() => expect(callsTo(get, '/admin/role/list')).toBe(1));

    // Refresh: the page is mounted again and its data fetched again.
    const page = screen.getByTestId('console-page');
    fireEvent.click(screen.getByTestId('tabs-refresh'));
    await waitFor(() => expect(screen.getByTestId('console-page')).not.toBe(page));
    await waitFor(() => expect(callsTo(get, '/admin/role/list')).toBe(2));

    fireEvent.click(screen.getByTestId('tabs-close-others'));
    await waitFor(() => expect(tabLabels()).toEqual(['角色管理']));

    fireEvent.click(screen.getByTestId('tabs-close-all'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
    await waitFor(() => expect(tabLabels()).toEqual(['首页']));
  });

  it.each([
    ['/admin/competition', '/admin/competition/qualification'],
    ['/admin/preliminary', '/admin/preliminary/preliminaryBox'],
    ['/admin/grade', '/admin/grade/gradeManage-grade'],
    ['/admin/information', '/admin/information/NoteManage'],
    ['/admin/account', '/admin/account/accountManage'],
    ['/admin', '/admin/home'],
  ])('redirects %s to %s', async (from, to) => {
    signIn(superAdmin());
    const { router } = renderRoute(from);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
  });

  // Menu groups the spec gives no redirect open their first permitted entry, read from the menu
  // data (a group or entry added later needs no route of its own).
  const SPEC_REDIRECTS = ['/admin/competition', '/admin/preliminary', '/admin/grade', '/admin/information', '/admin/account'];
  it.each(
    (ADMIN_MENUS as readonly MenuSeed[]).filter((m) => m.children?.length && !SPEC_REDIRECTS.includes(m.path)).map((m) => [m.path, m.children![0]!.path]),
  )('opens the first entry of the menu group %s (%s)', async (from, to) => {
    signIn(superAdmin());
    const { router } = renderRoute(from);
    await waitFor(() => expect(router.state.location.pathname).toBe(to));
    expect(screen.queryByTestId('not-found')).toBeNull();
  });

  it('opens the first entry of a group the account may use, not the first of the group', async () => {
    const menus = menuTree(ADMIN_MENUS).map((m) =>
      m.code === 'behaviorAuditing' ? { ...m, children: m.children.filter((c) => c.code === 'ExpertManage') } : m,
    );
    signIn(superAdmin({ menus }));
    const { router } = renderRoute('/admin/behaviorAuditing/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/behaviorAuditing/ExpertManage'));
  });

  it('shows an unknown admin path as a 404 inside the console, with a way back to its home', async () => {
    signIn(superAdmin());
    const { router } = renderRoute('/admin/no-such-page');
    const notFound = await screen.findByTestId('console-not-found', {}, { timeout: 15_000 });
    // Inside the console: its header and menu stay, the public site's 404 is not shown.
    expect(screen.getByTestId('console-page').contains(notFound)).toBe(true);
    expect(screen.getByTestId('console-menu')).toBeTruthy();
    expect(screen.queryByTestId('not-found')).toBeNull();
    expect(router.state.location.pathname).toBe('/admin/no-such-page');
    fireEvent.click(within(notFound).getByRole('button', { name: '返回控制台首页' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/home'));
  });

  it('sends a group the account has no entry of to the console 404', async () => {
    signIn(operator(['home']));
    const { router } = renderRoute('/admin/system');
    expect(await screen.findByTestId('console-not-found', {}, { timeout: 15_000 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/admin/system');
  });

  it('sends a page outside the account menus to /404', async () => {
    signIn(operator(['home', 'system']));
    const { router } = renderRoute('/admin/user/team');
    await waitFor(() => expect(router.state.location.pathname).toBe('/404'));
    expect(await screen.findByTestId('not-found')).toBeTruthy();
  });

  it('opens a detail page (not in menu) even without its menu', async () => {
    signIn(operator(['home']));
    const { router } = renderRoute('/admin/preliminary/detail/42');
    // The page itself (now a real one) may fail to load its record here; its tab opens all the same.
    await waitFor(() => expect(tabLabels()).toContain('初赛项目详情'), { timeout: 15_000 });
    expect(screen.queryByTestId('not-found')).toBeNull();
    expect(router.state.location.pathname).toBe('/admin/preliminary/detail/42');
  });

  it('goes to the first permitted entry when home is not granted', async () => {
    signIn(operator(['system']));
    const { router } = renderRoute('/admin/home');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/system/systemManage'));
  });

  it('warns 暂无分配权限, drops the token and returns to login when there are no menus', async () => {
    signIn(operator([]));
    const { router } = renderRoute('/admin/home');
    expect(await screen.findByText('暂无分配权限')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(localStorage.getItem('AdminToken')).toBeNull();
  });

  it('logs out: token and tabs removed, back to login', async () => {
    signIn(superAdmin());
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    const { router } = renderRoute('/admin/home');
    await waitFor(() => expect(storedTabs()).toHaveLength(1));
    fireEvent.mouseEnter(await screen.findByTestId('staff-account'));
    fireEvent.click(await screen.findByTestId('console-logout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/login'));
    expect(localStorage.getItem('AdminToken')).toBeNull();
    expect(localStorage.getItem('adminTabs')).toBeNull();
    expect(fetchSpy).toHaveBeenCalledWith('/api/logout', expect.objectContaining({ method: 'POST' }));
  });

  it('collapses the menu and remembers it', async () => {
    signIn(superAdmin());
    renderRoute('/admin/home');
    await screen.findByTestId('console-menu', {}, { timeout: 15_000 });
    fireEvent.click(screen.getByTestId('console-nav-toggle'));
    await waitFor(() => expect(localStorage.getItem('navVisible')).toBe('false'));
    expect(screen.getByTestId('console-nav-toggle').getAttribute('aria-expanded')).toBe('false');
  });

  it('shows no watermark for admins', async () => {
    signIn(superAdmin());
    renderRoute('/admin/home');
    await screen.findByTestId('console-menu', {}, { timeout: 15_000 });
    expect(screen.queryByTestId('console-watermark')).toBeNull();
  });

  it('labels menus and tabs in English', async () => {
    signIn(superAdmin());
    renderRoute('/admin/system/roleManage', { search: '?lang=en' });
    const menu = await screen.findByTestId('console-menu', {}, { timeout: 15_000 });
    expect(within(menu).getByText('Roles')).toBeTruthy();
    await waitFor(() => expect(tabLabels()).toEqual(['Roles']));
  });
});
