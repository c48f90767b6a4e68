import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { RouteObject } from 'react-router';
import type { Page } from '@contest/shared';
import { api } from '../lib/api';
import { ok, participantInfo, refused } from '../test/api-mocks';
import { renderRoute } from '../test/render-route';
import { siteRoutes } from '../areas/site/routes';
import { participantRoutes } from '../areas/participant/routes';
import { prelimBrief, prelimFixture, teamBrief, teamFixture, DICT } from '../areas/participant/team/contest-fixtures';
import { expert, expertConsoleAnswer } from '../components/admin-kit/staff-fixtures';
import { MAIN_CONTENT_ID } from '../components/a11y/SkipLink';
import { contestWithPhases } from '../test/contest-public';

// The participant pages are looked at before the preliminary submission is scheduled.
const CONTEST = contestWithPhases({
  prelimSubmission: { window: null, state: 'UNSCHEDULED' },
  prelimReview: { window: null, state: 'UNSCHEDULED' },
});

const empty = <T,>(): Page<T> => ({ list: [], page: 1, size: 10, total: 0 });

const ARTICLE = {
  id: 'n1',
  category: 'CONTEST_DYNAMIC',
  title: '文章标题',
  summary: '',
  coverPath: null,
  source: '',
  pinned: false,
  publishAt: '2025-05-02T02:00:00.000Z',
  date: '2025-05-02',
  body: '<p>正文</p>',
  status: 'PUBLISHED',
  previous: null,
  next: null,
};

/** Answers every GET the site and the participant centre make, in a signed-in participant's state. */
function mockEverything() {
  const answers: [string, () => unknown][] = [
    ['/user/account', () => ({ ...participantInfo('demo1'), teamStatus: 'DRAFT', prelimDocStatus: 'DRAFT' })],
    ['/messages/summary', () => ({ unreadCount: 0 })],
    ['/messages', () => empty()],
    ['/feedback/my', () => empty()],
    ['/documents', () => []],
    ['/dic/module', () => DICT],
    ['/dic/label', () => ({})],
    ['/team/my-brief', () => teamBrief('DRAFT')],
    ['/team/my', () => teamFixture('DRAFT')],
    ['/prelim-doc/my-brief', () => prelimBrief('DRAFT')],
    ['/prelim-doc/my', () => prelimFixture('DRAFT')],
    ['/contest/public', () => CONTEST],
    ['/site/content', () => ({})],
    ['/news/', () => ARTICLE],
    ['/news', () => empty()],
  ];
  return vi.spyOn(api, 'get').mockImplementation((async (url: string) => {
    const found = answers.find(([prefix]) => url === prefix || url.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
    if (!found) throw refused(`unexpected GET ${url}`);
    return ok(found[1]());
  }) as typeof api.get);
}

/** Every page path of a route table (index routes as their parent's path). */
function pathsOf(routes: RouteObject[], parent = '/'): string[] {
  return routes.flatMap((route) => {
    const own = route.index ? parent : route.path;
    return [...(own ? [own] : []), ...pathsOf(route.children ?? [], own ?? parent)];
  });
}

/** What a keyboard reaches with Tab, in document order. */
function tabbable(): HTMLElement[] {
  return Array.from(
    document.querySelectorAll<HTMLElement>('a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex]'),
  ).filter((element) => element.tabIndex >= 0);
}

const SITE_PATHS = pathsOf(siteRoutes);
const PARTICIPANT_PATHS = pathsOf(participantRoutes);

// Whole-app renders: slow on a shared CI machine.
describe('page landmarks and headings', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('walks the site and participant route tables', () => {
    expect(SITE_PATHS).toContain('/');
    expect(SITE_PATHS.length).toBeGreaterThanOrEqual(10);
    expect(PARTICIPANT_PATHS).toEqual(expect.arrayContaining(['/my-sign', '/my-sign/detail', '/material-submission', '/user/speed-test']));
  });

  it.each([...SITE_PATHS, ...PARTICIPANT_PATHS])('%s has one main, one h1 and the skip link first', async (path) => {
    mockEverything();
    renderRoute(path.startsWith('/dynamic-') ? `${path}?id=n1` : path);
    await waitFor(() => expect(document.querySelectorAll('main h1')).toHaveLength(1), { timeout: 15_000 });
    expect(document.querySelectorAll('h1')).toHaveLength(1);
    expect(document.querySelectorAll('main')).toHaveLength(1);
    const main = document.querySelector('main')!;
    expect(main.id).toBe(MAIN_CONTENT_ID);
    expect(main.getAttribute('tabindex')).toBe('-1');
    expect(tabbable()[0]).toBe(screen.getByRole('link', { name: '跳到主要内容' }));
  });
});

