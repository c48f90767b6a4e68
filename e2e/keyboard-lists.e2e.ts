import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.js';
import { solveSlider } from './support/slider.js';
import { startPortal, type Portal } from './support/portal.js';

/**
 * A console list page by keyboard alone (docs/security.md, "Accessibility"): Tab from the first filter goes
 * through every filter (both halves of a date range), the search buttons, the batch actions, the
 * table and on to the paging. The date-range filter once kept Tab in its 开始日期 input for ever.
 */
let portal: Portal;
let b: Browser;

beforeAll(async () => {
  portal = await startPortal();
  b = await openBrowser({ locale: 'zh-CN' });
  await b.page.goto(`${portal.url}/admin/login`);
  await b.page.getByTestId('staff-login-submit').waitFor();
  await b.page.getByPlaceholder('请输入用户名', { exact: true }).fill('admin');
  await b.page.getByPlaceholder('请输入密码', { exact: true }).fill('Admin@2025');
  await b.page.getByTestId('staff-login-submit').click();
  await solveSlider(b.page);
  await b.page.waitForURL('**/admin/home');
});

afterAll(async () => {
  await b?.close();
  await portal?.stop();
});

/** What has focus, in words a failure message can show. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { kind: 'body', text: '', id: '' };
    // Each element visited gets a number, so a stop that did not move is seen as the same element.
    const w = window as unknown as { tabStops?: number };
    el.dataset.tabStop ??= String((w.tabStops = (w.tabStops ?? 0) + 1));
    const kind = el.closest('.ant-pagination') ? 'paging' : el.closest('.ant-table') ? 'table' : el.tagName.toLowerCase();
    return { kind, text: (el.getAttribute('placeholder') || el.getAttribute('aria-label') || el.innerText || '').trim().slice(0, 30), id: el.dataset.tabStop };
  });

/** Presses Tab from the first filter until the paging has focus (or `limit` presses); the stops on the way. */
type Stop = Awaited<ReturnType<typeof focused>>;

async function tabToPaging(page: Page, limit = 250): Promise<Stop[]> {
  const stops: Stop[] = [];
  for (let i = 0; i < limit; i++) {
    const now = await focused(page);
    stops.push(now);
    if (now.kind === 'paging') break;
    await page.keyboard.press('Tab');
  }
  return stops;
}

describe('a console list page by keyboard', () => {
  it.each([
    ['资格管理', '/admin/competition/qualification', '开始审核'],
    ['新闻资讯', '/admin/user/siteContentManagement', null],
  ] as const)('%s: Tab goes from the first filter through the date range, search, actions and table to the paging', async (_name, path, action) => {
    await b.page.goto(`${portal.url}${path}`);
    const firstFilter = b.page.locator('form input').first();
    await firstFilter.waitFor();
    await b.page.locator('.ant-table-tbody tr.ant-table-row').first().waitFor();
    await firstFilter.focus();
    const stops = await tabToPaging(b.page);
    const texts = stops.map((s) => `${s.kind}:${s.text}`);
    const at = (pred: (s: Stop) => boolean) => stops.findIndex(pred);
    const start = at((s) => s.text === '开始日期');
    const end = at((s) => s.text === '结束日期');
    const search = at((s) => s.text === '查询');
    const act = action === null ? search : at((s) => s.text === action);
    const table = at((s) => s.kind === 'table');
    const paging = at((s) => s.kind === 'paging');
    expect([start, end, search, act, table, paging].every((i) => i >= 0), JSON.stringify(texts)).toBe(true);
    expect(start < end && end < search && search <= act && act < table && table < paging, JSON.stringify(texts)).toBe(true);
    // Every press moved focus on: no element holds it twice in a row.
    expect(stops.slice(1).filter((s, i) => s.id === stops[i]!.id).map((s) => `${s.kind}:${s.text}`)).toEqual([]);
  });
});
