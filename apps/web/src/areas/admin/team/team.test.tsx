/** 报名管理 pages with mocked answers (docs/api-contest.md, "Console calls for contest operations"). */
import { answerConfirm } from '../../../test/confirm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { BatchResult, Page, RemindResult, TeamAdminDetail, TeamAdminRow } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { changeLocale } from '../../../i18n';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../../lib/session';

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const row = (n: number, over: Partial<TeamAdminRow> = {}): TeamAdminRow => ({
  id: ID(n),
  version: n + 1,
  status: 'SUBMITTED',
  teamName: `智慧医保${n}队`,
  orgName: `第${n}人民医院`,
  orgType: 'MEDICAL_INSTITUTION',
  region: 'P01',
  city: '北京',
  track: 'SMART_SUPERVISION',
  leaderName: '张三',
  leaderPhone: '13800000001',
  memberCount: 2,
  ownerUsername: `demo${n}`,
  auditReason: null,
  submittedAt: '2025-05-01T02:00:00Z',
  auditedAt: null,
  createdAt: '2025-04-01T02:00:00Z',
  updatedAt: '2025-05-01T02:00:00Z',
  lastRemindedOn: null,
  ...over,
});

const detail = (n: number, over: Partial<TeamAdminDetail> = {}): TeamAdminDetail => ({
  id: ID(n),
  version: n + 1,
  status: 'SUBMITTED',
  orgName: `第${n}人民医院`,
  orgType: 'ENTERPRISE',
  creditCode: '91110000100000000A',
  region: 'P01',
  city: '北京',
  track: 'SMART_SUPERVISION',
  teamName: `智慧医保${n}队`,
  leader: { name: '张三', phone: '13800000001', email: 'z@example.com', title: 'SENIOR' },
  members: [{ name: '李四', organization: '某医院', title: 'INTERMEDIATE', phone: '', email: '', role: 'DEVELOPER' }],
  advisor: null,
  certificate: { uniqueNo: 'c1', name: '营业执照.pdf', extension: 'pdf', size: 1024, filePath: '/api/attachment/stream/c1' },
  commitment: { uniqueNo: 'c2', name: '承诺书.pdf', extension: 'pdf', size: 2048, filePath: '/api/attachment/stream/c2' },
  recommendation: null,
  auditReason: null,
  submittedAt: '2025-05-01T02:00:00Z',
  auditedAt: null,
  createdAt: '2025-04-01T02:00:00Z',
  updatedAt: '2025-05-01T02:00:00Z',
  editable: false,
  history: [
    { id: 'h1', fromStatus: null, toStatus: 'DRAFT', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-04-01T02:00:00Z' },
    { id: 'h2', fromStatus: 'DRAFT', toStatus: 'SUBMITTED', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-05-01T02:00:00Z' },
  ],
  owner: { id: 'o1', username: 'demo1', phone: '13800000001' },
  lastRemindedOn: null,
  ...over,
});

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

const DICT = {
  ORG_TYPE: { MEDICAL_INSTITUTION: '医疗机构', ENTERPRISE: '企业' },
  TRACK: { SMART_SUPERVISION: '智能监管与基金安全' },
  REGION: { P01: '北京市' },
  PROFESSIONAL_TITLE: { SENIOR: '正高级', INTERMEDIATE: '中级' },
  MEMBER_ROLE: { DEVELOPER: '研发' },
  AUDIT_REASON: { INCOMPLETE: '材料不完整', NOT_ELIGIBLE: '不符合参赛条件' },
} as Record<string, Record<string, string>>;

type Answer = unknown | ((params: Record<string, unknown> | undefined) => unknown);

/** GET answers by path (a function gets the params); dictionaries and the account built in. */
function mockGet(info: StaffInfo, answers: Record<string, Answer>) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Record<string, unknown> }) => {
    const params = config?.params;
    if (url === '/admin/user/account') return ok(info);
    const types = (params?.types as string[] | undefined) ?? [];
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, DICT[t] ?? {}])));
    if (url === '/dic/public')
      return ok(Object.fromEntries(types.map((t) => [t, Object.entries(DICT[t] ?? {}).map(([code, name]) => ({ code, name }))])));
    if (url in answers) {
      const answer = answers[url];
      if (answer instanceof Error) throw answer;
      return ok(typeof answer === 'function' ? (answer as (p: unknown) => unknown)(params) : answer);
    }
    throw new Error(`unexpected GET ${url}`);
  });
}

