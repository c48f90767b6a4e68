import type { RouteObject } from 'react-router';
import { siteRoutes } from '../areas/site/routes';
import { participantRoutes } from '../areas/participant/routes';
import { PageLoading } from '../components/PageLoading';
import type { RouteHandle } from '../lib/route-handle';
import { RootLayout } from './layouts/RootLayout';
import { RouteErrorPage } from './pages/RouteErrorPage';

/** The id of the root route, under which the console areas are added when first visited. */
export const ROOT_ROUTE_ID = 'root';

/**
 * The route tree with the given console areas (docs/decisions.md, "Home page JavaScript budget"). Each area contributes a
 * list from src/areas/<area>/routes.ts; those files hold only paths, handles and `lazy` loaders,
 * so every page (and each area's layout) is its own chunk. To add a page: add a route object with
 * `handle` and `lazy: async () => ({ Component })` to its area's list. Use the function form of
 * `lazy`, not the object form: react-router clears loaded keys of a lazy object in place, which
 * breaks every later router built from these same objects (tests, HMR).
 */
export function routeTree(consoles: RouteObject[] = []): RouteObject[] {
  return [
    {
      id: ROOT_ROUTE_ID,
      Component: RootLayout,
      // Eager on purpose: it must render even when a chunk fails to download.
      ErrorBoundary: RouteErrorPage,
      HydrateFallback: PageLoading,
      children: [
        {
          lazy: async () => ({ Component: (await import('./layouts/GatewayLayout')).GatewayLayout }),
          children: siteRoutes,
        },
        ...participantRoutes,
        ...consoles,
        {
          path: '*',
          handle: { title: 'common:notFound.title', noLogin: true } satisfies RouteHandle,
          // Its own chunk: antd's Result brings three illustrations the home page has no use for.
          lazy: async () => ({ Component: (await import('./pages/NotFoundPage')).NotFoundPage }),
        },
      ],
    },
  ];
}
