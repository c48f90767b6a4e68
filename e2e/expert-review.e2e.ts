import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { checkScoreReceipt, type ScoreReceipt } from '@contest/shared';
import { openBrowser, type Browser } from './support/browser.js';
import { submitLogin } from './support/login.js';
import { pdfWithText } from './support/pdf.js';
import { startPortal, type Portal } from './support/portal.js';
import { expertToken as signInExpert, setReviewPhases } from './support/review-data.js';
import { apiClient, collectErrors, dialogsStill, openDialog, ownPassword, passSlider, row, staffLogin, tableSettled, toast } from './support/ui.js';

/**
 * Expert review end to end (docs/rules/review.md), in Chromium against the built portal with its demo data
 * (eight projects whose materials passed the formal check; demo10 belongs to expert E0001's own
 * organisation). An admin imports three experts from an .xlsx sheet, assigns the projects to two
 * groups automatically and moves one by hand; an imported expert accepts the agreement, opens a
 * project (blind: no organisation on the page, the expert's watermark over it), scores, saves a
 * draft and submits; the other experts score through the API; the admin sees the sheet in the
 * monitoring and the score query and returns it; the expert rescores; the admin promotes the
 * top three to the final. The admin publishes the preliminary result (公示, public notice); the
 * best team left out files an appeal in its own browser; the admin accepts it with an imported
 * expert added, whose score lifts the project; version 2 is published and compared with version 1,
 * the team reads the revised result; 评分存证 verifies the chain. One final-round score reaches the
 * final ranking.
 */
let portal: Portal;
let files: string;
let api: ReturnType<typeof apiClient>;
let superToken = '';

const SUPER = { username: 'admin', password: 'Admin@2025' };
/** The operator in the browser (the super admin works through the API: one session per account). */
const OPERATOR = { username: `review${Math.random().toString(36).slice(2, 7)}`, name: '评审运营', password: '' };
const REVIEW_ROLE = {
  code: `REVIEW_OPS_${Math.random().toString(36).slice(2, 7).toUpperCase()}`,
  name: '评审运营',
  menuCodes: [
    'home', 'databaseExpert', 'reviewGroup', 'gradeManageGrade', 'scoringMonitoringExpert', 'preliminaryAdminSearch', 'reviewAdminGroup', 'gradeManageAdminGrade', 'scoringMonitoringAdminExpert',
    'resultPublish', 'appealManage', 'scoreLog',
  ],
  buttonCodes: [
    'expert:edit', 'expert:import', 'expert:disable', 'expert:reset-password', 'expert:export',
    // Managing experts needs what an expert reads (docs/security.md "Accounts and reach").
    'preliminary:view', 'file:read',
    'group:edit', 'score:return', 'score:export', 'monitor:remind', 'score:cut-confidence',
    'final:promote', 'final:export', 'final-group:edit', 'final-score:return', 'final-score:export', 'final-monitor:remind',
    'result:publish', 'appeal:decide',
  ],
};
const RUN = String(Math.floor(Math.random() * 9000) + 1000);
const IMPORTED = [
  { code: `E7${RUN}1`, name: `导入专家甲${RUN}`, phone: `1370${RUN}001`, org: '示例医学信息研究所', tracks: '智能监管与基金安全；医保数据治理与应用；医药价格与招采' },
  { code: `E7${RUN}2`, name: `导入专家乙${RUN}`, phone: `1370${RUN}002`, org: '示例卫生经济学会', tracks: '支付方式改革；医保便民服务；其他创新应用' },
  { code: `E7${RUN}3`, name: `导入专家丙${RUN}`, phone: `1370${RUN}003`, org: '示例软件工程中心', tracks: '智能监管与基金安全；支付方式改革' },
];
const passwords = new Map<string, string>();
const DEMO_ORGS = ['示例省人民医院', '示例市第一人民医院', '示例数据科技股份有限公司', '示例市医疗保障局信息中心', '示例医科大学', '示例县医共体总医院', '示例健康科技有限公司', '示例大学公共管理学院'];
const RETURN_REASON = '创新性评分与评语不一致，请复核';
const APPEAL_REASON = '我们的项目已在两家医院试运行，申报书第 3 节的落地数据未被评分体现，申请复核。';
const VERSION_REASON = '申诉复评后成绩变化，更正晋级名单';
const DAY = 86_400_000;
const ARTIFACTS = fileURLToPath(new URL('./artifacts', import.meta.url));

async function importSheet(): Promise<string> {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('专家');
  sheet.addRow(['专家编号', '姓名*', '手机号*', '所在单位*', '单位统一社会信用代码', '职称', '擅长方向*', '回避单位']);
  for (const e of IMPORTED) sheet.addRow([e.code, e.name, e.phone, e.org, '', '教授', e.tracks, '']);
  const path = join(files, '专家导入.xlsx');
  await book.xlsx.writeFile(path);
  return path;
}

