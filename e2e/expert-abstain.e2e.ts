import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { demoProjects, expertIds, expertToken, setReviewPhases } from './support/review-data.js';
import { apiClient, collectErrors, dialogsStill, openDialog, row, tableSettled, toast } from './support/ui.js';

/**
 * Abstaining end to end (docs/rules/review.md, "Abstaining"), in Chromium against the built portal
 * with its demo data: expert E0001 scores a demo project in group A; expert E0003 is in group B,
 * whose tracks cover the project's. E0001 recuses themself on the scoring page (reason, the box
 * ticked with the keyboard, confirm): the sheet turns read-only 已回避 and the project leaves
 * their list. The admin's 评分监控 (by project) shows 已回避 1 人 with the reason, 待补充专家 and E0003
 * as a suggestion; one click adds E0003 through re-review, the row says 已补充, and E0003's list
 * holds the project. Sessions come from the API (no slider: the login is walked elsewhere).
 */
let portal: Portal;
let api: ReturnType<typeof apiClient>;
let browser: Browser;
let admin = '';
let expert1 = '';
let expert3 = '';
let project = { id: '', name: '' };
const REASON = '本人近三年曾为该项目团队提供技术咨询';

/** A context of the journey's browser whose pages start signed in (the token in localStorage). */
async function signedIn(context: BrowserContext, key: 'AdminToken' | 'ExpertToken', token: string): Promise<Page> {
  const page = await context.newPage();
  await page.addInitScript(([k, v]) => localStorage.setItem(k!, v!), [key, token]);
  return page;
}

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
  ({ accessToken: admin } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' }));
  await setReviewPhases(api, admin, 'prelim');
  // demo8's project (DATA_GOVERNANCE): E0001 and E0003 both cover the track; neither shares its organisation.
  project = (await demoProjects(api, admin, ['医保数据质量治理与标准化工具']))[0]!;
  const [e1, e3] = await expertIds(api, admin, ['E0001', 'E0003']);
  const groupA = await api.ok<{ id: string }>('POST', '/admin/review/prelim/groups', admin, { name: '回避甲组', expertIds: [e1] });
  await api.ok('POST', `/admin/review/prelim/projects/${project.id}/move`, admin, { groupId: groupA.id, reason: '回避演示' });
  await api.ok('POST', '/admin/review/prelim/groups', admin, { name: '回避乙组', expertIds: [e3] });
  expert1 = await expertToken(api, 'E0001', 'Demo@2025');
  expert3 = await expertToken(api, 'E0003', 'Demo@2025');
  browser = await openBrowser({ width: 1440 });
});

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

describe('an expert abstains; the admin adds a replacement', () => {
  it('E0001 recuses themself on the scoring page: reason, acknowledgement by keyboard, confirm; then 已回避, read-only', async () => {
    const page = await signedIn(browser.context, 'ExpertToken', expert1);
    const errors = collectErrors(page);
    await page.goto(`${portal.url}/expert/review-detail/${project.id}`);
    await page.getByTestId('score-form').waitFor();
    await page.getByTestId('abstain-open').click();
    const dialog = openDialog(page);
    await dialog.waitFor();
    await dialogsStill(page);
    // Focus starts in the reason.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('abstain-reason');
    await page.keyboard.type(REASON);
    // Tab to the box, tick it with the space bar.
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('checkbox');
    await page.keyboard.press('Space');
    await dialog.getByRole('button', { name: '确认回避' }).click();

    const sheet = page.getByTestId('abstained-sheet');
    await sheet.waitFor();
    expect(await sheet.getByTestId('abstained-reason').innerText()).toBe(REASON);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toContain('已回避');
    expect(await page.getByTestId('score-form').count()).toBe(0);
    await toast(page, '已回避该项目').waitFor();

    // The list no longer holds it.
    await page.getByTestId('abstained-back').click();
    await page.waitForURL('**/expert/review-manage');
    // E0001 had this project only: the list is empty now.
    await page.locator('.ant-table-placeholder').waitFor();
    await tableSettled(page);
    expect(await row(page, project.name).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('评分监控 shows the abstention with its reason and E0003 as a replacement; one click adds them; E0003 sees the project', async () => {
    const page = await signedIn(browser.context, 'AdminToken', admin);
    const errors = collectErrors(page);
    await page.goto(`${portal.url}/admin/grade/scoringMonitoringExpert?tab=projects`);
    const line = row(page, project.name);
    await line.waitFor();
    const count = line.getByTestId('abstained-count');
    expect(await count.innerText()).toContain('已回避 1 人');
    await count.hover();
    await expect.poll(() => page.getByTestId('abstain-reasons').innerText()).toContain(REASON);
    expect(await line.getByTestId('needs-scorer').innerText()).toBe('待补充专家');

    const add = line.getByTestId('add-replacement');
    expect(await add.allInnerTexts()).toEqual(['冯研究员']);
    await add.click();
    await toast(page, '已添加 冯研究员').waitFor();
    await line.getByTestId('replacement-done').waitFor();
    expect(errors).toEqual([]);
    await page.close();

    const list = await api.ok<{ list: { id: string; status: string }[] }>('GET', '/expert/review/prelim/list?size=100', expert3);
    expect(list.list.find((p) => p.id === project.id)?.status).toBe('NONE');
    const mine = await api.call('GET', `/expert/review/prelim/${project.id}`, expert1);
    expect(mine.http).toBe(404);
  });
});
