import { describe, expect, it } from 'vitest';
import { ADMIN_MENUS, OPEN_TAB_LIMIT, type MenuSeed } from '@contest/shared';
import type { StaffMenu } from '../../lib/session';
import { findMenu, firstMenuPath, menuCodes, menuLabel, menuVerdict } from './console-menu';
import { addTab, neighbourOf, parseTabs, removeTab, tabKey, type OpenTab } from './open-tabs';
import { maskAccount, watermarkLines, watermarkSvg } from './watermark';

const tree = (menus: readonly MenuSeed[]): StaffMenu[] =>
  menus.map((m) => ({ ...m, children: m.children ? tree(m.children) : [] }));

const ALL = tree(ADMIN_MENUS);
const SYSTEM_ONLY: StaffMenu[] = [
  {
    code: 'system',
    name: '系统管理',
    nameEn: 'System',
    path: '/admin/system',
    icon: 'SettingOutlined',
    children: [{ code: 'roleManage', name: '角色管理', nameEn: 'Roles', path: '/admin/system/roleManage', children: [] }],
  },
];

describe('menu rules', () => {
  it('collects every code of the tree, groups included', () => {
    const codes = menuCodes(SYSTEM_ONLY);
    expect([...codes]).toEqual(['system', 'roleManage']);
    expect(menuCodes(ALL).has('UserManage')).toBe(true);
  });

  it('finds the first clickable entry depth first, skipping group paths', () => {
    expect(firstMenuPath(SYSTEM_ONLY)).toBe('/admin/system/roleManage');
    expect(firstMenuPath(ALL)).toBe('/admin/home');
    expect(firstMenuPath([])).toBeNull();
  });

  it('finds a node with its ancestors', () => {
    expect(findMenu(ALL, 'dataField')?.parents).toEqual(['system']);
    expect(findMenu(ALL, 'home')?.parents).toEqual([]);
    expect(findMenu(ALL, 'nope')).toBeNull();
  });

  it('allows a page whose code is granted, and pages without code', () => {
    expect(menuVerdict(SYSTEM_ONLY, { code: 'roleManage' }, 'home')).toEqual({ kind: 'allow' });
    expect(menuVerdict(SYSTEM_ONLY, {}, 'home')).toEqual({ kind: 'allow' });
  });

  it('sends a page whose code is not granted to /404 unless flagged not-in-menu', () => {
    expect(menuVerdict(SYSTEM_ONLY, { code: 'userTeam' }, 'home')).toEqual({ kind: 'redirect', to: '/404' });
    expect(menuVerdict(SYSTEM_ONLY, { code: 'userTeam', notInMenu: true }, 'home')).toEqual({ kind: 'allow' });
  });

  it('sends a home that is not granted to the first granted entry', () => {
    expect(menuVerdict(SYSTEM_ONLY, { code: 'home' }, 'home')).toEqual({
      kind: 'redirect',
      to: '/admin/system/roleManage',
    });
  });

  it('reports an account without menus', () => {
    expect(menuVerdict([], { code: 'home' }, 'home')).toEqual({ kind: 'noMenus' });
    expect(menuVerdict([], {}, 'home')).toEqual({ kind: 'noMenus' });
  });

  it('labels menus in the current language', () => {
    expect(menuLabel({ name: '角色管理', nameEn: 'Roles' }, 'zh-cn')).toBe('角色管理');
    expect(menuLabel({ name: '角色管理', nameEn: 'Roles' }, 'en')).toBe('Roles');
    expect(menuLabel({ name: '角色管理' }, 'en')).toBe('角色管理');
  });
});

describe('open tabs', () => {
  const tab = (n: number): OpenTab => ({ path: `/admin/p${n}`, title: `admin:titles.p${n}` });

  it('appends a new tab and keeps an open one in place', () => {
    const tabs = addTab(addTab([], tab(1)), tab(2));
    expect(tabs.map((t) => t.path)).toEqual(['/admin/p1', '/admin/p2']);
    expect(addTab(tabs, tab(1)).map((t) => t.path)).toEqual(['/admin/p1', '/admin/p2']);
  });

  it('replaces a tab of the same page with another query string', () => {
    const tabs = addTab([tab(1)], { path: '/admin/p1?tab=2', title: 'x' });
    expect(tabs).toEqual([{ path: '/admin/p1?tab=2', title: 'x' }]);
    expect(tabKey('/admin/p1?tab=2#a')).toBe('/admin/p1');
  });

  it(`keeps at most ${OPEN_TAB_LIMIT} tabs, dropping the oldest`, () => {
    let tabs: OpenTab[] = [];
    for (let n = 1; n <= OPEN_TAB_LIMIT + 2; n++) tabs = addTab(tabs, tab(n));
    expect(tabs).toHaveLength(OPEN_TAB_LIMIT);
    expect(tabs[0]?.path).toBe('/admin/p3');
    expect(tabs.at(-1)?.path).toBe(`/admin/p${OPEN_TAB_LIMIT + 2}`);
  });

  it('removes a tab and names the neighbour to show next', () => {
    const tabs = [tab(1), tab(2), tab(3)];
    expect(removeTab(tabs, '/admin/p2').map((t) => t.path)).toEqual(['/admin/p1', '/admin/p3']);
    expect(neighbourOf(tabs, '/admin/p2')?.path).toBe('/admin/p3');
    expect(neighbourOf(tabs, '/admin/p3')?.path).toBe('/admin/p2');
    expect(neighbourOf([tab(1)], '/admin/p1')).toBeNull();
  });

  it('reads stored tabs defensively', () => {
    expect(parseTabs(null)).toEqual([]);
    expect(parseTabs('not json')).toEqual([]);
    expect(parseTabs('{"a":1}')).toEqual([]);
    expect(parseTabs(JSON.stringify([tab(1), { path: 'http://evil', title: 'x' }, { path: '/a' }]))).toEqual([tab(1)]);
  });
});

describe('watermark', () => {
  it('masks the middle of an account', () => {
    expect(maskAccount('13800000001')).toBe('138****0001');
    expect(maskAccount('e0001')).toBe('e***1');
    expect(maskAccount('ab')).toBe('a*');
    expect(maskAccount('a')).toBe('a');
    expect(maskAccount('')).toBe('');
  });

  it('shows the account code and the masked account', () => {
    expect(watermarkLines('E0001', '13800000001')).toEqual(['E0001', '138****0001']);
    expect(watermarkLines(null, 'e0001')).toEqual(['e***1']);
  });

  it('draws a 300x240 tile, opacity 0.1, rotated -30, font 28, text escaped', () => {
    const svg = watermarkSvg(['E0001', '<b>']);
    expect(svg).toContain('width="300" height="240"');
    expect(svg).toContain('rotate(-30 150 120)');
    expect(svg).toContain('fill-opacity="0.1"');
    expect(svg).toContain('font-size="28"');
    expect(svg).toContain('>E0001</text>');
    expect(svg).not.toContain('<b>');
  });
});
