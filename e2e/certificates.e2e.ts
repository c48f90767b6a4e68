import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startPortal, type Portal } from './support/portal.js';
import { apiClient, collectErrors, pickOption, row, tableSettled } from './support/ui.js';
import { demoProjects, expertIds, expertToken, finalGroup, promoteToFinal, setReviewPhases } from './support/review-data.js';
import { pdfQr, pdfText } from './support/certificate-pdf.js';

/**
 * Certificates and letters end to end (docs/certificates.md), in Chromium against the built app.
 * Set-up through the API as live-final.e2e.ts does (two demo projects in the final round, three
 * demo experts score them, version 1 of the final result published with 一等奖 / 二等奖). Then, in
 * the browser: the admin creates an AWARD template in 证书模板 (fields placed with the numeric
 * inputs) and previews it as a PDF for a real project; issues the final round's award
 * certificates in 证书管理 and watches the job finish; the team downloads its certificate on its
 * result page, whose text names the team, project and award, and whose QR code holds the
 * verification address; that page says the certificate is valid. A second result version changes
 * the team's award: issuing again supersedes the first certificate, whose page now says so and
 * links to its successor. Screenshots at 1440 and 390, in Chinese and English, land in artifacts/.
 */
let portal: Portal;
let browser: Browser;
let api: ReturnType<typeof apiClient>;
let admin = '';
let team = '';

const RUN = String(Math.floor(Math.random() * 9000) + 1000);
const TEMPLATE = `获奖证书模板${RUN}`;
// demo6's project (first by score) and demo7's; neither is of E0001's organisation.
const PROJECTS = ['基于知识图谱的医保基金智能监管平台', '住院费用智能审核与异常检测系统'];
const GROUP = `证书决赛组${RUN}`;
const ARTIFACTS = new URL('./artifacts/', import.meta.url);

let adminContext: BrowserContext;
let adminPage: Page;
let adminErrors: string[] = [];
let templateUrl = '';
/** The team's first certificate (version 1 of the result). */
let serial = '';
let holderName = '';

async function context(storage: Record<string, string>, width = 1440): Promise<BrowserContext> {
  const ctx = await browser.newContext({ viewport: { width, height: 900 }, locale: 'zh-CN', acceptDownloads: true, ...(width < 500 ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}) });
  await ctx.addInitScript((entries) => {
    for (const [key, value] of entries) if (!localStorage.getItem(key)) localStorage.setItem(key, value);
  }, Object.entries(storage));
  return ctx;
}

/** The input of an antd InputNumber marked with a test id (on the input or its wrapper). */
async function numberInput(page: Page, testId: string): Promise<Locator> {
  const box = page.getByTestId(testId);
  return (await box.evaluate((e) => e.tagName)) === 'INPUT' ? box : box.locator('input');
}

/** Picks an option of the antd select marked with a test id. */
async function pick(page: Page, testId: string, option: string, type = false): Promise<void> {
  await pickOption(page, page.getByTestId(testId), option, type);
}

/** Scores every final project of an expert: the team's project full marks, the other a little less. */
async function scoreFinal(token: string, top: string): Promise<void> {
  const list = await api.ok<{ list: { id: string }[] }>('GET', '/expert/review/final/list?size=100', token);
  for (const p of list.list) {
    const detail = await api.ok<{ criteria: { key: string; max: number }[]; sheet: { version: number } | null }>('GET', `/expert/review/final/${p.id}`, token);
    const scores = Object.fromEntries(detail.criteria.map((c) => [c.key, p.id === top ? c.max : Math.max(0, c.max - 2)]));
    await api.ok('POST', `/expert/review/final/${p.id}/sheet/submit`, token, { scores, comment: '决赛答辩表现良好，方案可落地。', version: detail.sheet?.version });
  }
}

