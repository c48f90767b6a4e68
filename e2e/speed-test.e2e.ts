import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { expectNoSeriousA11y } from './support/axe.js';
import { openBrowser, type Browser } from './support/browser.js';
import { participantLogin } from './support/login.js';
import { startPortal, type Portal } from './support/portal.js';

/**
 * The speed test (docs/decisions.md, "Speed-test page") in Chromium against the built portal: a signed-in participant times
 * a real download and upload through the probes (XMLHttpRequest progress, raw upload body),
 * reads the estimates, and the page passes axe. demo5 has no team: the default ceilings apply.
 */
let portal: Portal;
const USER = { username: 'demo5', password: 'Demo@2025' };

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.stop();
});

const login = (page: Page) => participantLogin(page, portal.url, USER);

describe('speed test', () => {
  let b: Browser;
  afterAll(async () => b?.close());

  it('measures both directions against the server and estimates the uploads', async () => {
    b = await openBrowser();
    const { page } = b;
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const probes: { method: string; status: number; type: string | null }[] = [];
    page.on('response', (res) => {
      if (new URL(res.url()).pathname === '/api/attachment/speed') {
        probes.push({ method: res.request().method(), status: res.status(), type: res.request().headers()['content-type'] ?? null });
      }
    });

    await login(page);
    await page.goto(`${portal.url}/user/speed-test`);
    await page.getByRole('heading', { name: '上传速度测试' }).waitFor();
    await page.getByRole('button', { name: '开始测速' }).click();

    const estimates = page.getByTestId('speed-estimates');
    await estimates.waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('speed-download').textContent()).toMatch(/^[\d.]+ MB\/s$/);
    expect(await page.getByTestId('speed-upload').textContent()).toMatch(/^[\d.]+ MB\/s$/);
    expect(await page.getByTestId('speed-live').textContent()).toMatch(/^下载速度 [\d.]+ MB\/s，上传速度 [\d.]+ MB\/s$/);
    expect(await estimates.getByTestId('speed-estimate-video').textContent()).toMatch(/^按当前上传速度 [\d.]+ MB\/s，500 MB 的视频约需 \d+ (秒|分钟)/);
    expect(probes).toEqual([
      { method: 'GET', status: 200, type: null },
      { method: 'POST', status: 200, type: 'application/octet-stream' },
    ]);

    // The pointer still rests on 重新测速 after the click: its hover colour is not what others see.
    await page.mouse.move(0, 0);
    await expectNoSeriousA11y(page, { screen: '上传速度测试' });
    expect(errors).toEqual([]);
  });
});
