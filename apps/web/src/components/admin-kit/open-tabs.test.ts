import { describe, expect, it } from 'vitest';
import { addTab, nameTab, parseTabs, type OpenTab } from './open-tabs';

const HOME: OpenTab = { path: '/expert/index', title: 'expert:titles.home' };
const detail = (id: string): OpenTab => ({ path: `/expert/review-detail/${id}`, title: 'expert:titles.reviewDetail' });

describe('open tabs: named tabs', () => {
  it('names the tab of a page once it knows its project, and keeps other pages as they are', () => {
    const tabs = addTab(addTab([HOME], detail('a')), detail('b'));
    const named = nameTab(tabs, { ...detail('a'), name: '项目甲' });
    expect(named).toEqual([HOME, { ...detail('a'), name: '项目甲' }, detail('b')]);
    // Another project is another tab with its own name.
    expect(nameTab(named, { ...detail('b'), name: '项目乙' }).map((t) => t.name)).toEqual([undefined, '项目甲', '项目乙']);
  });

  it('opening the same project again reuses its tab and keeps its name, even with another query string', () => {
    const named = nameTab([HOME, detail('a')], { ...detail('a'), name: '项目甲' });
    expect(addTab(named, detail('a'))).toEqual(named);
    const again = addTab(named, { ...detail('a'), path: `${detail('a').path}?from=list` });
    expect(again).toHaveLength(2);
    expect(again[1]).toEqual({ path: '/expert/review-detail/a?from=list', title: 'expert:titles.reviewDetail', name: '项目甲' });
  });

  it('opens the tab when the page names it before the layout added it', () => {
    expect(nameTab([HOME], { ...detail('a'), name: '项目甲' })).toEqual([HOME, { ...detail('a'), name: '项目甲' }]);
  });

  it('reads stored names back and drops a name that is not text', () => {
    const raw = JSON.stringify([{ ...detail('a'), name: '项目甲' }, { ...detail('b'), name: 3 }]);
    expect(parseTabs(raw)).toEqual([{ ...detail('a'), name: '项目甲' }]);
  });
});
