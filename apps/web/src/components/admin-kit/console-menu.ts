/**
 * Pure rules over the menu tree the server sends (docs/rules/screens.md, "Consoles"). Kept apart
 * from React so each rule is tested on its own.
 */
import type { StaffMenu } from '../../lib/session';
import type { ConsoleRouteHandle } from './console-handle';

/** Every code in the tree, groups included. */
export function menuCodes(menus: readonly StaffMenu[]): Set<string> {
  const codes = new Set<string>();
  const walk = (items: readonly StaffMenu[]) => {
    for (const item of items) {
      codes.add(item.code);
      walk(item.children ?? []);
    }
  };
  walk(menus);
  return codes;
}

/** First entry a click can open, depth first: a leaf with a path. */
export function firstMenuPath(menus: readonly StaffMenu[]): string | null {
  for (const item of menus) {
    if (item.children?.length) {
      const inner = firstMenuPath(item.children);
      if (inner) return inner;
    } else if (item.path) {
      return item.path;
    }
  }
  return null;
}

/**
 * Where a menu group's own path leads: its first permitted entry (the server sends only what the
 * account may open). Null when `pathname` is no group of these menus, or an empty one.
 */
export function groupLandingPath(menus: readonly StaffMenu[], pathname: string): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  for (const item of menus) {
    if (item.children?.length) {
      if (item.path === path) return firstMenuPath(item.children);
      const inner = groupLandingPath(item.children, path);
      if (inner) return inner;
    }
  }
  return null;
}

/** The node with `code` and the codes of its ancestors (outermost first). */
export function findMenu(
  menus: readonly StaffMenu[],
  code: string,
  parents: string[] = [],
): { menu: StaffMenu; parents: string[] } | null {
  for (const item of menus) {
    if (item.code === code) return { menu: item, parents };
    const inner = findMenu(item.children ?? [], code, [...parents, item.code]);
    if (inner) return inner;
  }
  return null;
}

export type MenuVerdict =
  | { kind: 'allow' }
  /** No menu at all: warn 暂无分配权限, drop the token, back to login. */
  | { kind: 'noMenus' }
  | { kind: 'redirect'; to: string };

export const NOT_FOUND_PATH = '/404';

/**
 * Whether the current route may render for these menus: a page whose code is missing goes
 * to /404 unless flagged notInMenu; a missing home goes to the first permitted entry
 * instead (the landing page after login must not be a 404).
 */
export function menuVerdict(
  menus: readonly StaffMenu[],
  handle: Pick<ConsoleRouteHandle, 'code' | 'notInMenu'>,
  homeCode: string,
): MenuVerdict {
  const codes = menuCodes(menus);
  if (codes.size === 0) return { kind: 'noMenus' };
  if (!handle.code || handle.notInMenu || codes.has(handle.code)) return { kind: 'allow' };
  if (handle.code === homeCode) {
    const first = firstMenuPath(menus);
    return first ? { kind: 'redirect', to: first } : { kind: 'noMenus' };
  }
  return { kind: 'redirect', to: NOT_FOUND_PATH };
}

/** The menu label in the current language; the server sends both. */
export function menuLabel(menu: Pick<StaffMenu, 'name' | 'nameEn'>, locale: string): string {
  return locale === 'en' && menu.nameEn ? menu.nameEn : menu.name;
}
