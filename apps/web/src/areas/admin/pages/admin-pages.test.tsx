import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN_MSG, ROLE_REFUSAL, type AdminDashboard, type Page, type PermissionTreeNode, type RegisteredUser, type RoleSummary, type SystemAccount } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../../lib/session';
import { BUTTON_KEY_PREFIX, grantableKeys, toTreeData } from './RolesPage';

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };

const role: RoleSummary = {
  id: '00000000-0000-4000-8000-000000000002',
  code: 'OPS',
  name: '运营人员',
  description: null,
  builtin: false,
  accountCount: 0,
  createdAt: '2025-05-01T00:00:00Z',
  updatedAt: '2025-05-01T00:00:00Z',
};

const account: SystemAccount = {
  id: '00000000-0000-4000-8000-000000000010',
  username: 'ops1',
  name: '运营一号',
  phone: null,
  email: 'ops1@example.com',
  code: null,
  roleCode: 'SYSTEM',
  enabled: true,
  roles: [{ id: role.id, code: role.code, name: role.name }],
  lastLoginAt: null,
  createdAt: '2025-05-01T00:00:00Z',
  updatedAt: '2025-05-01T00:00:00Z',
};

const user: RegisteredUser = {
  id: '00000000-0000-4000-8000-000000000020',
  username: 'demo1',
  name: null,
  phone: '13800000001',
  email: 'demo1@example.com',
  enabled: true,
  createdAt: '2025-05-02T00:00:00Z',
  lastLoginAt: null,
  team: { id: 't1', teamName: '智慧医保队', orgName: '某某医院', status: 'SUBMITTED', track: null },
};

function mockApi(info: StaffInfo, routes: Record<string, unknown>) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(info);
    if (url in routes) return ok(routes[url]);
    throw new Error(`unexpected GET ${url}`);
  });
}

