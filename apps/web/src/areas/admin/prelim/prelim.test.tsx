/** 初赛管理 and 决赛项目管理 pages with mocked answers (docs/api-contest.md, "Console calls for contest operations"). */
import { answerConfirm } from '../../../test/confirm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  BatchResult,
  ContestAttachment,
  FinalAdminRow,
  Page,
  PrelimAdminDetail,
  PrelimAdminRow,
  QueueNext,
  RemindResult,
} from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../../lib/session';

// jsdom loads no frames: the viewer page stands in as the link it would open.
vi.mock('../../../components/preview/PdfFrame', () => ({
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

const row = (n: number, over: Partial<PrelimAdminRow> = {}): PrelimAdminRow => ({
  id: ID(n),
  version: n + 1,
  status: 'SUBMITTED',
  projectName: `医保智能审核${n}号`,
  track: 'SMART_SUPERVISION',
  teamId: `t${n}`,
  teamName: `智慧医保${n}队`,
  orgName: `第${n}人民医院`,
  ownerUsername: `demo${n}`,
  applicationChars: 4000,
  auditReason: null,
  submittedAt: '2025-06-01T02:00:00Z',
  auditedAt: null,
  createdAt: '2025-05-01T02:00:00Z',
  updatedAt: '2025-06-01T02:00:00Z',
  lastRemindedOn: null,
  inFinal: false,
  maxApplicationChars: 5000,
  ...over,
});

const finalRow = (n: number, over: Partial<FinalAdminRow> = {}): FinalAdminRow => ({
  ...row(n, { status: 'APPROVED', inFinal: true }),
  finalVersion: n + 10,
  finalReason: '初赛排名前列',
  finalAt: '2025-07-01T02:00:00Z',
  ...over,
});

const detail = (n: number, over: Partial<PrelimAdminDetail> = {}): PrelimAdminDetail => ({
  id: ID(n),
  version: n + 1,
  status: 'SUBMITTED',
  projectName: `医保智能审核${n}号`,
  track: 'SMART_SUPERVISION',
  summary: '基于大模型的医保基金智能审核',
  keywords: ['医保', '智能审核'],
  teamId: `t${n}`,
  teamName: `智慧医保${n}队`,
  orgName: `第${n}人民医院`,
  application: file(`a${n}`, '申报书.pdf'),
  applicationChars: 5200,
  maxApplicationChars: 5000,
  fileMaxBytes: { application: 50 << 20, presentation: 200 << 20, video: 500 << 20, other: 200 << 20 },
  presentation: file(`p${n}`, '演示材料.pdf'),
  video: file(`v${n}`, '演示视频.mp4'),
  others: [file(`o${n}`, '补充材料.zip')],
  auditReason: null,
  submittedAt: '2025-06-01T02:00:00Z',
  auditedAt: null,
  createdAt: '2025-05-01T02:00:00Z',
  updatedAt: '2025-06-01T02:00:00Z',
  editable: false,
  history: [
    { id: 'h1', fromStatus: null, toStatus: 'DRAFT', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-05-01T02:00:00Z' },
    { id: 'h2', fromStatus: 'DRAFT', toStatus: 'SUBMITTED', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-06-01T02:00:00Z' },
  ],
  owner: { id: 'o1', username: 'demo1', phone: '13800000001' },
  lastRemindedOn: null,
  final: null,
  finalHistory: [],
  blindWarnings: [],
  ...over,
});

const page = <T,>(list: T[], total = list.length): Page<T> => ({ list, page: 1, size: 10, total });

const DICT = {
  TRACK: { SMART_SUPERVISION: '智能监管与基金安全' },
  AUDIT_REASON: { INCOMPLETE: '材料不完整' },
} as Record<string, Record<string, string>>;

const SETTINGS = { prelim: { maxApplicationChars: 5000, fileMaxBytes: {} } };

type Answer = unknown | ((params: Record<string, unknown> | undefined) => unknown);

/** GET answers by path (a function gets the params); dictionaries, settings, access links and the account built in. */
function mockGet(info: StaffInfo, answers: Record<string, Answer>) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Record<string, unknown> }) => {
    const params = config?.params;
    if (url === '/admin/user/account') return ok(info);
    const types = (params?.types as string[] | undefined) ?? [];
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, DICT[t] ?? {}])));
    if (url === '/dic/public')
      return ok(Object.fromEntries(types.map((t) => [t, Object.entries(DICT[t] ?? {}).map(([code, name]) => ({ code, name }))])));
    if (url === '/admin/settings') return ok(SETTINGS);
    if (url === '/attachment/accessUrl') {
      const uniqueNo = String(params?.filePath).split('/').pop();
      return ok({ url: `/api/attachment/stream/${uniqueNo}?expires=1&acct=a&sig=s`, expiresAt: '2025-06-01T03:00:00Z' });
    }
    if (url in answers) {
      const answer = answers[url];
      if (answer instanceof Error) throw answer;
      return ok(typeof answer === 'function' ? (answer as (p: unknown) => unknown)(params) : answer);
    }
    throw new Error(`unexpected GET ${url}`);
  });
}

