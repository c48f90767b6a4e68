import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';

// The public site logged out, against the demo data (--demo seeds published news of both
// categories): home, both news lists, an article, the guide, the entry pages and the 404,
// in Chinese and English, wide and on a 375 px phone.

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.stop();
});

/** Console errors and CSP violations fail the journey. */
function watchErrors(b: Browser): string[] {
  const errors: string[] = [];
  b.page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  b.page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

async function noSidewaysScroll(b: Browser): Promise<void> {
  const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

describe('the public site, logged out, in Chinese on a wide screen', () => {
  let b: Browser;
  let errors: string[];

  beforeAll(async () => {
    b = await openBrowser({ locale: 'zh-CN' });
    errors = watchErrors(b);
  });
  afterAll(async () => b?.close());

  it('shows the schedule and the latest news on the home page', async () => {
    await b.page.goto(portal.url);
    await b.page.getByTestId('home-title').waitFor();
    await b.page.getByTestId('home-schedule').waitFor();
    expect(await b.page.getByTestId('phase-signUp').innerText()).toContain('报名');
    // Demo data publishes contest news: the latest list is filled from the server.
    const dynamic = b.page.getByTestId('home-news-CONTEST_DYNAMIC');
    await dynamic.getByText('2025全国智慧医保大赛正式启动').waitFor();
    await b.screenshot('site-home-zh');
  });

  it('browses the contest news list and opens an article, then goes back', async () => {
    await b.page.getByRole('navigation', { name: '主导航' }).getByRole('link', { name: '大赛动态' }).click();
    await b.page.waitForURL(/\/contest-dynamic$/);
    await b.page.getByRole('heading', { level: 1, name: '大赛动态' }).waitFor();
    const rows = b.page.getByTestId('news-row');
    await rows.first().waitFor();
    expect(await rows.count()).toBeGreaterThanOrEqual(3);
    expect(await b.page.getByTestId('breadcrumb').innerText()).toBe('大赛动态');
    await b.screenshot('site-contest-dynamic-zh');

    const title = await rows.first().locator('.news-row__title').innerText();
    await rows.first().getByRole('link').click();
    await b.page.waitForURL(/\/dynamic-detail\?id=/);
    await b.page.getByTestId('news-article').waitFor();
    expect(await b.page.getByRole('heading', { level: 1 }).innerText()).toBe(title.replace(/^置顶\s*/, ''));
    expect((await b.page.getByTestId('article-body').innerHTML()).length).toBeGreaterThan(0);
    // Home, list, article: three entries, below the top level, so the breadcrumb offers "back".
    expect(await b.page.getByTestId('breadcrumb').innerText()).toContain('动态详情');
    await b.page.getByTestId('breadcrumb-back').waitFor();
    await b.screenshot('site-article-zh');

    await b.page.getByTestId('article-back').click();
    await b.page.waitForURL(/\/contest-dynamic$/);
  });

  it('shows the medical-insurance list', async () => {
    await b.page.goto(`${portal.url}/medical-insurance`);
    await b.page.getByRole('heading', { level: 1, name: '医保资讯' }).waitFor();
    await b.page.getByTestId('news-row').first().waitFor();
  });

  it('shows the sign-up guide', async () => {
    await b.page.goto(`${portal.url}/sign-guide`);
    await b.page.getByRole('heading', { level: 1, name: '报名指南' }).waitFor();
    await b.page.locator('.guide-page .site-panel').waitFor();
    await b.page.waitForFunction(() => !document.querySelector('.guide-page .ant-skeleton'));
    await b.screenshot('site-guide-zh');
  });

  it('offers login on /sign-up and /materials-submit when logged out', async () => {
    await b.page.goto(`${portal.url}/sign-up`);
    await b.page.getByTestId('entry-page').waitFor();
    await b.page.getByRole('button', { name: '登录账号' }).waitFor();
    await b.screenshot('site-sign-up-zh');
    await b.page.goto(`${portal.url}/materials-submit`);
    await b.page.getByRole('heading', { level: 1, name: '初赛材料提交' }).waitFor();
    await b.page.getByTestId('entry-page').waitFor();
  });

  it('shows the 404 page for an unknown path', async () => {
    await b.page.goto(`${portal.url}/no-such-page`);
    await b.page.getByTestId('not-found').waitFor();
    expect(await b.page.getByTestId('not-found').innerText()).toContain('404');
    expect(errors).toEqual([]);
  });
});

describe('the public site in English', () => {
  it('renders the home page and a news list in English', async () => {
    const b = await openBrowser({ locale: 'en-US' });
    try {
      const errors = watchErrors(b);
      await b.page.goto(portal.url);
      await b.page.getByTestId('home-title').waitFor();
      expect(await b.page.evaluate(() => document.documentElement.lang)).toBe('en');
      await b.page.getByTestId('home-schedule').waitFor();
      expect(await b.page.getByRole('heading', { level: 2, name: 'Schedule' }).isVisible()).toBe(true);
      await b.screenshot('site-home-en');
      await b.page.goto(`${portal.url}/medical-insurance`);
      await b.page.getByTestId('news-row').first().waitFor();
      await b.screenshot('site-medical-insurance-en');
      expect(errors).toEqual([]);
    } finally {
      await b.close();
    }
  });
});

describe('the public site on a 375 px phone', () => {
  it('fits the screen on the home page, a list, an article and the guide', async () => {
    const b = await openBrowser({ locale: 'zh-CN', width: 375, height: 740 });
    try {
      await b.page.goto(portal.url);
      await b.page.getByTestId('home-title').waitFor();
      await b.page.getByTestId('home-news-CONTEST_DYNAMIC').locator('.home-news__item').first().waitFor();
      await noSidewaysScroll(b);
      await b.screenshot('site-home-375');

      await b.page.goto(`${portal.url}/contest-dynamic`);
      await b.page.getByTestId('news-row').first().waitFor();
      await noSidewaysScroll(b);
      await b.screenshot('site-contest-dynamic-375');

      await b.page.getByTestId('news-row').first().getByRole('link').click();
      await b.page.getByTestId('news-article').waitFor();
      await noSidewaysScroll(b);
      await b.screenshot('site-article-375');

      await b.page.goto(`${portal.url}/sign-guide?lang=en`);
      await b.page.getByRole('heading', { level: 1, name: 'Sign-up guide' }).waitFor();
      await noSidewaysScroll(b);
      await b.screenshot('site-guide-375-en');
    } finally {
      await b.close();
    }
  });
});
