/**
 * 注册用户管理, 系统账号 and 行为审计 are console lists of the admin kit (CONTRIBUTING.md, "Adding a
 * console list page"): the applied filters are the URL's, a pasted link or 后退 shows the same
 * list and form, and the export sends the filters the list shows.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { LoginRecordView, Page, RegisteredUser, RoleSummary, SystemAccount } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { superAdmin } from '../../../components/admin-kit/staff-fixtures';

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
// After a search or 后退 the list renders again; on a busy machine that can take more than waitFor's default 1 s.
const WAIT = { timeout: 10_000 };

const ROLE_ID = '00000000-0000-4000-8000-000000000002';
const role: RoleSummary = {
  id: ROLE_ID,
  code: 'OPS',
  name: '运营人员',
  description: null,
  builtin: false,
  accountCount: 1,
  createdAt: '2025-05-01T00:00:00Z',
  updatedAt: '2025-05-01T00:00:00Z',
};

const account: SystemAccount = {
  id: '00000000-0000-4000-8000-000000000010',
  username: 'ops1',
  name: '运营一号',
  phone: null,
  email: null,
  code: null,
  roleCode: 'SYSTEM',
  enabled: false,
  roles: [{ id: role.id, code: role.code, name: role.name }],
  lastLoginAt: null,
  createdAt: '2025-05-01T00:00:00Z',
  updatedAt: '2025-05-01T00:00:00Z',
};

const user: RegisteredUser = {
  id: '00000000-0000-4000-8000-000000000020',
  username: 'demo1',
  name: null,
  phone: null,
  email: null,
  enabled: true,
  createdAt: '2025-05-02T00:00:00Z',
  lastLoginAt: null,
  team: null,
};

/** GETs answered by path; a file for the export. */
function mockGet(routes: Record<string, unknown>) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { responseType?: string }) => {
    if (url === '/admin/user/account') return ok(superAdmin());
    if (config?.responseType === 'blob') return { blob: new Blob(['xlsx']), fileName: '注册用户.xlsx' } as never;
    if (url in routes) return ok(routes[url]);
    throw new Error(`unexpected GET ${url}`);
  });
}

const searchParams = (router: ReturnType<typeof renderRoute>['router']) =>
  Object.fromEntries(new URLSearchParams(router.state.location.search));
const form = () => screen.getByTestId('kit-search-form');
const input = (label: string) => within(form()).getByLabelText(label) as HTMLInputElement;
/** The two ends of the form's range picker. */
const rangeValues = () => Array.from(form().querySelectorAll<HTMLInputElement>('.ant-picker input')).map((i) => i.value);
/** The label the select of the form item shows. */
const selected = (label: string) => input(label).closest('.ant-select')!.querySelector('.ant-select-content')?.textContent;