/** The text of the focused element when it is a heading (focus moved to a record's title). */
const focusedHeading = () => {
  const active = document.activeElement as HTMLElement | null;
  return active && (/^H[1-6]$/.test(active.tagName) || active.getAttribute('role') === 'heading') ? active.textContent : null;
};

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);

const auditor = (buttons: string[]) => operator(['competition'], buttons);


describe('报名管理 pages', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('资格管理: lists sign-ups with dictionary names, not codes, and searches by the declared fields', async () => {
    const get = mockGet(superAdmin(), { '/admin/team/list': page([row(1), row(2, { status: 'APPROVED', auditedAt: '2025-05-02T02:00:00Z' })]) });
    const { router } = renderRoute('/admin/competition/qualification?orgType=MEDICAL_INSTITUTION');
    let first = (await screen.findByText('智慧医保1队', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(first.textContent).toContain('智能监管与基金安全'));
    // 单位类型 and 所在地区 are behind 列设置 at first (the list fits a 1440 px screen beside 操作).
    expect(screen.queryByRole('columnheader', { name: '单位类型' })).toBeNull();
    fireEvent.click(screen.getByTestId('kit-columns'));
    const picker = await screen.findByTestId('kit-column-picker');
    fireEvent.click(within(picker).getByLabelText('单位类型'));
    fireEvent.click(within(picker).getByLabelText('所在地区'));
    await waitFor(() => expect(screen.getByText('智慧医保1队').closest('tr')!.textContent).toContain('医疗机构'));
    first = screen.getByText('智慧医保1队').closest('tr')!;
    expect(first.textContent).toContain('北京市');
    expect(first.textContent).not.toContain('MEDICAL_INSTITUTION');
    expect(first.textContent).not.toContain('P01');
    expect(first.textContent).toContain('已提交');
    expect(first.textContent).toContain('张三13800000001');
    const second = screen.getByText('智慧医保2队').closest('tr')!;
    expect(second.textContent).toContain('审核通过');
    // 审核 only on SUBMITTED rows.
    expect(within(first).getByTestId('row-audit')).toBeTruthy();
    expect(within(second).queryByTestId('row-audit')).toBeNull();
    expect(callsTo(get, '/admin/team/list')[0]![1]).toEqual({ params: { orgType: 'MEDICAL_INSTITUTION', page: 1, size: 10 } });
    // The filter from the URL shows in the form.
    const form = screen.getByTestId('kit-search-form');
    await waitFor(() => expect(within(form).getByText('医疗机构')).toBeTruthy());
    expect(screen.getByRole('button', { name: /开始审核/ })).toBeTruthy();
    expect(screen.getByTestId('kit-export')).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('单位名称'), { target: { value: '人民医院' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() =>
      expect(callsTo(get, '/admin/team/list').at(-1)![1]).toEqual({
        params: { orgName: '人民医院', orgType: 'MEDICAL_INSTITUTION', page: 1, size: 10 },
      }),
    );
    expect(router.state.location.search).toContain('orgName=');

    fireEvent.click(screen.getByRole('button', { name: /开始审核/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/competition/qualification-audit'));
  });

  it('资格管理: batch decision on the selected rows, with each row\'s result in a dialog', async () => {
    const get = mockGet(superAdmin(), { '/admin/team/list': page([row(1), row(2), row(3, { status: 'APPROVED' })]) });
    const result: BatchResult = {
      succeeded: 1,
      failed: 1,
      results: [
        { id: ID(1), ok: true, status: 'REVISING', name: '智慧医保1队' },
        { id: ID(2), ok: false, reason: 'STALE', message: '已被他人处理', name: '智慧医保2队' },
      ],
    };
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(result));
    renderRoute('/admin/competition/qualification');
    const first = (await screen.findByText('智慧医保1队', {}, SLOW)).closest('tr')!;
    const bar = screen.getByTestId('kit-batch-bar');
    expect((within(bar).getByRole('button', { name: '批量退回修改' }) as HTMLButtonElement).disabled).toBe(true);
    // An approved row cannot be selected.
    expect((within(screen.getByText('智慧医保3队').closest('tr')!).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);
    fireEvent.click(within(first).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('智慧医保2队').closest('tr')!).getByRole('checkbox'));
    await waitFor(() => expect(bar.textContent).toContain('已选 2 项'));

    fireEvent.click(within(bar).getByRole('button', { name: '批量退回修改' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('audit-count').textContent).toContain('2');
    expect((within(dialog).getByRole('radio', { name: '退回修改' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    expect(await within(dialog).findByText('请填写审核意见')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(await within(dialog).findByText('材料不完整'));
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/admin/team/audit/batch',
        { items: [{ id: ID(1), version: 2 }, { id: ID(2), version: 3 }], outcome: 'REVISING', reason: '材料不完整' },
        { silent: true },
      ),
    );
    const summary = await screen.findByTestId('batch-summary');
    expect(summary.textContent).toBe('成功 1 条，失败 1 条');
    const resultDialog = screen.getByTestId('batch-result');
    const rows = within(resultDialog).getAllByRole('row').slice(1);
    expect(rows[0]!.textContent).toContain('智慧医保2队');
    expect(rows[0]!.textContent).toContain('已被他人处理或已被更新');
    expect(rows[1]!.textContent).toContain('智慧医保1队');
    expect(rows[1]!.textContent).toContain('成功');
    // The list is read again and the selection is gone.
    await waitFor(() => expect(callsTo(get, '/admin/team/list').length).toBeGreaterThan(1));
    await waitFor(() => expect(bar.textContent).toContain('已选 0 项'));
  });

  it('资格管理: a row audit needs a reason unless approving, and sends the row\'s version', async () => {
    mockGet(superAdmin(), { '/admin/team/list': page([row(1)]) });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(detail(1, { status: 'REJECTED' })));
    renderRoute('/admin/competition/qualification');
    const first = (await screen.findByText('智慧医保1队', {}, SLOW)).closest('tr')!;
    fireEvent.click(within(first).getByTestId('row-audit'));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('审核：智慧医保1队')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('radio', { name: '不通过' }));
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    expect(await within(dialog).findByText('请填写审核意见')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '不符合参赛条件' } });
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`/admin/team/${ID(1)}/audit`, { outcome: 'REJECTED', reason: '不符合参赛条件', version: 2 }, { silent: true }),
    );
    expect(await screen.findByText('审核完成')).toBeTruthy();
  });

  it('a user without qualification:audit sees no audit, batch or queue buttons, nor export without its code', async () => {
    mockGet(auditor(['qualification:view']), {
      '/admin/team/list': page([row(1)]),
      [`/admin/team/${ID(1)}`]: detail(1),
    });
    const { router } = renderRoute('/admin/competition/qualification');
    const first = (await screen.findByText('智慧医保1队', {}, SLOW)).closest('tr')!;
    expect(within(first).getByRole('button', { name: '详情' })).toBeTruthy();
    expect(within(first).queryByTestId('row-audit')).toBeNull();
    expect(screen.queryByRole('button', { name: /开始审核/ })).toBeNull();
    expect(screen.queryByRole('button', { name: /批量/ })).toBeNull();
    expect(within(first).queryByRole('checkbox')).toBeNull();
    expect(screen.queryByTestId('kit-export')).toBeNull();

    fireEvent.click(within(first).getByRole('button', { name: '详情' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/competition/qualification-detail/${ID(1)}`));
    expect(await screen.findByTestId('qualification-detail', {}, SLOW)).toBeTruthy();
    expect(screen.queryByTestId('detail-audit')).toBeNull();
  });

  it('资格详情: every field by name, files, history; an audit sends the version and refreshes the detail', async () => {
    let current = detail(1);
    const get = mockGet(superAdmin(), { [`/admin/team/${ID(1)}`]: () => current });
    const post = vi.spyOn(api, 'post').mockImplementation(async () => {
      current = detail(1, { status: 'APPROVED', version: 3, auditedAt: '2025-05-03T00:00:00Z' });
      return ok(current, '审核完成');
    });
    renderRoute(`/admin/competition/qualification-detail/${ID(1)}`);
    const view = await screen.findByTestId('qualification-detail', {}, SLOW);
    const org = within(view).getByTestId('detail-section-org');
    await waitFor(() => expect(org.textContent).toContain('企业'));
    expect(org.textContent).toContain('北京市 北京');
    expect(org.textContent).toContain('智能监管与基金安全');
    expect(org.textContent).toContain('91110000100000000A');
    expect(org.textContent).toContain('demo1 / 13800000001');
    expect(within(view).getByTestId('detail-section-leader').textContent).toContain('正高级');
    const members = within(view).getByTestId('detail-section-members');
    await waitFor(() => expect(members.textContent).toContain('研发'));
    expect(members.textContent).toContain('中级');
    expect(within(view).getByTestId('detail-section-advisor').textContent).toContain('无指导老师');
    const files = within(view).getByTestId('detail-attachments');
    expect(within(files).getByText('营业执照.pdf')).toBeTruthy();
    expect(within(files).getByText('承诺书.pdf')).toBeTruthy();
    expect(within(files).getAllByRole('button', { name: /预览/ })).toHaveLength(2);
    expect(within(view).getAllByTestId('status-history-item')).toHaveLength(2);

    fireEvent.click(within(view).getByTestId('detail-audit'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`/admin/team/${ID(1)}/audit`, { outcome: 'APPROVED', reason: '', version: 2 }, { silent: true }),
    );
    await waitFor(() => expect(callsTo(get, `/admin/team/${ID(1)}`).length).toBe(2));
    await waitFor(() => expect(within(view).getByTestId('contest-status').textContent).toBe('审核通过'));
    expect(screen.queryByTestId('detail-audit')).toBeNull();
  });

  it('资格详情: contacts and the credit code come masked; the eye (pii:view) reads the record once and shows them in full', async () => {
    const masked = detail(1, {
      creditCode: '9111**********000A',
      leader: { name: '张三', phone: '138****0001', email: 'z***@example.com', title: 'SENIOR' },
      owner: { id: 'o1', username: 'demo1', phone: '138****0005' },
    });
    const reveal = { kind: 'team', id: ID(1), values: { creditCode: '91110000100000000A', 'leader.phone': '13800000001', 'leader.email': 'z@example.com', 'owner.phone': '13800000005' } };
    // Without pii:view: masked, no eye.
    const plain = mockGet(auditor(['qualification:view']), { [`/admin/team/${ID(1)}`]: masked });
    const first = renderRoute(`/admin/competition/qualification-detail/${ID(1)}`);
    let view = await screen.findByTestId('qualification-detail', {}, SLOW);
    expect(within(view).getByTestId('detail-section-org').textContent).toContain('9111**********000A');
    expect(within(view).getByTestId('detail-section-leader').textContent).toContain('138****0001');
    expect(within(view).queryByRole('button', { name: '查看完整信息' })).toBeNull();
    expect(callsTo(plain, `/admin/pii/team/${ID(1)}`)).toHaveLength(0);
    first.unmount();
    vi.restoreAllMocks();

    const get = mockGet(auditor(['qualification:view', 'pii:view']), { [`/admin/team/${ID(1)}`]: masked, [`/admin/pii/team/${ID(1)}`]: reveal });
    renderRoute(`/admin/competition/qualification-detail/${ID(1)}`);
    view = await screen.findByTestId('qualification-detail', {}, SLOW);
    const leader = within(view).getByTestId('detail-section-leader');
    const eyes = await within(view).findAllByRole('button', { name: '查看完整信息' });
    // Credit code, account phone, leader phone and e-mail.
    expect(eyes).toHaveLength(4);
    expect(callsTo(get, `/admin/pii/team/${ID(1)}`)).toHaveLength(0);
    fireEvent.click(within(leader).getAllByRole('button', { name: '查看完整信息' })[0]!);
    await waitFor(() => expect(leader.textContent).toContain('13800000001'));
    expect(leader.textContent).toContain('z@example.com');
    const org = within(view).getByTestId('detail-section-org');
    expect(org.textContent).toContain('91110000100000000A');
    expect(org.textContent).toContain('demo1 / 13800000005');
    expect(callsTo(get, `/admin/pii/team/${ID(1)}`)).toHaveLength(1);
    expect(within(view).queryByRole('button', { name: '查看完整信息' })).toBeNull();
  });

  it('资格详情: a STALE answer shows the message and reloads the detail', async () => {
    let current = detail(1);
    const get = mockGet(superAdmin(), { [`/admin/team/${ID(1)}`]: () => current });
    vi.spyOn(api, 'post').mockImplementation(async () => {
      current = detail(1, { status: 'REVISING', version: 5, auditReason: '另一位审核员的意见' });
      throw refused('已被他人处理', { reason: 'STALE' });
    });
    renderRoute(`/admin/competition/qualification-detail/${ID(1)}`);
    const view = await screen.findByTestId('qualification-detail', {}, SLOW);
    fireEvent.click(within(view).getByTestId('detail-audit'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    expect(await screen.findByText('已被他人处理')).toBeTruthy();
    await waitFor(() => expect(callsTo(get, `/admin/team/${ID(1)}`).length).toBe(2));
    await waitFor(() => expect(within(view).getByTestId('detail-section-org').textContent).toContain('另一位审核员的意见'));
    // The dialog closes (happy-dom never ends antd's leave animation, so it is seen leaving).
    await waitFor(() => expect(dialog.className).toContain('ant-zoom-leave'));
  });

  it('资格详情: on an English page the STALE answer reads in English (its reason key, not the server text)', async () => {
    changeLocale('en');
    try {
      mockGet(superAdmin(), { [`/admin/team/${ID(1)}`]: () => detail(1) });
      vi.spyOn(api, 'post').mockRejectedValue(refused('已被他人处理', { reason: 'STALE' }));
      renderRoute(`/admin/competition/qualification-detail/${ID(1)}`);
      const view = await screen.findByTestId('qualification-detail', {}, SLOW);
      fireEvent.click(within(view).getByTestId('detail-audit'));
      const dialog = await screen.findByRole('dialog');
      fireEvent.click(within(dialog).getByRole('button', { name: /Submit/ }));
      expect(await screen.findByText('This record was changed by someone else. Reload and try again.', {}, SLOW)).toBeTruthy();
      expect(screen.queryByText('已被他人处理')).toBeNull();
    } finally {
      changeLocale('zh-cn');
    }
  });

  it('审核队列: advances after a decision and after a skip, and ends with the empty state', async () => {
    let decided = 0;
    const get = mockGet(superAdmin(), {
      '/admin/team/queue/next': (params: Record<string, unknown> | undefined) => {
        const exclude = (params?.exclude as string[]) ?? [];
        if (decided === 0) return { detail: detail(1), remaining: 3 };
        if (!exclude.includes(ID(2))) return { detail: detail(2), remaining: 2 };
        if (decided === 1) return { detail: detail(3), remaining: 2 };
        return { detail: null, remaining: 1 };
      },
      '/admin/team/list': page([]),
    });
    const post = vi.spyOn(api, 'post').mockImplementation(async () => {
      decided += 1;
      return ok(detail(1, { status: 'APPROVED' }));
    });
    const { router } = renderRoute('/admin/competition/qualification-audit');
    const page1 = await screen.findByTestId('qualification-audit-page', {}, SLOW);
    await waitFor(() => expect(within(page1).getAllByText('智慧医保1队').length).toBeGreaterThan(0));
    expect(within(page1).getByTestId('queue-remaining').textContent).toContain('待审核 3 条');
    const panel = within(page1).getByTestId('audit-panel');

    // A decision: the next one at once.
    fireEvent.click(within(panel).getByRole('radio', { name: '退回修改' }));
    fireEvent.click(within(panel).getByRole('button', { name: '提交审核' }));
    expect(await within(panel).findByText('请填写审核意见')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.click(await within(panel).findByText('材料不完整'));
    fireEvent.click(within(panel).getByRole('button', { name: '提交审核' }));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(`/admin/team/${ID(1)}/audit`, { outcome: 'REVISING', reason: '材料不完整', version: 2 }, { silent: true }),
    );
    await waitFor(() => expect(within(page1).getAllByText('智慧医保2队').length).toBeGreaterThan(0));
    expect(within(page1).getByTestId('queue-remaining').textContent).toContain('待审核 2 条');
    // The form is empty again for the next one, and focus is on the next record's title (not lost).
    expect((within(panel).getByRole('textbox') as HTMLTextAreaElement).value).toBe('');
    await waitFor(() => expect(focusedHeading()).toContain('智慧医保2队'), { timeout: 15_000 });

    // Skip: the id goes into exclude and the next one shows.
    fireEvent.click(within(page1).getByTestId('queue-skip'));
    await waitFor(() => expect(within(page1).getAllByText('智慧医保3队').length).toBeGreaterThan(0));
    expect(callsTo(get, '/admin/team/queue/next').at(-1)![1]).toEqual({ params: { exclude: [ID(2)] } });
    expect(within(page1).getByTestId('queue-remaining').textContent).toContain('本次已跳过 1 条');
    await waitFor(() => expect(focusedHeading()).toContain('智慧医保3队'), { timeout: 15_000 });

    // Approve the last one: nothing left but the skipped one.
    fireEvent.click(within(panel).getByRole('button', { name: '提交审核' }));
    await waitFor(() => expect(post).toHaveBeenCalledTimes(2));
    expect(post).toHaveBeenLastCalledWith(`/admin/team/${ID(3)}/audit`, { outcome: 'APPROVED', reason: '', version: 4 }, { silent: true });
    const empty = await screen.findByTestId('queue-empty');
    expect(empty.textContent).toContain('当前没有待审核的报名');
    await waitFor(() => expect(focusedHeading()).toContain('当前没有待审核的报名'), { timeout: 15_000 });
    fireEvent.click(within(empty).getByRole('button', { name: /返回列表/ }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/competition/qualification'));
  });

  it('报名草稿: shows the last reminder, reminds the selected and all, and reports the skipped ones', async () => {
    mockGet(superAdmin(), {
      '/admin/team/draft/list': page([
        row(1, { status: 'DRAFT', submittedAt: null, lastRemindedOn: '2025-05-01' }),
        row(2, { status: 'DRAFT', submittedAt: null }),
      ]),
    });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok<RemindResult>({ reminded: 1, skipped: 1, sms: false }));
    renderRoute('/admin/competition/qualification-draft');
    const first = (await screen.findByText('智慧医保1队', {}, SLOW)).closest('tr')!;
    expect(first.textContent).toContain('2025-05-01');
    await waitFor(() => expect(first.textContent).toContain('医疗机构'));
    fireEvent.click(within(first).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('智慧医保2队').closest('tr')!).getByRole('checkbox'));
    // A batch asks first, naming how many; 取消 sends nothing.
    fireEvent.click(await screen.findByTestId('remind-selected'));
    await answerConfirm('确定向所选的 2 条记录发送提醒吗？', '取消');
    expect(post).not.toHaveBeenCalledWith('/admin/team/draft/remind', expect.anything());
    fireEvent.click(screen.getByTestId('remind-selected'));
    await answerConfirm('确定向所选的 2 条记录发送提醒吗？', '确认');
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/team/draft/remind', { ids: [ID(1), ID(2)] }));
    expect(await screen.findByText('已提醒 1 个团队，1 个今日已提醒过，已跳过')).toBeTruthy();

    fireEvent.click(within(first).getByTestId('row-remind'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith('/admin/team/draft/remind', { ids: [ID(1)] }));

    fireEvent.click(screen.getByTestId('remind-all'));
    await answerConfirm(/确定提醒所有未提交报名的团队吗/, '确认');
    await waitFor(() => expect(post).toHaveBeenLastCalledWith('/admin/team/draft/remind', { all: true }));
  });

  it('报名草稿: without qualification-draft:remind there is no remind button; the detail is read-only', async () => {
    mockGet(auditor([]), {
      '/admin/team/draft/list': page([row(1, { status: 'DRAFT', submittedAt: null })]),
      [`/admin/team/draft/${ID(1)}`]: detail(1, { status: 'DRAFT', submittedAt: null }),
    });
    const { router } = renderRoute('/admin/competition/qualification-draft');
    const first = (await screen.findByText('智慧医保1队', {}, SLOW)).closest('tr')!;
    expect(within(first).queryByTestId('row-remind')).toBeNull();
    expect(screen.queryByTestId('remind-all')).toBeNull();
    expect(screen.queryByTestId('remind-selected')).toBeNull();
    expect(within(first).queryByRole('checkbox')).toBeNull();
    fireEvent.click(within(first).getByRole('button', { name: '详情' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`/admin/competition/qualification-draft/${ID(1)}`));
    const view = await screen.findByTestId('qualification-draft-detail', {}, SLOW);
    expect(within(view).getByText('草稿')).toBeTruthy();
    expect(within(view).queryByRole('button', { name: /审核|提醒/ })).toBeNull();
  });
});
