import { describe, expect, it } from 'vitest';
import { ADMIN_MENU_PATHS } from '@contest/shared';
import { adminRoutes } from '../areas/admin/routes';
import { siteRoutes } from '../areas/site/routes';
import { routePaths } from './route-paths';

describe('routePaths (the page list the accessibility walk visits)', () => {
  it('lists the pages, with their parents joined, and leaves out redirects, layouts and catch-alls', () => {
    const paths = routePaths([
      {
        path: '/a',
        children: [
          { index: true, loader: () => null, element: null },
          { path: 'b', handle: { title: 'x' } },
          { path: '/a/c/:id?', handle: { title: 'y' } },
          { children: [{ path: '/d', handle: { title: 'z' } }] },
          { path: '*', handle: { title: 'n' } },
        ],
      },
    ]);
    expect(paths).toEqual(['/a/b', '/a/c/:id?', '/d']);
  });

  it('finds every admin menu page of ADMIN_MENU_PATHS and the site home', () => {
    const admin = routePaths(adminRoutes);
    expect(admin).toContain(ADMIN_MENU_PATHS.systemSettings);
    expect(admin).toContain(ADMIN_MENU_PATHS.home);
    // Menu groups are redirects, not pages.
    expect(admin).not.toContain(ADMIN_MENU_PATHS.system);
    expect(routePaths(siteRoutes)).toContain('/');
  });
});