/** A dialog gone, or on its way out (jsdom never ends antd's leave animation). */
const closing = (dialog: HTMLElement) => !dialog.isConnected || dialog.classList.contains('ant-zoom-leave');

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);


describe('初赛管理 and 决赛项目管理 pages', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('初赛项目管理: names not codes, status, characters against the cap, in-final flag; searches; opens the queue', async () => {
    const get = mockGet(superAdmin(), {
      '/admin/prelim-doc/list': page([row(1, { applicationChars: 5200 }), row(2, { status: 'APPROVED', inFinal: true, applicationChars: null })]),
    });
    const { router } = renderRoute('/admin/preliminary/preliminarySearch?track=SMART_SUPERVISION');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(first.textContent).toContain('智能监管与基金安全'), SLOW);
    expect(first.textContent).not.toContain('SMART_SUPERVISION');
    expect(first.textContent).toContain('智慧医保1队');
    expect(first.textContent).toContain('第1人民医院');
    expect(first.textContent).toContain('已提交');
    // Rows carry the cap in force; over it the count is highlighted.
    await waitFor(() => expect(within(first).getByTestId('application-chars').textContent).toBe('5200 / 5000'), SLOW);
    expect(within(first).getByTestId('application-chars').dataset.over).toBe('true');
    expect(first.textContent).toContain('2025-06-01');
    const second = screen.getByText('医保智能审核2号').closest('tr')!;
    expect(second.textContent).toContain('形式审查通过');
    expect(second.textContent).toContain('未统计');
    expect(within(second).getByTestId('in-final').textContent).toBe('是');
    // 形式审查 only on SUBMITTED rows; only they can be selected.
    expect(within(first).getByTestId('row-audit')).toBeTruthy();
    expect(within(second).queryByTestId('row-audit')).toBeNull();
    expect((within(second).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    expect(callsTo(get, '/admin/prelim-doc/list')[0]![1]).toEqual({ params: { track: 'SMART_SUPERVISION', page: 1, size: 10 } });
    expect(screen.getByTestId('kit-export')).toBeTruthy();

    const form = screen.getByTestId('kit-search-form');
    fireEvent.change(within(form).getByLabelText('项目名称'), { target: { value: '智能审核' } });
    fireEvent.change(within(form).getByLabelText('团队名称'), { target: { value: '智慧' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(callsTo(get, '/admin/prelim-doc/list').at(-1)![1]).toEqual({
        params: { projectName: '智能审核', teamName: '智慧', track: 'SMART_SUPERVISION', page: 1, size: 10 },
      }),
      SLOW,
    );

    fireEvent.click(within(first).getByTestId('row-audit'));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/preliminary/audit/${ID(1)}`), SLOW);
    await router.navigate('/admin/preliminary/preliminarySearch');
    // The list is back (not the audit page's last render) before its 开始审核 is pressed.
    await screen.findByText('医保智能审核1号', {}, SLOW);
    // Every place the router goes: the queue page may move on from /audit/queue at once (the mocked
    // queue is empty), faster than a poll of the current path would see it.
    const visited: string[] = [];
    // The navigation's start counts too (a lazy page may still be loading under load).
    const unsubscribe = router.subscribe((state) => {
      visited.push(state.location.pathname);
      if (state.navigation.location) visited.push(state.navigation.location.pathname);
    });
    // Under load the list may re-render between finding the button and the click (a click on a
    // detached button does nothing): press the button on screen again, a bounded number of times.
    // Not inside waitFor: its callback runs on every DOM change, and a click changes the DOM.
    for (let i = 0; i < 40 && !visited.includes('/admin/preliminary/audit/queue'); i++) {
      const button = screen.queryByTestId('start-audit');
      if (button) fireEvent.click(button);
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(visited).toContain('/admin/preliminary/audit/queue');
    unsubscribe();
  });

  it('初赛项目管理: batch decision on the selected SUBMITTED rows, with each row\'s result', async () => {
    const get = mockGet(superAdmin(), { '/admin/prelim-doc/list': page([row(1), row(2), row(3, { status: 'REJECTED' })]) });
    const result: BatchResult = {
      succeeded: 1,
      failed: 1,
      results: [
        { id: ID(1), ok: true, status: 'APPROVED' },
        { id: ID(2), ok: false, reason: 'STALE', message: '已被他人处理' },
      ],
    };
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(result));
    renderRoute('/admin/preliminary/preliminarySearch');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(first).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('医保智能审核2号').closest('tr')!).getByRole('checkbox'));
    const bar = screen.getByTestId('kit-batch-bar');
    await waitFor(() => expect(bar.textContent).toContain('已选 2 项'));
    fireEvent.click(within(bar).getByTestId('batch-APPROVED'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('audit-count').textContent).toContain('2');
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/admin/prelim-doc/audit/batch',
        { items: [{ id: ID(1), version: 2 }, { id: ID(2), version: 3 }], outcome: 'APPROVED', reason: '' },
        { silent: true },
      ),
    );
    expect((await screen.findByTestId('batch-summary')).textContent).toBe('成功 1 条，失败 1 条');
    const rows = within(screen.getByTestId('batch-result')).getAllByRole('row').slice(1);
    // Rows without a name in the answer are named from the selection.
    expect(rows[0]!.textContent).toContain('医保智能审核2号');
    expect(rows[0]!.textContent).toContain('已被他人处理或已被更新');
    expect(rows[1]!.textContent).toContain('医保智能审核1号');
    await waitFor(() => expect(callsTo(get, '/admin/prelim-doc/list').length).toBeGreaterThan(1));
    await waitFor(() => expect(bar.textContent).toContain('已选 0 项'));
  });

  it('users without the buttons see no audit, batch, queue, export, remind, add or remove', async () => {
    const info = operator(['preliminary', 'final'], ['preliminary:view']);
    mockGet(info, {
      '/admin/prelim-doc/list': page([row(1)]),
      '/admin/prelim-doc/draft/list': page([row(2, { status: 'DRAFT', submittedAt: null })]),
      '/admin/final/list': page([finalRow(3)]),
      [`/admin/prelim-doc/${ID(1)}`]: detail(1),
      [`/admin/final/${ID(3)}`]: detail(3, { status: 'APPROVED', final: { status: 'IN', version: 13, reason: '初赛排名前列', at: '2025-07-01T02:00:00Z' } }),
    });
    const { router } = renderRoute('/admin/preliminary/preliminarySearch');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(within(first).getByRole('button', { name: '详情' })).toBeTruthy();
    expect(within(first).queryByTestId('row-audit')).toBeNull();
    expect(within(first).queryByRole('checkbox')).toBeNull();
    expect(screen.queryByTestId('kit-batch-bar')).toBeNull();
    expect(screen.queryByTestId('start-audit')).toBeNull();
    expect(screen.queryByTestId('kit-export')).toBeNull();
    // The cap comes with the rows, whatever menus the account holds.
    expect(within(first).getByTestId('application-chars').textContent).toBe('4000 / 5000');

    fireEvent.click(within(first).getByRole('button', { name: '详情' }));
    expect(await screen.findByTestId('prelim-detail', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('detail-audit')).toBeNull();

    void router.navigate('/admin/preliminary/preliminaryBox');
    const draft = (await screen.findByText('医保智能审核2号', {}, SLOW)).closest('tr')!;
    expect(within(draft).queryByTestId('row-remind')).toBeNull();
    expect(within(draft).queryByRole('checkbox')).toBeNull();
    expect(screen.queryByTestId('remind-all')).toBeNull();

    void router.navigate('/admin/preliminary/preliminaryAdminSearch');
    const finalist = (await screen.findByText('医保智能审核3号', {}, SLOW)).closest('tr')!;
    expect(within(finalist).queryByTestId('row-remove')).toBeNull();
    expect(screen.queryByTestId('final-add')).toBeNull();
    expect(screen.queryByTestId('kit-export')).toBeNull();
    fireEvent.click(within(finalist).getByRole('button', { name: '详情' }));
    expect(await screen.findByTestId('final-detail', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('detail-remove')).toBeNull();
  });

  it('形式审查: a warning says where the application names its team (text, document property); the decision stays open', async () => {
    const blindWarnings = [
      { where: 'text', name: 'orgName' as const, value: '北京智审科技有限公司' },
      { where: 'Author', name: 'teamName' as const, value: '智审先锋队' },
    ];
    mockGet(superAdmin(), { [`/admin/prelim-doc/${ID(1)}`]: detail(1, { blindWarnings }) });
    renderRoute(`/admin/preliminary/audit/${ID(1)}`);
    const warning = await screen.findByTestId('audit-blind-warning', {}, SLOW);
    expect(warning.getAttribute('role')).toBe('alert');
    expect(warning.textContent).toContain('盲评提示');
    expect(warning.textContent).toContain('正文中出现“北京智审科技有限公司”');
    expect(warning.textContent).toContain('文档属性 Author 中出现“智审先锋队”');
    expect(within(screen.getByTestId('prelim-audit-page')).getByTestId('audit-panel')).toBeTruthy();
  });

  it('形式审查: the application in the viewer, characters against the cap; a decision sends the version and goes back to the list', async () => {
    const get = mockGet(superAdmin(), { [`/admin/prelim-doc/${ID(1)}`]: detail(1), '/admin/prelim-doc/list': page([]) });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(detail(1, { status: 'REVISING' }), '审核完成'));
    const { router } = renderRoute(`/admin/preliminary/audit/${ID(1)}`);
    const view = await screen.findByTestId('prelim-audit-page', {}, SLOW);
    expect(within(view).getByText(/医保智能审核1号/)).toBeTruthy();
    // Nothing names the team: no blind-review warning.
    expect(within(view).queryByTestId('audit-blind-warning')).toBeNull();
    const chars = within(view).getByTestId('application-chars');
    expect(chars.textContent).toContain('5200 / 5000');
    expect(chars.textContent).toContain('超出上限 200 字');
    expect(chars.dataset.over).toBe('true');
    // The application PDF: the viewer page with a signed link, no token in the URL.
    const frame = await within(view).findByTestId('pdf-frame');
    expect(frame.dataset.url).toBe('/api/attachment/stream/a1?expires=1&acct=a&sig=s');
    expect(callsTo(get, '/attachment/accessUrl')[0]![1]).toEqual({ params: { filePath: '/api/attachment/stream/a1' } });
    // Presentation with a preview, the video in the browser's player.
    expect(within(view).getByText('演示材料.pdf')).toBeTruthy();
    fireEvent.click(within(view).getByTestId('video-play'));
    const video = (await within(view).findByTestId('prelim-video')) as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/api/attachment/stream/v1?expires=1&acct=a&sig=s&preview=1');
    expect(video.controls).toBe(true);

    const panel = within(view).getByTestId('audit-panel');
    fireEvent.click(within(panel).getByRole('radio', { name: '退回修改' }));
    fireEvent.click(within(panel).getByRole('button', { name: '提交审核' }));
    expect(await within(panel).findByText('请填写审核意见')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(await within(panel).findByText('材料不完整'));
    fireEvent.click(within(panel).getByRole('button', { name: '提交审核' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`/admin/prelim-doc/${ID(1)}/audit`, { outcome: 'REVISING', reason: '材料不完整', version: 2 }, { silent: true }),
    );
    expect(await screen.findByText('审查完成')).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/preliminary/preliminarySearch'));
  });

  it('形式审查: a STALE answer shows the message and reloads the materials', async () => {
    let current = detail(1);
    const get = mockGet(superAdmin(), { [`/admin/prelim-doc/${ID(1)}`]: () => current, '/admin/prelim-doc/list': page([]) });
    vi.spyOn(api, 'post').mockImplementation(async () => {
      current = detail(1, { status: 'APPROVED', version: 5 });
      throw refused('已被他人处理', { reason: 'STALE' });
    });
    const { router } = renderRoute(`/admin/preliminary/audit/${ID(1)}`);
    const view = await screen.findByTestId('prelim-audit-page', {}, SLOW);
    fireEvent.click(within(within(view).getByTestId('audit-panel')).getByRole('button', { name: '提交审核' }));
    expect(await screen.findByText('已被他人处理')).toBeTruthy();
    await waitFor(() => expect(callsTo(get, `/admin/prelim-doc/${ID(1)}`).length).toBe(2));
    expect((await within(view).findByTestId('audit-not-submitted')).textContent).toContain('形式审查通过');
    expect(within(view).queryByTestId('audit-panel')).toBeNull();
    expect(router.state.location.pathname).toBe(`/admin/preliminary/audit/${ID(1)}`);
  });

  it('审查队列: advances after a decision and after a skip, and ends with the empty state', async () => {
    let decided = 0;
    const get = mockGet(superAdmin(), {
      '/admin/prelim-doc/queue/next': (params: Record<string, unknown> | undefined): QueueNext<PrelimAdminDetail> => {
        const exclude = (params?.exclude as string[]) ?? [];
        if (decided === 0) return { detail: detail(1), remaining: 3 };
        if (!exclude.includes(ID(2))) return { detail: detail(2, { applicationChars: 3000 }), remaining: 2 };
        if (decided === 1) return { detail: detail(3), remaining: 2 };
        return { detail: null, remaining: 1 };
      },
      '/admin/prelim-doc/list': page([]),
    });
    const post = vi.spyOn(api, 'post').mockImplementation(async () => {
      decided += 1;
      return ok(detail(1, { status: 'APPROVED' }));
    });
    const { router } = renderRoute('/admin/preliminary/audit/queue');
    const view = await screen.findByTestId('prelim-audit-page', {}, SLOW);
    await waitFor(() => expect(within(view).getByText(/医保智能审核1号/)).toBeTruthy());
    expect(within(view).getByTestId('queue-remaining').textContent).toBe('待审查 3 项');
    expect(callsTo(get, '/admin/prelim-doc/queue/next')[0]![1]).toEqual({ params: { exclude: [] } });

    const panel = within(view).getByTestId('audit-panel');
    fireEvent.click(within(panel).getByRole('radio', { name: '不通过' }));
    fireEvent.change(within(panel).getByRole('textbox'), { target: { value: '申报书超出字数上限' } });
    fireEvent.click(within(panel).getByRole('button', { name: '提交审核' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`/admin/prelim-doc/${ID(1)}/audit`, { outcome: 'REJECTED', reason: '申报书超出字数上限', version: 2 }, { silent: true }),
    );
    await waitFor(() => expect(within(view).getByText(/医保智能审核2号/)).toBeTruthy());
    expect(within(view).getByTestId('queue-remaining').textContent).toBe('待审查 2 项');
    expect(within(view).getByTestId('application-chars').textContent).toBe('3000 / 5000');
    expect((within(panel).getByRole('textbox') as HTMLTextAreaElement).value).toBe('');

    fireEvent.click(within(view).getByTestId('queue-skip'));
    await waitFor(() => expect(within(view).getByText(/医保智能审核3号/)).toBeTruthy());
    expect(callsTo(get, '/admin/prelim-doc/queue/next').at(-1)![1]).toEqual({ params: { exclude: [ID(2)] } });

    fireEvent.click(within(panel).getByRole('button', { name: '提交审核' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(post).toHaveBeenLastCalledWith(`/admin/prelim-doc/${ID(3)}/audit`, { outcome: 'APPROVED', reason: '', version: 4 }, { silent: true });
    const empty = await screen.findByTestId('queue-empty');
    expect(empty.textContent).toContain('没有待审查的初赛材料了');
    fireEvent.click(within(empty).getByRole('button', { name: /返回列表/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/preliminary/preliminarySearch'));
  });

  it('初赛详情: every field by name, characters against the cap, files, history and the final-round state', async () => {
    mockGet(superAdmin(), {
      [`/admin/prelim-doc/${ID(1)}`]: detail(1, {
        status: 'APPROVED',
        applicationChars: 4800,
        final: { status: 'IN', version: 11, reason: '初赛排名前列', at: '2025-07-01T02:00:00Z' },
        finalHistory: [
          { id: 'f1', fromStatus: null, toStatus: 'IN' as never, reason: '初赛排名前列', actorRealm: 'ADMIN', actorName: '运营一号', createdAt: '2025-07-01T02:00:00Z' },
        ],
      }),
    });
    renderRoute(`/admin/preliminary/detail/${ID(1)}`);
    const view = await screen.findByTestId('prelim-detail', {}, SLOW);
    const project = within(view).getByTestId('detail-section-project');
    await waitFor(() => expect(project.textContent).toContain('智能监管与基金安全'));
    expect(project.textContent).toContain('基于大模型的医保基金智能审核');
    expect(project.textContent).toContain('智能审核');
    expect(within(project).getByTestId('application-chars').textContent).toBe('4800 / 5000');
    expect(within(project).getByTestId('application-chars').dataset.over).toBe('false');
    const team = within(view).getByTestId('detail-section-team');
    expect(team.textContent).toContain('智慧医保1队');
    expect(team.textContent).toContain('第1人民医院');
    expect(team.textContent).toContain('demo1 / 13800000001');
    const files = within(view).getByTestId('detail-attachments');
    for (const name of ['申报书.pdf', '演示材料.pdf', '演示视频.mp4', '补充材料.zip']) expect(within(files).getByText(name)).toBeTruthy();
    expect(within(view).getByTestId('video-play')).toBeTruthy();
    expect(within(view).getAllByTestId('status-history-item')).toHaveLength(2);
    expect(within(view).getByTestId('final-status').textContent).toBe('在决赛名单中');
    expect(within(view).getByTestId('detail-section-final').textContent).toContain('初赛排名前列');
    expect(within(view).getByTestId('final-history-item').textContent).toContain('运营一号（运营人员）：加入决赛名单');
    // Not SUBMITTED: no formal check from here.
    expect(within(view).queryByTestId('detail-audit')).toBeNull();
  });

  it('决赛项目管理: removing needs a reason and sends the final entry\'s version', async () => {
    const get = mockGet(superAdmin(), { '/admin/final/list': page([finalRow(1)]) });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(detail(1), '已移出决赛名单'));
    renderRoute('/admin/preliminary/preliminaryAdminSearch');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(first.textContent).toContain('智能监管与基金安全'));
    expect(first.textContent).toContain('初赛排名前列');
    expect(first.textContent).toContain('2025-07-01');
    expect(screen.getByTestId('kit-export')).toBeTruthy();

    fireEvent.click(within(first).getByTestId('row-remove'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('将“医保智能审核1号”移出决赛名单');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('请填写原因')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '材料存在抄袭' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`/admin/final/${ID(1)}/remove`, { reason: '材料存在抄袭', version: 11 }, { silent: true }),
    );
    expect(await screen.findByText('已移出决赛名单')).toBeTruthy();
    await waitFor(() => expect(closing(dialog)).toBe(true));
    await waitFor(() => expect(callsTo(get, '/admin/final/list').length).toBeGreaterThan(1));
  });

  it('决赛项目管理: 添加项目 lists APPROVED materials not in the final, and needs a chosen project and a reason', async () => {
    const get = mockGet(superAdmin(), {
      '/admin/final/list': page([]),
      // The server filters (inFinal=false): it answers the candidates only.
      '/admin/prelim-doc/list': page([row(4, { status: 'APPROVED' })]),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(detail(4), '已加入决赛名单'));
    renderRoute('/admin/preliminary/preliminaryAdminSearch');
    fireEvent.click(await screen.findByTestId('final-add', {}, SLOW));
    const dialog = await screen.findByRole('dialog');
    const candidates = within(dialog).getByTestId('final-candidates');
    expect(await within(candidates).findByText('医保智能审核4号')).toBeTruthy();
    expect(callsTo(get, '/admin/prelim-doc/list')[0]![1]).toEqual({ params: { status: 'APPROVED', inFinal: false, page: 1, size: 10 } });
    const ok_ = within(dialog).getByRole('button', { name: '确认' }) as HTMLButtonElement;
    expect(ok_.disabled).toBe(true);

    fireEvent.click(within(candidates).getByTestId('candidate-choose'));
    expect(within(dialog).getByTestId('candidate-chosen').textContent).toContain('将“医保智能审核4号”加入决赛名单');
    await waitFor(() => expect(ok_.disabled).toBe(false));
    fireEvent.click(ok_);
    expect(await within(dialog).findByText('请填写原因')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    const reason = within(dialog).getAllByRole('textbox').at(-1)!;
    fireEvent.change(reason, { target: { value: '复核后补录' } });
    fireEvent.click(ok_);
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/final/${ID(4)}/add`, { reason: '复核后补录' }, { silent: true }));
    expect(await screen.findByText('已加入决赛名单')).toBeTruthy();
    await waitFor(() => expect(closing(dialog)).toBe(true));
  });

  it('决赛详情: how the project entered the final and its final-round history; removal with a reason', async () => {
    mockGet(superAdmin(), {
      [`/admin/final/${ID(1)}`]: detail(1, {
        status: 'APPROVED',
        final: { status: 'IN', version: 12, reason: '复核后补录', at: '2025-07-02T02:00:00Z' },
        finalHistory: [
          { id: 'f1', fromStatus: null, toStatus: 'IN' as never, reason: '初赛排名前列', actorRealm: 'ADMIN', actorName: '运营一号', createdAt: '2025-07-01T02:00:00Z' },
          { id: 'f2', fromStatus: 'IN' as never, toStatus: 'OUT' as never, reason: '材料存疑', actorRealm: 'ADMIN', actorName: '运营二号', createdAt: '2025-07-01T05:00:00Z' },
          { id: 'f3', fromStatus: 'OUT' as never, toStatus: 'IN' as never, reason: '复核后补录', actorRealm: 'ADMIN', actorName: '运营一号', createdAt: '2025-07-02T02:00:00Z' },
        ],
      }),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(detail(1), '已移出决赛名单'));
    renderRoute(`/admin/preliminary-admin/detail/${ID(1)}`);
    const view = await screen.findByTestId('final-detail', {}, SLOW);
    const final = within(view).getByTestId('detail-section-final');
    expect(final.textContent).toContain('在决赛名单中');
    expect(final.textContent).toContain('复核后补录');
    expect(final.textContent).toContain('2025-07-02');
    const items = within(view).getAllByTestId('final-history-item');
    expect(items).toHaveLength(3);
    expect(items[0]!.textContent).toContain('加入决赛名单');
    expect(items[1]!.textContent).toContain('运营二号（运营人员）：移出决赛名单');
    expect(items[1]!.textContent).toContain('原因：材料存疑');
    // The materials' fields are there too.
    expect(within(view).getByTestId('detail-section-project').textContent).toContain('基于大模型的医保基金智能审核');

    fireEvent.click(within(view).getByTestId('detail-remove'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    expect(await within(dialog).findByText('请填写原因')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '主动退出' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/final/${ID(1)}/remove`, { reason: '主动退出', version: 12 }, { silent: true }));
  });

  it('初赛草稿: the last reminder, remind the selected, one and all; reports the skipped ones; read-only detail', async () => {
    mockGet(superAdmin(), {
      '/admin/prelim-doc/draft/list': page([
        row(1, { status: 'DRAFT', submittedAt: null, lastRemindedOn: '2025-06-01' }),
        row(2, { status: 'DRAFT', submittedAt: null }),
      ]),
      [`/admin/prelim-doc/draft/${ID(1)}`]: detail(1, { status: 'DRAFT', submittedAt: null, lastRemindedOn: '2025-06-01' }),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok<RemindResult>({ reminded: 1, skipped: 1, sms: false }));
    const { router } = renderRoute('/admin/preliminary/preliminaryBox');
    const first = (await screen.findByText('医保智能审核1号', {}, SLOW)).closest('tr')!;
    expect(first.textContent).toContain('2025-06-01');
    await waitFor(() => expect(first.textContent).toContain('智能监管与基金安全'));
    expect(screen.getByText('医保智能审核2号').closest('tr')!.textContent).toContain('未提醒');
    fireEvent.click(within(first).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('医保智能审核2号').closest('tr')!).getByRole('checkbox'));
    // A batch asks first, naming how many; 取消 sends nothing.
    fireEvent.click(await screen.findByTestId('remind-selected'));
    await answerConfirm('确定向所选的 2 条记录发送提醒吗？', '取消');
    expect(post).not.toHaveBeenCalledWith('/admin/prelim-doc/draft/remind', expect.anything());
    fireEvent.click(screen.getByTestId('remind-selected'));
    await answerConfirm('确定向所选的 2 条记录发送提醒吗？', '确认');
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/prelim-doc/draft/remind', { ids: [ID(1), ID(2)] }));
    expect(await screen.findByText('已提醒 1 个团队，1 个今日已提醒过，已跳过')).toBeTruthy();

    fireEvent.click(within(first).getByTestId('row-remind'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith('/admin/prelim-doc/draft/remind', { ids: [ID(1)] }));

    fireEvent.click(screen.getByTestId('remind-all'));
    await answerConfirm(/确定向所有初赛草稿的团队发送提交提醒吗/, '确认');
    await waitFor(() => expect(post).toHaveBeenLastCalledWith('/admin/prelim-doc/draft/remind', { all: true }));

    void router.navigate(`/admin/preliminary/draft-detail/${ID(1)}`);
    const view = await screen.findByTestId('prelim-draft-detail', {}, SLOW);
    expect(within(view).getByTestId('contest-status').textContent).toBe('草稿');
    expect(within(view).getByTestId('detail-section-team').textContent).toContain('2025-06-01');
    expect(within(view).queryByTestId('detail-audit')).toBeNull();
    expect(within(view).getByRole('button', { name: /提醒/ })).toBeTruthy();
  });
});
