import { useMatches } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

/**
 * What the admin and expert consoles read from a route's `handle` besides the title: the
 * menu code that grants the page (docs/rules/screens.md, "Consoles").
 */
export interface ConsoleRouteHandle extends RouteHandle {
  /** Menu code from GET /admin/user/account that grants this page. */
  code?: string;
  /** Detail pages reached from a list: not checked against the menus (spec: not-in-menu). */
  notInMenu?: boolean;
  /** Menu entry to highlight when the page itself is not in the menu. */
  activeMenu?: string;
}

/** Handles of the matched routes merged, the deepest winning (like useRouteHandle, wider type). */
export function useConsoleHandle(): ConsoleRouteHandle {
  const merged: ConsoleRouteHandle = {};
  for (const match of useMatches()) {
    if (typeof match.handle === 'object' && match.handle !== null) Object.assign(merged, match.handle);
  }
  return merged;
}
