import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.stop();
});

/** Console errors and CSP violations fail the journey: a strict CSP must not break the app. */
function watchErrors(b: Browser): string[] {
  const errors: string[] = [];
  b.page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  b.page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

describe('the public home page', () => {
  let b: Browser;
  afterAll(async () => b?.close());

  it('serves the Chinese home page by default', async () => {
    b = await openBrowser({ locale: 'zh-CN' });
    const errors = watchErrors(b);
    const res = await b.page.goto(portal.url);
    expect(res?.status()).toBe(200);
    await b.page.getByTestId('home-title').waitFor();
    expect(await b.page.getByTestId('home-title').innerText()).toContain('2025全国智慧医保大赛');
    expect(await b.page.evaluate(() => document.documentElement.lang)).toBe('zh-cn');
    expect(await b.page.getByRole('link', { name: '医保资讯' }).first().isVisible()).toBe(true);
    await b.screenshot('home-zh');
    expect(errors).toEqual([]);
  });

  it('switches to English, sets <html lang> and keeps the choice after a reload', async () => {
    await b.page.getByTestId('lang-switch').getByText('English', { exact: true }).click();
    await b.page.waitForFunction(() => document.documentElement.lang === 'en');
    expect(await b.page.getByTestId('home-title').innerText()).not.toContain('全国智慧医保大赛');
    await b.page.reload();
    await b.page.getByTestId('home-title').waitFor();
    expect(await b.page.evaluate(() => document.documentElement.lang)).toBe('en');
    await b.screenshot('home-en');

    await b.page.getByTestId('lang-switch').getByText('中文', { exact: true }).click();
    await b.page.waitForFunction(() => document.documentElement.lang === 'zh-cn');
    expect(await b.page.getByTestId('home-title').innerText()).toContain('2025全国智慧医保大赛');
  });

  it('shows its own 404 page for an unknown path', async () => {
    await b.page.goto(`${portal.url}/no-such-page/at-all`);
    await b.page.getByTestId('not-found').waitFor();
    expect(await b.page.getByTestId('not-found').innerText()).toContain('404');
    await b.screenshot('not-found');
  });
});

describe('language from the address and the browser', () => {
  it('?lang=en opens in English on a Chinese browser', async () => {
    const b = await openBrowser({ locale: 'zh-CN' });
    try {
      await b.page.goto(`${portal.url}/?lang=en`);
      await b.page.getByTestId('home-title').waitFor();
      expect(await b.page.evaluate(() => document.documentElement.lang)).toBe('en');
    } finally {
      await b.close();
    }
  });

  it('an English browser gets English without a parameter', async () => {
    const b = await openBrowser({ locale: 'en-US' });
    try {
      await b.page.goto(portal.url);
      await b.page.getByTestId('home-title').waitFor();
      expect(await b.page.evaluate(() => document.documentElement.lang)).toBe('en');
    } finally {
      await b.close();
    }
  });

  it('fits a 375 px phone screen without sideways scrolling', async () => {
    const b = await openBrowser({ locale: 'zh-CN', width: 375, height: 740 });
    try {
      await b.page.goto(portal.url);
      await b.page.getByTestId('home-title').waitFor();
      const overflow = await b.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await b.screenshot('home-375');
    } finally {
      await b.close();
    }
  });

  it('shows the whole contest name in the phone header, in English too', async () => {
    const b = await openBrowser({ locale: 'zh-CN', width: 390, height: 740 });
    try {
      for (const [lang, name] of [
        ['zh', '2025全国智慧医保大赛'],
        ['en', '2025 National Smart Medical-Insurance Competition'],
      ] as const) {
        await b.page.goto(`${portal.url}/?lang=${lang}`);
        const logo = b.page.locator('header .app-logo__name');
        await expect.poll(() => logo.innerText()).toBe(name);
        // Cut text leaves its box larger than the box (an ellipsis or a clamped line).
        const cut = await logo.evaluate((el) => el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight);
        expect(cut, lang).toBe(false);
      }
      await b.screenshot('home-390-en-header');
    } finally {
      await b.close();
    }
  });
});

describe('the API behind the same origin', () => {
  it('answers health and a JSON 404 for unknown API paths', async () => {
    const health = await fetch(`${portal.url}/api/health`);
    expect(health.status).toBe(200);
    const missing = await fetch(`${portal.url}/api/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
