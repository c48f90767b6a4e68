import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ContestPublic, NewsDetail, NewsListItem, Page, SiteBlock } from '@contest/shared';
import { api } from '../../../lib/api';
import { closeAuthModal, getAuthModalState } from '../../../lib/auth-modal';
import { rememberContestName } from '../../../i18n/contest-name';
import { ok, participantInfo, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { CONTEST_PUBLIC } from '../../../test/contest-public';
import { materialsTarget } from './PrelimEntryPage';
import { signUpTarget } from './TeamEntryPage';

function newsItem(id: string, over: Partial<NewsListItem> = {}): NewsListItem {
  return {
    id,
    category: 'MEDICAL_INSURANCE',
    title: `资讯 ${id}`,
    summary: `摘要 ${id}`,
    coverPath: null,
    source: null,
    pinned: false,
    publishAt: '2025-05-02T02:00:00.000Z',
    date: '2025-05-02',
    ...over,
  };
}

function page<T>(list: T[], total = list.length, pageNo = 1): Page<T> {
  return { list, page: pageNo, size: 10, total };
}

const CONTEST = CONTEST_PUBLIC;

const emptyBlock = (key: SiteBlock['key']): SiteBlock => ({ key, title: '', body: '', updatedAt: null });

type Responder = (url: string, config?: { params?: Record<string, unknown> }) => unknown;

/** Answers the site's GET calls by path; anything not listed is a refusal (and fails the test's expectations). */
function mockGet(routes: Record<string, Responder>) {
  return vi.spyOn(api, 'get').mockImplementation((async (url: string, config?: { params?: Record<string, unknown> }) => {
    for (const [prefix, respond] of Object.entries(routes)) {
      if (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`)) {
        const value = respond(url, config);
        if (value instanceof Error) throw value;
        return ok(value);
      }
    }
    throw refused(`unexpected GET ${url}`);
  }) as typeof api.get);
}

// Whole-app renders: slow on a shared CI machine.
describe('public site pages', { timeout: 20_000 }, () => {
  afterEach(() => {
    closeAuthModal();
    vi.restoreAllMocks();
  });

  describe('home', () => {
    it('builds the schedule from the phase windows and highlights the current phase', async () => {
      mockGet({
        '/contest/public': () => CONTEST,
        '/site/content': () => ({}),
        '/news': () => page([]),
      });
      renderRoute('/');
      const current = await screen.findByTestId('phase-prelimSubmission');
      await waitFor(() => expect(current.getAttribute('aria-current')).toBe('step'));
      expect(current.className).toContain('is-current');
      // Beijing days, whatever the device's zone.
      expect(current.textContent).toContain('2025-06-01 ~ 2025-08-31');
      expect(current.textContent).toContain('当前阶段');
      expect(screen.getByTestId('phase-signUp').getAttribute('aria-current')).toBeNull();
      expect(screen.getByTestId('phase-signUp').textContent).toContain('进行中');
      expect(screen.getByTestId('phase-prelimReview').textContent).toContain('2025-09-01 ~ 不限');
      expect(screen.getByTestId('phase-prelimReview').textContent).toContain('未开始');
      expect(screen.getByTestId('phase-finalReview').textContent).toContain('时间待公布');
      expect(screen.getByTestId('home-cta').dataset.state).toBe('OPEN');
      expect(screen.getByTestId('home-cta').textContent).toContain('报名时间：2025-05-01 ~ 2025-07-31（北京时间）');
      // No edited note: the built-in one says whose clock the dates follow.
      expect(screen.getByTestId('home-schedule-note').textContent).toBe('以上时间均为北京时间（UTC+8）。');
    });

    it('on English pages shows the English contest name, tracks from the dictionary and built-in texts for blocks still in Chinese', async () => {
      const chinese = (key: SiteBlock['key'], body: string): SiteBlock => ({ key, title: '中文标题', body, updatedAt: null });
      const get = mockGet({
        '/contest/public': () => ({ ...CONTEST, nameEn: 'Smart Insurance Cup 2026' }),
        '/site/content': () => ({
          'home-tracks': chinese('home-tracks', '<ul><li>智能监管与基金安全</li></ul>'),
          'home-schedule': chinese('home-schedule', '<p>以上时间均为北京时间</p>'),
          'home-organisers': chinese('home-organisers', '<p>主办单位：大赛组委会</p>'),
          'home-contact': chinese('home-contact', '<p>大赛组委会办公室</p>'),
        }),
        '/dic/public': () => ({ TRACK: [{ code: 'SMART_SUPERVISION', name: 'Smart supervision and fund security' }, { code: 'PAYMENT_REFORM', name: 'Payment method reform' }] }),
        '/news': () => page([]),
      });
      try {
        renderRoute('/', { search: '?lang=en' });
        const tracks = await screen.findByTestId('home-track-names', {}, { timeout: 10_000 });
        expect(tracks.textContent).toBe('Smart supervision and fund securityPayment method reform');
        expect(get).toHaveBeenCalledWith('/dic/public', { params: { types: ['TRACK'], lang: 'en' }, silent: true });
        expect(screen.getByTestId('home-schedule-note').textContent).toMatch(/^All times above are Beijing time \(UTC\+8\)/);
        expect(screen.getByText('Host')).toBeTruthy();
        await waitFor(() => expect(screen.getByText('Organising Committee of the Smart Insurance Cup 2026')).toBeTruthy(), { timeout: 10_000 });
        expect(screen.getByRole('heading', { level: 1, name: 'Smart Insurance Cup 2026' })).toBeTruthy();
        expect(screen.getByTestId('gateway-footer').textContent).toContain('© Organising Committee of the Smart Insurance Cup 2026');
        const main = document.querySelector('main')!.textContent ?? '';
        expect(main).not.toMatch(/[\u4e00-\u9fff]/);
      } finally {
        rememberContestName({ name: '2025全国智慧医保大赛', nameEn: '2025 National Smart Medical-Insurance Competition' });
      }
    });

    it('offers 立即报名 in the banner while sign-up is open', async () => {
      mockGet({ '/contest/public': () => CONTEST, '/site/content': () => ({}), '/news': () => page([]) });
      renderRoute('/');
      await screen.findByTestId('phase-signUp');
      await waitFor(() => expect(screen.getByTestId('home-cta').dataset.state).toBe('OPEN'));
      expect(screen.getByRole('button', { name: '立即报名' })).toBeTruthy();
      expect(screen.getByRole('button', { name: '报名参赛' })).toBeTruthy();
      expect(screen.queryByTestId('home-signup-closed')).toBeNull();
    });

    it.each([
      ['ENDED', { start: '2025-04-30T16:00:00.000Z', end: '2025-05-31T15:59:59.000Z' }, '本届报名已截止'],
      ['NOT_STARTED', { start: '2025-06-30T16:00:00.000Z', end: '2025-07-31T15:59:59.000Z' }, '报名尚未开始，将于 2025-07-01 00:00（北京时间）开放'],
    ] as const)('says sign-up is closed (%s) instead of offering 立即报名', async (state, window, text) => {
      const closed: ContestPublic = {
        ...CONTEST,
        phases: CONTEST.phases.map((p) => (p.key === 'signUp' ? { ...p, state, window } : p)),
      };
      mockGet({ '/contest/public': () => closed, '/site/content': () => ({}), '/news': () => page([]) });
      renderRoute('/');
      expect((await screen.findByTestId('home-signup-closed')).textContent).toBe(text);
      expect(screen.queryByRole('button', { name: '立即报名' })).toBeNull();
      expect(screen.queryByText('立即报名')).toBeNull();
      // The call further down says it too, without a 报名参赛 button leading to a form that cannot be sent.
      expect(screen.getByTestId('home-cta').dataset.state).toBe(state);
      expect(screen.queryByRole('button', { name: '报名参赛' })).toBeNull();
    });

    it('lists the latest news of both categories and uses the edited blocks', async () => {
      const get = mockGet({
        '/contest/public': () => CONTEST,
        '/site/content': () => ({
          'home-intro': { key: 'home-intro', title: '关于大赛', body: '<p>由<strong>组委会</strong>主办</p>', updatedAt: null },
          'home-organisers': emptyBlock('home-organisers'),
        }),
        '/news': (_url, config) =>
          config?.params?.category === 'CONTEST_DYNAMIC'
            ? page([newsItem('c1', { category: 'CONTEST_DYNAMIC', title: '大赛启动', pinned: true })])
            : page([newsItem('m1', { title: '医保新政' })]),
      });
      renderRoute('/');
      const dynamic = await screen.findByTestId('home-news-CONTEST_DYNAMIC');
      await within(dynamic).findByText('大赛启动');
      expect(within(dynamic).getByText('置顶')).toBeTruthy();
      expect(within(dynamic).getByRole('link', { name: /大赛启动/ }).getAttribute('href')).toBe('/dynamic-detail?id=c1');
      const medical = screen.getByTestId('home-news-MEDICAL_INSURANCE');
      await within(medical).findByText('医保新政');
      expect(within(medical).getByRole('link', { name: /更多/ }).getAttribute('href')).toBe('/medical-insurance');
      expect(get).toHaveBeenCalledWith('/news', { params: { category: 'CONTEST_DYNAMIC', page: 1, size: 5, lang: 'zh-cn' } });

      // The edited introduction replaces the built-in one; an empty block keeps the built-in text.
      const intro = await screen.findByTestId('home-intro-body');
      expect(intro.innerHTML).toBe('<p>由<strong>组委会</strong>主办</p>');
      expect(screen.getByRole('heading', { level: 2, name: '关于大赛' })).toBeTruthy();
      expect(screen.getByText('主办单位')).toBeTruthy();
      expect(get).toHaveBeenCalledWith('/site/content', {
        params: { keys: 'home-intro,home-tracks,home-schedule,home-organisers,home-contact', lang: 'zh-cn' },
      });
    });
  });

  describe('news lists', () => {
    it('shows pinned first with cover, summary and date, and pages through', async () => {
      const get = mockGet({
        '/news': (_url, config) =>
          config?.params?.page === 2
            ? page([newsItem('n11', { title: '第二页资讯' })], 11, 2)
            : page(
                [
                  newsItem('n1', { title: '置顶资讯', pinned: true, coverPath: '/api/attachment/stream/abc', source: '医保局' }),
                  newsItem('n2', { title: '普通资讯', date: '2025-04-01' }),
                ],
                11,
              ),
      });
      const { router } = renderRoute('/medical-insurance');
      expect(await screen.findByRole('heading', { level: 1, name: '医保资讯' })).toBeTruthy();
      const rows = await screen.findAllByTestId('news-row');
      expect(rows).toHaveLength(2);
      expect(rows[0]!.textContent).toContain('置顶');
      expect(rows[0]!.textContent).toContain('摘要 n1');
      expect(rows[0]!.textContent).toContain('医保局');
      expect(rows[0]!.querySelector('img')?.getAttribute('src')).toBe('/api/attachment/stream/abc');
      expect(rows[1]!.textContent).toContain('2025-04-01');
      expect(rows[1]!.querySelector('img')).toBeNull();
      expect(within(rows[0]!).getByRole('link').getAttribute('href')).toBe('/dynamic-detail?id=n1');
      expect(get).toHaveBeenCalledWith('/news', { params: { category: 'MEDICAL_INSURANCE', page: 1, size: 10, lang: 'zh-cn' } });

      fireEvent.click(within(screen.getByTestId('kit-pager')).getByText('2'));
      expect(await screen.findByText('第二页资讯')).toBeTruthy();
      expect(router.state.location.search).toBe('?page=2');
      expect(get).toHaveBeenCalledWith('/news', { params: { category: 'MEDICAL_INSURANCE', page: 2, size: 10, lang: 'zh-cn' } });
    });

    it('shows a skeleton while loading, then the empty state', async () => {
      let release: (value: unknown) => void = () => {};
      vi.spyOn(api, 'get').mockImplementation(
        ((url: string) =>
          new Promise((resolve) => {
            // Only the list's call is held and released; the app's others (the contest name) never answer.
            if (url === '/news') release = resolve as (value: unknown) => void;
          })) as typeof api.get,
      );
      renderRoute('/contest-dynamic');
      expect(await screen.findByTestId('news-skeleton')).toBeTruthy();
      release(ok(page([])));
      expect(await screen.findByText('暂无相关信息')).toBeTruthy();
      expect(screen.queryByTestId('news-skeleton')).toBeNull();
      expect(screen.getByTestId('news-list-CONTEST_DYNAMIC')).toBeTruthy();
    });
  });

  describe('articles', () => {
    const detail: NewsDetail = {
      ...newsItem('n1', { title: '文章标题', source: '组委会', category: 'CONTEST_DYNAMIC' }),
      body: '<p>正文<a href="/sign-guide" rel="noopener noreferrer">指南</a></p>',
      status: 'PUBLISHED',
      previous: { id: 'n0', title: '上一篇文章' },
      next: null,
    };

    it('/dynamic-detail renders the sanitised body, the neighbours and a back button', async () => {
      const get = mockGet({ '/news': () => detail });
      const { router } = renderRoute('/dynamic-detail?id=n1');
      expect(await screen.findByRole('heading', { level: 1, name: '文章标题' })).toBeTruthy();
      expect(get).toHaveBeenCalledWith('/news/n1', { params: { lang: 'zh-cn' } });
      expect(screen.getByTestId('article-body').innerHTML).toBe(detail.body);
      expect(screen.getByText('来源：组委会')).toBeTruthy();
      expect(screen.getByRole('link', { name: '上一篇文章' }).getAttribute('href')).toBe('/dynamic-detail?id=n0');
      // Opened directly (nothing to go back to): back goes to the article's list.
      fireEvent.click(screen.getByTestId('article-back'));
      await waitFor(() => expect(router.state.location.pathname).toBe('/contest-dynamic'));
    });

    it('/dynamic-detail says so when the article is gone', async () => {
      mockGet({ '/news': () => refused('资讯不存在或已下线', null, 404) });
      renderRoute('/dynamic-detail?id=gone');
      expect((await screen.findAllByText('资讯不存在或已下线')).length).toBeGreaterThan(0);
    });

    it('/dynamic-look previews with the admin token, never the participant one', async () => {
      localStorage.setItem('AdminToken', 'admin-token');
      localStorage.setItem('AccessToken', 'user-token');
      const get = mockGet({ '/user/account': () => participantInfo() });
      const fetchMock = vi.fn(async () =>
        new Response(JSON.stringify(ok({ ...detail, status: 'DRAFT', previous: null })), {
          headers: { 'content-type': 'application/json' },
        }),
      );
      vi.stubGlobal('fetch', fetchMock);
      renderRoute('/dynamic-look?id=n1');
      expect(await screen.findByRole('heading', { level: 1, name: '文章标题' })).toBeTruthy();
      expect(screen.getByText('预览模式：此页面仅供管理员查看发布效果')).toBeTruthy();
      expect(fetchMock).toHaveBeenCalledWith(
        '/api/admin/news/n1/preview?lang=zh-cn',
        expect.objectContaining({ headers: expect.objectContaining({ Authorization: 'Bearer admin-token' }) }),
      );
      expect(get).not.toHaveBeenCalledWith(expect.stringContaining('/admin/news'), expect.anything());
      vi.unstubAllGlobals();
    });

    it('/dynamic-look without an admin session asks for the admin login and keeps the participant signed in', async () => {
      localStorage.setItem('AccessToken', 'user-token');
      mockGet({ '/user/account': () => participantInfo() });
      renderRoute('/dynamic-look?id=n1');
      expect(await screen.findByText('请先登录管理后台后再预览')).toBeTruthy();
      expect(screen.getByRole('link', { name: '前往管理后台登录' }).getAttribute('href')).toBe('/admin/login');
      expect(localStorage.getItem('AccessToken')).toBe('user-token');
    });
  });

  describe('/sign-guide', () => {
    it('shows the edited guide and its downloads', async () => {
      mockGet({
        '/site/content': () => ({ key: 'sign-guide', title: '2025 报名指南', body: '<h2>一、报名条件</h2><p>面向全国</p>', updatedAt: null }),
        '/documents': (_url, config) =>
          config?.params?.category === 'TEMPLATE'
            ? [
                {
                  id: 'd1',
                  code: 'COMMITMENT_LETTER',
                  title: '承诺书模板',
                  category: 'TEMPLATE',
                  audience: 'PUBLIC',
                  file: { uniqueNo: 'u1', name: '承诺书.pdf', size: 2048, filePath: '/api/attachment/stream/u1' },
                  downloadPath: '/api/documents/d1/file',
                  updatedAt: '2025-05-01T00:00:00.000Z',
                },
              ]
            : [],
      });
      renderRoute('/sign-guide');
      expect(await screen.findByRole('heading', { level: 1, name: '报名指南' })).toBeTruthy();
      const body = await screen.findByTestId('guide-body');
      expect(body.innerHTML).toBe('<h2>一、报名条件</h2><p>面向全国</p>');
      expect(screen.getByText('2025 报名指南')).toBeTruthy();
      const docs = await screen.findByTestId('site-docs');
      expect(docs.textContent).toContain('承诺书模板');
      expect(docs.textContent).toContain('2 KB');
    });

    it('shows a notice while no guide is written', async () => {
      mockGet({ '/site/content': () => emptyBlock('sign-guide'), '/documents': () => [] });
      renderRoute('/sign-guide');
      expect(await screen.findByText('报名指南即将发布，敬请关注')).toBeTruthy();
      expect(screen.queryByTestId('site-docs')).toBeNull();
    });
  });

  describe('entry pages', () => {
    it('send a signed-in participant on by status', () => {
      expect(signUpTarget({ teamStatus: null })).toBe('/my-sign');
      expect(signUpTarget({ teamStatus: 'DRAFT' })).toBe('/my-sign');
      expect(signUpTarget({ teamStatus: 'REVISING' })).toBe('/my-sign');
      expect(signUpTarget({ teamStatus: 'SUBMITTED' })).toBe('/my-sign/detail');
      expect(signUpTarget({ teamStatus: 'APPROVED' })).toBe('/my-sign/detail');
      expect(signUpTarget({ teamStatus: 'REJECTED' })).toBe('/my-sign/detail');
      for (const status of [null, 'NOT_FILLED', 'DRAFT', 'REVISING'] as const) {
        expect(materialsTarget({ prelimDocStatus: status })).toBe('/material-submission');
      }
      for (const status of ['SUBMITTED', 'APPROVED', 'REJECTED'] as const) {
        expect(materialsTarget({ prelimDocStatus: status })).toBe('/material-submission/detail');
      }
    });

    it('/sign-up signed out explains the step and remembers itself for after the login', async () => {
      mockGet({ '/contest/public': () => CONTEST });
      const { router } = renderRoute('/sign-up');
      expect(await screen.findByRole('heading', { level: 1, name: '参赛报名' })).toBeTruthy();
      const phase = await screen.findByTestId('entry-phase');
      expect(phase.textContent).toContain('报名时间：');
      expect(phase.textContent).toContain('2025-05-01 ~ 2025-07-31');
      fireEvent.click(screen.getByRole('button', { name: '登录账号' }));
      await waitFor(() => expect(router.state.location.pathname).toBe('/'));
      expect(getAuthModalState()).toEqual({ open: true, type: 'login' });
      expect(sessionStorage.getItem('redirectPath')).toBe('/sign-up');
    });

    it('/sign-up signed in with a submitted team goes to the sign-up detail', async () => {
      localStorage.setItem('AccessToken', 't');
      mockGet({
        '/user/account': () => ({ ...participantInfo(), teamStatus: 'SUBMITTED' }),
        '/contest/public': () => CONTEST,
      });
      const { router } = renderRoute('/sign-up');
      await waitFor(() => expect(router.state.location.pathname).toBe('/my-sign/detail'));
    });

    it('/materials-submit signed in with materials not filled goes to the form', async () => {
      localStorage.setItem('AccessToken', 't');
      mockGet({
        '/user/account': () => ({ ...participantInfo(), teamStatus: 'APPROVED', prelimDocStatus: 'NOT_FILLED' }),
        '/contest/public': () => CONTEST,
      });
      const { router } = renderRoute('/materials-submit');
      await waitFor(() => expect(router.state.location.pathname).toBe('/material-submission'));
    });
  });
});