/** Issues the final round's award certificates through the API and waits for the job. */
async function issueByApi(): Promise<void> {
  const { jobId } = await api.ok<{ jobId: string }>('POST', '/admin/certificates/final/issue', admin, { kinds: ['AWARD'] });
  for (let i = 0; i < 120; i++) {
    const job = await api.ok<{ status: string; error: string | null }>('GET', `/admin/certificates/jobs/${jobId}`, admin);
    if (job.status === 'DONE') return;
    if (job.status === 'FAILED') throw new Error(`issuing failed: ${job.error}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error('issuing did not finish');
}

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
  ({ accessToken: admin } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' }));
  ({ accessToken: team } = await api.ok<{ accessToken: string }>('POST', '/login', null, { username: 'demo6', password: 'Demo@2025' }));
  await setReviewPhases(api, admin, 'prelim');
  const projects = await demoProjects(api, admin, PROJECTS);
  await promoteToFinal(api, admin, projects.map((p) => p.id));
  await setReviewPhases(api, admin, 'final');
  const codes = ['E0001', 'E0002', 'E0003'];
  await finalGroup(api, admin, GROUP, await expertIds(api, admin, codes), projects.map((p) => p.id));
  for (const code of codes) await scoreFinal(await expertToken(api, code, 'Demo@2025'), projects[0]!.id);
  await api.ok('POST', '/admin/results/final/publish', admin, { awards: { mode: 'RANK_COUNTS', levels: [{ name: '一等奖', count: 1 }, { name: '二等奖', count: null }] } });

  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'],
  });
  adminContext = await context({ AdminToken: admin });
  adminPage = await adminContext.newPage();
  adminErrors = collectErrors(adminPage);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await portal?.stop();
});

afterEach(async (ctx) => {
  const result = ctx.task.result;
  if (result?.state !== 'fail' && !result?.errors?.length) return;
  const path = new URL(`certificates-failed-${ctx.task.name.slice(0, 24).replace(/[^a-z]+/gi, '-')}.png`, ARTIFACTS);
  await adminPage?.screenshot({ path: path.pathname, fullPage: true }).catch(() => undefined);
  console.error(`[${ctx.task.name}] admin at ${adminPage?.url()}: ${path.pathname}`);
});

describe('certificates: template, issuing, download, verification', () => {
  it('the admin creates an AWARD template with fields placed by number, and previews it as the server prints it', async () => {
    const page = adminPage;
    await page.goto(`${portal.url}/admin/results/certificate-templates`);
    await page.getByTestId('certificate-templates-page').waitFor();
    await page.getByTestId('template-new').click();
    await page.getByTestId('template-editor').waitFor();
    await page.locator('#cert-name').fill(TEMPLATE);

    // Fields, each placed with the numeric inputs: [key, top %, left %, width %, size].
    const layout: [string, number, number, number, number][] = [
      ['固定文字', 12, 15, 70, 40],
      ['队伍名称', 34, 15, 70, 26],
      ['项目名称', 46, 10, 80, 18],
      ['奖项', 57, 25, 50, 30],
      ['颁发日期', 80, 8, 40, 14],
      ['证书编号', 86, 8, 50, 12],
    ];
    for (const [i, [name, y, x, width, size]] of layout.entries()) {
      await pick(page, 'field-add-key', name);
      await page.getByTestId('field-add').click();
      await (await numberInput(page, `field-width-${i}`)).fill(String(width));
      await (await numberInput(page, `field-x-${i}`)).fill(String(x));
      await (await numberInput(page, `field-y-${i}`)).fill(String(y));
      await (await numberInput(page, `field-fontSize-${i}`)).fill(String(size));
    }
    await page.getByTestId('field-text-0').fill('荣誉证书');
    await pick(page, 'field-add-key', '验证二维码');
    await page.getByTestId('field-add').click();
    // The boxes on the page follow the numbers.
    await expect.poll(() => page.getByTestId('cert-field-box').nth(1).evaluate((e) => (e as HTMLElement).style.top)).toBe('34%');
    expect(await page.getByTestId('cert-field-box').count()).toBe(7);

    await page.getByTestId('template-save').click();
    await page.waitForURL(/\/admin\/results\/certificate-templates\/[0-9a-f-]{36}$/);
    templateUrl = page.url().replace(portal.url, '');
    await page.getByTestId('editor-version').filter({ hasText: '第 1 版' }).waitFor();

    await pick(page, 'preview-record', PROJECTS[0]!.slice(0, 6), true);
    await page.getByTestId('preview-run').click();
    await page.locator('[data-testid="preview-frame"][data-rendered="true"]').waitFor({ timeout: 30_000 });
    expect(adminErrors).toEqual([]);
  });

  it('issues the final round award certificates and follows the job to its end', async () => {
    const page = adminPage;
    await page.goto(`${portal.url}/admin/results/certificates?round=final`);
    const panel = page.getByTestId('certificates-round-final');
    await panel.getByTestId('published-version').waitFor();
    for (const name of ['参赛证书', '专家聘书', '专家感谢信']) await panel.getByTestId('issue-kinds').getByText(name, { exact: true }).click();
    await panel.getByTestId('issue-start').click();
    await panel.locator('[data-testid="issue-job"][data-status="DONE"]').waitFor({ timeout: 60_000 });
    expect(await panel.getByTestId('issue-job-summary').innerText()).toContain('新颁发 2');
    const list = page.getByTestId('certificates-documents');
    await tableSettled(list);
    await row(list, PROJECTS[0]!).waitFor();
    expect(await row(list, PROJECTS[0]!).innerText()).toContain('一等奖');
    expect(await row(list, PROJECTS[1]!).innerText()).toContain('二等奖');
    expect(adminErrors).toEqual([]);
  });

  it('the team downloads its certificate: the PDF names the team, project and award, and its QR code holds the verification page', async () => {
    const ctx = await context({ AccessToken: team });
    const page = await ctx.newPage();
    const errors = collectErrors(page);
    await page.goto(`${portal.url}/material-submission/detail`);
    const item = page.getByTestId('my-certificates-card').getByTestId('my-certificate').first();
    await item.waitFor();
    serial = (await item.getAttribute('data-serial')) ?? '';
    expect(serial).toMatch(/^\d{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(await item.innerText()).toContain('一等奖');
    const [download] = await Promise.all([page.waitForEvent('download'), item.getByTestId('my-certificate-download').click()]);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');

    const mine = await api.ok<{ serial: string; holderName: string }[]>('GET', '/certificates/mine', team);
    holderName = mine.find((c) => c.serial === serial)!.holderName;
    const text = (await pdfText(bytes)).replace(/\s+/g, '');
    for (const expected of ['荣誉证书', holderName, PROJECTS[0]!, '一等奖', serial]) expect(text).toContain(expected.replace(/\s+/g, ''));

    const qr = await pdfQr(bytes);
    expect(qr).not.toBeNull();
    const verifyPath = new URL(qr!).pathname;
    expect(verifyPath).toBe(`/verify/${serial}`);
    await page.goto(`${portal.url}${verifyPath}`);
    const banner = page.getByTestId('verify-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-status')).toBe('VALID');
    const facts = await page.getByTestId('verify-facts').innerText();
    for (const expected of [serial, holderName, PROJECTS[0]!, '一等奖', '决赛', '第 1 版']) expect(facts).toContain(expected);
    expect(errors).toEqual([]);
    await ctx.close();
  });

  it('a later result version that changes the award supersedes the certificate; its page links to the successor', async () => {
    await api.ok('POST', '/admin/results/final/versions', admin, {
      reason: `奖项设置调整${RUN}`,
      awards: { mode: 'RANK_COUNTS', levels: [{ name: '特等奖', count: 1 }, { name: '二等奖', count: null }] },
    });
    await issueByApi();
    const ctx = await context({});
    const page = await ctx.newPage();
    await page.goto(`${portal.url}/verify/${serial}`);
    const banner = page.getByTestId('verify-banner');
    await banner.waitFor();
    expect(await banner.getAttribute('data-status')).toBe('SUPERSEDED');
    await banner.getByTestId('verify-successor').click();
    await page.locator('[data-testid="verify-banner"][data-status="VALID"]').waitFor();
    expect(page.url()).not.toContain(serial);
    const facts = await page.getByTestId('verify-facts').innerText();
    expect(facts).toContain('特等奖');
    expect(facts).toContain('第 2 版');
    await ctx.close();
  });

  it('screenshots: editor with preview, issuing panel, the team list, valid and superseded verification (1440 and 390, zh and en)', async () => {
    const successor = (await api.ok<{ serial: string; status: string }[]>('GET', '/certificates/mine', team)).find((c) => c.status === 'VALID')!.serial;
    const shots: { name: string; storage: Record<string, string>; path: string; ready(page: Page): Promise<void> }[] = [
      {
        name: 'certificates-editor',
        storage: { AdminToken: admin },
        path: templateUrl,
        ready: async (page) => {
          await page.getByTestId('template-editor').waitFor();
          await page.getByTestId('preview-run').click();
          await page.locator('[data-testid="preview-frame"][data-rendered="true"]').waitFor({ timeout: 30_000 });
        },
      },
      {
        name: 'certificates-issuing',
        storage: { AdminToken: admin },
        path: '/admin/results/certificates?round=final',
        ready: async (page) => {
          await page.locator('[data-testid="issue-job"][data-status="DONE"]').waitFor();
          await row(page.getByTestId('certificates-documents'), PROJECTS[1]!).waitFor();
        },
      },
      { name: 'certificates-team', storage: { AccessToken: team }, path: '/material-submission/detail', ready: (page) => page.getByTestId('my-certificate').first().waitFor() },
      { name: 'certificates-verify-valid', storage: {}, path: `/verify/${successor}`, ready: (page) => page.getByTestId('verify-banner').waitFor() },
      { name: 'certificates-verify-superseded', storage: {}, path: `/verify/${serial}`, ready: (page) => page.getByTestId('verify-successor').waitFor() },
    ];
    for (const shot of shots) {
      for (const width of [1440, 390]) {
        for (const lang of ['zh-cn', 'en']) {
          const ctx = await context(shot.storage, width);
          const page = await ctx.newPage();
          const errors = collectErrors(page);
          await page.goto(`${portal.url}${shot.path}${shot.path.includes('?') ? '&' : '?'}lang=${lang}`);
          await shot.ready(page);
          await page.screenshot({ path: new URL(`${shot.name}-${width}-${lang === 'en' ? 'en' : 'zh'}.png`, ARTIFACTS).pathname, fullPage: true });
          expect(errors, `${shot.name} ${width} ${lang}`).toEqual([]);
          await ctx.close();
        }
      }
    }
  }, 240_000);
});
