/**
 * Screenshots of console and participant screens at 1440 and 390 px, in Chinese and English,
 * with an axe-core check of each: what a developer looks at before calling a page done (not a
 * test: run by hand after `npm run build`).
 *
 *   cd e2e && node --import tsx tools/screens.ts [filter]     → e2e/artifacts/screens/*.png
 *
 * `filter` keeps the screens whose name contains it. Screens of the `author` realm are seen by
 * demo1 (sign-up approved, materials still a draft), whose draft gets a short video first.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { launchPortal } from '../support/portal.js';
import { apiClient, dialogsStill } from '../support/ui.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const OUT = fileURLToPath(new URL('../artifacts/screens', import.meta.url));
/** The video the materials draft holds: a name a participant would give it, and long enough to wrap. */
const VIDEO_NAME = '基于知识图谱的医保基金智能监管平台演示视频.mp4';

interface Screen {
  name: string;
  /** `author` screens get their own context, signed in as demo1 (see prepareAuthor). */
  realm: 'admin' | 'user' | 'author';
  path: string;
  /** Brings the page to what is shot (opens a dialog, waits for a player); shot as the viewport shows it. */
  open?: (page: Page) => Promise<void>;
}

const SCREENS: Screen[] = [
  { name: 'news-list', realm: 'admin', path: '/admin/user/siteContentManagement' },
  { name: 'news-edit', realm: 'admin', path: '/admin/user/siteContentManagement-edit' },
  { name: 'docs-list', realm: 'admin', path: '/admin/user/docManage' },
  { name: 'docs-edit', realm: 'admin', path: '/admin/user/docManagement-edit' },
  { name: 'sms-records', realm: 'admin', path: '/admin/information/NoteManage' },
  { name: 'sms-templates', realm: 'admin', path: '/admin/information/NoteManage?tab=templates' },
  { name: 'inmail', realm: 'admin', path: '/admin/information/InMailManage' },
  { name: 'inmail-email', realm: 'admin', path: '/admin/information/InMailManage?tab=email' },
  { name: 'inmail-templates', realm: 'admin', path: '/admin/information/InMailManage?tab=templates' },
  { name: 'feedback', realm: 'admin', path: '/admin/information/UserFeedback' },
  { name: 'results-publish', realm: 'admin', path: '/admin/results/publish' },
  { name: 'results-publish-final', realm: 'admin', path: '/admin/results/publish?round=final' },
  { name: 'appeals', realm: 'admin', path: '/admin/results/appeals' },
  { name: 'score-log', realm: 'admin', path: '/admin/results/score-log' },
  { name: 'final-scores', realm: 'admin', path: '/admin/grade/gradeManage-admin-grade' },
  { name: 'final-monitor', realm: 'admin', path: '/admin/grade/scoringMonitoringAdminExpert' },
  { name: 'final-groups', realm: 'admin', path: '/admin/grade/review-admin-group' },
  { name: 'teams', realm: 'admin', path: '/admin/user/team' },
  { name: 'qualification', realm: 'admin', path: '/admin/competition/qualification' },
  { name: 'sys-roles', realm: 'admin', path: '/admin/system/roleManage' },
  { name: 'sys-accounts', realm: 'admin', path: '/admin/system/systemManage' },
  { name: 'sys-settings', realm: 'admin', path: '/admin/system/settings' },
  // docs/retention.md
  { name: 'retention', realm: 'admin', path: '/admin/system/retention' },
  { name: 'data-requests', realm: 'admin', path: '/admin/system/data-requests' },
  { name: 'home', realm: 'user', path: '/' },
  { name: 'speed-test', realm: 'user', path: '/user/speed-test' },
  { name: 'sign-guide', realm: 'user', path: '/sign-guide' },
  { name: 'my-message', realm: 'user', path: '/my-message' },
  { name: 'my-data', realm: 'user', path: '/my-data' },
  { name: 'my-materials', realm: 'user', path: '/material-submission/detail' },
  { name: 'preview-video', realm: 'author', path: '/material-submission', open: openVideoPreview },
];

/** Opens the draft's video in the preview dialog and waits until the player shows a frame. */
async function openVideoPreview(page: Page): Promise<void> {
  await page.locator('.multi-upload__name--link', { hasText: VIDEO_NAME }).click();
  const dialog = page.locator('.preview-dialog');
  await dialog.getByTestId('preview-video').waitFor();
  // The overlay goes once the player has the length and size (loadedmetadata).
  await dialog.getByTestId('preview-loading').waitFor({ state: 'detached', timeout: 15_000 });
  await page.waitForFunction('document.querySelector(\'[data-testid="preview-video"]\').readyState >= 2', null, { timeout: 5_000 }).catch(() => undefined);
  await dialogsStill(page);
  // The player's own buffering spinner fades out a moment after the first frame.
  await page.waitForTimeout(1000);
}

/**
 * A 2-second 320x180 H.264 MP4 recorded by Chromium itself (MediaRecorder on a canvas), since
 * no encoder is at hand: a real video, so the player shows a frame, a length and its size.
 */
