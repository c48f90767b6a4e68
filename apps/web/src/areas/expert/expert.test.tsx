/** The expert area with mocked answers (packages/shared/src/review/api.ts, "expert area"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  DEFAULT_RUBRICS,
  EXPERT_MENUS,
  REVIEW_MSG,
  type ContestAttachment,
  type ExpertOverview,
  type ExpertProjectDetail,
  type ExpertProjectRow,
  type Page,
  type SheetView,
} from '@contest/shared';
import { api } from '../../lib/api';
import { ok, refused } from '../../test/api-mocks';
import { renderRoute } from '../../test/render-route';
import { expert, menuTree } from '../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../lib/session';

// jsdom loads no frames: the viewer page stands in as the link it would open.
vi.mock('../../components/preview/PdfFrame', () => ({
  PdfFrame: ({ url }: { url: string }) => <div data-testid="pdf-frame" data-url={url} />,
}));

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const file = (uniqueNo: string, name: string): ContestAttachment => ({
  uniqueNo,
  name,
  extension: name.split('.').pop() ?? '',
  size: 2048,
  filePath: `/api/attachment/stream/${uniqueNo}`,
});

const sheetView = (over: Partial<SheetView> = {}): SheetView => ({
  id: 's1',
  status: 'DRAFT',
  scores: { innovation: 20 },
  comment: '',
  total: 20,
  version: 3,
  returnReason: null,
  submittedAt: null,
  updatedAt: '2025-07-02T02:00:00Z',
  ...over,
});

const detail = (over: Partial<ExpertProjectDetail> = {}): ExpertProjectDetail => ({
  id: ID(1),
  round: 'PRELIMINARY',
  projectName: '医保智能审核1号',
  track: 'SMART_SUPERVISION',
  summary: '基于大模型的医保基金智能审核',
  keywords: ['医保', '智能审核'],
  application: file('a1', '申报书.pdf'),
  applicationChars: 4800,
  presentation: file('p1', '演示材料.pdf'),
  video: file('v1', '演示视频.mp4'),
  others: [],
  blind: true,
  download: 'none',
  team: null,
  criteria: DEFAULT_RUBRICS.PRELIMINARY,
  sheet: null,
  editable: true,
  open: true,
  prevId: null,
  nextId: ID(2),
  ...over,
});

const row = (n: number, over: Partial<ExpertProjectRow> = {}): ExpertProjectRow => ({
  id: ID(n),
  projectName: `医保智能审核${n}号`,
  track: 'SMART_SUPERVISION',
  status: 'NONE',
  total: null,
  updatedAt: null,
  submittedAt: null,
  ...over,
});

const OVERVIEW: ExpertOverview = {
  agreed: true,
  rounds: [
    {
      round: 'PRELIMINARY',
      window: { start: '2025-07-01T01:00:00Z', end: '2025-07-15T10:00:00Z' },
      open: true,
      assigned: 5,
      notStarted: 1,
      draft: 1,
      submitted: 2,
      returned: 1,
    },
    { round: 'FINAL', window: null, open: false, assigned: 0, notStarted: 0, draft: 0, submitted: 0, returned: 0 },
  ],
};

const page = <T,>(list: T[], total = list.length): Page<T> => ({ list, page: 1, size: 10, total });

const DICT = { TRACK: { SMART_SUPERVISION: '智能监管与基金安全' }, PROFESSIONAL_TITLE: { SENIOR: '高级' }, MEMBER_ROLE: { DEV: '开发' } } as Record<
  string,
  Record<string, string>
>;

/** Before the agreement the server leaves the final-review entry out. */
const notAgreed = (): StaffInfo => expert({ agree: false, menus: menuTree(EXPERT_MENUS.filter((m) => m.code !== 'reviewAdminManage')) });

type Answer = unknown | ((params: Record<string, unknown> | undefined) => unknown);

