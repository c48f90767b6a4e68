import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBrowser, type Browser } from './support/browser.js';
import { pdfObjectsText, pdfWithText } from './support/pdf.js';
import { startPortal, type Portal } from './support/portal.js';
import { apiClient, collectErrors, staffLogin } from './support/ui.js';

/**
 * Blind review of files (docs/security.md, "Blind review"), in Chromium against the built portal
 * with its demo data: the approved demo team demo1 submits its materials with an application
 * named after the team, the admin passes the formal check and puts the project in a group of
 * expert E0002; the expert's review page names the file by project code and kind, offers no
 * 下载 (downloads are off by default), and the server refuses a download while the preview works.
 * With 专家下载材料 set to PDF, 下载 appears and the file the browser saves is the stamped copy.
 */
let portal: Portal;
let api: ReturnType<typeof apiClient>;
let superToken = '';
const DAY = 86_400_000;
const UPLOAD_NAME = '智审先锋队申报书.pdf';

interface Settings {
  phases: Record<string, { start: string | null; end: string | null } | null>;
  [key: string]: unknown;
}

async function setPhases(stage: 'submission' | 'review'): Promise<void> {
  const settings = await api.ok<Settings>('GET', '/admin/settings', superToken);
  const at = (days: number) => new Date(Date.now() + days * DAY).toISOString();
  settings.phases =
    stage === 'submission'
      ? { signUp: { start: at(-30), end: at(-20) }, prelimSubmission: { start: at(-1), end: at(10) }, prelimReview: null, finalReview: null }
      : { signUp: { start: at(-30), end: at(-20) }, prelimSubmission: { start: at(-20), end: at(-0.01) }, prelimReview: { start: at(-0.005), end: at(10) }, finalReview: null };
  await api.ok('PUT', '/admin/settings', superToken, settings);
}

async function uploadPrelim(token: string, name: string, content: Buffer): Promise<string> {
  const form = new FormData();
  form.append('origin', 'PRELIM');
  form.append('name', name);
  form.append('file', new Blob([new Uint8Array(content)], { type: 'application/pdf' }), name);
  const res = await fetch(`${portal.url}/api/attachment/upload/public`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const body = (await res.json()) as { status: number; data: { uniqueNo: string } };
  expect(body.status).toBe(200);
  return body.data.uniqueNo;
}

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
  ({ accessToken: superToken } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' }));
});

afterAll(async () => {
  await portal?.stop();
});

