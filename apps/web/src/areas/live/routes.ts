import type { RouteObject } from 'react-router';
import { withNamespaces } from '../../i18n';
import type { RouteHandle } from '../../lib/route-handle';

/**
 * The big screen of the live final (docs/live-final.md, "Big screen and display links"): no
 * login, opened with a display link `/live/<token>`. Its own area, added to the router the first
 * time such an address is visited (app/create-router.ts), so nothing of it is on the home page.
 */
export const liveRoutes: RouteObject[] = [
  {
    // LIVE_WEB_PATHS.display of @contest/shared, written out: this table loads before the page.
    path: '/live/:token',
    handle: { title: 'live:titles.screen', noLogin: true } satisfies RouteHandle,
    lazy: withNamespaces(['live'], async () => ({
      Component: (await import('./LiveScreenPage')).LiveScreenPage,
    })),
  },
];