describe('article pages without their article', { timeout: 30_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it.each(['/dynamic-detail?id=gone', '/dynamic-look?id=gone'])('%s still has one h1', async (path) => {
    vi.spyOn(api, 'get').mockRejectedValue(refused('资讯不存在或已下线', null, 404));
    renderRoute(path);
    await waitFor(() => expect(document.querySelector('main .ant-result')).not.toBeNull(), { timeout: 15_000 });
    expect(document.querySelectorAll('main h1')).toHaveLength(1);
  });
});

describe('skip link and route focus', { timeout: 30_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('moves focus to main, and speaks English in English', async () => {
    mockEverything();
    renderRoute('/my-message', { search: '?lang=en' });
    const skip = await screen.findByRole('link', { name: 'Skip to main content' }, { timeout: 15_000 });
    expect(tabbable()[0]).toBe(skip);
    fireEvent.click(skip);
    expect(document.activeElement).toBe(document.getElementById(MAIN_CONTENT_ID));
  });

  it('puts the participant menu in a named navigation region', async () => {
    mockEverything();
    renderRoute('/my-message');
    const nav = await screen.findByRole('navigation', { name: '参赛者中心导航' }, { timeout: 15_000 });
    expect(within(nav).getByText('我的消息')).toBeTruthy();
    expect(nav.closest('main')).toBeNull();
  });

  it('puts the console menu in a named navigation region, the page in the one main', async () => {
    localStorage.setItem('ExpertToken', 'expert-token');
    vi.spyOn(api, 'get').mockImplementation(expertConsoleAnswer(expert(), ok));
    renderRoute('/expert/index');
    const menu = await screen.findByTestId('console-menu', {}, { timeout: 15_000 });
    const nav = screen.getByRole('navigation', { name: '主菜单' });
    expect(nav.contains(menu)).toBe(true);
    expect(document.querySelectorAll('main')).toHaveLength(1);
    expect(document.querySelector('main')!.contains(screen.getByTestId('console-page'))).toBe(true);
    expect(tabbable()[0]).toBe(screen.getByRole('link', { name: '跳到主要内容' }));
  });

  it('leaves focus alone on the first load, then focuses the new page h1 after the title changed', async () => {
    mockEverything();
    // Every focus from the first render on is recorded: the first load's page must not be among
    // them. The later navigation's focus is the anchor: the hook's first-load run (had it moved
    // focus) would have come before it.
    const focused: { target: EventTarget | null; title: string }[] = [];
    const onFocus = (event: FocusEvent) => focused.push({ target: event.target, title: document.title });
    document.addEventListener('focusin', onFocus);
    const { router } = renderRoute('/my-message');
    await screen.findByRole('heading', { level: 1, name: '我的消息' }, { timeout: 15_000 });
    expect(document.activeElement).toBe(document.body);

    await act(() => router.navigate('/my-sign/detail'));
    const heading = await screen.findByRole('heading', { level: 1, name: '报名详情' }, { timeout: 15_000 });
    await waitFor(() => expect(document.activeElement).toBe(heading), { timeout: 5_000 });
    document.removeEventListener('focusin', onFocus);
    expect(heading.getAttribute('tabindex')).toBe('-1');
    expect(focused).toEqual([{ target: heading, title: '报名详情 - 2025全国智慧医保大赛' }]);
  });

  it('focuses the new page h1 after following a site link', async () => {
    mockEverything();
    renderRoute('/');
    await screen.findByTestId('home-title', {}, { timeout: 15_000 });
    fireEvent.click(within(screen.getByRole('navigation', { name: /./ })).getByRole('link', { name: '医保资讯' }));
    const heading = await screen.findByRole('heading', { level: 1, name: '医保资讯' }, { timeout: 15_000 });
    await waitFor(() => expect(document.activeElement).toBe(heading), { timeout: 5_000 });
  });
});