describe('blind review: what an expert receives names no team', () => {
  let expert: Browser;
  let prelimId = '';
  let applicationNo = '';

  afterAll(async () => {
    await expert?.close();
  });

  it('a team submits an application named after itself; the formal check passes it into a group', async () => {
    await setPhases('submission');
    const { accessToken: team } = await api.ok<{ accessToken: string }>('POST', '/login', null, { isPhoneLogin: false, username: 'demo1', password: 'Demo@2025' });
    applicationNo = await uploadPrelim(team, UPLOAD_NAME, pdfWithText('Our plan for smart claims review'));
    const presentation = await uploadPrelim(team, '演示材料.pdf', pdfWithText('Slides'));
    const mine = await api.ok<{ track: string }>('GET', '/prelim-doc/my', team);
    const submitted = await api.ok<{ id: string; version: number }>('POST', '/prelim-doc/my/submit', team, {
      projectName: '盲评演示项目',
      track: mine.track,
      summary: '基于大模型的医保智能审核',
      keywords: ['医保'],
      application: applicationNo,
      presentation,
      video: null,
      others: [],
    });
    prelimId = submitted.id;
    const detail = await api.ok<{ version: number; blindWarnings: unknown[] }>('GET', `/admin/prelim-doc/${prelimId}`, superToken);
    expect(detail.blindWarnings).toEqual([]);
    await api.ok('POST', `/admin/prelim-doc/${prelimId}/audit`, superToken, { outcome: 'APPROVED', reason: '', version: detail.version });

    await setPhases('review');
    const experts = await api.ok<{ list: { id: string; code: string }[] }>('GET', '/admin/expert/list?size=100', superToken);
    const e2 = experts.list.find((e) => e.code === 'E0002')!;
    const group = await api.ok<{ id: string }>('POST', '/admin/review/prelim/groups', superToken, { name: '盲评组', expertIds: [e2.id] });
    await api.ok('POST', `/admin/review/prelim/projects/${prelimId}/move`, superToken, { groupId: group.id, reason: '盲评演示' });
  });

  it('the expert sees the neutral name and no 下载 button; a download is refused, the preview works', async () => {
    expert = await openBrowser({ width: 1440 });
    const errors = collectErrors(expert.page);
    const page = expert.page;
    await staffLogin(page, portal.url, 'expert', 'e0002', 'Demo@2025');
    const agreement = page.getByTestId('review-agreement');
    const home = page.getByTestId('round-PRELIMINARY');
    await agreement.or(home).first().waitFor();
    if (await agreement.isVisible()) {
      await page.getByTestId('agreement-check').click();
      await page.getByTestId('agreement-accept').click();
      await home.waitFor();
    }

    await page.goto(`${portal.url}/expert/review-detail/${prelimId}`);
    const files = page.getByTestId('review-files');
    await files.waitFor();
    const names = await files.locator('.expert-files__name').allInnerTexts();
    const code = `P-${prelimId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
    expect(names).toContain(`${code}-申报书.pdf`);
    expect(await page.locator('body').innerText()).not.toContain('智审先锋队');
    expect(await files.getByTestId('file-download').count()).toBe(0);
    await expect.poll(() => files.getByTestId('file-preview').count()).toBeGreaterThan(0);

    // The browser's own session: a download is refused, a preview is the blind copy under the neutral name.
    const token = await page.evaluate(() => localStorage.getItem('ExpertToken') ?? '');
    expect(token).not.toBe('');
    const answer = await page.evaluate(
      async ([no, bearer]) => {
        const headers = bearer ? { authorization: `Bearer ${bearer}` } : undefined;
        const download = await fetch(`/api/attachment/stream/${no}`, { headers });
        const preview = await fetch(`/api/attachment/stream/${no}?preview=1`, { headers });
        return { download: download.status, preview: preview.status, disposition: decodeURIComponent(preview.headers.get('content-disposition') ?? '') };
      },
      [applicationNo, token] as const,
    );
    expect(answer.download).toBe(403);
    expect(answer.preview).toBe(200);
    expect(answer.disposition).toContain(`${code}-申报书.pdf`);
    await page.getByTestId('file-preview').first().click();
    await page.locator('.preview-dialog__watermark').waitFor();
    await expert.screenshot('blind-review-expert-1440');
    expect(errors.filter((e) => !/403/.test(e))).toEqual([]);
  });
  it('with 专家下载材料 = PDF the expert downloads, under the neutral name, a copy stamped in an embedded Chinese font', async () => {
    const settings = await api.ok<Record<string, Record<string, unknown>>>('GET', '/admin/settings', superToken);
    await api.ok('PUT', '/admin/settings', superToken, { ...settings, review: { ...settings.review, expertDownload: 'pdf' } });
    const page = expert.page;
    await page.reload();
    const files = page.getByTestId('review-files');
    const button = files.getByTestId('file-download').first();
    await button.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
    const code = `P-${prelimId.replace(/-/g, '').slice(0, 8).toUpperCase()}`;
    expect(download.suggestedFilename()).toBe(`${code}-申报书.pdf`);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('%PDF');
    // The stamp's font is embedded as a subset (tag+name), so any reader draws the masked name;
    // the uploaded file had no font of that name.
    expect(pdfObjectsText(bytes)).toMatch(/\/BaseFont ?\/[A-Z]{6}\+NotoSansSC-Regular/);
    expect(pdfObjectsText(pdfWithText('Our plan for smart claims review'))).not.toContain('NotoSansSC');
    await api.ok('PUT', '/admin/settings', superToken, settings);
  });
});
