import type { RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { resources } from '../../i18n/resources';
import { adminRoutes } from './routes';

function titlesOf(routes: RouteObject[]): string[] {
  return routes.flatMap((r) => [...((r.handle as { title?: string } | undefined)?.title ? [(r.handle as { title: string }).title] : []), ...titlesOf(r.children ?? [])]);
}

describe('admin route titles', () => {
  it('come from the admin namespace, which the console always has: the open-tabs bar restores tabs of pages whose own texts are not loaded', () => {
    const titles = titlesOf(adminRoutes);
    expect(titles.length).toBeGreaterThan(30);
    expect(titles.filter((title) => !title.startsWith('admin:'))).toEqual([]);
    const zh = resources['zh-cn'].admin.titles as Record<string, string>;
    expect(titles.filter((title) => !zh[title.slice('admin:titles.'.length)])).toEqual([]);
  });
});