/** Signs an expert in through the API (no slider for a first attempt) and accepts the agreement. */
async function expertToken(code: string, password: string): Promise<string> {
  return signInExpert(api, code, password);
}

interface ListRow {
  id: string;
  projectName: string;
  status: string;
}
interface Criterion {
  key: string;
  max: number;
}
/** A line of a published result version. */
interface Entry {
  projectId: string;
  teamId: string;
  projectName: string;
  rank: number | null;
  trackRank: number | null;
  score: number | null;
  outcome: string;
}

/** Scores every project an expert has in a round, totals spread by `bias`, and submits. */
async function scoreAll(token: string, slug: 'prelim' | 'final', bias: number): Promise<number> {
  const list = await api.ok<{ list: ListRow[] }>('GET', `/expert/review/${slug}/list?size=100`, token);
  let n = 0;
  for (const [i, p] of list.list.entries()) {
    if (p.status === 'SUBMITTED') continue;
    const detail = await api.ok<{ criteria: Criterion[]; sheet: { version: number } | null }>('GET', `/expert/review/${slug}/${p.id}`, token);
    const scores = Object.fromEntries(detail.criteria.map((c, k) => [c.key, Math.max(0, c.max - ((i * 3 + k + bias) % 9) * 0.5)]));
    await api.ok('POST', `/expert/review/${slug}/${p.id}/sheet/submit`, token, { scores, comment: '方案完整，建议关注落地成本。', version: detail.sheet?.version });
    n++;
  }
  return n;
}

/** The input of an antd InputNumber marked with a test id (on the input or its wrapper). */
async function numberInput(page: Page, testId: string): Promise<Locator> {
  const box = page.getByTestId(testId);
  return (await box.evaluate((e) => e.tagName)) === 'INPUT' ? box : box.locator('input');
}

beforeAll(async () => {
  portal = await startPortal();
  api = apiClient(portal.url);
  files = mkdtempSync(join(tmpdir(), 'contest-review-files-'));
  ({ accessToken: superToken } = await api.ok<{ accessToken: string }>('POST', '/admin/login', null, SUPER));
  const role = await api.ok<{ id: string }>('POST', '/admin/role', superToken, REVIEW_ROLE);
  ({ password: OPERATOR.password } = await api.ok<{ password: string }>('POST', '/admin/system/account', superToken, { username: OPERATOR.username, name: OPERATOR.name, roleIds: [role.id] }));
  // Generated passwords are changed at the first login (docs/security.md): done once here.
  OPERATOR.password = await ownPassword(portal.url, 'admin', OPERATOR.username, OPERATOR.password);
  // Sign-up and submission over, the preliminary review open; two experts per project is enough
  // for six experts in two groups.
  await setPhases('prelim');
});

/** The phase windows of the preliminary review (open now), or of the final review (open now). */
async function setPhases(round: 'prelim' | 'final'): Promise<void> {
  await setReviewPhases(api, superToken, round, { minExpertsPerProject: 2 });
}

