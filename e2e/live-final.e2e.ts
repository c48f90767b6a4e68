import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { launchPortal, startPortal, type Portal } from './support/portal.js';
import { apiClient, choose, collectErrors, dialogsStill, row, tableSettled, toast } from './support/ui.js';
import { demoProjects, expertIds, expertToken, finalGroup, newExpert, promoteToFinal, setReviewPhases } from './support/review-data.js';

/**
 * The live final (现场答辩, docs/live-final.md) end to end, in one Chromium with a context per
 * person: an admin plans a session in the console (create, import the final group's projects and
 * judges, reorder with the keyboard) and creates a display link; a 1920x1080 big screen opens it;
 * five judges open the judge page on 390-px phones; the chair starts the first project; four
 * judges submit and the screen shows the count and no score; the fifth submits offline, sees the
 * unsent state, comes back online and the score goes once; the chair reveals; the screen shows
 * the score and the ranking; the score query (决赛成绩) lists it. Then the server is stopped and
 * started again on the same data and port, and the chair's page carries on where it was.
 *
 * Set-up the other journeys walk in the browser goes through the API here (support/review-data.ts):
 * two demo projects promoted to the final round, a final group of five judges holding them, the
 * final review window open, the agreement accepted, the sign-ins (tokens put in localStorage as
 * a11y-routes.e2e.ts does).
 */
let portal: Portal;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
let admin = '';

const RUN = String(Math.floor(Math.random() * 9000) + 1000);
const SESSION = `决赛第一场${RUN}`;
const GROUP = `现场决赛组${RUN}`;
// demo6 and demo7's projects; neither is of 示例医科大学 (E0001's organisation: a conflict).
const PROJECTS = ['基于知识图谱的医保基金智能监管平台', '住院费用智能审核与异常检测系统'];

interface Judge {
  code: string;
  token: string;
  context: BrowserContext;
  page: Page;
  errors: string[];
}
const judges: Judge[] = [];
let adminContext: BrowserContext;
let chair: Page;
let screen: Page;
let adminErrors: string[] = [];
let screenErrors: string[] = [];
let sessionId = '';
let displayUrl = '';
/** The project on stage first: the second by name, moved up with the keyboard. */
let first = '';
const totals: string[] = [];

async function newContext(width: number, height: number, storage: Record<string, string>): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'zh-CN', ...(width < 500 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
  await context.addInitScript((entries) => {
    for (const [key, value] of entries) if (!localStorage.getItem(key)) localStorage.setItem(key, value);
  }, Object.entries(storage));
  return context;
}

/** A button of the project on stage in the chair's console (the other projects' rows have their own). */
const stage = (action: string) => chair.getByTestId('live-stage').getByTestId(`live-action-${action}`);

/** Accepts the confirmation antd opened (modal.confirm), once it stands still. */
async function confirm(page: Page): Promise<void> {
  const ask = page.locator('.ant-modal-confirm');
  await ask.waitFor();
  await dialogsStill(page);
  await ask.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
  await ask.waitFor({ state: 'detached' });
}

/** A judge fills the score form on the phone (every criterion, a comment) and presses 提交评分, then confirms. */
async function score(judge: Judge, index: number): Promise<string> {
  const page = judge.page;
  const form = page.getByTestId('score-form');
  await form.waitFor();
  const selects = form.locator('select');
  const n = await selects.count();
  expect(n).toBeGreaterThan(0);
  for (let k = 0; k < n; k++) {
    const select = selects.nth(k);
    const options = await select.locator('option').evaluateAll((o) => o.map((e) => (e as HTMLOptionElement).value).filter(Boolean));
    // Distinct totals per judge: the k-th criterion a little below its maximum.
    const max = Number(options.at(-1));
    await select.selectOption(String(Math.max(0, max - 0.5 * (index + 1) - (k % 2))));
  }
  await page.locator('#live-comment').fill(`现场评审意见 ${index + 1}：方案完整，落地路径清楚。`);
  const total = (await page.getByTestId('form-total').locator('strong').innerText()).split('/')[0]!.trim();
  await page.getByTestId('submit-score').click();
  await confirm(page);
  return total;
}

