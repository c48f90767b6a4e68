import { createBrowserRouter, type RouteObject } from 'react-router';
import { ROOT_ROUTE_ID, routeTree } from './route-tree';

/**
 * The console areas, loaded with their route tables the first time an address under them is
 * visited: their tables (some 20 KB of paths, menu codes and guards) stay out of the home page's
 * JavaScript (docs/decisions.md, "Home page JavaScript budget").
 */
const CONSOLES: { prefix: RegExp; load(): Promise<RouteObject[]> }[] = [
  { prefix: /^\/admin(\/|$)/, load: async () => (await import('../areas/admin/routes')).adminRoutes },
  { prefix: /^\/expert(\/|$)/, load: async () => (await import('../areas/expert/routes')).expertRoutes },
  // The live final's big screen (no login): docs/live-final.md, "Big screen and display links".
  { prefix: /^\/live\//, load: async () => (await import('../areas/live/routes')).liveRoutes },
];

export function createAppRouter(): ReturnType<typeof createBrowserRouter> {
  const added = new Set<(typeof CONSOLES)[number]>();
  return createBrowserRouter(routeTree(), {
    // Called while an address matches only the catch-all (or nothing): an area not yet added is.
    // A failed download adds nothing, so the next visit tries again (the root's error page shows).
    async patchRoutesOnNavigation({ path, patch }) {
      const area = CONSOLES.find((c) => c.prefix.test(path));
      if (!area || added.has(area)) return;
      const children = await area.load();
      if (added.has(area)) return;
      added.add(area);
      patch(ROOT_ROUTE_ID, children);
    },
  });
}