afterAll(async () => {
  await portal?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

describe('expert review: import, assignment, blind scoring, return, promotion, final ranking', () => {
  let admin: Browser;
  let expert: Browser;
  let adminErrors: string[] = [];
  let expertErrors: string[] = [];
  const groupIds: string[] = [];
  let scoredProject = '';
  let participant: Browser;
  let participantErrors: string[] = [];
  /** The team that appeals (the best ranked project left out of the final) and its group. */
  let appellant = { projectId: '', projectName: '', username: '', group: '' };
  /** The last promoted project, which the appellant pushes out (empty when tied at the cut). */
  let movedOut = '';
  let reviser: (typeof IMPORTED)[number];

  afterAll(async () => {
    for (const b of [admin, expert, participant]) await b?.close();
  });

  afterEach(async (ctx) => {
    const result = ctx.task.result;
    if (result?.state !== 'fail' && !result?.errors?.length) return;
    for (const [name, b] of [['admin', admin], ['expert', expert], ['participant', participant]] as const) {
      if (!b) continue;
      const path = await b.screenshot(`review-failed-${name}-${ctx.task.name.slice(0, 24).replace(/[^a-z]+/gi, '-')}`).catch(() => 'none');
      console.error(`[${ctx.task.name}] ${name} at ${b.page.url()}: ${path}`);
    }
  });

  it('an admin imports three experts from an .xlsx sheet and reads their one-time passwords', async () => {
    admin = await openBrowser({ width: 1440 });
    adminErrors = collectErrors(admin.page);
    const page = admin.page;
    await staffLogin(page, portal.url, 'admin', OPERATOR.username, OPERATOR.password);
    await page.goto(`${portal.url}/admin/grade/database-expert`);
    await page.getByTestId('experts-page').waitFor();
    await page.getByTestId('expert-import-open').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('expert-import').waitFor();
    await dialog.locator('input[type="file"]').setInputFiles(await importSheet());
    await dialog.getByTestId('import-start').click();
    const done = dialog.getByTestId('import-done');
    await done.waitFor({ timeout: 30_000 });
    for (const e of IMPORTED) {
      const password = (await row(done, e.code).locator('.generated-password').first().innerText()).trim();
      expect(password.length).toBeGreaterThanOrEqual(8);
      passwords.set(e.code, await ownPassword(portal.url, 'expert', e.code.toLowerCase(), password));
    }
    await admin.screenshot('review-import-1440');
    await dialog.locator('.ant-modal-footer').getByRole('button', { name: /关\s*闭/ }).click();
    const list = page.getByTestId('experts-page');
    await tableSettled(list);
    for (const e of IMPORTED) await row(list, e.code).waitFor();
  });

  it('assigns the projects automatically after a preview, then moves one by hand', async () => {
    const page = admin.page;
    // Two groups through the API: the imported experts with the three demo experts.
    const experts = await api.ok<{ list: { id: string; code: string }[] }>('GET', '/admin/expert/list?size=100', superToken);
    const id = (code: string) => experts.list.find((e) => e.code === code)!.id;
    for (const [name, codes] of [
      ['甲组', [IMPORTED[0]!.code, IMPORTED[2]!.code, 'E0001']],
      ['乙组', [IMPORTED[1]!.code, 'E0002', 'E0003']],
    ] as const) {
      const group = await api.ok<{ id: string }>('POST', '/admin/review/prelim/groups', superToken, { name, expertIds: codes.map(id) });
      groupIds.push(group.id);
    }

    await page.goto(`${portal.url}/admin/grade/review-group`);
    await page.getByTestId('review-groups-page').waitFor();
    await page.getByTestId('assign-open').click();
    const dialog = page.getByTestId('assign-dialog');
    await dialog.getByTestId('assign-placements').waitFor();
    await expect.poll(() => dialog.getByTestId('assign-placements').locator('tr.ant-table-row').count()).toBe(8);
    await admin.screenshot('review-assign-preview-1440');
    await dialog.getByTestId('assign-apply').click();
    await toast(page, '自动分配已完成').waitFor();

    const assigned = await api.ok<{ list: { id: string; projectName: string; groupName: string | null; conflicts: unknown[] }[] }>('GET', '/admin/review/prelim/projects?size=50', superToken);
    expect(assigned.list.every((p) => p.groupName)).toBe(true);
    // demo10's organisation is E0001's own: the conflict is shown, whichever group it landed in.
    const drg = assigned.list.find((p) => p.projectName.startsWith('DRG'))!;
    if (drg.groupName === '甲组') expect(drg.conflicts.length).toBe(1);

    // One project by hand into the other group, with a reason.
    await page.getByRole('tab', { name: '项目分组' }).click();
    const panel = page.getByTestId('projects-panel');
    await tableSettled(panel);
    const first = panel.locator('tr.ant-table-row').first();
    const before = await first.innerText();
    await first.getByTestId('project-move').click();
    const move = openDialog(page);
    await dialogsStill(page);
    await move.getByTestId('move-target').click();
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option').filter({ hasText: before.includes('甲组') ? '乙组' : '甲组' }).first().click();
    await move.locator('textarea').fill('专业方向更匹配');
    await move.getByRole('button', { name: /确\s*认|确\s*定/ }).click();
    await toast(page, '项目分组已调整').waitFor();
    await expect.poll(async () => (await api.ok<{ list: { source: string }[] }>('GET', '/admin/review/prelim/projects?size=50', superToken)).list.filter((p) => p.source === 'MANUAL').length).toBe(1);
    await admin.screenshot('review-groups-1440');
  });

  it('an imported expert accepts the agreement and scores a project blind: draft, then submit', async () => {
    const me = IMPORTED[0]!;
    expert = await openBrowser({ width: 1440 });
    expertErrors = collectErrors(expert.page);
    const page = expert.page;
    await staffLogin(page, portal.url, 'expert', me.code, passwords.get(me.code)!);
    await page.getByTestId('review-agreement').waitFor();
    await page.getByTestId('agreement-check').click();
    await page.getByTestId('agreement-accept').click();
    await page.getByTestId('round-PRELIMINARY').waitFor();
    // The final review entry appears once agreed.
    await page.getByRole('menuitem', { name: /决赛评审/ }).waitFor();

    await page.goto(`${portal.url}/expert/review-manage`);
    const list = page.getByTestId('review-list-PRELIMINARY');
    await tableSettled(list);
    const firstRow = list.locator('tr.ant-table-row').first();
    scoredProject = (await firstRow.locator('td').first().innerText()).trim();
    await firstRow.getByTestId('row-action').click();
    await page.getByTestId('review-detail').waitFor();
    await page.getByTestId('blind-note').waitFor();

    // Blind: no organisation of any team on the page; the expert's code in the watermark.
    const text = await page.locator('body').innerText();
    for (const org of DEMO_ORGS) expect(text).not.toContain(org);
    expect(await page.getByTestId('console-watermark').getAttribute('data-text')).toContain(me.code);

    const scores = { innovation: 20, feasibility: 18.5, value: 24, completeness: 15 };
    for (const [key, value] of Object.entries(scores)) await (await numberInput(page, `score-input-${key}`)).fill(String(value));
    await expect.poll(() => page.getByTestId('score-total').innerText()).toContain('77.5');
    await page.getByTestId('save-draft').click();
    await toast(page, '草稿已保存').waitFor();
    await page.getByTestId('score-comment').fill('技术路线清晰，数据来源可靠，建议补充落地成本测算。');
    await page.getByTestId('submit-sheet').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await dialogsStill(page);
    await confirm.getByRole('button', { name: /确\s*定|确\s*认|提\s*交/ }).last().click();
    await page.getByTestId('score-readonly').waitFor();
    await expect.poll(() => page.getByTestId('sheet-state').innerText()).toContain('已提交');
    await expert.screenshot('review-expert-submitted-1440');
  });

  it('the other experts score through the API', async () => {
    let sheets = 0;
    for (const [i, code] of [IMPORTED[1]!.code, IMPORTED[2]!.code].entries()) sheets += await scoreAll(await expertToken(code, passwords.get(code)!), 'prelim', i + 1);
    for (const [i, code] of ['E0001', 'E0002', 'E0003'].entries()) sheets += await scoreAll(await expertToken(code, 'Demo@2025'), 'prelim', i + 3);
    expect(sheets).toBeGreaterThanOrEqual(12);
    // The first expert's remaining projects too, so every project has its scores.
    await scoreAll(await expertToken(IMPORTED[0]!.code, passwords.get(IMPORTED[0]!.code)!), 'prelim', 0);
  });

  it('the admin sees the sheet in the monitoring and the score query, and returns it with a reason', async () => {
    const page = admin.page;
    const me = IMPORTED[0]!;
    await page.goto(`${portal.url}/admin/grade/scoringMonitoringExpert`);
    await page.getByTestId('monitor-page').waitFor();
    await tableSettled(page);
    await row(page, me.code).waitFor();
    await admin.screenshot('review-monitor-1440');

    await page.goto(`${portal.url}/admin/grade/gradeManage-grade`);
    await tableSettled(page);
    const line = row(page, scoredProject);
    await line.waitFor();
    await admin.screenshot('review-scores-1440');
    await line.getByRole('link', { name: /详情/ }).or(line.getByRole('button', { name: /详情/ })).first().click();
    await page.waitForURL('**/admin/competition/grade-detail/**');
    const sheet = row(page, me.code);
    await sheet.waitFor();
    await sheet.getByTestId('sheet-return').click();
    const dialog = page.getByTestId('review-reason-dialog');
    await dialog.locator('textarea').fill(RETURN_REASON);
    await dialog.getByRole('button', { name: /确\s*认|退\s*回|确\s*定/ }).last().click();
    await toast(page, '评分已退回').waitFor();
    await admin.screenshot('review-score-detail-1440');
  });

  it('评审质量 opens from the score query: calibration of the experts and a confidence-on-the-cut run to DONE', async () => {
    const page = admin.page;
    await page.goto(`${portal.url}/admin/grade/gradeManage-grade`);
    await page.getByTestId('scores-quality').click();
    await page.waitForURL('**/admin/grade/judging-quality');
    const calibration = page.getByTestId('calibration-table');
    await tableSettled(calibration);
    await row(calibration, IMPORTED[0]!.code).waitFor();
    await page.getByTestId('leniency-chart').waitFor();
    const form = page.getByTestId('cut-form');
    await form.getByLabel('入围名额 N').fill('3');
    await form.getByLabel('随机种子').fill('20250701');
    await form.getByTestId('cut-start').click();
    // The bootstrap runs on a worker thread; the page polls until DONE (docs/rules/judging-quality.md).
    await page.getByTestId('cut-table').waitFor({ timeout: 30_000 });
    await expect.poll(() => page.getByTestId('cut-seed').innerText()).toBe('20250701');
    await admin.screenshot('review-judging-quality-1440');
  });

  it('the expert reads the reason, rescores and submits again', async () => {
    const page = expert.page;
    // The API signed this expert in meanwhile (one session per account): sign in again.
    await staffLogin(page, portal.url, 'expert', IMPORTED[0]!.code, passwords.get(IMPORTED[0]!.code)!);
    await page.getByTestId('round-returned').waitFor();
    await page.goto(`${portal.url}/expert/review-manage?status=RETURNED`);
    const list = page.getByTestId('review-list-PRELIMINARY');
    await tableSettled(list);
    await row(list, scoredProject).getByTestId('row-action').click();
    await expect.poll(() => page.getByTestId('return-reason').innerText()).toContain(RETURN_REASON);
    await (await numberInput(page, 'score-input-innovation')).fill('16');
    await expect.poll(() => page.getByTestId('score-total').innerText()).toContain('73.5');
    await page.getByTestId('submit-sheet').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await dialogsStill(page);
    await confirm.getByRole('button', { name: /确\s*定|确\s*认|提\s*交/ }).last().click();
    await page.getByTestId('score-readonly').waitFor();
    expect(expertErrors).toEqual([]);
  });

  it('the admin promotes the top three to the final round', async () => {
    const page = admin.page;
    await page.goto(`${portal.url}/admin/preliminary/preliminaryAdminSearch`);
    await page.getByTestId('final-list-page').waitFor();
    await page.getByTestId('final-promote').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('promotion-mode').waitFor();
    await dialogsStill(page);
    await dialog.locator('#promotion-n').fill('3');
    await dialog.getByTestId('promotion-preview').click();
    await dialog.getByTestId('promotion-ranking').waitFor();
    await admin.screenshot('review-promotion-1440');
    await dialog.getByTestId('promotion-confirm').click();
    // Promotion asks first, naming how many go.
    const ask = page.locator('.ant-modal-confirm');
    await ask.getByText(/确认后写入决赛名单/).waitFor();
    // The confirmation zooms in: a click measured mid-animation can land beside its button.
    await dialogsStill(page);
    await ask.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await toast(page, '晋级名单已确认').waitFor();
    const finals = await api.ok<{ total: number }>('GET', '/admin/final/list?size=50', superToken);
    expect(finals.total).toBeGreaterThanOrEqual(3);
    const records = await api.ok<{ count: number }[]>('GET', '/admin/final/promotions', superToken);
    expect(records[0]!.count).toBe(finals.total);
  });

  // Results (docs/rules/results.md): the preliminary result is published (version 1), a team that did not advance
  // appeals, the admin accepts with an added expert, whose score moves the project into the
  // final; version 2 is published and compared, the team reads it; the score log holds it all.
  // The preliminary review window is still open here: an appeal is only accepted while experts
  // can score.

  it('the admin publishes the preliminary result: preview, confirm, version 1 with its 公示 countdown', async () => {
    const page = admin.page;
    const finals = await api.ok<{ total: number }>('GET', '/admin/final/list?size=1', superToken);
    await page.goto(`${portal.url}/admin/results/publish`);
    const panel = page.getByTestId('results-round-prelim');
    await panel.getByTestId('results-unpublished').waitFor();
    await panel.getByTestId('publish-open').click();
    const dialog = openDialog(page);
    await dialog.getByTestId('publish-preview').waitFor();
    await dialogsStill(page);
    await dialog.getByTestId('publish-preview').click();
    expect(await dialog.getByTestId('publish-count').innerText()).toMatch(new RegExp(`^${finals.total} / 共 \\d+ 个项目$`));
    await dialog.getByTestId('publish-entries').locator('tr.ant-table-row').first().waitFor();
    await dialog.screenshot({ path: join(ARTIFACTS, 'results-publish-preview-1440.png') });
    await dialog.getByTestId('publish-confirm').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await dialogsStill(page);
    await confirm.getByRole('button', { name: '确认发布' }).click();
    await toast(page, '结果已发布，公示期开始').waitFor();
    await expect.poll(() => panel.getByTestId('current-version').innerText()).toBe('第 1 版');
    // publicity.days = 5: a countdown of days, not an ended period.
    expect(await panel.getByTestId('period-countdown').innerText()).toMatch(/^剩余 [45] 天 \d+ 小时$/);
    await panel.getByTestId('results-versions').locator('tr.ant-table-row').first().waitFor();
    await admin.screenshot('results-published-1440');

    // The public notice in 大赛动态, with no scores or ranks.
    const site = await admin.context.newPage();
    await site.goto(`${portal.url}/contest-dynamic`);
    const notice = site.getByTestId('news-list-CONTEST_DYNAMIC').getByTestId('news-row').filter({ hasText: '初赛晋级决赛名单公示' });
    await notice.waitFor();
    await site.close();
  });

  it('a team that did not advance reads its result and files one appeal with an attachment', async () => {
    const entries = await api.ok<{ list: Entry[] }>('GET', '/admin/results/prelim/versions/1/entries?size=100', superToken);
    const ranked = entries.list.filter((e) => e.rank !== null && e.score !== null);
    const promoted = ranked.filter((e) => e.outcome === 'PROMOTED');
    const first = ranked.find((e) => e.outcome === 'NOT_PROMOTED')!;
    const lastIn = promoted.at(-1)!;
    // The best project left out appeals: one more sheet of 100 points lifts its mean above the
    // last promoted one's (if the demo scores ever make that impossible, say so here).
    const sheets = (await api.ok<{ list: { id: string; scoresIn: number; groupName: string | null }[] }>('GET', '/admin/review/prelim/projects?size=50', superToken)).list.find((p) => p.id === first.projectId)!;
    expect((first.score! * sheets.scoresIn + 100) / (sheets.scoresIn + 1), 'a 100-point sheet must lift the appellant above the cut').toBeGreaterThan(lastIn.score! + 0.01);
    const team = await api.ok<{ owner: { username: string } }>('GET', `/admin/team/${first.teamId}`, superToken);
    appellant = { projectId: first.projectId, projectName: first.projectName, username: team.owner.username, group: sheets.groupName ?? '' };
    movedOut = promoted.filter((e) => e.rank === lastIn.rank).length === 1 ? lastIn.projectName : '';

    participant = await openBrowser({ width: 1440 });
    participantErrors = collectErrors(participant.page);
    const page = participant.page;
    await page.goto(portal.url);
    await page.getByRole('button', { name: '登 录' }).or(page.getByRole('button', { name: '登录' })).first().click();
    const modal = page.getByTestId('auth-modal');
    await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(appellant.username);
    await modal.getByPlaceholder('请输入密码', { exact: true }).fill('Demo@2025');
    await submitLogin(page, modal);
    // An approved team lands on its sign-up's detail.
    await passSlider(page, '**/my-sign/**');

    await page.goto(`${portal.url}/material-submission/detail`);
    const result = page.getByTestId('result-card-PRELIMINARY');
    await result.waitFor();
    expect(await result.getByTestId('outcome-tag').getAttribute('data-outcome')).toBe('NOT_PROMOTED');
    expect(await result.getByTestId('my-rank').innerText()).toBe(first.trackRank === null ? `第 ${first.rank} 名` : `第 ${first.rank} 名（赛道第 ${first.trackRank} 名）`);
    expect(await result.getByTestId('period-countdown').innerText()).toMatch(/^剩余 [45] 天/);
    await result.getByTestId('appeal-countdown').waitFor();

    await result.getByTestId('appeal-open').click();
    const dialog = page.getByTestId('appeal-dialog');
    await dialog.locator('textarea').waitFor();
    await dialogsStill(page);
    await dialog.locator('textarea').fill(APPEAL_REASON);
    const evidence = join(files, '评分说明.pdf');
    writeFileSync(evidence, pdfWithText('Appeal evidence'));
    await dialog.getByTestId('upload-input').setInputFiles(evidence);
    await dialog.locator('[data-status="ok"]').filter({ hasText: '评分说明.pdf' }).waitFor({ timeout: 30_000 });
    await dialog.getByRole('button', { name: '提交申诉' }).click();
    await toast(page, '申诉已提交，请等待处理').waitFor();
    const mine = result.getByTestId('my-appeal');
    await mine.waitFor();
    expect(await mine.getByTestId('appeal-status').getAttribute('data-status')).toBe('SUBMITTED');
    expect(await mine.innerText()).toContain('评分说明.pdf');
    // One appeal per round: the button is gone, also once the card is read again.
    await page.reload();
    await result.getByTestId('my-appeal').waitFor();
    expect(await result.getByTestId('appeal-open').count()).toBe(0);
    await participant.screenshot('results-appeal-filed-1440');
    await page.setViewportSize({ width: 390, height: 844 });
    await participant.screenshot('results-appeal-filed-390');
    await page.setViewportSize({ width: 1440, height: 860 });
  });

  it('the admin finds the appeal with its due date and accepts it, adding an imported expert', async () => {
    const page = admin.page;
    await page.goto(`${portal.url}/admin/results/appeals`);
    const list = page.getByTestId('appeals-page');
    await tableSettled(list);
    const line = row(list, appellant.projectName);
    await line.waitFor();
    expect(await line.getByTestId('appeal-status').getAttribute('data-status')).toBe('SUBMITTED');
    // Due at the end of the 公示 period, on the Beijing clock as the console writes times.
    const [filed] = (await api.ok<{ list: { dueAt: string }[] }>('GET', `/admin/appeals?keyword=${encodeURIComponent(appellant.projectName)}`, superToken)).list;
    expect(Date.parse(filed!.dueAt) - Date.now()).toBeGreaterThan(4 * DAY);
    const due = new Date(Date.parse(filed!.dueAt) + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ');
    expect(await line.innerText()).toContain(due);
    await admin.screenshot('results-appeals-1440');
    await line.getByTestId('appeal-open').click();

    const detail = page.getByTestId('appeal-detail-page');
    expect(await detail.getByTestId('appeal-reason').innerText()).toBe(APPEAL_REASON);
    const panel = detail.getByTestId('decide-panel');
    await panel.getByText('受理并复评', { exact: true }).click();
    await panel.getByText('追加复评专家', { exact: true }).click();
    // An imported expert of the other group: no conflict with the project, not scoring it yet.
    reviser = appellant.group === '甲组' ? IMPORTED[1]! : IMPORTED[2]!;
    await panel.getByTestId('expert-picker').click();
    await page.keyboard.type(reviser.code);
    await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByTestId('expert-option').filter({ hasText: reviser.code }).click();
    await page.keyboard.press('Escape');
    await panel.locator('textarea').fill('经审核，予以受理，追加专家复评');
    await panel.getByTestId('decide-submit').click();
    // 受理并复评 cannot be undone: it asks first.
    const ask = page.locator('.ant-modal-confirm');
    await ask.getByText(/将为该项目增加 1 位复评专家/).waitFor();
    // The confirmation zooms in: a click measured mid-animation can land beside its button.
    await dialogsStill(page);
    await ask.locator('.ant-modal-confirm-btns .ant-btn-primary').click();
    await toast(page, '申诉已受理，项目已进入复评').waitFor();
    await expect.poll(() => detail.getByTestId('appeal-status').first().getAttribute('data-status')).toBe('ACCEPTED');
    await detail.getByTestId('appeal-reply').waitFor();
    await admin.screenshot('results-appeal-accepted-1440');
  });

  it('the added expert scores the project high through the API', async () => {
    const token = await expertToken(reviser.code, passwords.get(reviser.code)!);
    const list = await api.ok<{ list: ListRow[] }>('GET', '/expert/review/prelim/list?size=100', token);
    const mine = list.list.find((p) => p.id === appellant.projectId)!;
    expect(mine.status).not.toBe('SUBMITTED');
    const detail = await api.ok<{ criteria: Criterion[]; sheet: { version: number } | null }>('GET', `/expert/review/prelim/${mine.id}`, token);
    const scores = Object.fromEntries(detail.criteria.map((c) => [c.key, c.max]));
    await api.ok('POST', `/expert/review/prelim/${mine.id}/sheet/submit`, token, { scores, comment: '复评：材料充分，创新性突出。', version: detail.sheet?.version });
  });

  it('the admin publishes version 2 with a reason; the compare view and the team show the change', async () => {
    const page = admin.page;
    await page.goto(`${portal.url}/admin/results/publish`);
    const panel = page.getByTestId('results-round-prelim');
    await panel.getByTestId('accepted-hint').waitFor();
    await panel.getByTestId('new-version-open').click();
    const dialog = openDialog(page);
    await dialog.locator('#new-version-reason').waitFor();
    await dialogsStill(page);
    await dialog.locator('#new-version-reason').fill(VERSION_REASON);
    await dialog.getByTestId('new-version-preview').click();
    await dialog.getByTestId('new-version-resolves').waitFor();
    // A dialog taller than the window: the dialog itself, not the page behind it.
    await dialog.screenshot({ path: join(ARTIFACTS, 'results-new-version-preview-1440.png') });
    await dialog.getByTestId('new-version-confirm').click();
    const confirm = page.locator('.ant-modal-confirm');
    await confirm.waitFor();
    await dialogsStill(page);
    await confirm.getByRole('button', { name: '确认发布' }).click();
    await toast(page, '新版本已发布').waitFor();
    await expect.poll(() => panel.getByTestId('current-version').innerText()).toBe('第 2 版');

    const versions = panel.getByTestId('results-versions');
    await expect.poll(() => versions.locator('tr.ant-table-row').count()).toBe(2);
    for (const n of [1, 2]) await row(versions, `第 ${n} 版`).locator('.ant-checkbox-input').check();
    await versions.getByTestId('compare-open').click();
    const compare = page.getByTestId('compare-view');
    await compare.waitFor();
    expect(await compare.getByTestId('compare-reason').allInnerTexts()).toEqual(expect.arrayContaining([expect.stringContaining(VERSION_REASON)]));
    const moved = row(compare, appellant.projectName);
    expect(await moved.getByTestId('movement-tag').getAttribute('data-movement')).toBe('IN');
    await moved.getByTestId('linked-appeal').waitFor();
    // A changed row is marked across, the fixed project column included.
    const backgrounds = await moved.locator('td').evaluateAll((cells) => cells.slice(0, 2).map((c) => getComputedStyle(c).backgroundColor));
    expect(backgrounds[0]).toBe(backgrounds[1]);
    if (movedOut) expect(await row(compare, movedOut).getByTestId('movement-tag').getAttribute('data-movement')).toBe('OUT');
    await openDialog(page).screenshot({ path: join(ARTIFACTS, 'results-compare-1440.png') });
    await page.keyboard.press('Escape');

    // The team reads the revised result and its appeal closed.
    const mine = participant.page;
    await mine.reload();
    const result = mine.getByTestId('result-card-PRELIMINARY');
    await result.waitFor();
    await result.getByText('已更正（第 2 版）').waitFor();
    expect(await result.getByTestId('outcome-tag').getAttribute('data-outcome')).toBe('PROMOTED');
    expect(await result.getByTestId('my-appeal').getByTestId('appeal-status').getAttribute('data-status')).toBe('RESOLVED');
    expect(await result.getByTestId('appeal-note').innerText()).toBe('复评已结束，已发布第 2 版结果。');
    // The admin's reply, and the notices in the inbox: accepted, then the corrected result.
    expect(await result.getByTestId('appeal-reply').innerText()).toContain('经审核，予以受理，追加专家复评');
    await participant.screenshot('results-revised-1440');
    await mine.goto(`${portal.url}/my-message`);
    await mine.getByText('初赛结果更正').first().waitFor();
    await mine.getByText('申诉处理结果').first().waitFor();
    expect(participantErrors).toEqual([]);
  });

  // Trust (docs/security.md): the team's receipt checks against the root the public notice printed.
  it('the team downloads its score receipt after publication; it checks out against the root in the notice', async () => {
    const page = participant.page;
    await page.goto(`${portal.url}/material-submission/detail`);
    const item = page.getByTestId('result-card-PRELIMINARY').getByTestId('receipt');
    await item.waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), item.getByTestId('receipt-download').click()]);
    const receipt = JSON.parse(readFileSync((await download.path())!, 'utf8')) as ScoreReceipt;
    expect(receipt).toMatchObject({ format: 'contest-score-receipt', publication: { round: 'PRELIMINARY', version: 2 }, project: { id: appellant.projectId } });
    expect(receipt.entries.length).toBeGreaterThan(0);
    // What anyone reads off the public article (大赛动态): the root it printed.
    const article = await api.ok<{ body: string }>('GET', `/news/${receipt.publication.newsId}`, null);
    const root = /默克尔根[^<]*<code>([0-9a-f]{64})<\/code>/.exec(article.body)?.[1];
    expect(root).toBe(receipt.merkle.root);
    expect(await item.innerText()).toContain(root!);
    const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
    expect(checkScoreReceipt(sha256, receipt, root)).toMatchObject({ ok: true, problems: [] });
    expect(participantErrors).toEqual([]);
  });

  it('评分存证: the chain verifies intact and lists the publications and the appeal decision', async () => {
    const page = admin.page;
    const log = await api.ok<{ total: number }>('GET', '/admin/score-log?size=1', superToken);
    await page.goto(`${portal.url}/admin/results/score-log`);
    const list = page.getByTestId('score-log-page');
    await tableSettled(list);
    await page.getByTestId('score-log-verify-button').click();
    const ok = page.getByTestId('score-log-verify-ok');
    await ok.waitFor();
    expect(await ok.innerText()).toContain(`共 ${log.total} 条记录，最后一条序号 ${log.total}`);
    // Against both published heads and every live score sheet too.
    expect(await page.getByTestId('score-log-verify-scope').innerText()).toMatch(/^已核对公示链头 2 个、评分表 \d+ 份，均与存证一致。$/);
    expect(await page.getByTestId('score-log-anchors').locator('tr.ant-table-row').count()).toBe(2);
    // Newest first: version 2, the added expert's score, the decision and its re-review, version 1.
    const rows = list.locator('tr.ant-table-row');
    await expect.poll(() => rows.filter({ hasText: '结果发布' }).count()).toBe(2);
    expect(await rows.first().innerText()).toContain(`${log.total}\t`);
    expect(await rows.first().innerText()).toContain('结果发布');
    expect(await rows.filter({ hasText: '申诉处理' }).count()).toBe(1);
    await admin.screenshot('results-score-log-1440');
  });

  it('one final-round score reaches the final ranking', async () => {
    await setPhases('final');
    const finals = await api.ok<{ list: { id: string }[] }>('GET', '/admin/final/list?size=50', superToken);
    const experts = await api.ok<{ list: { id: string; code: string }[] }>('GET', '/admin/expert/list?size=100', superToken);
    const judge = IMPORTED[1]!;
    await api.ok('POST', '/admin/review/final/groups', superToken, { name: '决赛组', expertIds: [experts.list.find((e) => e.code === judge.code)!.id] });
    await api.ok('POST', `/admin/review/final/projects/${finals.list[0]!.id}/move`, superToken, { groupId: (await api.ok<{ groups: { id: string }[] }>('GET', '/admin/review/final/groups', superToken)).groups[0]!.id, reason: '决赛分组' });
    expect(await scoreAll(await expertToken(judge.code, passwords.get(judge.code)!), 'final', 0)).toBe(1);

    const page = admin.page;
    await page.goto(`${portal.url}/admin/grade/gradeManage-admin-grade`);
    await tableSettled(page);
    const ranked = page.locator('tr.ant-table-row').first();
    await ranked.waitFor();
    expect((await ranked.locator('td').first().innerText()).trim()).toBe('1');
    await admin.screenshot('review-final-scores-1440');
    expect(adminErrors).toEqual([]);
  });
});