beforeAll(async () => {
  const started = Date.now();
  portal = await startPortal();
  api = apiClient(portal.url);
  ({ accessToken: admin } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' }));
  await setReviewPhases(api, admin, 'prelim');
  const projects = await demoProjects(api, admin, PROJECTS);
  await promoteToFinal(api, admin, projects.map((p) => p.id));
  await setReviewPhases(api, admin, 'final');
  // Five judges: the three demo experts and two new ones.
  const made = [];
  for (const [i, org] of ['示例卫生经济学会', '示例软件工程中心'].entries()) {
    made.push(await newExpert(api, portal.url, admin, { name: `现场评委${i + 1}`, phone: `1371${RUN}${i}00`.slice(0, 11), organization: org, tracks: ['SMART_SUPERVISION'] }));
  }
  const accounts = [...['E0001', 'E0002', 'E0003'].map((code) => ({ code, password: 'Demo@2025' })), ...made.map((m) => ({ code: m.code, password: m.password }))];
  const ids = await expertIds(api, admin, accounts.map((a) => a.code));
  await finalGroup(api, admin, GROUP, ids, projects.map((p) => p.id));

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  adminContext = await newContext(1440, 900, { AdminToken: admin });
  chair = await adminContext.newPage();
  adminErrors = collectErrors(chair);
  for (const a of accounts) {
    const token = await expertToken(api, a.code, a.password);
    const context = await newContext(390, 844, { ExpertToken: token });
    const page = await context.newPage();
    judges.push({ code: a.code, token, context, page, errors: collectErrors(page) });
  }
  console.log(`[live-final] set-up ${Date.now() - started} ms`);
});

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

/** One journey: a failed step leaves the next ones nothing to stand on, so they are skipped. */
let broken = false;
beforeEach((ctx) => {
  if (broken) ctx.skip();
});

afterEach(async (ctx) => {
  const result = ctx.task.result;
  if (result?.state !== 'fail' && !result?.errors?.length) return;
  broken = true;
  for (const [name, page] of [['chair', chair], ['screen', screen], ...judges.map((j) => [j.code, j.page] as const)] as const) {
    if (!page || page.isClosed()) continue;
    const path = `artifacts/live-failed-${name}.png`;
    await page.screenshot({ path, fullPage: true }).catch(() => undefined);
    console.error(`[${ctx.task.name}] ${name} at ${page.url()}: ${path}`);
  }
});

describe('live final: plan, big screen, judges on phones, chair, offline submit, reveal', () => {
  it('an admin creates a session, imports the final group, reorders by keyboard and creates a display link', async () => {
    const page = chair;
    await page.goto(`${portal.url}/admin/final/live`);
    const list = page.getByTestId('live-sessions-page');
    await list.waitFor();
    await page.getByTestId('live-create').click();
    const dialog = page.getByTestId('live-session-dialog');
    await dialog.locator('input').first().waitFor();
    await dialogsStill(page);
    await dialog.getByLabel('场次名称').fill(SESSION);
    await dialog.getByLabel('答辩地点').fill('主会场');
    await dialog.getByLabel('答辩日期').fill(new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10));
    await page.keyboard.press('Enter');
    // One judge picked by hand; the group import adds the others.
    await choose(page, dialog, '评委', 'E0002', true);
    await page.keyboard.press('Escape');
    await dialog.locator('.ant-modal-footer .ant-btn-primary').click();
    await toast(page, '答辩场次已保存').waitFor();
    // A new session opens its planning page.
    await page.getByTestId('live-session-page').waitFor();
    sessionId = page.url().split('/').pop()!;
    await page.getByTestId('live-import-open').click();
    const imp = page.getByTestId('live-import-dialog');
    await imp.locator('.ant-select').waitFor();
    await dialogsStill(page);
    await choose(page, imp, '决赛评审组', GROUP);
    await imp.locator('.ant-modal-footer .ant-btn-primary').click();
    const rows = page.getByTestId('live-order-row');
    await expect.poll(() => rows.count()).toBe(2);
    await expect.poll(() => page.getByTestId('live-judges').innerText()).toContain('评委（5）');
    // Every judge scores both projects: none left out.
    for (const cell of await page.getByTestId('live-order-expected').all()) expect((await cell.locator('.ant-tag').count())).toBe(5);

    // By name, then the second moved up with the keyboard (its 上移 button, Enter) and saved.
    const before = await rows.locator('.live-order__name').allInnerTexts();
    first = before[1]!;
    const up = page.getByRole('button', { name: `上移「${first}」` });
    await up.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('live-order-announce').innerText()).toBe(`「${first}」已移到第 1 位`);
    expect(await rows.locator('.live-order__name').allInnerTexts()).toEqual([before[1], before[0]]);
    await page.getByTestId('live-order-save').click();
    await expect.poll(async () => (await api.ok<{ projectList: { projectName: string }[] }>('GET', `/admin/live/sessions/${sessionId}`, admin)).projectList.map((p) => p.projectName)).toEqual([before[1], before[0]]);

    await page.getByTestId('live-display-create').click();
    const create = page.getByTestId('live-display-dialog');
    await create.locator('input').waitFor();
    await dialogsStill(page);
    await create.locator('input').fill('主会场投影');
    await create.locator('.ant-modal-footer .ant-btn-primary').click();
    const once = page.getByTestId('live-display-once');
    displayUrl = await once.getByTestId('live-display-url').inputValue();
    expect(displayUrl).toMatch(/\/live\/[A-Za-z0-9_-]{43}$/);
    await once.locator('.ant-modal-footer .ant-btn-primary').click();
  });

  it('the big screen opens the link; five judges open the session on their phones', async () => {
    const context = await browser.newContext({ viewport: { width: 1920, height: 1080 }, locale: 'zh-CN' });
    screen = await context.newPage();
    screenErrors = collectErrors(screen);
    await screen.goto(displayUrl);
    await screen.getByTestId('live-screen').waitFor();
    await expect.poll(() => screen.getByTestId('screen-session').innerText()).toContain(SESSION);
    await screen.getByTestId('screen-stage').waitFor();

    // One judge finds the session in 我的答辩场次; the others open its address (as from the home page's card).
    await Promise.all(
      judges.map(async (judge, i) => {
        if (i === 0) {
          await judge.page.goto(`${portal.url}/expert/live`);
          await judge.page.getByTestId('live-session').filter({ hasText: SESSION }).click();
          await judge.page.waitForURL(`**/expert/live/${sessionId}`);
        } else await judge.page.goto(`${portal.url}/expert/live/${sessionId}`);
        await judge.page.getByTestId('live-judge').waitFor();
      }),
    );
  });

  it('the chair opens the session and starts the first project; four judges submit; the screen shows 4/5 and no score', async () => {
    await chair.goto(`${portal.url}/admin/final/live/${sessionId}/chair`);
    await chair.getByTestId('live-chair-page').waitFor();
    await chair.getByTestId('live-session-actions').getByTestId('live-action-OPEN').click();
    await confirm(chair);
    await expect.poll(() => chair.getByTestId('live-stage-name').innerText()).toBe(first);
    await stage('START').click();
    await expect.poll(() => screen.getByTestId('screen-project').innerText()).toBe(first);
    await screen.getByTestId('screen-timer').waitFor();
    // The phones follow the stream: the project is on stage, scoring open.
    for (const judge of judges) await expect.poll(() => judge.page.getByTestId('judge-project').innerText()).toContain(first);
    await stage('SCORE').click();
    await screen.getByTestId('screen-progress').waitFor();

    // At the same time, as on site.
    totals.push(
      ...(await Promise.all(
        judges.slice(0, 4).map(async (judge, i) => {
          const total = await score(judge, i);
          await judge.page.getByTestId('locked').waitFor();
          return total;
        }),
      )),
    );
    await expect.poll(() => screen.getByTestId('screen-progress').innerText()).toContain('已提交 4/5');
    const text = await screen.getByTestId('live-screen').innerText();
    expect(await screen.getByTestId('screen-score').count()).toBe(0);
    for (const total of totals) expect(text).not.toContain(total);
    await expect.poll(() => chair.getByTestId('live-stage-progress').innerText()).toContain('4');
    // The chair sees who is in, not their totals, while sealed.
    expect(await chair.getByTestId('live-judges-table').innerText()).toContain('已提交');
    for (const total of totals) expect(await chair.getByTestId('live-judges-table').innerText()).not.toContain(total);
    await screen.screenshot({ path: 'artifacts/live-screen-scoring-1920.png' });
  });

  it('the fifth judge submits offline, sees it unsent, comes back online: the score is sent once', async () => {
    const judge = judges[4]!;
    const sent: number[] = [];
    judge.page.on('response', (res) => {
      if (res.request().method() === 'POST' && /\/api\/expert\/live\/sessions\/[^/]+\/projects\/[^/]+\/score$/.test(res.url())) sent.push(res.status());
    });
    await judge.page.getByTestId('score-form').waitFor();
    await judge.context.setOffline(true);
    totals.push(await score(judge, 4));
    const status = judge.page.getByTestId('send-status');
    await expect.poll(() => status.getAttribute('data-status')).toBe('pending');
    expect(await status.innerText()).toContain('未发送，网络恢复后自动发送');
    await judge.page.screenshot({ path: 'artifacts/live-judge-unsent-390.png' });
    // Still 4/5 everywhere.
    expect(await screen.getByTestId('screen-progress').innerText()).toContain('已提交 4/5');

    await judge.context.setOffline(false);
    await judge.page.getByTestId('locked').waitFor({ timeout: 20_000 });
    expect(sent).toEqual([200]);
    await judge.page.screenshot({ path: 'artifacts/live-judge-locked-390.png' });
  });

  it('scoring completes; the chair reveals; the screen shows the score and the ranking', async () => {
    await screen.getByTestId('screen-closed').waitFor();
    await stage('REVEAL').click();
    await confirm(chair);
    const chairScore = Number(await chair.getByTestId('live-stage-result').locator('strong').innerText());
    await screen.getByTestId('screen-score').waitFor();
    const shown = Number(await screen.getByTestId('screen-score').innerText());
    expect(shown).toBeCloseTo(chairScore, 2);
    // The round's rule (计分规则 on the screen): the mean of the five totals without the highest and the lowest.
    expect(await screen.getByTestId('screen-ranking').innerText()).toContain('去掉最高最低分后平均');
    const middle = totals.map(Number).sort((a, b) => a - b).slice(1, -1);
    expect(shown).toBeCloseTo(middle.reduce((a, b) => a + b, 0) / middle.length, 2);
    const ranking = screen.getByTestId('ranking-row');
    await expect.poll(() => ranking.count()).toBe(1);
    expect(await ranking.first().innerText()).toContain(first);
    // Never a judge's total on the screen, even after the reveal (unless it is the score itself).
    const text = await screen.getByTestId('live-screen').innerText();
    for (const total of totals) if (Number(total) !== shown) expect(text).not.toContain(`${total}`);
    await screen.screenshot({ path: 'artifacts/live-screen-revealed-1920.png' });

    // 决赛成绩: the live project's score as the score query shows a desk-scored one.
    const query = await adminContext.newPage();
    await query.goto(`${portal.url}/admin/grade/gradeManage-admin-grade`);
    await tableSettled(query);
    const line = row(query, first);
    await line.waitFor();
    const cells = await line.locator('td').allInnerTexts();
    expect(cells.map((c) => Number(c.trim())).some((v) => Math.abs(v - shown) < 0.005)).toBe(true);
    await query.close();
  });

  it('the server restarts on the same data and port; the chair page carries on where it was', async () => {
    const port = new URL(portal.url).port;
    const t0 = Date.now();
    await portal.stop({ keepData: true });
    const t1 = Date.now();
    await expect.poll(() => chair.getByTestId('live-connection').innerText(), { timeout: 20_000 }).not.toBe('实时');
    portal = await launchPortal(portal.dataDir, { PORT: port });
    const t2 = Date.now();
    expect(new URL(portal.url).port).toBe(port);
    // The stream comes back by itself; the state is where it was (the revealed project), and
    // the next action works.
    await expect.poll(() => chair.getByTestId('live-connection').innerText(), { timeout: 30_000 }).toBe('实时');
    console.log(`[live-final] stop ${t1 - t0} ms, start ${t2 - t1} ms, chair back ${Date.now() - t2} ms`);
    await expect.poll(() => chair.getByTestId('live-stage-result').count()).toBe(1);
    await chair.getByTestId('live-session-actions').getByTestId('live-action-NEXT').waitFor();
    await chair.getByTestId('live-session-actions').getByTestId('live-action-NEXT').click();
    await expect.poll(() => chair.getByTestId('live-stage-name').innerText(), { timeout: 15_000 }).not.toBe(first);
    await expect.poll(() => screen.getByTestId('screen-project').innerText(), { timeout: 30_000 }).not.toBe(first);
    expect(adminErrors).toEqual([]);
    expect(screenErrors).toEqual([]);
    for (const judge of judges) expect(judge.errors, judge.code).toEqual([]);
  });
});
