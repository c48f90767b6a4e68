import { redirect, type RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

/** Expert area under /expert (spec section 2). Placeholders; review pages come later. */
export const EXPERT_PATHS = {
  root: '/expert',
  login: '/expert/login',
  home: '/expert/index',
} as const;

export const expertRoutes: RouteObject[] = [
  {
    path: EXPERT_PATHS.root,
    children: [
      { index: true, loader: () => redirect(EXPERT_PATHS.login) },
      {
        path: EXPERT_PATHS.login,
        handle: { title: 'expert:titles.login', noLogin: true } satisfies RouteHandle,
        lazy: { Component: async () => (await import('./pages/ExpertLoginPage')).ExpertLoginPage },
      },
      {
        lazy: { Component: async () => (await import('./ExpertLayout')).ExpertLayout },
        children: [
          {
            path: EXPERT_PATHS.home,
            handle: { title: 'expert:titles.home' } satisfies RouteHandle,
            lazy: {
              Component: async () => (await import('./pages/ExpertHomePage')).ExpertHomePage,
            },
          },
        ],
      },
    ],
  },
];
