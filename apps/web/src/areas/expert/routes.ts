import { redirect, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';
import { withNamespaces } from '../../i18n';
import { guardRoutes, requireStaffLogin } from '../../lib/route-guards';

/** Expert area under /expert (spec section 2). Placeholders; review pages come later. Pages need the ExpertToken. */
export const EXPERT_PATHS = {
  root: '/expert',
  login: '/expert/login',
  home: '/expert/index',
} as const;

export const expertRoutes: RouteObject[] = [
  {
    path: EXPERT_PATHS.root,
    children: [
      // element: null tells react-router the empty render before the redirect is intended.
      { index: true, loader: () => redirect(EXPERT_PATHS.login), element: null },
      {
        path: EXPERT_PATHS.login,
        handle: { title: 'expert:titles.login', noLogin: true } satisfies RouteHandle,
        lazy: withNamespaces(['expert'], async () => ({
          Component: (await import('./pages/ExpertLoginPage')).ExpertLoginPage,
        })),
      },
      {
        // The expert console is the admin kit's: it reads the admin texts too.
        lazy: withNamespaces(['expert', 'admin', 'files'], async () => ({
          Component: (await import('./ExpertLayout')).ExpertLayout,
        })),
        children: guardRoutes(
          [
            {
              path: EXPERT_PATHS.home,
              handle: { title: 'expert:titles.home' } satisfies RouteHandle,
              lazy: async () => ({
                Component: (await import('./pages/ExpertHomePage')).ExpertHomePage,
              }),
            },
            // Unknown /expert paths: a 404 inside the console, back to its home.
            {
              path: '*',
              lazy: async () => ({
                Component: (await import('../../components/admin-kit/ConsoleNotFound')).ConsoleNotFound,
              }),
            },
          ],
          requireStaffLogin('EXPERT'),
        ),
      },
    ],
  },
];
