import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources';
import { ADMIN_MENUS, flattenMenus } from '@contest/shared';
import { ADMIN_PATHS, adminRoutes } from './routes';

function titlesOf(routes: RouteObject[]): string[] {
  return routes.flatMap((r) => [...((r.handle as { title?: string } | undefined)?.title ? [(r.handle as { title: string }).title] : []), ...titlesOf(r.children ?? [])]);
}

describe('admin route titles', () => {
  it('come from the admin namespace, which the console always has: the open-tabs bar restores tabs of pages whose own texts are not loaded', () => {
    const titles = titlesOf(adminRoutes);
    expect(titles.length).toBeGreaterThan(30);
    expect(titles.filter((title) => !title.startsWith('admin:'))).toEqual([]);
    const zh = resources['zh-cn'].admin.titles as Record<string, string>;
    expect(titles.filter((title) => !zh[title.slice('admin:titles.'.length)])).toEqual([]);
  });
});

function pagesOf(routes: RouteObject[]): { path: string; code?: string; activeMenu?: string }[] {
  return routes.flatMap((r) => {
    const handle = r.handle as { code?: string; activeMenu?: string } | undefined;
    const own = r.path && handle ? [{ path: r.path, code: handle.code, activeMenu: handle.activeMenu }] : [];
    return [...own, ...pagesOf(r.children ?? [])];
  });
}

describe('admin routes and the shared menu tree', () => {
  it('agree: every menu entry with a page has a route at its path carrying its code, and every route code is a menu', () => {
    const pages = pagesOf(adminRoutes);
    const menus = flattenMenus(ADMIN_MENUS);
    const leaves = menus.filter((m) => !m.children);
    expect(leaves.length).toBeGreaterThan(20);
    expect(leaves.filter((m) => !pages.some((p) => p.path === m.path && p.code === m.code)).map((m) => m.code)).toEqual([]);
    const codes = new Set(menus.map((m) => m.code));
    expect(pages.filter((p) => (p.code && !codes.has(p.code)) || (p.activeMenu && !codes.has(p.activeMenu)))).toEqual([]);
    // The paths the area links to are the menu tree's, written once there.
    const byCode = new Map(menus.map((m) => [m.code, m.path]));
    const differing = Object.entries(ADMIN_PATHS).filter(([code, path]) => byCode.has(code) && byCode.get(code) !== path);
    expect(differing).toEqual([]);
  });
});
