import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page, Response } from 'playwright-core';
import { expectNoSeriousA11y } from './support/axe.js';
import { openBrowser, type Browser } from './support/browser.js';
import { startPortal, type Portal } from './support/portal.js';
import { card, choose, collectErrors, dialogsStill, item, openDialog, ownPassword, passSlider, row, staffLogin as consoleLogin, tableSettled, toast } from './support/ui.js';
import { submitLogin } from './support/login.js';
import { pdfWithText } from './support/pdf.js';
import { png } from './support/png.js';

/**
 * Contest operations end to end (docs/rules/team.md, docs/rules/prelim.md), in Chromium against the built portal:
 * a participant (demo5, no team in the demo data) submits the sign-up; an operator holding a
 * role made of the qualification, preliminary and final menus finds it in 资格管理 (the filter
 * lives in the URL), previews the certificate and returns it with a reason (a preset chip from
 * AUDIT_REASON); the participant reads the reason, edits and resubmits; the operator approves it
 * in the audit queue (skipping demo2's sign-up); the participant submits the preliminary
 * materials; the operator passes the formal check beside the application PDF and adds the
 * project to the final round. An operator without qualification:audit sees no audit action and
 * is refused by the API. Screenshots at 1440 and 390 wide.
 */
let portal: Portal;
let files: string;

const PARTICIPANT = { username: 'demo5', password: 'Demo@2025' };
const SUPER = { username: 'admin', password: 'Admin@2025' };
const RUN = Math.random().toString(36).slice(2, 8).toUpperCase();
const ORG = `协和测试医院${RUN}`;
const TEAM = `协和智审${RUN}`;
const TEAM_REVISED = `协和智审${RUN}改`;
const PROJECT = `医保基金智能审核${RUN}`;
const VALID_CREDIT_CODE = '91350100M000100Y43';
const PRESET = '证明材料不清晰';
const TYPED_REASON = '请上传加盖公章的营业执照扫描件';
const FINAL_REASON = '形式审查通过，材料完整，进入决赛';
// The server counts Latin letters and CJK characters (36 letters here).
const PDF_TEXT = 'Smart medical insurance fund supervision';
const PDF_CHARS = PDF_TEXT.replace(/[^A-Za-z]/g, '').length;

/** Operators made through the admin API (a SYSTEM account each, holding its own role). */
const OPS_ROLE = {
  code: 'CONTEST_OPS_E2E',
  name: '赛务运营',
  menuCodes: ['home', 'qualificationDraft', 'qualification', 'preliminaryBox', 'preliminarySearch', 'preliminaryAdminSearch'],
  buttonCodes: [
    'qualification-draft:remind',
    'qualification:view',
    'qualification:audit',
    'qualification:export',
    'file:read',
    'preliminary-draft:remind',
    'preliminary:view',
    'preliminary:audit',
    'preliminary:export',
    'final:promote',
    'final:export',
  ],
};
const VIEWER_ROLE = {
  code: 'CONTEST_VIEW_E2E',
  name: '报名查看',
  menuCodes: ['home', 'qualification'],
  buttonCodes: ['qualification:view', 'qualification:export', 'file:read'],
};
const OPS = { username: 'opsqual', name: '赛务一号', password: '' };
const VIEWER = { username: 'viewqual', name: '查看一号', password: '' };