describe('console lists on the admin kit', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('注册用户管理: filters come from the URL, go into it, come back with 后退, and the export sends them', async () => {
    const get = mockGet({ '/admin/user/list': page([user]) });
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const { router } = renderRoute('/admin/user/team?username=demo&teamStatus=NONE&from=2025-05-01&to=2025-05-31');
    expect(await screen.findByText('demo1', {}, SLOW)).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/admin/user/list', {
      params: { username: 'demo', teamStatus: 'NONE', from: '2025-05-01', to: '2025-05-31', page: 1, size: 10 },
    });
    await waitFor(() => expect(input('用户名').value).toBe('demo'), WAIT);
    expect(selected('报名状态')).toBe('未报名');
    expect(rangeValues()).toEqual(['2025-05-01', '2025-05-31']);

    fireEvent.change(input('手机号'), { target: { value: '138' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(searchParams(router)).toEqual({ username: 'demo', phone: '138', teamStatus: 'NONE', from: '2025-05-01', to: '2025-05-31' }), WAIT);
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/admin/user/list', {
        params: { username: 'demo', phone: '138', teamStatus: 'NONE', from: '2025-05-01', to: '2025-05-31', page: 1, size: 10 },
      }),
      WAIT,
    );

    fireEvent.click(screen.getByRole('button', { name: /导出/ }));
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/admin/user/export', {
        params: { username: 'demo', phone: '138', teamStatus: 'NONE', from: '2025-05-01', to: '2025-05-31' },
        responseType: 'blob',
      }),
      WAIT,
    );

    await router.navigate(-1);
    await waitFor(() => expect(input('手机号').value).toBe(''), WAIT);
    expect(input('用户名').value).toBe('demo');
    expect(searchParams(router)).toEqual({ username: 'demo', teamStatus: 'NONE', from: '2025-05-01', to: '2025-05-31' });
  });

  it('系统账号: filters come from the URL, go into it and come back with 后退', async () => {
    const get = mockGet({ '/admin/system/account': page([account]), '/admin/role/list': [role] });
    const { router } = renderRoute(`/admin/system/systemManage?roleId=${ROLE_ID}&enabled=false`);
    expect(await screen.findByText('ops1', {}, SLOW)).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/admin/system/account', { params: { roleId: ROLE_ID, enabled: 'false', page: 1, size: 10 } });
    await waitFor(() => expect(selected('角色')).toBe('运营人员'), WAIT);
    expect(selected('状态')).toBe('禁用');

    fireEvent.change(input('姓名'), { target: { value: '运营' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(searchParams(router)).toEqual({ name: '运营', roleId: ROLE_ID, enabled: 'false' }), WAIT);
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/admin/system/account', { params: { name: '运营', roleId: ROLE_ID, enabled: 'false', page: 1, size: 10 } }),
      WAIT,
    );
    // No export on this page: the server has none for system accounts.
    expect(screen.queryByRole('button', { name: /导出/ })).toBeNull();

    await router.navigate(-1);
    await waitFor(() => expect(input('姓名').value).toBe(''), WAIT);
    expect(selected('角色')).toBe('运营人员');
  });

  it('行为审计: the tab and its filters come from the URL and go into it; the realm is the page\'s', async () => {
    const get = mockGet({ '/admin/audit/login-records': page([]), '/admin/audit/operation-records': page([]) });
    const { router } = renderRoute(
      '/admin/behaviorAuditing/UserManage?tab=operation&action=account%3A&result=FAILURE&from=2025-05-01%2008%3A00%3A00&to=2025-05-02%2018%3A00%3A00',
    );
    await waitFor(
      () =>
        expect(get).toHaveBeenCalledWith('/admin/audit/operation-records', {
          params: { realm: 'USER', action: 'account:', result: 'FAILURE', from: '2025-05-01 08:00:00', to: '2025-05-02 18:00:00', page: 1, size: 10 },
        }),
      SLOW,
    );
    expect(screen.getByRole('tab', { name: '操作记录', selected: true })).toBeTruthy();
    await waitFor(() => expect(input('操作').value).toBe('account:'), WAIT);
    expect(input('操作').placeholder).toBe('account:');
    expect(selected('结果')).toBe('失败');
    expect(rangeValues()).toEqual(['2025-05-01 08:00:00', '2025-05-02 18:00:00']);

    fireEvent.change(input('账号'), { target: { value: 'demo' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(searchParams(router)).toEqual({
        tab: 'operation', username: 'demo', action: 'account:', result: 'FAILURE', from: '2025-05-01 08:00:00', to: '2025-05-02 18:00:00',
      }),
      WAIT,
    );
    // The list asked with the new filter: the page shows the searched state before going back.
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/admin/audit/operation-records', {
        params: { realm: 'USER', username: 'demo', action: 'account:', result: 'FAILURE', from: '2025-05-01 08:00:00', to: '2025-05-02 18:00:00', page: 1, size: 10 },
      }),
      WAIT,
    );
    await router.navigate(-1);
    await waitFor(() => expect(input('账号').value).toBe(''), WAIT);

    // The other tab starts unfiltered; its own filters go into the URL, never the realm.
    fireEvent.click(screen.getByRole('tab', { name: '登录记录' }));
    await waitFor(() => expect(searchParams(router)).toEqual({}), WAIT);
    await waitFor(() => expect(get).toHaveBeenCalledWith('/admin/audit/login-records', { params: { realm: 'USER', page: 1, size: 10 } }), WAIT);
    fireEvent.change(input('账号'), { target: { value: 'u1' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(searchParams(router)).toEqual({ username: 'u1' }), WAIT);
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/admin/audit/login-records', { params: { realm: 'USER', username: 'u1', page: 1, size: 10 } }),
      WAIT,
    );
  });

  it('行为审计 in English: login results as tags and in the filter, not the Chinese labels', async () => {
    const record: LoginRecordView = {
      id: 'r1', realm: 'USER', accountId: null, identifier: 'demo1', username: 'demo1', name: null, method: 'PASSWORD',
      result: 'BAD_CREDENTIALS', ip: '127.0.0.1', userAgent: null, createdAt: '2025-05-01T00:00:00Z',
    };
    mockGet({ '/admin/audit/login-records': page([record]) });
    renderRoute('/admin/behaviorAuditing/UserManage?result=LOCKED', { search: '?lang=en' });
    expect(await screen.findByText('Wrong password', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(selected('Result')).toBe('Account locked'), WAIT);
    expect(screen.queryByText('密码错误')).toBeNull();
    // Times on the Beijing clock whatever the device's zone, and the column says so.
    expect(screen.getAllByRole('cell').map((cell) => cell.textContent)).toContain('2025-05-01 08:00:00');
    expect(screen.getByRole('columnheader', { name: 'Time (Beijing time)' })).toBeTruthy();
  });
});
