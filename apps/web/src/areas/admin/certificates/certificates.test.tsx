/** 证书模板 and 证书管理 with mocked answers (packages/shared/src/certificates/certificates.ts, docs/certificates.md). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  CertificateDocumentRow,
  CertificateJobView,
  CertificateOverview,
  CertificateRoundOverview,
  CertificateTemplateDetail,
  CertificateTemplateRow,
  Page,
} from '@contest/shared';
import { CERTIFICATE_MSG } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { changeLocale } from '../../../i18n';
import type { StaffInfo } from '../../../lib/session';

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
const TEMPLATES = '/admin/results/certificate-templates';
const MANAGE = '/admin/results/certificates';
const TEMPLATE_ID = '6f1d2c3b-4a5e-4f60-8a7b-9c0d1e2f3a4b';

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

const templateRow = (over: Partial<CertificateTemplateRow> = {}): CertificateTemplateRow => ({
  id: TEMPLATE_ID,
  name: '一等奖证书',
  kind: 'AWARD',
  awardLevel: '一等奖',
  pageSize: 'A4',
  orientation: 'LANDSCAPE',
  enabled: true,
  version: 3,
  documentCount: 12,
  updatedAt: '2026-07-01T02:00:00.000Z',
  updatedBy: '管理员',
  ...over,
});

const detail = (over: Partial<CertificateTemplateDetail> = {}): CertificateTemplateDetail => ({
  id: TEMPLATE_ID,
  templateId: TEMPLATE_ID,
  version: 3,
  name: '一等奖证书',
  kind: 'AWARD',
  awardLevel: '一等奖',
  pageSize: 'A4',
  orientation: 'LANDSCAPE',
  background: null,
  fields: [
    { key: 'team', x: 0.1, y: 0.3, width: 0.8, fontSize: 28, align: 'center', bold: true, color: '#000000', text: null },
    { key: 'qr', x: 0.8, y: 0.7, width: 0.12, fontSize: 16, align: 'left', bold: false, color: '#000000', text: null },
  ],
  createdAt: '2026-07-01T02:00:00.000Z',
  createdBy: '管理员',
  enabled: true,
  updatedAt: '2026-07-01T02:00:00.000Z',
  ...over,
});

const job = (over: Partial<CertificateJobView> = {}): CertificateJobView => ({
  id: 'c0ffee00-0000-4000-8000-000000000001',
  round: 'FINAL',
  status: 'RUNNING',
  progress: { done: 3, total: 10 },
  summary: null,
  error: null,
  createdAt: '2026-07-02T02:00:00.000Z',
  finishedAt: null,
  ...over,
});

const roundState = (over: Partial<CertificateRoundOverview> = {}): CertificateRoundOverview => ({
  round: 'FINAL',
  publishedVersion: 2,
  issuedVersion: null,
  counts: [],
  lastJob: null,
  kinds: ['AWARD', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'],
  ...over,
});

const overview = (final: Partial<CertificateRoundOverview> = {}, prelim: Partial<CertificateRoundOverview> = {}): CertificateOverview => ({
  rounds: [
    roundState({ round: 'PRELIMINARY', publishedVersion: null, kinds: ['PROMOTION', 'PARTICIPATION', 'EXPERT_APPOINTMENT', 'EXPERT_THANKS'], ...prelim }),
    roundState(final),
  ],
});

const documentRow = (over: Partial<CertificateDocumentRow> = {}): CertificateDocumentRow => ({
  id: 'd0c00000-0000-4000-8000-000000000001',
  serial: '2026-7K3Q-9XWD-M2PA-RT0V',
  kind: 'AWARD',
  round: 'FINAL',
  status: 'VALID',
  holderName: '智慧医保队',
  projectId: 'p1',
  projectName: '医保基金智能审核',
  award: '一等奖',
  resultVersion: 2,
  templateId: TEMPLATE_ID,
  templateVersion: 3,
  issuedAt: '2026-07-02T02:00:00.000Z',
  successorSerial: null,
  endedAt: null,
  ...over,
});

type Answer = (url: string, config?: { params?: Record<string, unknown> }) => unknown;

/** GETs: the account, then `answers` by exact path (a function may look at the params); anything else fails the test. */
function mockGet(info: StaffInfo, answers: Record<string, unknown | Answer>) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation((async (url: string, config?: { params?: Record<string, unknown> }) => {
    if (url === '/admin/user/account') return ok(info);
    if (url in answers) {
      const answer = answers[url];
      const value = typeof answer === 'function' ? (answer as Answer)(url, config) : answer;
      if (value instanceof Error) throw value;
      if (value && typeof value === 'object' && 'blob' in value) return value;
      return ok(value);
    }
    throw new Error(`unexpected GET ${url}`);
  }) as typeof api.get);
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);
const rowOf = (text: string) =>
  waitFor(() => {
    const row = screen.queryAllByText(text).map((el) => el.closest('tr.ant-table-row')).find((tr): tr is HTMLTableRowElement => tr !== null);
    if (!row) throw new Error(`no table row shows ${text}`);
    return row;
  }, SLOW);