describe('admin pages', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('系统账号: lists accounts and shows the generated password once after creating one', async () => {
    const get = mockApi(superAdmin(), { '/admin/system/account': page([account]), '/admin/role/list': [role] });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok({ account: { ...account, username: 'ops2' }, password: 'Gen@2025abc' }));
    renderRoute('/admin/system/systemManage');
    expect(await screen.findByText('ops1', {}, SLOW)).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/admin/system/account', { params: { page: 1, size: 10 } });

    fireEvent.click(screen.getByRole('button', { name: /新增账号/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('请输入姓名')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText('用户名'), { target: { value: 'ops2' } });
    fireEvent.change(within(dialog).getByLabelText('姓名'), { target: { value: '运营二号' } });
    fireEvent.mouseDown(within(dialog).getByRole('combobox'));
    fireEvent.click(await screen.findByText('运营人员', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/admin/system/account',
        expect.objectContaining({ username: 'ops2', name: '运营二号', roleIds: [role.id] }),
      ),
    );
    expect((await screen.findByTestId('generated-password')).textContent).toBe('Gen@2025abc');
  });

  it('系统账号: hides the buttons the account may not use', async () => {
    mockApi(operator(['system'], []), { '/admin/system/account': page([account]), '/admin/role/list': [role] });
    renderRoute('/admin/system/systemManage');
    expect(await screen.findByText('ops1', {}, SLOW)).toBeTruthy();
    expect(screen.queryByRole('button', { name: /新增账号/ })).toBeNull();
    expect(screen.queryByRole('button', { name: '重置密码' })).toBeNull();
    expect(screen.queryByRole('button', { name: '禁用' })).toBeNull();
  });

  it('注册用户管理: shows -- for empty cells, opens the detail drawer and exports the filtered list', async () => {
    const detail = { ...user, agreedAt: null, passwordChangedAt: null, team: null };
    mockApi(superAdmin(), { '/admin/user/list': page([user]), [`/admin/user/detail/${user.id}`]: detail });
    const blob = new Blob(['xlsx'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const exportCall = vi.spyOn(api, 'get');
    const createUrl = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() });
    renderRoute('/admin/user/team');
    const row = (await screen.findByText('demo1', {}, SLOW)).closest('tr')!;
    expect(row.textContent).toContain('某某医院');
    expect(row.textContent).toContain('已提交');
    expect(Array.from(row.querySelectorAll('td')).map((td) => td.textContent)).toContain('--');

    fireEvent.click(within(row).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByTestId('user-detail');
    expect(drawer.textContent).toContain('demo1@example.com');
    expect(drawer.textContent).toContain('未报名');

    fireEvent.change(screen.getByLabelText('用户名'), { target: { value: 'demo' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(exportCall).toHaveBeenCalledWith('/admin/user/list', { params: { username: 'demo', page: 1, size: 10 } }));
    exportCall.mockImplementationOnce((async () => ({ blob, fileName: '注册用户_2025-05-02.xlsx' })) as never);
    fireEvent.click(screen.getByRole('button', { name: /导出/ }));
    await waitFor(() =>
      expect(exportCall).toHaveBeenCalledWith('/admin/user/export', { params: { username: 'demo' }, responseType: 'blob' }),
    );
    await waitFor(() => expect(createUrl).toHaveBeenCalledWith(blob));
  });

  it('注册用户管理: the drawer names dictionary codes and draws each label with one colon', async () => {
    const detail = {
      ...user,
      agreedAt: null,
      passwordChangedAt: null,
      team: {
        ...user.team!,
        track: 'SMART_SUPERVISION',
        orgType: 'MEDICAL_INSTITUTION',
        creditCode: null,
        region: 'P01',
        city: '北京市',
        leaderName: '张三',
        leaderPhone: '13800000001',
        memberCount: 3,
        submittedAt: '2025-05-03T00:00:00Z',
        updatedAt: '2025-05-03T00:00:00Z',
      },
    };
    const get = mockApi(superAdmin(), {
      '/admin/user/list': page([user]),
      [`/admin/user/detail/${user.id}`]: detail,
      '/dic/label': {
        TRACK: { SMART_SUPERVISION: '智能监管与基金安全' },
        ORG_TYPE: { MEDICAL_INSTITUTION: '医疗机构' },
        REGION: { P01: '北京市' },
      },
    });
    renderRoute('/admin/user/team');
    const row = (await screen.findByText('demo1', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '详情' }));
    const drawer = await screen.findByTestId('user-detail');
    await waitFor(() => expect(drawer.textContent).toContain('智能监管与基金安全'));
    expect(get).toHaveBeenCalledWith('/dic/label', { params: { types: ['TRACK', 'ORG_TYPE', 'REGION'], lang: 'zh-cn' } });
    expect(drawer.textContent).toContain('医疗机构');
    const region = within(drawer).getByText('所在地区').closest('.ant-descriptions-item')!;
    expect(region.querySelector('.ant-descriptions-item-content')!.textContent).toBe('北京市');
    for (const code of ['SMART_SUPERVISION', 'MEDICAL_INSTITUTION', 'P01']) expect(drawer.textContent).not.toContain(code);
    // Descriptions draws the label and its colon; the value carries no label (and no second colon) of its own.
    expect(drawer.querySelectorAll('.ant-descriptions-item-content .kit-label-value__label')).toHaveLength(0);
    expect(drawer.textContent).not.toMatch(/[:：]\s*[:：]/);
  });

  it('角色管理: lists roles and deletes one after confirming', async () => {
    mockApi(superAdmin(), { '/admin/role/list': [role] });
    const del = vi.spyOn(api, 'delete').mockResolvedValue(ok(null));
    renderRoute('/admin/system/roleManage');
    const row = (await screen.findByText('OPS', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: '删除' }));
    expect(await screen.findByText('确定删除角色 运营人员 吗？')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith(`/admin/role/${role.id}`));
  });

  it('角色管理: the role one holds cannot be edited or deleted; a refusal of the server is shown', async () => {
    const other: RoleSummary = { ...role, id: '00000000-0000-4000-8000-000000000003', code: 'NEWS', name: '新闻编辑' };
    const tree: PermissionTreeNode[] = [
      { code: 'news', name: '新闻', nameEn: 'News', path: '/news', buttons: [{ code: 'news:edit', name: '编辑新闻' }], children: [] },
      { code: 'system', name: '系统管理', nameEn: 'System', path: '/system', buttons: [{ code: 'role:edit', name: '编辑角色' }], children: [] },
    ];
    const me = operator(['system'], ['role:edit', 'role:delete']);
    me.roles = [{ id: role.id, code: role.code }];
    mockApi(me, {
      '/admin/role/list': [role, other],
      '/admin/role/tree': tree,
      [`/admin/role/list/${other.id}`]: { ...other, menuCodes: [], buttonCodes: [] },
    });
    const put = vi.spyOn(api, 'put').mockRejectedValue(
      refused(ADMIN_MSG.roleGrantExceedsOwn, { reason: ROLE_REFUSAL.grantExceedsOwn, codes: ['news:edit'] }, 403),
    );
    renderRoute('/admin/system/roleManage');
    const own = (await screen.findByText('OPS', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect((within(own).getByRole('button', { name: '编辑' }) as HTMLButtonElement).disabled).toBe(true));
    expect((within(own).getByRole('button', { name: '删除' }) as HTMLButtonElement).disabled).toBe(true);
    const row = screen.getByText('NEWS').closest('tr')!;
    expect((within(row).getByRole('button', { name: '编辑' }) as HTMLButtonElement).disabled).toBe(false);

    fireEvent.click(within(row).getByRole('button', { name: '编辑' }));
    await screen.findByTestId('role-form');
    fireEvent.click(screen.getByRole('button', { name: '确认' }));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(await screen.findByText(ADMIN_MSG.roleGrantExceedsOwn)).toBeTruthy();
  });

  it('角色管理: permissions the editor lacks are greyed out; the super admin may grant all', () => {
    const tree: PermissionTreeNode[] = [
      { code: 'system', name: '系统管理', nameEn: 'System', path: '/system', buttons: [], children: [
        { code: 'roleManage', name: '角色管理', nameEn: 'Roles', path: '/roleManage', buttons: [{ code: 'role:edit', name: '编辑角色' }], children: [] },
        { code: 'systemManage', name: '系统账号', nameEn: 'Accounts', path: '/systemManage', buttons: [{ code: 'account:edit', name: '编辑账号' }], children: [] },
      ] },
    ];
    const me = operator(['system'], ['role:edit']);
    me.menus = [{ code: 'system', name: '系统管理', children: [{ code: 'roleManage', name: '角色管理', children: [] }] }];
    const grantable = grantableKeys(me);
    expect(grantable).toEqual(new Set(['system', 'roleManage', `${BUTTON_KEY_PREFIX}role:edit`]));
    const flat: Array<{ key: string; disabled: boolean }> = [];
    const walk = (nodes: ReturnType<typeof toTreeData>) =>
      nodes.forEach((n) => {
        flat.push({ key: String(n.key), disabled: Boolean(n.disableCheckbox) });
        walk(n.children ?? []);
      });
    walk(toTreeData(tree, 'zh-CN', grantable));
    expect(flat.filter((n) => n.disabled).map((n) => n.key)).toEqual(['systemManage', `${BUTTON_KEY_PREFIX}account:edit`]);
    expect(grantableKeys(superAdmin())).toBeNull();
  });

  it('行为审计: login records of the page realm, then operation records in the second tab', async () => {
    const get = mockApi(superAdmin(), {
      '/admin/audit/login-records': page([
        {
          id: 'l1', realm: 'EXPERT', accountId: null, identifier: 'e0001', username: 'e0001', name: null,
          method: 'PASSWORD', result: 'BAD_CREDENTIALS', ip: '10.0.0.1', userAgent: 'UA', createdAt: '2025-05-02T00:00:00Z',
        },
      ]),
      '/admin/audit/operation-records': page([]),
    });
    renderRoute('/admin/behaviorAuditing/ExpertManage');
    expect(await screen.findByText('密码错误', {}, SLOW)).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/admin/audit/login-records', { params: { realm: 'EXPERT', page: 1, size: 10 } });
    fireEvent.click(screen.getByRole('tab', { name: '操作记录' }));
    await waitFor(() =>
      expect(get).toHaveBeenCalledWith('/admin/audit/operation-records', { params: { realm: 'EXPERT', page: 1, size: 10 } }),
    );
    expect(await screen.findAllByText('暂无相关信息')).toBeTruthy();
  });

  it('行为审计: operation records name the operation and the kind of target instead of their codes', async () => {
    const record = {
      id: 'o1', realm: 'ADMIN', accountId: null, username: 'admin', targetId: '00000000-0000-4000-8000-000000000010',
      summary: '新增系统账号 ops2（运营二号）', result: 'SUCCESS', ip: '10.0.0.1', userAgent: 'UA', createdAt: '2025-05-02T00:00:00Z',
    };
    mockApi(superAdmin(), {
      '/admin/audit/login-records': page([]),
      '/admin/audit/operation-records': page([
        { ...record, action: 'account:create', targetType: 'account' },
        { ...record, id: 'o2', action: 'dict:type-delete', targetType: 'dict_type' },
        { ...record, id: 'o3', action: 'newer:thing', targetType: 'newer_target' },
      ]),
    });
    renderRoute('/admin/behaviorAuditing/AdminManage');
    fireEvent.click(await screen.findByRole('tab', { name: '操作记录' }, SLOW));
    const rows = (await screen.findAllByText('新增系统账号 ops2（运营二号）', {}, SLOW)).map((cell) => cell.closest('tr')!);
    const cells = (row: HTMLElement) => Array.from(row.querySelectorAll('td')).map((td) => td.textContent);
    expect(cells(rows[0]!)).toEqual(expect.arrayContaining(['新增系统账号', '账号']));
    expect(cells(rows[1]!)).toEqual(expect.arrayContaining(['删除字典类型', '字典类型']));
    // A code the texts do not know yet shows as it is.
    expect(cells(rows[2]!)).toEqual(expect.arrayContaining(['newer:thing', 'newer_target']));
    expect(screen.getByTitle('account:create').textContent).toBe('新增系统账号');
  });

  it('首页: draws the counts and charts from the dashboard call, and an empty state without data', async () => {
    const days = Array.from({ length: 30 }, (_, i) => ({ date: `2025-05-${String(i + 1).padStart(2, '0')}`, count: i === 29 ? 4 : i === 3 ? 2 : 0 }));
    const dashboard: AdminDashboard = {
      totals: { users: 1234, usersToday: 4, teams: 10, teamsSubmitted: 7, prelimSubmitted: 3 },
      registrationsPerDay: days,
      teamsByStatus: [
        { key: 'DRAFT', count: 3 },
        { key: 'SUBMITTED', count: 2 },
        { key: 'APPROVED', count: 5 },
        { key: 'REVISING', count: 0 },
        { key: 'REJECTED', count: 0 },
      ],
      teamsByTrack: [
        { key: 'PAYMENT_REFORM', name: '支付方式改革', nameEn: 'Payment method reform', count: 6 },
        { key: 'OTHER_INNOVATION', name: '其他创新应用', nameEn: null, count: 1 },
        { key: null, name: null, nameEn: null, count: 4 },
      ],
      prelimByStatus: [
        { key: 'NOT_FILLED', count: 2 },
        { key: 'DRAFT', count: 0 },
        { key: 'SUBMITTED', count: 3 },
        { key: 'APPROVED', count: 0 },
        { key: 'REVISING', count: 0 },
        { key: 'REJECTED', count: 0 },
      ],
    };
    mockApi(superAdmin(), { '/admin/dashboard': dashboard });
    const first = renderRoute('/admin/home');
    expect((await screen.findByTestId('home-stat-users', {}, SLOW)).textContent).toContain('1,234');
    expect(screen.getByTestId('home-stat-users').textContent).toContain('今日新增 4');
    expect(screen.getByTestId('home-stat-teams-submitted').textContent).toContain('占报名团队 70%');
    expect(screen.getByTestId('home-registrations').textContent).toContain('近 30 天共 6 人注册，单日最多 4 人');
    expect(screen.getByTestId('home-teams-by-status').textContent).toContain('审核通过5');
    expect(screen.getByTestId('home-teams-by-track').textContent).toContain('未选择方向4');
    expect(screen.getByTestId('home-prelim-by-status').textContent).toContain('未填写2');
    expect(screen.getByTestId('home-teams-by-track').textContent).toContain('支付方式改革6');
    first.unmount();

    vi.restoreAllMocks();
    const none: AdminDashboard = {
      totals: { users: 0, usersToday: 0, teams: 0, teamsSubmitted: 0, prelimSubmitted: 0 },
      registrationsPerDay: days.map((d) => ({ ...d, count: 0 })),
      teamsByStatus: dashboard.teamsByStatus.map((r) => ({ ...r, count: 0 })),
      teamsByTrack: [],
      prelimByStatus: dashboard.prelimByStatus.map((r) => ({ ...r, count: 0 })),
    };
    mockApi(superAdmin(), { '/admin/dashboard': none });
    renderRoute('/admin/home');
    expect((await screen.findByTestId('home-stat-users', {}, SLOW)).textContent).toContain('0');
    expect(screen.getAllByText('暂无数据', { selector: '.ant-empty-description' })).toHaveLength(4);
    expect(screen.queryByTestId('home-registrations')).toBeNull();
  });

  it('首页 in English: track bars take the dictionary\'s English names where it has them', async () => {
    const dashboard: AdminDashboard = {
      totals: { users: 1, usersToday: 0, teams: 7, teamsSubmitted: 7, prelimSubmitted: 0 },
      registrationsPerDay: [{ date: '2025-05-01', count: 1 }],
      teamsByStatus: [{ key: 'SUBMITTED', count: 7 }],
      teamsByTrack: [
        { key: 'PAYMENT_REFORM', name: '支付方式改革', nameEn: 'Payment method reform', count: 6 },
        { key: 'OTHER_INNOVATION', name: '其他创新应用', nameEn: null, count: 1 },
      ],
      prelimByStatus: [{ key: 'NOT_FILLED', count: 0 }],
    };
    mockApi(superAdmin(), { '/admin/dashboard': dashboard });
    renderRoute('/admin/home', { search: '?lang=en' });
    const tracks = await screen.findByTestId('home-teams-by-track', {}, SLOW);
    expect(tracks.textContent).toContain('Payment method reform6');
    // An item without an English name keeps its Chinese one.
    expect(tracks.textContent).toContain('其他创新应用1');
  });

  it('我的账号: shows the profile and changes the password', async () => {
    mockApi(superAdmin(), { '/admin/account/profile': { ...account, username: 'admin', name: '超级管理员' } });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(null, '密码修改成功'));
    renderRoute('/admin/account/accountManage');
    expect(await screen.findByDisplayValue('超级管理员', {}, SLOW)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('原密码'), { target: { value: 'Admin@2025' } });
    fireEvent.change(screen.getByLabelText('新密码'), { target: { value: 'Admin@2026' } });
    fireEvent.change(screen.getByLabelText('确认密码'), { target: { value: 'Admin@2026' } });
    fireEvent.click(screen.getAllByRole('button', { name: '修改密码' }).at(-1)!);
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/login/change/password', { oldPassword: 'Admin@2025', newPassword: 'Admin@2026' }, { silent: true }),
    );
    expect(await screen.findByText('密码修改成功')).toBeTruthy();
  });
});