async function api<T>(method: string, path: string, token: string | null, body?: unknown): Promise<{ http: number; status: number; message: string; data: T }> {
  const res = await fetch(`${portal.url}/api${path}`, {
    method,
    headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await res.json()) as { status: number; message: string; data: T };
  return { http: res.status, ...envelope };
}

async function apiOk<T>(method: string, path: string, token: string | null, body?: unknown): Promise<T> {
  const answer = await api<T>(method, path, token, body);
  if (answer.status !== 200) throw new Error(`${method} ${path}: ${answer.status} ${answer.message}`);
  return answer.data;
}

/** A role and a SYSTEM account holding it; answers the account's one-time password. */
async function createOperator(token: string, role: typeof OPS_ROLE, account: { username: string; name: string }): Promise<string> {
  const created = await apiOk<{ id: string }>('POST', '/admin/role', token, role);
  const answer = await apiOk<{ password: string }>('POST', '/admin/system/account', token, { ...account, roleIds: [created.id] });
  // A generated password is changed at the first login (docs/security.md): done once here.
  return ownPassword(portal.url, 'admin', account.username, answer.password);
}

beforeAll(async () => {
  portal = await startPortal();
  files = mkdtempSync(join(tmpdir(), 'contest-ops-files-'));
  writeFileSync(join(files, '营业执照.png'), png(480, 320));
  writeFileSync(join(files, '承诺书.pdf'), pdfWithText('Commitment letter signed'));
  writeFileSync(join(files, '申报书.pdf'), pdfWithText(PDF_TEXT));
  writeFileSync(join(files, '演示文稿.pdf'), pdfWithText('Presentation'));
  // The super admin only works through the API here: its browser session would be one more Chromium.
  const { accessToken } = await apiOk<{ accessToken: string }>('POST', '/admin/login', null, SUPER);
  OPS.password = await createOperator(accessToken, OPS_ROLE, OPS);
  VIEWER.password = await createOperator(accessToken, VIEWER_ROLE, VIEWER);
});

afterAll(async () => {
  await portal?.stop();
  if (files) rmSync(files, { recursive: true, force: true });
});

async function participantLogin(page: Page): Promise<void> {
  await page.goto(portal.url);
  await page.getByRole('button', { name: '登 录' }).or(page.getByRole('button', { name: '登录' })).first().click();
  const modal = page.getByTestId('auth-modal');
  await modal.getByPlaceholder('请输入用户名', { exact: true }).fill(PARTICIPANT.username);
  await modal.getByPlaceholder('请输入密码', { exact: true }).fill(PARTICIPANT.password);
  await submitLogin(page, modal);
  await passSlider(page, '**/my-sign');
}

async function staffLogin(page: Page, username: string, password: string): Promise<void> {
  await consoleLogin(page, portal.url, 'admin', username, password);
}

async function upload(scope: Locator, label: string, file: string): Promise<void> {
  const formItem = item(scope, label);
  await formItem.getByTestId('upload-input').setInputFiles(join(files, file));
  await formItem.locator('[data-status="ok"]').first().waitFor({ timeout: 30_000 });
}

/** Confirms the participant's submit dialog and waits for the detail page. */
async function confirmSubmit(page: Page, detailPath: string): Promise<void> {
  // What the submit call answered (for the message below, when the page does not move on).
  const answers: string[] = [];
  const onResponse = (res: Response) => {
    if (res.request().method() === 'POST' && /\/my\/submit$/.test(new URL(res.url()).pathname)) {
      void res.text().then((body) => answers.push(`${res.status()} ${body.slice(0, 300)}`), () => answers.push(`${res.status()}`));
    }
  };
  page.on('response', onResponse);
  await page.getByTestId('submit').click();
  await page.locator('.ant-modal-confirm').waitFor();
  await dialogsStill(page);
  await page.locator('.ant-modal-confirm').getByRole('button', { name: /确\s*认/ }).click();
  try {
    await page.waitForURL(`**${detailPath}`);
  } catch (error) {
    // Say why the form stayed: field errors, the server's refusal, a dialog still open, what the call answered.
    const why: Record<string, unknown> = await page.evaluate(() => ({
      url: location.href,
      fieldErrors: Array.from(document.querySelectorAll('.ant-form-item-explain-error')).map((e) => e.textContent),
      refusal: document.querySelector('[data-testid="form-refusal"]')?.textContent ?? null,
      messages: Array.from(document.querySelectorAll('.ant-message-notice')).map((e) => e.textContent),
      confirmOpen: !!document.querySelector('.ant-modal-confirm'),
    }));
    why.answers = answers;
    await page.screenshot({ path: fileURLToPath(new URL('./artifacts/contest-ops-submit-failed.png', import.meta.url)), fullPage: true });
    const server = portal.output().split('\n').slice(-20).join('\n');
    throw new Error(`no ${detailPath} after submitting: ${JSON.stringify(why)}\nserver:\n${server}`, { cause: error });
  } finally {
    page.off('response', onResponse);
  }
}

/** Types into a console list's search form and presses 查询. */
async function search(page: Page, scope: Locator, label: string, value: string): Promise<void> {
  const form = scope.getByTestId('kit-search-form').first();
  await item(form, label).locator('input').fill(value);
  await form.getByRole('button', { name: /查\s*询/ }).click();
}

describe('contest operations: sign-up audit, audit queue, formal check, final round', () => {
  let user: Browser;
  let op: Browser;
  let userErrors: string[] = [];
  let opErrors: string[] = [];
  let teamId = '';

  afterAll(async () => {
    for (const b of [user, op]) await b?.close();
  });

  // A failed step leaves both screens behind (artifacts/contest-ops-failed-*.png) and says where they were.
  afterEach(async (ctx) => {
    const result = ctx.task.result;
    if (result?.state !== 'fail' && !result?.errors?.length) return;
    for (const [name, b] of [['participant', user], ['operator', op]] as const) {
      if (!b) continue;
      const path = await b.screenshot(`contest-ops-failed-${name}`).catch(() => 'none');
      console.error(`[${ctx.task.name}] ${name} at ${b.page.url()}: ${path}`);
    }
  });

  it('the participant submits the sign-up with a certificate and a commitment letter', async () => {
    user = await openBrowser();
    userErrors = collectErrors(user.page);
    const page = user.page;
    await participantLogin(page);
    await page.getByTestId('sign-form').waitFor();
    await item(page, '单位名称').locator('input').fill(ORG);
    await choose(page, page, '单位类型', '医疗机构');
    await item(page, '统一社会信用代码').locator('input').fill(VALID_CREDIT_CODE);
    await choose(page, page, '所在省份', '北京市', true);
    await item(page, '所在城市').locator('input').fill('北京');
    await choose(page, page, '参赛方向', '智能监管与基金安全');
    await item(page, '团队名称').locator('input').fill(TEAM);

    const leader = card(page, '团队负责人');
    await item(leader, '姓名').locator('input').fill('王五');
    await item(leader, '手机号').locator('input').fill('13900000015');
    await item(leader, '邮箱').locator('input').fill('wang@example.com');
    await choose(page, leader, '职称', '正高级');

    const member = page.getByTestId('member-row').first();
    await item(member, '姓名').locator('input').fill('赵六');
    await item(member, '所在单位').locator('input').fill(ORG);
    await choose(page, member, '职称', '中级');
    await choose(page, member, '团队角色', '研发');

    const filesCard = card(page, '附件材料');
    await upload(filesCard, '单位证明材料', '营业执照.png');
    await upload(filesCard, '参赛承诺书（签字盖章）', '承诺书.pdf');

    await confirmSubmit(page, '/my-sign/detail');
    await page.getByTestId('sign-detail').waitFor();
    await page.getByTestId('contest-status').filter({ hasText: /^已提交$/ }).waitFor();
  });

  it('an operator finds the team in 资格管理 (the filter survives a reload), previews the certificate and returns it', async () => {
    op = await openBrowser({ width: 1440, height: 900 });
    opErrors = collectErrors(op.page);
    const page = op.page;
    await staffLogin(page, OPS.username, OPS.password);
    const menu = page.getByTestId('console-menu');
    await menu.getByText('报名管理', { exact: true }).click();
    await menu.getByText('资格管理', { exact: true }).click();
    await page.waitForURL('**/admin/competition/qualification');
    const list = page.getByTestId('qualification-page');
    await row(list, ORG).waitFor();
    await tableSettled(list);
    await shot(op, 'contest-ops-qualification');
    await expectNoSeriousA11y(page, { screen: '资格管理' });

    await search(page, list, '单位名称', ORG);
    await page.waitForURL((url) => url.searchParams.get('orgName') === ORG);
    await page.reload();
    await row(list, ORG).waitFor();
    await tableSettled(list);
    expect(await list.locator('tr.ant-table-row').count()).toBe(1);
    expect(await item(list.getByTestId('kit-search-form'), '单位名称').locator('input').inputValue()).toBe(ORG);
    expect(await row(list, ORG).innerText()).toContain('已提交');

    await row(list, ORG).getByRole('button', { name: /详\s*情/ }).click();
    await page.waitForURL('**/admin/competition/qualification-detail/**');
    teamId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const detail = page.getByTestId('qualification-detail');
    await detail.getByText(ORG).first().waitFor();

    // The certificate in the preview dialog: the picture is drawn.
    const certificate = detail.getByTestId('attachment-row').filter({ hasText: '营业执照.png' });
    await certificate.getByRole('button', { name: /预\s*览/ }).click();
    await page.locator('[data-testid="preview-body"][data-loading="false"]').waitFor();
    await page.waitForFunction(() => {
      const img = document.querySelector<HTMLImageElement>('[data-testid="preview-image"]');
      return !!img && img.complete && img.naturalWidth === 480;
    });
    expect(await page.getByTestId('preview-title').innerText()).toBe('营业执照.png');
    // The dialog opens with a zoom: shoot once it stands still.
    await dialogsStill(page);
    // The dialog as seen (a full-page shot would show its mask over the first screen only).
    await page.screenshot({ path: fileURLToPath(new URL('./artifacts/contest-ops-certificate-preview.png', import.meta.url)) });
    await page.keyboard.press('Escape');
    await page.getByTestId('preview-body').waitFor({ state: 'detached' });
    await shot(op, 'contest-ops-qualification-detail');

    // 退回修改 with a typed reason; a preset chip (dictionary AUDIT_REASON) is added to it.
    await detail.getByTestId('detail-audit').click();
    const dialog = openDialog(page);
    const form = dialog.getByTestId('audit-form');
    await form.waitFor();
    await dialogsStill(page);
    await form.getByText('退回修改', { exact: true }).click();
    const presets = form.getByTestId('audit-presets');
    await presets.waitFor();
    expect(await presets.locator('.kit-audit__preset').allInnerTexts()).toEqual([
      '材料不完整',
      PRESET,
      '承诺书未签字盖章',
      '信息填写有误',
      '不符合参赛条件',
    ]);
    const reason = form.locator('textarea');
    await reason.pressSequentially(TYPED_REASON);
    await presets.locator('.kit-audit__preset').filter({ hasText: PRESET }).click();
    expect(await reason.inputValue()).toBe(`${TYPED_REASON}；${PRESET}`);
    await dialog.getByRole('button', { name: '提交审核' }).click();
    await toast(page, '审核完成').waitFor();
    await detail.locator('.kit-detail__title').getByText('退回修改').waitFor();
    expect(await detail.getByTestId('detail-audit').count()).toBe(0);
    expect(await detail.getByTestId('detail-section-org').innerText()).toContain(`${TYPED_REASON}；${PRESET}`);
  });

  it('the participant reads the reason, edits the sign-up and submits it again', async () => {
    const page = user.page;
    await page.reload();
    const alert = page.getByTestId('audit-reason');
    await alert.waitFor();
    expect(await alert.innerText()).toContain(`${TYPED_REASON}；${PRESET}`);
    await page.getByTestId('contest-status').filter({ hasText: /^退回修改$/ }).waitFor();

    await page.getByTestId('edit-sign').click();
    await page.waitForURL('**/my-sign');
    await page.getByTestId('sign-form').waitFor();
    expect(await page.getByTestId('revising-reason').innerText()).toContain(TYPED_REASON);
    await item(page, '团队名称').locator('input').fill(TEAM_REVISED);
    await confirmSubmit(page, '/my-sign/detail');
    await page.getByTestId('sign-detail').waitFor();
    await page.getByTestId('contest-status').filter({ hasText: /^已提交$/ }).waitFor();
    await page.getByText(TEAM_REVISED).first().waitFor();
  });

  it('the operator approves it in the audit queue, skipping demo2\u2019s sign-up; the queue moves on', async () => {
    const page = op.page;
    await page.goto(`${portal.url}/admin/competition/qualification`);
    await page.getByTestId('qualification-page').getByRole('button', { name: /开始审核/ }).click();
    await page.waitForURL('**/admin/competition/qualification-audit');
    const queue = page.getByTestId('qualification-audit-page');

    /** The org name on screen once the queue has answered, or null on the empty state. */
    const current = async (): Promise<string | null> => {
      const handle = await page.waitForFunction(() => {
        const root = document.querySelector('[data-testid="qualification-audit-page"]');
        if (!root) return false;
        if (root.querySelector('[data-testid="queue-empty"]')) return { org: null };
        const body = root.querySelector('.qualification-audit__detail');
        const org = root.querySelector('[data-testid="detail-section-org"] .ant-descriptions-item-content');
        if (!body || body.getAttribute('aria-busy') !== 'false' || !org) return false;
        return { org: org.textContent ?? '' };
      });
      return ((await handle.jsonValue()) as { org: string | null }).org;
    };

    let shown = await current();
    for (let skips = 0; shown !== ORG; skips++) {
      expect(shown, 'our sign-up is in the queue').not.toBeNull();
      expect(skips).toBeLessThan(5);
      await queue.getByTestId('queue-skip').click();
      await queue.getByTestId('queue-remaining').filter({ hasText: `本次已跳过 ${skips + 1} 条` }).waitFor();
      shown = await current();
    }
    expect(await queue.locator('.kit-detail__title').innerText()).toContain(TEAM_REVISED);
    await shot(op, 'contest-ops-audit-queue');

    const panel = queue.getByTestId('audit-panel');
    expect(await panel.locator('.ant-radio-button-wrapper-checked').innerText()).toBe('通过');
    await panel.getByRole('button', { name: '提交审核' }).click();
    await toast(page, '审核完成').waitFor();
    // Either the next sign-up (never ours again) or the empty state.
    await expect.poll(current, { timeout: 15_000 }).not.toBe(ORG);
    if ((await current()) === null) await queue.getByText('当前没有待审核的报名').waitFor();

    const team = await apiOk<{ status: string }>('GET', `/admin/team/${teamId}`, await adminToken(page));
    expect(team.status).toBe('APPROVED');
  });

  it('the participant submits the preliminary materials', async () => {
    const page = user.page;
    await page.goto(`${portal.url}/material-submission`);
    await page.getByTestId('materials-form').waitFor();
    await item(page, '项目名称').locator('input').fill(PROJECT);
    await item(page, '项目简介').locator('textarea').fill('基于规则与模型的医保基金智能审核系统。');
    const keywords = item(page, '关键词').locator('input');
    await keywords.fill('智能审核');
    await keywords.press('Enter');
    const filesCard = card(page, '材料文件');
    await upload(filesCard, '申报书（PDF）', '申报书.pdf');
    await page.getByTestId('application-chars').filter({ hasText: `${PDF_CHARS}` }).waitFor({ timeout: 30_000 });
    await upload(filesCard, '演示文稿（PDF/PPT/PPTX）', '演示文稿.pdf');
    await confirmSubmit(page, '/material-submission/detail');
    await page.getByTestId('contest-status').filter({ hasText: /^已提交$/ }).waitFor();
    expect(await page.getByTestId('application-chars').innerText()).toBe(`申报书字数：${PDF_CHARS}`);
    expect(userErrors).toEqual([]);
  });

  it('the operator passes the formal check beside the application PDF, then adds the project to the final round', async () => {
    const page = op.page;
    await page.goto(`${portal.url}/admin/preliminary/preliminarySearch`);
    const list = page.getByTestId('prelim-list-page');
    await search(page, list, '项目名称', PROJECT);
    await page.waitForURL((url) => url.searchParams.get('projectName') === PROJECT);
    await row(list, PROJECT).waitFor();
    await row(list, PROJECT).getByTestId('row-audit').click();
    await page.waitForURL('**/admin/preliminary/audit/**');

    const audit = page.getByTestId('prelim-audit-page');
    const viewer = audit.getByTestId('application-viewer');
    // The viewer page inside the frame draws the PDF and counts its characters.
    const frame = page.frameLocator('[data-testid="pdf-frame"]');
    await frame.getByTestId('pdf-char-count').filter({ hasText: `总字符数：${PDF_CHARS}` }).waitFor({ timeout: 30_000 });
    await viewer.locator('.prelim-viewer__loading').waitFor({ state: 'detached' });
    await frame.locator('canvas').first().waitFor();
    const chars = audit.getByTestId('application-chars');
    expect(await chars.innerText()).toMatch(new RegExp(`^${PDF_CHARS}\\b`));
    // The document and the decision side by side at 1440.
    const decision = audit.getByTestId('prelim-audit-decision');
    const left = (await viewer.boundingBox())!;
    const right = (await decision.boundingBox())!;
    expect(left.x + left.width).toBeLessThanOrEqual(right.x);
    expect(left.width).toBeGreaterThan(right.width);
    expect(await audit.locator('.prelim-audit__title').innerText()).toContain(PROJECT);
    await shot(op, 'contest-ops-prelim-audit');

    expect(await decision.locator('.ant-radio-button-wrapper-checked').innerText()).toBe('通过');
    await decision.getByRole('button', { name: '提交审核' }).click();
    await page.waitForURL('**/admin/preliminary/preliminarySearch**');
    await search(page, list, '项目名称', PROJECT);
    await page.waitForURL((url) => url.searchParams.get('projectName') === PROJECT);
    // Cached pages show while the list asks again: wait for the answer given after the decision.
    await row(list, PROJECT).filter({ hasText: '形式审查通过' }).filter({ hasNot: page.getByTestId('row-audit') }).waitFor();

    // 决赛项目管理: 添加项目, choose it among the approved materials, give the reason.
    await page.getByTestId('console-menu').getByText('决赛管理', { exact: true }).click();
    await page.getByTestId('console-menu').getByText('决赛项目管理', { exact: true }).click();
    await page.waitForURL('**/admin/preliminary/preliminaryAdminSearch');
    const finals = page.getByTestId('final-list-page');
    await finals.waitFor();
    await tableSettled(finals);
    expect(await row(finals, PROJECT).count()).toBe(0);
    await finals.getByTestId('final-add').click();
    const candidates = page.getByTestId('final-candidates');
    await candidates.waitFor();
    await dialogsStill(page);
    await search(page, candidates, '项目名称', PROJECT);
    await row(candidates, PROJECT).getByTestId('candidate-choose').click();
    await page.getByTestId('candidate-chosen').filter({ hasText: PROJECT }).waitFor();
    await openDialog(page).locator('textarea').fill(FINAL_REASON);
    await openDialog(page).locator('.ant-modal-footer .ant-btn-primary').click();
    await toast(page, '已加入决赛名单').waitFor();
    // The dialog's content goes with it (destroyed when hidden).
    await candidates.waitFor({ state: 'detached' });
    const listed = row(finals, PROJECT);
    await listed.waitFor();
    expect(await listed.innerText()).toContain(FINAL_REASON);
    await tableSettled(finals);
    await shot(op, 'contest-ops-finals');
    expect(opErrors).toEqual([]);
  });

  it('资格管理 fits a 390 px window', async () => {
    const page = op.page;
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${portal.url}/admin/competition/qualification`);
    const list = page.getByTestId('qualification-page');
    await row(list, ORG).waitFor();
    await tableSettled(list);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(op, 'contest-ops-qualification-narrow');
    // The table scrolls sideways here: its scroll box takes focus and has a name.
    await expectNoSeriousA11y(page, { screen: '资格管理 390 px' });
    expect(opErrors).toEqual([]);
  });

  it('an operator without qualification:audit sees no audit action and is refused by the API', async () => {
    // The participant is done: their browser signs the read-only operator in (another realm's token).
    const page = user.page;
    await page.setViewportSize({ width: 1440, height: 900 });
    await staffLogin(page, VIEWER.username, VIEWER.password);
    await page.goto(`${portal.url}/admin/competition/qualification`);
    const list = page.getByTestId('qualification-page');
    // demo2's sign-up is still SUBMITTED: an operator holding the button would see 审核 on it.
    const submitted = list.locator('tr.ant-table-row').filter({ has: page.locator('.ant-tag', { hasText: /^已提交$/ }) });
    await submitted.first().waitFor();
    await tableSettled(list);
    expect(await list.getByTestId('row-audit').count()).toBe(0);
    expect(await list.getByRole('button', { name: /开始审核/ }).count()).toBe(0);
    expect(await list.getByRole('button', { name: /批量/ }).count()).toBe(0);
    expect(await list.getByTestId('kit-batch-bar').count()).toBe(0);
    expect(await list.locator('.ant-table-selection-column').count()).toBe(0);
    await shot(user, 'contest-ops-qualification-readonly');

    // The submitted sign-up's detail has no 审核 either, and the API refuses the decision.
    await submitted.first().getByRole('button', { name: /详\s*情/ }).click();
    await page.waitForURL('**/admin/competition/qualification-detail/**');
    const submittedId = decodeURIComponent(new URL(page.url()).pathname.split('/').pop()!);
    const detail = page.getByTestId('qualification-detail');
    await detail.locator('.kit-detail__title').getByText('已提交').waitFor();
    expect(await detail.getByTestId('detail-audit').count()).toBe(0);

    const token = await adminToken(page);
    const refused = await api('POST', `/admin/team/${submittedId}/audit`, token, { outcome: 'REJECTED', reason: '越权测试' });
    expect(refused.http).toBe(403);
    expect(refused.status).toBe(403);
    // Nothing changed, and the token still reads what the role holds.
    const after = await api<{ status: string }>('GET', `/admin/team/${submittedId}`, token);
    expect(after.status).toBe(200);
    expect(after.data.status).toBe('SUBMITTED');
    expect(userErrors).toEqual([]);
  });
});

/** A full-page screenshot from the top of the page (a scrolled page would put the fixed header over the content). */
async function shot(b: Browser, name: string): Promise<string> {
  await b.page.evaluate(() => window.scrollTo(0, 0));
  return b.screenshot(name);
}

async function adminToken(page: Page): Promise<string> {
  const token = await page.evaluate(() => localStorage.getItem('AdminToken'));
  if (!token) throw new Error('no AdminToken in the browser');
  return token;
}