describe('证书模板', { timeout: 60_000 }, () => {
  beforeEach(() => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
    changeLocale('zh-cn');
  });

  it('lists the templates with kind, award level, current version and update time; filters are the URL', async () => {
    const get = mockGet(superAdmin(), {
      '/admin/certificates/templates': page([templateRow(), templateRow({ id: 't2', name: '参赛证书', kind: 'PARTICIPATION', awardLevel: null, version: 1, enabled: false })]),
    });
    const { router } = renderRoute(`${TEMPLATES}?kind=AWARD`);
    expect(await screen.findByRole('heading', { name: '证书模板', level: 1 }, SLOW)).toBeTruthy();
    const award = await rowOf('一等奖证书');
    expect(award.textContent).toContain('获奖证书');
    expect(award.textContent).toContain('一等奖');
    expect(award.textContent).toContain('第 3 版');
    expect(award.textContent).toContain('A4 横向');
    expect(award.textContent).toContain('2026-07-01 10:00:00');
    const other = await rowOf('参赛证书');
    expect(other.textContent).toContain('已停用');
    expect(other.textContent).toContain('--');
    await waitFor(() => expect(callsTo(get, '/admin/certificates/templates').at(-1)![1]).toEqual({ params: { kind: 'AWARD', page: 1, size: 10 } }));

    fireEvent.click(screen.getByTestId('template-new'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${TEMPLATES}/new`));
  });

  it('shows the empty list, and no create button without certificate:manage', async () => {
    mockGet(operator(['results']), { '/admin/certificates/templates': page([]) });
    renderRoute(TEMPLATES);
    expect(await screen.findByRole('heading', { name: '证书模板', level: 1 }, SLOW)).toBeTruthy();
    expect(await screen.findByText('暂无相关信息', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('template-new')).toBeNull();
  });

  it('editor: fields are placed with the numeric inputs; the page preview follows and the body carries fractions', async () => {
    mockGet(superAdmin(), { '/admin/certificates/preview-records': [] });
    const post = vi.spyOn(api, 'post').mockImplementation((async (_url: string, body: unknown) => ok({ ...detail(), id: 'new-id', ...(body as object), version: 1 })) as typeof api.post);
    const { router } = renderRoute(`${TEMPLATES}/new`);
    expect(await screen.findByRole('heading', { name: '新建证书模板', level: 1 }, SLOW)).toBeTruthy();

    // Nothing placed: saving names what is missing and sends nothing.
    fireEvent.click(screen.getByTestId('template-save'));
    const problems = await screen.findByTestId('template-problems');
    expect(problems.textContent).toContain('请输入模板名称');
    expect(problems.textContent).toContain('请至少放置 1 个字段');
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('模板名称'), { target: { value: '优秀奖证书' } });
    fireEvent.change(screen.getByLabelText('奖项'), { target: { value: '优秀奖' } });

    // Add the team name with the keyboard-reachable controls.
    const addSelect = screen.getByTestId('field-add-key');
    fireEvent.mouseDown(within(addSelect).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('队伍名称'));
    fireEvent.click(screen.getByTestId('field-add'));
    const box = await screen.findByTestId('cert-field-box');
    expect(box.getAttribute('data-key')).toBe('team');

    const x = screen.getByLabelText('队伍名称：左边距 (%)');
    const y = screen.getByLabelText('队伍名称：上边距 (%)');
    const width = screen.getByLabelText('队伍名称：宽度 (%)');
    fireEvent.change(x, { target: { value: '25' } });
    fireEvent.change(y, { target: { value: '40.5' } });
    fireEvent.change(width, { target: { value: '50' } });
    fireEvent.change(screen.getByLabelText('队伍名称：字号 (磅)'), { target: { value: '30' } });
    fireEvent.click(screen.getByLabelText('队伍名称：加粗'));
    await waitFor(() => {
      expect(box.style.left).toBe('25%');
      expect(box.style.top).toBe('40.5%');
      expect(box.style.width).toBe('50%');
    });
    expect(box.style.fontWeight).toBe('700');
    expect(box.getAttribute('aria-label')).toBe('队伍名称 (25%, 40.5%)');

    // The arrow keys move the focused box in 0.5 % steps.
    fireEvent.keyDown(box, { key: 'ArrowRight' });
    await waitFor(() => expect(box.style.left).toBe('25.5%'));
    expect((x as HTMLInputElement).value).toBe('25.5');

    fireEvent.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(post).toHaveBeenCalled());
    const [url, body] = post.mock.calls[0]!;
    expect(url).toBe('/admin/certificates/templates');
    expect(body).toMatchObject({
      name: '优秀奖证书',
      kind: 'AWARD',
      awardLevel: '优秀奖',
      pageSize: 'A4',
      orientation: 'LANDSCAPE',
      background: null,
      fields: [{ key: 'team', x: 0.255, y: 0.405, width: 0.5, fontSize: 30, bold: true }],
    });
    await waitFor(() => expect(router.state.location.pathname).toBe(`${TEMPLATES}/new-id`));
  });

  it('editor: a field running past the right edge is refused before anything is sent', async () => {
    mockGet(superAdmin(), { '/admin/certificates/preview-records': [] });
    const post = vi.spyOn(api, 'post');
    renderRoute(`${TEMPLATES}/new`);
    await screen.findByRole('heading', { name: '新建证书模板', level: 1 }, SLOW);
    fireEvent.change(screen.getByLabelText('模板名称'), { target: { value: '证书' } });
    fireEvent.mouseDown(within(screen.getByTestId('field-add-key')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('项目名称'));
    fireEvent.click(screen.getByTestId('field-add'));
    fireEvent.change(await screen.findByLabelText('项目名称：左边距 (%)'), { target: { value: '60' } });
    fireEvent.click(screen.getByTestId('template-save'));
    expect((await screen.findByTestId('template-problems')).textContent).toContain(CERTIFICATE_MSG.fieldOutsidePage);
    expect(post).not.toHaveBeenCalled();
  });

  it('editor: an existing template loads its version, saves with baseVersion, and offers a reload when someone saved first', async () => {
    mockGet(superAdmin(), {
      [`/admin/certificates/templates/${TEMPLATE_ID}`]: detail(),
      [`/admin/certificates/templates/${TEMPLATE_ID}/versions`]: [
        { version: 3, name: '一等奖证书', createdAt: '2026-07-01T02:00:00.000Z', createdBy: '管理员', documentCount: 0 },
        { version: 2, name: '一等奖证书', createdAt: '2026-06-01T02:00:00.000Z', createdBy: '管理员', documentCount: 12 },
      ],
      '/admin/certificates/preview-records': [],
    });
    const put = vi
      .spyOn(api, 'put')
      .mockRejectedValueOnce(refused(CERTIFICATE_MSG.templateChanged, { reason: 'STALE' }))
      .mockImplementation((async () => ok(detail({ version: 4 }))) as typeof api.put);
    renderRoute(`${TEMPLATES}/${TEMPLATE_ID}`);
    expect(await screen.findByRole('heading', { name: '编辑证书模板：一等奖证书', level: 1 }, SLOW)).toBeTruthy();
    expect(screen.getAllByTestId('cert-field-box')).toHaveLength(2);
    expect((screen.getByLabelText('队伍名称：左边距 (%)') as HTMLInputElement).value).toBe('10.0');
    const versions = await screen.findByTestId('template-versions');
    await waitFor(() => expect(within(versions).getAllByTestId('version-preview')).toHaveLength(2));

    fireEvent.change(screen.getByLabelText('队伍名称：上边距 (%)'), { target: { value: '35' } });
    fireEvent.click(screen.getByTestId('template-save'));
    expect(await screen.findByTestId('template-conflict')).toBeTruthy();
    expect(put.mock.calls[0]![0]).toBe(`/admin/certificates/templates/${TEMPLATE_ID}`);
    expect(put.mock.calls[0]![1]).toMatchObject({ baseVersion: 3, fields: [{ key: 'team', y: 0.35 }, { key: 'qr' }] });

    fireEvent.click(screen.getByTestId('template-save'));
    await waitFor(() => expect(screen.getByTestId('editor-version').textContent).toBe('第 4 版'));
  });

  it('editor: an unknown template shows its not-found state', async () => {
    mockGet(superAdmin(), { [`/admin/certificates/templates/${TEMPLATE_ID}`]: refused(CERTIFICATE_MSG.templateNotFound, null, 404) });
    renderRoute(`${TEMPLATES}/${TEMPLATE_ID}`);
    expect(await screen.findByRole('heading', { name: '证书模板不存在', level: 1 }, SLOW)).toBeTruthy();
  });

  it('editor: the preview prints the draft for the chosen record through the server and shows it in the PDF viewer frame', async () => {
    mockGet(superAdmin(), {
      [`/admin/certificates/templates/${TEMPLATE_ID}`]: detail(),
      [`/admin/certificates/templates/${TEMPLATE_ID}/versions`]: [],
      '/admin/certificates/preview-records': [{ id: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', label: '智慧医保队 · 医保基金智能审核' }],
    });
    const post = vi.spyOn(api, 'post').mockImplementation((async () => ({ blob: new Blob(['%PDF'], { type: 'application/pdf' }), fileName: null })) as unknown as typeof api.post);
    renderRoute(`${TEMPLATES}/${TEMPLATE_ID}`);
    await screen.findByRole('heading', { name: '编辑证书模板：一等奖证书', level: 1 }, SLOW);
    const preview = screen.getByTestId('cert-preview');
    fireEvent.mouseDown(within(within(preview).getByTestId('preview-record')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('智慧医保队 · 医保基金智能审核'));
    fireEvent.click(within(preview).getByTestId('preview-run'));
    const frame = await within(preview).findByTestId('pdf-frame');
    expect(frame.getAttribute('src')).toBe(`/pdf/web/viewer.html?file=${encodeURIComponent('blob:test/1')}`);
    expect(post.mock.calls[0]![0]).toBe('/admin/certificates/templates/preview');
    expect(post.mock.calls[0]![1]).toMatchObject({ recordId: '3f2504e0-4f89-41d3-9a0c-0305e82c3301', template: { name: '一等奖证书', fields: [{ key: 'team' }, { key: 'qr' }] } });
  });

  it('editor: a refused preview says why', async () => {
    mockGet(superAdmin(), {
      [`/admin/certificates/templates/${TEMPLATE_ID}`]: detail(),
      [`/admin/certificates/templates/${TEMPLATE_ID}/versions`]: [],
      '/admin/certificates/preview-records': [],
    });
    vi.spyOn(api, 'post').mockRejectedValue(refused(CERTIFICATE_MSG.recordNotFound));
    renderRoute(`${TEMPLATES}/${TEMPLATE_ID}`, { search: '?lang=en' });
    await screen.findByRole('heading', { name: 'Edit certificate template: 一等奖证书', level: 1 }, SLOW);
    fireEvent.click(screen.getByTestId('preview-run'));
    expect((await screen.findByTestId('preview-error')).textContent).toContain('The preview record does not exist');
  });
});

describe('证书管理', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
    changeLocale('zh-cn');
  });

  it('says an unpublished round cannot issue yet', async () => {
    mockGet(superAdmin(), { '/admin/certificates/overview': overview(), '/admin/certificates/documents': page([]) });
    renderRoute(MANAGE);
    expect(await screen.findByRole('heading', { name: '证书管理', level: 1 }, SLOW)).toBeTruthy();
    const panel = await screen.findByTestId('certificates-round-prelim', {}, SLOW);
    expect(within(panel).getByTestId('certificates-unpublished')).toBeTruthy();
    expect((within(panel).getByTestId('issue-start') as HTMLButtonElement).disabled).toBe(true);
  });

  it('a load failure offers a reload', async () => {
    mockGet(superAdmin(), { '/admin/certificates/overview': refused('服务繁忙', null, 500) });
    renderRoute(MANAGE);
    expect(await screen.findByTestId('certificates-failed', {}, SLOW)).toBeTruthy();
  });

  it('issues the chosen kinds, follows the job to its summary, and lists the documents with their statuses', async () => {
    let jobState = job();
    let docs: CertificateDocumentRow[] = [];
    const get = mockGet(superAdmin(), {
      '/admin/certificates/overview': overview(),
      '/admin/certificates/documents': () => page(docs),
      [`/admin/certificates/jobs/${jobState.id}`]: () => jobState,
    });
    const post = vi.spyOn(api, 'post').mockImplementation((async () => ok({ jobId: jobState.id, resultVersion: 2, alreadyRunning: false })) as typeof api.post);
    renderRoute(`${MANAGE}?round=final`);
    const panel = await screen.findByTestId('certificates-round-final', {}, SLOW);
    expect(within(panel).getByTestId('published-version').textContent).toBe('第 2 版');

    // Only the award certificates.
    for (const name of ['参赛证书', '专家聘书', '专家感谢信']) fireEvent.click(within(panel).getByLabelText(name));
    fireEvent.click(within(panel).getByTestId('issue-start'));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/certificates/final/issue', { kinds: ['AWARD'], participationForAll: false }, { silent: true }));
    const progress = await within(panel).findByTestId('issue-job', {}, SLOW);
    expect(progress.getAttribute('data-status')).toBe('RUNNING');
    expect(progress.textContent).toContain('已处理 3 / 10');

    docs = [
      documentRow(),
      documentRow({ id: 'd2', serial: '2026-AAAA-BBBB-CCCC-DDDD', status: 'SUPERSEDED', successorSerial: '2026-7K3Q-9XWD-M2PA-RT0V', holderName: '数据先锋队' }),
      documentRow({ id: 'd3', serial: '2026-EEEE-FFFF-GGGG-HHHH', status: 'REVOKED', holderName: '云端健康队' }),
    ];
    jobState = job({ status: 'DONE', progress: { done: 10, total: 10 }, summary: { issued: 8, unchanged: 1, superseded: 1, revoked: 1 }, finishedAt: '2026-07-02T02:01:00.000Z' });
    await waitFor(() => expect(within(panel).getByTestId('issue-job').getAttribute('data-status')).toBe('DONE'), SLOW);
    expect(within(panel).getByTestId('issue-job-summary').textContent).toBe('新颁发 8，未变化 1，被取代 1，撤销 1');

    // The job's end reloads the documents.
    const valid = await rowOf('智慧医保队');
    expect(within(valid).getByTestId('certificate-status').textContent).toBe('有效');
    const superseded = await rowOf('数据先锋队');
    expect(within(superseded).getByTestId('certificate-status').textContent).toBe('已被新版本取代');
    expect(superseded.textContent).toContain('新编号 2026-7K3Q-9XWD-M2PA-RT0V');
    expect(within(await rowOf('云端健康队')).getByTestId('certificate-status').textContent).toBe('已撤销');
    expect(callsTo(get, '/admin/certificates/documents').at(-1)![1]).toEqual({ params: { round: 'FINAL', page: 1, size: 10 } });
  });

  it('a refusal to issue (no template) is shown in the panel with the way to the templates', async () => {
    mockGet(superAdmin(), { '/admin/certificates/overview': overview(), '/admin/certificates/documents': page([]) });
    vi.spyOn(api, 'post').mockRejectedValue(refused(CERTIFICATE_MSG.templateMissing, { kind: 'AWARD', awardLevel: '一等奖' }));
    renderRoute(`${MANAGE}?round=final`);
    const panel = await screen.findByTestId('certificates-round-final', {}, SLOW);
    fireEvent.click(within(panel).getByTestId('issue-start'));
    const refusal = await within(panel).findByTestId('issue-refusal');
    expect(refusal.textContent).toContain(CERTIFICATE_MSG.templateMissing);
    expect(within(refusal).getByRole('link', { name: '证书模板' }).getAttribute('href')).toBe(TEMPLATES);
  });

  it('downloads one document and the zip of the filtered list; readers without the buttons see neither', async () => {
    const blob = { blob: new Blob(['%PDF']), fileName: 'x.pdf' };
    const get = mockGet(superAdmin(), {
      '/admin/certificates/overview': overview({ issuedVersion: 2, counts: [{ kind: 'AWARD', status: 'VALID', count: 1 }] }),
      '/admin/certificates/documents': page([documentRow()]),
      [`/admin/certificates/documents/${documentRow().id}/pdf`]: blob,
      '/admin/certificates/final/zip': blob,
    });
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    renderRoute(`${MANAGE}?round=final&status=VALID`);
    const row = await rowOf('智慧医保队');
    expect(screen.getByTestId('certificates-counts').textContent).toContain('有效 1');
    fireEvent.click(within(row).getByTestId('document-download'));
    await waitFor(() => expect(callsTo(get, `/admin/certificates/documents/${documentRow().id}/pdf`)).toHaveLength(1));
    fireEvent.click(screen.getByTestId('certificates-zip'));
    await waitFor(() => expect(callsTo(get, '/admin/certificates/final/zip')[0]![1]).toEqual({ params: { status: 'VALID' }, responseType: 'blob' }));
    expect(within(row).getByTestId('document-verify').getAttribute('href')).toBe('/verify/2026-7K3Q-9XWD-M2PA-RT0V');
  });

  it('without certificate:issue and certificate:download the page only reads', async () => {
    mockGet(operator(['results']), { '/admin/certificates/overview': overview(), '/admin/certificates/documents': page([documentRow()]) });
    renderRoute(`${MANAGE}?round=final`);
    const row = await rowOf('智慧医保队');
    expect(screen.queryByTestId('issue-start')).toBeNull();
    expect(screen.queryByTestId('certificates-zip')).toBeNull();
    expect(within(row).queryByTestId('document-download')).toBeNull();
  });

  it('a job already running when the page opens shows its progress', async () => {
    const running = job({ progress: { done: 1, total: 4 } });
    mockGet(superAdmin(), {
      '/admin/certificates/overview': overview({ lastJob: running }),
      '/admin/certificates/documents': page([]),
      [`/admin/certificates/jobs/${running.id}`]: running,
    });
    renderRoute(`${MANAGE}?round=final`);
    const progress = await screen.findByTestId('issue-job', {}, SLOW);
    expect(progress.textContent).toContain('已处理 1 / 4');
    expect((screen.getByTestId('issue-start') as HTMLButtonElement).disabled).toBe(true);
  });
});

