import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { createHttpClient } from '../api';
import { api } from './api';
import { ok, participantInfo } from '../test/api-mocks';
import { hasPermission, Permission, type RequiredCode } from './permission';
import { renderKit } from '../components/admin-kit/render-kit';
import { operator } from '../components/admin-kit/staff-fixtures';

const ops = { roles: ['SYSTEM', 'OPS'], codes: ['user:view', 'user:export'] };

describe('hasPermission', () => {
  it('keeps an element when one of the required codes is held', () => {
    expect(hasPermission(ops, { codes: ['user:export', 'role:edit'] })).toBe(true);
    expect(hasPermission(ops, { codes: ['role:edit'] })).toBe(false);
  });

  it("lets '*' allow everything, on either side", () => {
    expect(hasPermission({ roles: ['USER'], codes: ['*'] }, { codes: ['role:edit'] })).toBe(true);
    expect(hasPermission(ops, { codes: ['*'] })).toBe(true);
  });

  it('takes only codes of the shared menu tree (a misspelt one does not compile)', () => {
    // @ts-expect-error 'user:veiw' is no ButtonCode or MenuCode: the type check fails if this line compiles.
    expect(hasPermission(ops, { codes: ['user:veiw'] })).toBe(false);
    expect(hasPermission(ops, { codes: ['userTeam' satisfies RequiredCode] })).toBe(false);
  });

  it('removes nothing without a list', () => {
    expect(hasPermission(ops)).toBe(true);
    expect(hasPermission(ops, { codes: [] })).toBe(true);
    expect(hasPermission(null, {})).toBe(true);
  });

  it('checks roles, and both lists when both are given', () => {
    expect(hasPermission(ops, { roles: ['SUPER_ADMIN'] })).toBe(false);
    expect(hasPermission(ops, { roles: ['OPS'] })).toBe(true);
    expect(hasPermission(ops, { roles: ['OPS'], codes: ['role:edit'] })).toBe(false);
  });

  it('hides a guarded element while the user is unknown', () => {
    expect(hasPermission(null, { codes: ['user:view'] })).toBe(false);
  });
});

describe('<Permission>', { timeout: 20_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('uses the admin buttons on admin pages', async () => {
    localStorage.setItem('AdminToken', 't');
    vi.spyOn(api, 'get').mockResolvedValue(ok(operator(['home'], ['user:view'])));
    renderKit(
      <>
        <Permission codes={['user:view']}>
          <span>可见</span>
        </Permission>
        <Permission codes={['user:export']} fallback={<span>无权限</span>}>
          <span>导出</span>
        </Permission>
      </>,
    );
    expect(await screen.findByText('可见')).toBeTruthy();
    expect(screen.getByText('无权限')).toBeTruthy();
    expect(screen.queryByText('导出')).toBeNull();
  });

  it("uses the participant's permissionCodeList on participant pages", async () => {
    localStorage.setItem('AccessToken', 't');
    const get = vi.spyOn(api, 'get').mockResolvedValue(ok(participantInfo()));
    renderKit(
      <Permission codes={['user:view']}>
        <span>参赛者可见</span>
      </Permission>,
      { path: '/my-sign' },
    );
    expect(await screen.findByText('参赛者可见')).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/user/account');
  });
});

/**
 * The app's client over a fake server that knows one token per realm: it picks the token by
 * the page URL and handles a 401 like the real one (the admin's drops the AdminToken).
 */
function fakeServer(accounts: Record<string, { token: string; info: unknown }>) {
  const sent: { url: string; authorization: string | null }[] = [];
  const navigate = vi.fn<(path: string) => void>();
  const client = createHttpClient({
    getPathname: () => window.location.pathname,
    storage: localStorage,
    ui: { error: () => {}, closeAll: () => {}, confirm: async () => true },
    navigate,
    openLogin: () => {},
    adapter: async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
      const authorization = String(config.headers.get('Authorization') ?? '') || null;
      sent.push({ url: config.url ?? '', authorization });
      const account = accounts[config.url ?? ''];
      const body =
        account && authorization === `Bearer ${account.token}`
          ? ok(account.info)
          : { status: 401, code: 'UNAUTHORIZED', message: '登录已失效', data: null };
      return { data: body, status: 200, statusText: 'OK', headers: {}, config, request: {} };
    },
  });
  vi.spyOn(api, 'get').mockImplementation(((url: string, config?: object) => client.get(url, config)) as typeof api.get);
  return { sent, navigate };
}

describe('<Permission> with several sessions in one browser', { timeout: 20_000 }, () => {
  const startUrl = window.location.href;
  afterEach(() => {
    vi.restoreAllMocks();
    window.history.replaceState(null, '', startUrl);
  });

  it("keeps the admin signed in on admin pages when a participant's AccessToken is stored too", async () => {
    localStorage.setItem('AdminToken', 'admin-token');
    localStorage.setItem('AccessToken', 'user-token');
    localStorage.setItem('ExpertToken', 'expert-token');
    window.history.replaceState(null, '', '/admin/system/roleManage');
    const { sent, navigate } = fakeServer({
      '/admin/user/account': { token: 'admin-token', info: operator(['system'], ['role:edit']) },
      '/user/account': { token: 'user-token', info: participantInfo() },
    });
    renderKit(
      <Permission codes={['role:edit']}>
        <span>新增角色</span>
      </Permission>,
      { path: '/admin/system/roleManage' },
    );
    expect(await screen.findByText('新增角色')).toBeTruthy();
    // Give a stray participant (or expert) info call the time to come back with its 401.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(localStorage.getItem('AdminToken')).toBe('admin-token');
    expect(navigate).not.toHaveBeenCalled();
    expect(localStorage.getItem('AccessToken')).toBe('user-token');
    expect(sent).toEqual([{ url: '/admin/user/account', authorization: 'Bearer admin-token' }]);
  });

  it("loads the participant's info on participant pages when an AdminToken is stored too", async () => {
    localStorage.setItem('AdminToken', 'admin-token');
    localStorage.setItem('AccessToken', 'user-token');
    window.history.replaceState(null, '', '/my-sign');
    const { sent } = fakeServer({ '/user/account': { token: 'user-token', info: participantInfo() } });
    renderKit(
      <Permission codes={['user:view']}>
        <span>参赛者可见</span>
      </Permission>,
      { path: '/my-sign' },
    );
    expect(await screen.findByText('参赛者可见')).toBeTruthy();
    expect(sent).toEqual([{ url: '/user/account', authorization: 'Bearer user-token' }]);
    expect(localStorage.getItem('AdminToken')).toBe('admin-token');
  });
});
