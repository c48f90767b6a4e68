import { redirect, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';
import { guardRoutes, requireStaffLogin } from '../../lib/route-guards';

/** Admin area under /admin (spec section 2). Placeholders; menus come later. Pages need the AdminToken. */
export const ADMIN_PATHS = {
  root: '/admin',
  login: '/admin/login',
  home: '/admin/home',
} as const;

export const adminRoutes: RouteObject[] = [
  {
    path: ADMIN_PATHS.root,
    children: [
      {
        path: ADMIN_PATHS.login,
        handle: { title: 'admin:titles.login', noLogin: true } satisfies RouteHandle,
        lazy: async () => ({ Component: (await import('./pages/AdminLoginPage')).AdminLoginPage }),
      },
      {
        lazy: async () => ({ Component: (await import('./AdminLayout')).AdminLayout }),
        children: guardRoutes(
          [
            // The logo and session-expiry redirects target /admin; its home is /admin/home.
            { index: true, loader: () => redirect(ADMIN_PATHS.home), element: null },
            {
              path: ADMIN_PATHS.home,
              handle: { title: 'admin:titles.home' } satisfies RouteHandle,
              lazy: async () => ({
                Component: (await import('./pages/AdminHomePage')).AdminHomePage,
              }),
            },
          ],
          requireStaffLogin('ADMIN'),
        ),
      },
    ],
  },
];
