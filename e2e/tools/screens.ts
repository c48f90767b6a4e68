/**
 * Screenshots of console and participant screens at 1440 and 390 px, in Chinese and English,
 * with an axe-core check of each: what a developer looks at before calling a page done (not a
 * test: run by hand after `npm run build`).
 *
 *   cd e2e && node --import tsx tools/screens.ts [filter]     → e2e/artifacts/screens/*.png
 *
 * `filter` keeps the screens whose name contains it.
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { launchPortal } from '../support/portal.js';
import { apiClient } from '../support/ui.js';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const OUT = fileURLToPath(new URL('../artifacts/screens', import.meta.url));
const SCREENS: { name: string; realm: 'admin' | 'user'; path: string; ready?: string }[] = [
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
  { name: 'home', realm: 'user', path: '/' },
  { name: 'speed-test', realm: 'user', path: '/user/speed-test' },
  { name: 'sign-guide', realm: 'user', path: '/sign-guide' },
  { name: 'my-message', realm: 'user', path: '/my-message' },
  { name: 'my-materials', realm: 'user', path: '/material-submission/detail' },
];

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
  };
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const report: string[] = [];
  try {
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
        await context.addInitScript(([admin, user]) => {
          localStorage.setItem('AdminToken', admin!);
          localStorage.setItem('AccessToken', user!);
        }, [tokens.admin, tokens.user]);
        const page: Page = await context.newPage();
        for (const s of SCREENS.filter((x) => x.name.includes(filter))) {
          const sep = s.path.includes('?') ? '&' : '?';
          await page.goto(`${portal.url}${s.path}${sep}lang=${lang === 'zh' ? 'zh-cn' : 'en'}`);
          await page.waitForLoadState('networkidle').catch(() => undefined);
          await page.waitForTimeout(400);
          const file = join(OUT, `${s.name}-${width}-${lang}.png`);
          await page.screenshot({ path: file, fullPage: true });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          const findings = width === 1440 ? await axeFindings(page) : [];
          report.push(`${s.name} ${width} ${lang}: ${overflow > 0 ? `OVERFLOW ${overflow}px ` : ''}${findings.map((f) => `${f.id}(${f.impact}: ${f.nodes.slice(0, 3).join(' | ')})`).join(' ') || 'ok'}`);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await portal.stop();
  }
  console.log(report.join('\n'));
}

await main();