/** GET answers by path (a function gets the params; an Error rejects); the account and dictionaries built in. */
function mockGet(info: () => StaffInfo, answers: Record<string, Answer>) {
  localStorage.setItem('ExpertToken', 'expert-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Record<string, unknown> }) => {
    const params = config?.params;
    if (url === '/admin/user/account') return ok(info());
    const types = (params?.types as string[] | undefined) ?? [];
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, DICT[t] ?? {}])));
    if (url === '/dic/public')
      return ok(Object.fromEntries(types.map((t) => [t, Object.entries(DICT[t] ?? {}).map(([code, name]) => ({ code, name }))])));
    if (url.startsWith('/attachment/stream/')) {
      // The client resolves a file as { blob, fileName } (responseType blob).
      return { blob: new Blob(['%PDF-1.4'], { type: 'application/pdf' }), fileName: '申报书.pdf' } as unknown as ReturnType<typeof ok>;
    }
    if (url in answers) {
      const answer = typeof answers[url] === 'function' ? (answers[url] as (p: unknown) => unknown)(params) : answers[url];
      if (answer instanceof Error) throw answer;
      return ok(answer);
    }
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);
const DETAIL_URL = `/expert/review/prelim/${ID(1)}`;

describe('expert area', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('home: the notices of a returned sheet are listed; opening one reads it', async () => {
    const notice = { id: ID(9), title: '评分被退回', body: '项目「甲」的评分被退回：请复核', kind: 'SYSTEM', read: false, readAt: null, createdAt: '2025-07-02T02:00:00.000Z' };
    const get = mockGet(expert, { '/expert/review/overview': OVERVIEW, '/messages': page([notice]), [`/messages/${ID(9)}`]: { ...notice, read: true } });
    renderRoute('/expert/index');
    const notices = await screen.findByTestId('expert-notices', {}, SLOW);
    const item = await within(notices).findByTestId('expert-notice', {}, SLOW);
    expect(item.textContent).toContain('评分被退回');
    fireEvent.click(within(item).getByRole('button', { name: '查看通知「评分被退回」' }));
    expect((await screen.findByTestId('expert-notice-body', {}, SLOW)).textContent).toBe('项目「甲」的评分被退回：请复核');
    await waitFor(() => expect(callsTo(get, `/messages/${ID(9)}`)).toHaveLength(1));
  });

  it("home in English: event notices read in the server's English; a notice without one as sent", async () => {
    const returned = {
      id: ID(9),
      title: '评分被退回',
      body: '您对项目「甲」的初赛评分已被退回。',
      en: { title: 'Score returned', body: 'Your Preliminary Round score for project "甲" has been returned.<br>Please score it again.' },
      kind: 'SYSTEM',
      read: false,
      readAt: null,
      createdAt: '2025-07-02T02:00:00.000Z',
    };
    const bulk = { ...returned, id: ID(10), title: '评审安排通知', body: '请按时完成评审', en: null, kind: 'ADMIN', read: true };
    mockGet(expert, { '/expert/review/overview': OVERVIEW, '/messages': page([returned, bulk]), [`/messages/${ID(9)}`]: { ...returned, read: true } });
    renderRoute('/expert/index', { search: '?lang=en' });
    const notices = await screen.findByTestId('expert-notices', {}, SLOW);
    const items = await within(notices).findAllByTestId('expert-notice', {}, SLOW);
    expect(items.map((i) => i.querySelector('.ant-typography')!.textContent)).toEqual(['Score returned', '评审安排通知']);
    fireEvent.click(within(items[0]!).getByRole('button', { name: 'View the notice "Score returned"' }));
    expect((await screen.findByTestId('expert-notice-body', {}, SLOW)).innerHTML).toBe('Your Preliminary Round score for project "甲" has been returned.<br>Please score it again.');
    expect(screen.queryByText('评分被退回')).toBeNull();
  });

  it('agreement: accepted with the box ticked (PUT /user/agreement), then the home shows the rounds', async () => {
    let agreed = false;
    const get = mockGet(() => (agreed ? expert() : notAgreed()), { '/expert/review/overview': OVERVIEW });
    const put = vi.spyOn(api, 'put').mockImplementation(async (url: string) => {
      if (url === '/user/agreement') agreed = true;
      return ok(null);
    });
    renderRoute('/expert/index');

    const agreement = await screen.findByTestId('review-agreement', {}, SLOW);
    expect(agreement.textContent).toContain('保密');
    expect(agreement.textContent).toContain('利益回避');
    const accept = within(agreement).getByRole('button', { name: '同意并开始评审' });
    expect((accept as HTMLButtonElement).disabled).toBe(true);
    // Nothing of the review is read before the agreement.
    expect(callsTo(get, '/expert/review/overview')).toHaveLength(0);
    expect(within(screen.getByTestId('console-menu')).queryByText('决赛评审')).toBeNull();

    fireEvent.click(within(agreement).getByRole('checkbox', { name: '我已阅读并同意' }));
    fireEvent.click(accept);
    await waitFor(() => expect(put).toHaveBeenCalledWith('/user/agreement'));

    const card = await screen.findByTestId('round-PRELIMINARY', {}, SLOW);
    expect(screen.queryByTestId('review-agreement')).toBeNull();
    expect(within(card).getByTestId('round-state').textContent).toBe('进行中');
    // Beijing time, whatever the machine's zone.
    expect(within(card).getByTestId('round-window').textContent).toContain('2025-07-01 09:00 ~ 2025-07-15 18:00（北京时间）');
    expect(within(card).getByTestId('round-progress').textContent).toContain('已提交 2 / 5');
    expect(within(card).getByTestId('round-returned').textContent).toBe('被退回 1 个，请重新评分');
    expect(within(card).getByTestId('round-next').textContent).toBe('重新评分被退回的项目');
    // A round with nothing assigned is not shown; the final-review entry is now in the menu.
    expect(screen.queryByTestId('round-FINAL')).toBeNull();
    await waitFor(() => expect(within(screen.getByTestId('console-menu')).getByText('决赛评审')).toBeTruthy());
  });

  it('home: empty state when nothing is assigned; a review page before the agreement leads to it', async () => {
    mockGet(() => expert(), { '/expert/review/overview': { agreed: true, rounds: [] } });
    const first = renderRoute('/expert/index');
    expect((await screen.findByTestId('home-empty', {}, SLOW)).textContent).toContain('评审任务尚未分配');
    first.unmount();

    vi.restoreAllMocks();
    const get = mockGet(notAgreed, {});
    const { router } = renderRoute('/expert/review-admin-manage');
    expect(await screen.findByTestId('review-agreement', {}, SLOW)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/expert/index');
    expect(screen.getByTestId('agreement-required').textContent).toContain('请先阅读并同意评审协议');
    expect(get.mock.calls.some(([u]) => String(u).startsWith('/expert/review/'))).toBe(false);
  });

  it('list: rows with track names, status and totals; filters go into the URL and the call', async () => {
    const get = mockGet(() => expert(), {
      '/expert/review/overview': OVERVIEW,
      '/expert/review/prelim/list': page([
        row(1, { status: 'SUBMITTED', total: 82.5, updatedAt: '2025-07-02T02:00:00Z', submittedAt: '2025-07-02T02:00:00Z' }),
        row(2, { status: 'RETURNED', total: 60 }),
        row(3),
      ]),
    });
    const { router } = renderRoute('/expert/review-manage?status=RETURNED');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(first.textContent).toContain('智能监管与基金安全'), SLOW);
    expect(first.textContent).toContain('已提交');
    expect(first.textContent).toContain('82.5');
    expect(within(first).getByTestId('row-action').textContent).toBe('查看');
    const second = screen.getByText('医保智能审核2号').closest('tr')!;
    expect(second.textContent).toContain('被退回');
    expect(within(second).getByTestId('row-action').textContent).toBe('评分');
    expect(within(screen.getByText('医保智能审核3号').closest('tr')!).getByTestId('row-action').getAttribute('href')).toBe(
      `/expert/review-detail/${ID(3)}`,
    );
    expect(callsTo(get, '/expert/review/prelim/list')[0]![1]).toEqual({ params: { status: 'RETURNED', page: 1, size: 10 } });

    const form = screen.getByTestId('kit-search-form');
    fireEvent.change(within(form).getByLabelText('项目名称'), { target: { value: '智能' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(router.state.location.search).toContain('keyword='));
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get('keyword')).toBe('智能');
    expect(search.get('status')).toBe('RETURNED');
    await waitFor(() =>
      expect(callsTo(get, '/expert/review/prelim/list').at(-1)![1]).toEqual({ params: { status: 'RETURNED', keyword: '智能', page: 1, size: 10 } }),
    );
  });

  it('scoring: the total follows the typing; a score over the maximum is refused with the server text', async () => {
    mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail() });
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(detail()));
    renderRoute(`/expert/review-detail/${ID(1)}`);

    const innovation = await screen.findByLabelText(/创新性/, {}, SLOW);
    expect(screen.getByTestId('score-total').textContent).toBe('0 / 100');
    fireEvent.change(innovation, { target: { value: '20' } });
    fireEvent.change(screen.getByLabelText(/可行性/), { target: { value: '22.5' } });
    await waitFor(() => expect(screen.getByTestId('score-total').textContent).toBe('42.5 / 100'));

    fireEvent.change(innovation, { target: { value: '30' } });
    expect(await screen.findByText(REVIEW_MSG.scoreInvalid)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(/可行性/), { target: { value: '22.3' } });
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    await waitFor(() => expect(screen.getAllByText(REVIEW_MSG.scoreInvalid)).toHaveLength(2));
    expect(put).not.toHaveBeenCalled();

    // Blind: no team; the description stands beside its criterion.
    expect(screen.getByTestId('blind-note').textContent).toBe('盲评：不显示参赛单位和成员信息');
    expect(screen.getByText(DEFAULT_RUBRICS.PRELIMINARY[0]!.description)).toBeTruthy();
    expect(screen.getByText('申报书（4800 字）')).toBeTruthy();
  });

  it('scoring in English: each criterion by its English name and description, its own name where it has none', async () => {
    const criteria = DEFAULT_RUBRICS.PRELIMINARY.map((c) => (c.key === 'completeness' ? { ...c, nameEn: '', descriptionEn: '' } : c));
    mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail({ criteria }) });
    renderRoute(`/expert/review-detail/${ID(1)}`, { search: '?lang=en' });
    expect(await screen.findByRole('spinbutton', { name: 'Innovation (max 25)' }, SLOW)).toBeTruthy();
    expect(screen.getByText(DEFAULT_RUBRICS.PRELIMINARY[1]!.descriptionEn!)).toBeTruthy();
    expect(screen.getByRole('spinbutton', { name: '完整性 (max 20)' })).toBeTruthy();
    expect(screen.queryByText('创新性', { exact: false })).toBeNull();
  });

  it('scoring: a draft saves the scores with the version it was read at; the answer is the new state', async () => {
    const get = mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail({ sheet: sheetView() }) });
    const put = vi.spyOn(api, 'put').mockImplementation(async (_url: string, body: unknown) => {
      const { scores, comment } = body as { scores: Record<string, number>; comment: string };
      return ok(detail({ sheet: sheetView({ scores, comment, version: 4, total: 42.5 }) }));
    });
    renderRoute(`/expert/review-detail/${ID(1)}`);

    const feasibility = await screen.findByLabelText(/可行性/, {}, SLOW);
    expect((screen.getByLabelText(/创新性/) as HTMLInputElement).value).toBe('20');
    // Each score field says its range to a screen reader: 0 to the criterion's maximum.
    const innovation = screen.getByRole('spinbutton', { name: /创新性/ });
    expect([innovation.getAttribute('aria-valuemin'), innovation.getAttribute('aria-valuemax')]).toEqual(['0', '25']);
    fireEvent.change(feasibility, { target: { value: '22.5' } });
    fireEvent.change(screen.getByLabelText('评语'), { target: { value: '思路清晰' } });
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith(
        `/expert/review/prelim/${ID(1)}/sheet`,
        { scores: { innovation: 20, feasibility: 22.5 }, comment: '思路清晰', version: 3 },
        { silent: true },
      ),
    );
    expect(await screen.findByText('草稿已保存', {}, SLOW)).toBeTruthy();
    // The form is drawn anew: focus is back on 保存草稿, not lost to the page.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: '保存草稿' })), { timeout: 15_000 });
    // The next save carries the version of the answer, without reading the project again.
    fireEvent.change(screen.getByLabelText(/完整性/), { target: { value: '10' } });
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    await waitFor(() =>
      expect(put).toHaveBeenLastCalledWith(
        expect.any(String),
        { scores: { innovation: 20, feasibility: 22.5, completeness: 10 }, comment: '思路清晰', version: 4 },
        { silent: true },
      ),
    );
    expect(callsTo(get, DETAIL_URL)).toHaveLength(1);
  });

  it('scoring: submit needs every score and a comment, asks first, then the sheet is locked', async () => {
    mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail() });
    const post = vi.spyOn(api, 'post').mockResolvedValue(
      ok(
        detail({
          editable: false,
          sheet: sheetView({
            status: 'SUBMITTED',
            scores: { innovation: 20, feasibility: 20, value: 25, completeness: 15 },
            total: 80,
            comment: '整体完成度高',
            version: 2,
            submittedAt: '2025-07-03T02:00:00Z',
          }),
        }),
      ),
    );
    renderRoute(`/expert/review-detail/${ID(1)}`);

    await screen.findByLabelText(/创新性/, {}, SLOW);
    fireEvent.click(screen.getByRole('button', { name: '提交评分' }));
    expect(await screen.findByText('请填写评语')).toBeTruthy();
    expect(screen.getAllByText(REVIEW_MSG.scoreRequired)).toHaveLength(4);

    const scores = { 创新性: '20', 可行性: '20', 应用价值: '25', 完整性: '15' };
    for (const [name, value] of Object.entries(scores)) fireEvent.change(screen.getByLabelText(new RegExp(name)), { target: { value } });
    fireEvent.change(screen.getByLabelText('评语'), { target: { value: '整体完成度高' } });
    await waitFor(() => expect(screen.getByTestId('score-total').textContent).toBe('80 / 100'));
    fireEvent.click(screen.getByRole('button', { name: '提交评分' }));

    expect(await screen.findByText('提交后不能修改，确定提交吗？', {}, SLOW)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: '确定' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        `/expert/review/prelim/${ID(1)}/sheet/submit`,
        { scores: { innovation: 20, feasibility: 20, value: 25, completeness: 15 }, comment: '整体完成度高' },
        { silent: true },
      ),
    );
    const readOnly = await screen.findByTestId('score-readonly', {}, SLOW);
    expect(within(readOnly).getByTestId('score-value-value').textContent).toBe('25 / 30');
    expect(within(readOnly).getByTestId('comment-readonly').textContent).toBe('整体完成度高');
    expect(screen.getByTestId('sheet-state').textContent).toContain('已提交');
    expect(screen.getByTestId('submitted-at').textContent).toContain('2025-07-03');
    expect(screen.queryByRole('button', { name: '提交评分' })).toBeNull();
    expect(screen.queryByLabelText(/创新性/)).toBeNull();
    // Focus is on the page's heading, which now says the sheet is submitted.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { level: 1 })), { timeout: 15_000 });
    expect(document.activeElement!.textContent).toContain('已提交');
  });

  it('scoring: a returned sheet shows the reason and is editable; the team shows when not blind', async () => {
    mockGet(() => expert(), {
      '/expert/review/overview': OVERVIEW,
      [DETAIL_URL]: detail({
        blind: false,
        team: {
          orgName: '第一人民医院',
          teamName: '智慧医保1队',
          leader: { name: '李队长', title: 'SENIOR' },
          members: [{ name: '王成员', organization: '第一人民医院', title: 'SENIOR', role: 'DEV' }],
          advisor: null,
        },
        sheet: sheetView({ status: 'RETURNED', returnReason: '评语过于简单，请补充', version: 5 }),
      }),
    });
    renderRoute(`/expert/review-detail/${ID(1)}`);

    const returned = await screen.findByTestId('return-reason', {}, SLOW);
    expect(returned.textContent).toContain('评分已被退回，请重新评分');
    expect(returned.textContent).toContain('退回原因：评语过于简单，请补充');
    expect((screen.getByLabelText(/创新性/) as HTMLInputElement).disabled).toBe(false);
    expect(screen.getByRole('button', { name: '提交评分' })).toBeTruthy();

    const team = screen.getByTestId('detail-section-team');
    expect(team.textContent).toContain('第一人民医院');
    expect(team.textContent).toContain('智慧医保1队');
    await waitFor(() => expect(team.textContent).toContain('李队长 · 高级'));
    expect(team.textContent).toContain('王成员');
    // No contact details for experts.
    expect(team.textContent).not.toContain('13900000001');
    expect(screen.queryByTestId('blind-note')).toBeNull();
  });

  it('scoring: outside the window the sheet is read-only; previews carry the expert watermark', async () => {
    mockGet(() => expert(), {
      '/expert/review/overview': OVERVIEW,
      [DETAIL_URL]: detail({ open: false, editable: false, prevId: ID(0), nextId: null }),
    });
    const { router } = renderRoute(`/expert/review-detail/${ID(1)}`);

    expect((await screen.findByTestId('review-closed', {}, SLOW)).textContent).toBe(REVIEW_MSG.reviewClosed);
    expect(screen.getByTestId('score-readonly')).toBeTruthy();
    expect(screen.queryByRole('button', { name: '保存草稿' })).toBeNull();
    expect((screen.getByTestId('next-project') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: '预览：申报书.pdf' }));
    await screen.findByTestId('pdf-frame', {}, SLOW);
    // For experts the dialog's default is no mark: the page gives it the expert's own.
    expect(document.querySelector('.preview-dialog__watermark')).not.toBeNull();

    fireEvent.click(screen.getByTestId('prev-project'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/expert/review-detail/${ID(0)}`));
  });

  it('materials: no 下载 button by default (preview only); "pdf" shows it on PDFs, "all" on every file', async () => {
    const others = [file('o1', 'P-1A2B3C4D-附件1.docx')];
    for (const [download, expected] of [
      ['none', []],
      ['pdf', ['下载：申报书.pdf', '下载：演示材料.pdf']],
      ['all', ['下载：申报书.pdf', '下载：演示材料.pdf', '下载：演示视频.mp4', '下载：P-1A2B3C4D-附件1.docx']],
    ] as const) {
      mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail({ download, others }) });
      const view = renderRoute(`/expert/review-detail/${ID(1)}`);
      const files = await screen.findByTestId('review-files', {}, SLOW);
      expect(within(files).getAllByTestId('review-file')).toHaveLength(4);
      expect(within(files).queryAllByTestId('file-download').map((b) => b.getAttribute('aria-label')), download).toEqual(expected);
      // Previews stay whatever the setting.
      expect(within(files).getByRole('button', { name: '预览：申报书.pdf' })).toBeTruthy();
      view.unmount();
      vi.restoreAllMocks();
    }
  });

  it('scoring: a STALE answer reloads the sheet; a 403 AGREEMENT_REQUIRED leads to the agreement', async () => {
    let agreed = true;
    const get = mockGet(() => (agreed ? expert() : notAgreed()), {
      '/expert/review/overview': OVERVIEW,
      [DETAIL_URL]: detail({ sheet: sheetView() }),
      // Agreement withdrawn meanwhile (the account says so on its next reading): the call is refused.
      [`/expert/review/prelim/${ID(2)}`]: () => {
        agreed = false;
        return refused(REVIEW_MSG.agreementRequired, { reason: 'AGREEMENT_REQUIRED' }, 403);
      },
    });
    const put = vi.spyOn(api, 'put').mockRejectedValueOnce(refused('已被他人处理', { reason: 'STALE' }));
    const { router } = renderRoute(`/expert/review-detail/${ID(1)}`);

    fireEvent.change(await screen.findByLabelText(/可行性/, {}, SLOW), { target: { value: '22.5' } });
    fireEvent.click(screen.getByRole('button', { name: '保存草稿' }));
    expect(await screen.findByText('该评分已在别处更改，已为您重新加载最新内容', {}, SLOW)).toBeTruthy();
    await waitFor(() => expect(callsTo(get, DETAIL_URL)).toHaveLength(2));
    await waitFor(() => expect((screen.getByLabelText(/可行性/) as HTMLInputElement).value).toBe(''));
    expect(put).toHaveBeenCalledTimes(1);

    fireEvent.click(screen.getByTestId('next-project'));
    expect(await screen.findByTestId('review-agreement', {}, SLOW)).toBeTruthy();
    expect(router.state.location.pathname).toBe('/expert/index');
  });

  it('scoring: leaving with unsaved scores asks first', async () => {
    mockGet(() => expert(), { '/expert/review/overview': OVERVIEW, [DETAIL_URL]: detail() });
    const { router } = renderRoute(`/expert/review-detail/${ID(1)}`);

    fireEvent.change(await screen.findByLabelText(/创新性/, {}, SLOW), { target: { value: '20' } });
    fireEvent.click(screen.getByTestId('next-project'));
    expect(await screen.findByText('有未保存的评分修改，离开后将丢失，确定离开吗？', {}, SLOW)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '留在此页' }));
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    expect(router.state.location.pathname).toBe(`/expert/review-detail/${ID(1)}`);
    expect((screen.getByLabelText(/创新性/) as HTMLInputElement).value).toBe('20');

    fireEvent.click(screen.getByTestId('back-to-list'));
    // jsdom never ends antd's leave animation: the first box may linger beside the new one.
    const open = () => screen.queryAllByRole('dialog').filter((d) => d.isConnected && !d.classList.contains('ant-zoom-leave'));
    await waitFor(() => expect(open()).toHaveLength(1), SLOW);
    fireEvent.click(within(open()[0]!).getByRole('button', { name: '离开' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/expert/review-manage'));
  });

  it('scoring: each project has one tab titled with its name; opening it again reuses that tab', async () => {
    mockGet(() => expert(), {
      '/expert/review/overview': OVERVIEW,
      [DETAIL_URL]: detail(),
      [`/expert/review/prelim/${ID(2)}`]: detail({ id: ID(2), projectName: '医保智能审核2号', prevId: ID(1), nextId: null }),
    });
    const { router } = renderRoute(`/expert/review-detail/${ID(1)}`);
    await screen.findByTestId('review-detail', {}, SLOW);
    const tabs = () => screen.getByTestId('console-tabs');
    // A tab's label: the page's title and the project's name (marked as content, in its own span).
    const tabLabel = (text: string) => within(tabs()).getByText((_, el) => el?.hasAttribute('data-tab-path') === true && el.textContent === text);
    const tabLabels = () => [...tabs().querySelectorAll('[data-tab-path]')].map((el) => el.textContent ?? '');
    await waitFor(() => expect(tabLabel('初赛评分 · 医保智能审核1号')).toBeTruthy());

    void router.navigate(`/expert/review-detail/${ID(2)}`);
    await waitFor(() => expect(tabLabel('初赛评分 · 医保智能审核2号')).toBeTruthy());
    void router.navigate(`/expert/review-detail/${ID(1)}`);
    // Still one tab per project, the first one active again; blind: no team in any tab.
    await waitFor(() =>
      expect(tabLabel('初赛评分 · 医保智能审核1号').closest('[role="tab"]')!.getAttribute('aria-selected')).toBe('true'),
    );
    expect(tabLabels().filter((text) => text.startsWith('初赛评分'))).toEqual(['初赛评分 · 医保智能审核1号', '初赛评分 · 医保智能审核2号']);
    // The project's name is content (kept as written on English pages), the rest interface text.
    expect(tabLabel('初赛评分 · 医保智能审核1号').querySelector('[data-user-content]')?.textContent).toBe('医保智能审核1号');
    expect(localStorage.getItem('expertTabs')).not.toContain('teamName');
  });

  it('scoring page without an id opens the next project needing work', async () => {
    const get = mockGet(() => expert(), {
      '/expert/review/overview': OVERVIEW,
      '/expert/review/final/list': (params: Record<string, unknown> | undefined) => page(params?.status === 'DRAFT' ? [row(7)] : []),
      [`/expert/review/final/${ID(7)}`]: detail({ id: ID(7), round: 'FINAL', criteria: DEFAULT_RUBRICS.FINAL }),
    });
    const { router } = renderRoute('/expert/review-admin-detail');
    await waitFor(() => expect(router.state.location.pathname).toBe(`/expert/review-admin-detail/${ID(7)}`), SLOW);
    expect(await screen.findByLabelText(/现场答辩/, {}, SLOW)).toBeTruthy();
    expect(callsTo(get, '/expert/review/final/list').map(([, c]) => (c as { params: { status: string } }).params.status)).toEqual([
      'RETURNED',
      'DRAFT',
    ]);
  });
});
