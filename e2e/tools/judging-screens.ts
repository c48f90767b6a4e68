/**
 * Screenshots of the judging-quality screens (docs/rules/judging-quality.md, "In the console") at
 * 1440 and 390 px, in Chinese and English: the expert's 回避 dialog, 申报回避单位, 评分监控 with a
 * project needing a replacement, and 大赛设置's per-expert cap. Not a test: run by hand after
 * `npm run build`, then look at them.
 *
 *   cd e2e && node --import tsx tools/judging-screens.ts   → e2e/artifacts/judging/*.png
 */
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright-core';
import { launchPortal } from '../support/portal.js';
import { demoProjects, expertIds, expertToken, setReviewPhases } from '../support/review-data.js';
import { apiClient, dialogsStill, openDialog } from '../support/ui.js';

const OUT = fileURLToPath(new URL('../artifacts/judging', import.meta.url));

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const portal = await launchPortal(mkdtempSync(join(tmpdir(), 'contest-judging-')));
  const api = apiClient(portal.url);
  const admin = (await api.ok<{ accessToken: string }>('POST', '/admin/login', null, { username: 'admin', password: 'Admin@2025' })).accessToken;
  await setReviewPhases(api, admin, 'prelim', { maxProjectsPerExpert: { PRELIMINARY: 12, FINAL: null } });
  const [abstained, open] = await demoProjects(api, admin, ['医保数据质量治理与标准化工具', '住院费用智能审核与异常检测系统']);
  const [e1, e3] = await expertIds(api, admin, ['E0001', 'E0003']);
  const groupA = await api.ok<{ id: string }>('POST', '/admin/review/prelim/groups', admin, { name: '回避甲组', expertIds: [e1] });
  for (const p of [abstained!, open!]) await api.ok('POST', `/admin/review/prelim/projects/${p.id}/move`, admin, { groupId: groupA.id, reason: '截图' });
  await api.ok('POST', '/admin/review/prelim/groups', admin, { name: '回避乙组', expertIds: [e3] });
  const expert = await expertToken(api, 'E0001', 'Demo@2025');
  await api.ok('POST', `/expert/review/prelim/${abstained!.id}/abstain`, expert, { reason: '本人近三年曾为该项目团队提供技术咨询' });
  await api.ok('POST', '/expert/organisations', expert, { name: '示例医学信息技术有限公司', creditCode: '91110108MA01ABCD1E' });

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  const report: string[] = [];
  const shots: { name: string; path: string; open?: (page: Page) => Promise<void>; element?: (page: Page) => ReturnType<Page['locator']> }[] = [
    {
      name: 'abstain-dialog',
      path: `/expert/review-detail/${open!.id}`,
      open: async (page) => {
        await page.getByTestId('abstain-open').click();
        await openDialog(page).waitFor();
        await dialogsStill(page);
        await page.getByTestId('abstain-reason').fill('与该项目团队存在合作关系');
        await page.waitForTimeout(300);
      },
    },
    { name: 'declared-orgs', path: '/expert/organisations' },
    {
      name: 'monitor-replacement',
      path: '/admin/grade/scoringMonitoringExpert?tab=projects',
      open: async (page) => {
        await page.getByTestId('add-replacement').first().waitFor();
      },
    },
    {
      name: 'monitor-reasons',
      path: '/admin/grade/scoringMonitoringExpert?tab=projects',
      open: async (page) => {
        await page.getByTestId('abstained-count').first().hover();
        await page.getByTestId('abstain-reasons').waitFor();
        await page.waitForTimeout(300);
      },
    },
    {
      name: 'settings-cap',
      path: '/admin/system/settings',
      element: (page) => page.locator('.ant-card').filter({ has: page.locator('[id$="maxProjectsPerExpert_PRELIMINARY"]') }),
    },
  ];
  try {
    for (const lang of ['zh', 'en'] as const) {
      for (const width of [1440, 390]) {
        const context = await browser.newContext({ viewport: { width, height: 900 }, locale: lang === 'zh' ? 'zh-CN' : 'en-US' });
        await context.addInitScript(([a, e]) => {
          localStorage.setItem('AdminToken', a!);
          localStorage.setItem('ExpertToken', e!);
        }, [admin, expert]);
        const page = await context.newPage();
        for (const s of shots) {
          const sep = s.path.includes('?') ? '&' : '?';
          await page.goto(`${portal.url}${s.path}${sep}lang=${lang === 'zh' ? 'zh-cn' : 'en'}`);
          await page.waitForLoadState('networkidle').catch(() => undefined);
          await page.waitForTimeout(400);
          await s.open?.(page);
          const file = join(OUT, `${s.name}-${width}-${lang}.png`);
          if (s.element) {
            // The sticky header would be drawn over a tall element's shot (it is taken scrolling).
            await page.addStyleTag({ content: '.console-layout__header { position: static !important; }' });
            await s.element(page).first().screenshot({ path: file });
          }
          else await page.screenshot({ path: file, fullPage: !s.open });
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
          report.push(`${s.name} ${width} ${lang}: ${overflow > 0 ? `OVERFLOW ${overflow}px` : 'ok'}`);
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