async function recordVideo(browser: Browser): Promise<Uint8Array<ArrayBuffer>> {
  const page = await browser.newPage();
  try {
    // A string, not a function: tsx would wrap the function's named helpers in its own __name().
    const base64 = await page.evaluate<string>(`(async () => {
      const canvas = Object.assign(document.createElement('canvas'), { width: 320, height: 180 });
      const ctx = canvas.getContext('2d');
      let frame = 0;
      const draw = () => {
        ctx.fillStyle = '#1677ff';
        ctx.fillRect(0, 0, 320, 180);
        ctx.fillStyle = '#fff';
        ctx.font = '32px sans-serif';
        ctx.fillText('Demo ' + frame++, 90, 100);
      };
      draw();
      const timer = setInterval(draw, 40);
      const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/mp4;codecs=avc1' });
      const chunks = [];
      recorder.ondataavailable = (e) => chunks.push(e.data);
      const stopped = new Promise((resolve) => (recorder.onstop = resolve));
      recorder.start();
      await new Promise((resolve) => setTimeout(resolve, 2000));
      recorder.stop();
      await stopped;
      clearInterval(timer);
      const bytes = new Uint8Array(await new Blob(chunks).arrayBuffer());
      let binary = '';
      for (const b of bytes) binary += String.fromCharCode(b);
      return btoa(binary);
    })()`);
    return new Uint8Array(Buffer.from(base64, 'base64'));
  } finally {
    await page.close();
  }
}

/** demo1's materials draft with the recorded video as its demo video. */
async function prepareAuthor(url: string, browser: Browser, token: string): Promise<void> {
  const form = new FormData();
  form.append('origin', 'PRELIM');
  form.append('name', VIDEO_NAME);
  form.append('file', new Blob([await recordVideo(browser)], { type: 'video/mp4' }), VIDEO_NAME);
  const res = await fetch(`${url}/api/attachment/upload/public`, { method: 'POST', headers: { Authorization: `Bearer ${token}` }, body: form });
  const envelope = (await res.json()) as { status: number; message: string; data: { uniqueNo: string } };
  if (envelope.status !== 200) throw new Error(`video upload: ${envelope.status} ${envelope.message}`);
  await apiClient(url).ok('PUT', '/prelim-doc/my', token, { projectName: '医保基金智能监管平台', video: envelope.data.uniqueNo });
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Serious and critical WCAG 2.1 A/AA findings of axe-core on what the page shows. */
async function axeFindings(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(o: unknown): Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const r = await axe.run({ runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

async function main(): Promise<void> {
  const filter = process.argv[2] ?? '';
  mkdirSync(OUT, { recursive: true });
  const portal = await launchPortal(mkdtempSync(join(tmpdir(), 'contest-screens-')));
  const api = apiClient(portal.url);
  const tokens = {
    admin: (await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' })).accessToken,
    user: (await api.ok<{ accessToken: string }>('POST', '/login', null, { username: 'demo6', password: 'Demo@2025' })).accessToken,
    author: (await api.ok<{ accessToken: string }>('POST', '/login', null, { username: 'demo1', password: 'Demo@2025' })).accessToken,
  };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const report: string[] = [];
  const chosen = SCREENS.filter((x) => x.name.includes(filter));
  // One context per participant: the signed-in user is read from localStorage at every load.
  const groups = [
    { user: tokens.user, screens: chosen.filter((s) => s.realm !== 'author') },
    { user: tokens.author, screens: chosen.filter((s) => s.realm === 'author') },
  ].filter((g) => g.screens.length > 0);
  try {
    if (chosen.some((s) => s.realm === 'author')) await prepareAuthor(portal.url, browser, tokens.author);
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        for (const group of groups) {
          const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
          await context.addInitScript(([admin, user]) => {
            localStorage.setItem('AdminToken', admin!);
            localStorage.setItem('AccessToken', user!);
          }, [tokens.admin, group.user]);
          const page: Page = await context.newPage();
          for (const s of group.screens) {
            const sep = s.path.includes('?') ? '&' : '?';
            await page.goto(`${portal.url}${s.path}${sep}lang=${lang === 'zh' ? 'zh-cn' : 'en'}`);
            await page.waitForLoadState('networkidle').catch(() => undefined);
            await page.waitForTimeout(400);
            await s.open?.(page);
            const file = join(OUT, `${s.name}-${width}-${lang}.png`);
            // A full-page shot of a scrolled page draws the fixed header mid-page, over the dialog.
            await page.screenshot({ path: file, fullPage: !s.open });
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            const findings = width === 1440 ? await axeFindings(page) : [];
            report.push(`${s.name} ${width} ${lang}: ${overflow > 0 ? `OVERFLOW ${overflow}px ` : ''}${findings.map((f) => `${f.id}(${f.impact}: ${f.nodes.slice(0, 3).join(' | ')})`).join(' ') || 'ok'}`);
          }
          await context.close();
        }
      }
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
  console.log(report.join('\n'));
}

await main();
