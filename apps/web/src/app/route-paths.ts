import type { RouteObject } from 'react-router';

/**
 * The pages of a route table as path patterns (`/admin/preliminary/detail/:id`): every route that
 * carries a `handle` (what a page has; a redirect or a layout has none), its path joined to its
 * parents'. The accessibility walk (e2e/a11y-routes.e2e.ts, docs/security.md "Accessibility") visits each of them,
 * so a new page is walked without anyone adding it to a list.
 */
export function routePaths(routes: RouteObject[], parent = ''): string[] {
  return routes.flatMap((route) => {
    const own = route.index ? parent || '/' : route.path === undefined ? parent : join(parent, route.path);
    const here = route.handle && (route.index || route.path !== undefined) && own !== '*' && !own.endsWith('/*') ? [own] : [];
    return [...here, ...routePaths(route.children ?? [], own)];
  });
}

function join(parent: string, path: string): string {
  if (path.startsWith('/')) return path;
  return `${parent.replace(/\/$/, '')}/${path}`;
}
