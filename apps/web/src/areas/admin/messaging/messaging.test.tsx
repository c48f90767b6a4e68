/** 站内信管理 and 短信管理 with mocked answers (packages/shared/src/content/broadcast.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  BROADCAST_MSG as M,
  type BroadcastBatch,
  type BroadcastDetail,
  type BroadcastPreview,
  type BroadcastRecord,
  type MessageTemplateItem,
  type Page,
} from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { changeLocale } from '../../../i18n';
import type { StaffInfo } from '../../../lib/session';

const SLOW = { timeout: 20_000 };
const INMAIL = '/admin/information/InMailManage';
const NOTE = '/admin/information/NoteManage';
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const batch = (n: number, over: Partial<BroadcastBatch> = {}): BroadcastBatch => ({
  id: ID(n),
  channel: 'INSITE',
  title: `通知${n}`,
  body: `正文${n}`,
  templateId: null,
  segment: { kind: 'TEAM_STATUS', values: ['REVISING'] },
  segmentText: '报名状态：退回修改',
  total: 10,
  delivered: 10,
  read: 4,
  failed: null,
  pending: null,
  status: 'DONE',
  progress: { done: 10, total: 10 },
  sender: { id: ID(99), name: '运营一号' },
  createdAt: '2025-06-01T02:00:00.000Z',
  finishedAt: '2025-06-01T02:00:05.000Z',
  recalledAt: null,
  ...over,
});

const smsBatch = (n: number, over: Partial<BroadcastBatch> = {}) =>
  batch(n, { channel: 'SMS', title: '', body: `【大赛】短信${n}`, segment: { kind: 'TRACK', values: ['PAYMENT_REFORM'] }, read: null, failed: 1, pending: 0, delivered: 8, ...over });

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

const DICT: Record<string, Record<string, string>> = {
  TRACK: { SMART_SUPERVISION: '智能监管与基金安全', PAYMENT_REFORM: '支付方式改革' },
};

const preview = (over: Partial<BroadcastPreview> = {}): BroadcastPreview => ({
  channel: 'INSITE',
  total: 12,
  deliverable: 12,
  samples: [
    { accountId: ID(1), name: '张三', username: 'zhangsan', to: null, title: '补交提醒', body: '请补交材料', smsText: '' },
    { accountId: ID(2), name: '李四', username: 'lisi', to: null, title: '补交提醒', body: '请补交材料', smsText: '' },
  ],
  ...over,
});

const template = (over: Partial<MessageTemplateItem> = {}): MessageTemplateItem => ({
  key: ID(50),
  id: ID(50),
  code: null,
  eventName: null,
  audience: null,
  variables: ['name'],
  name: '材料提醒模板',
  channels: ['SMS'],
  subject: '',
  body: '',
  smsText: '{name}您好，请尽快提交材料。',
  smsTemplateId: 'GW-1',
  enabled: true,
  version: 1,
  customized: false,
  updatedAt: '2025-06-01T02:00:00.000Z',
  updatedBy: 'admin',
  ...over,
});

interface Answers {
  lists?: Array<Page<BroadcastBatch>>;
  detail?: BroadcastDetail;
  templates?: Page<MessageTemplateItem>;
}

function mockGet(info: StaffInfo, answers: Answers) {
  localStorage.setItem('AdminToken', 'admin-token');
  let listCall = 0;
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Record<string, unknown> }) => {
    const types = (config?.params?.types as string[] | undefined) ?? [];
    if (url === '/admin/user/account') return ok(info);
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, DICT[t] ?? {}])));
    if (url === '/dic/public') return ok(Object.fromEntries(types.map((t) => [t, Object.entries(DICT[t] ?? {}).map(([code, name]) => ({ code, name }))])));
    if (url === '/admin/broadcast') {
      const lists = answers.lists ?? [page([])];
      return ok(lists[Math.min(listCall++, lists.length - 1)]!);
    }
    if (url === '/admin/templates') return ok(answers.templates ?? page([]));
    if (url === '/admin/broadcast/accounts') return ok(page([{ id: ID(7), username: 'wangwu', name: '王五', phone: '139****0007', teamName: '甲队' }]));
    if (url.startsWith('/admin/broadcast/') && answers.detail) return ok(answers.detail);
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);

async function pick(container: HTMLElement, label: string, option: string) {
  fireEvent.mouseDown(within(container).getByLabelText(label));
  fireEvent.click(await screen.findByText(option, { selector: '.ant-select-item-option-content' }));
}

async function openCompose(button: string) {
  fireEvent.click(await screen.findByRole('button', { name: new RegExp(button) }, SLOW));
  return (await screen.findByTestId('compose-form', {}, SLOW)).closest('.ant-modal') as HTMLElement;
}

/** The confirmation box opened by 发送 / 撤回, found by its text. */
async function confirmBox(text: string | RegExp) {
  return (await screen.findByText(text, {}, SLOW)).closest('.ant-modal') as HTMLElement;
}

describe('站内信管理', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  it('lists sends with the segment in words, read counts and progress; polls while one runs', async () => {
    const running = batch(2, { status: 'RUNNING', delivered: 3, read: 0, progress: { done: 3, total: 10 } });
    const get = mockGet(superAdmin(), { lists: [page([batch(1), running]), page([batch(1), batch(2)])] });
    renderRoute(INMAIL);
    const first = (await screen.findByText('通知1', {}, SLOW)).closest('tr')!;
    expect(first.textContent).toContain('报名状态：退回修改');
    expect(within(first).getByTestId('batch-read').textContent).toBe('4（40%）');
    expect(first.textContent).toContain('已完成');
    expect(first.textContent).toContain('运营一号');
    const second = screen.getByText('通知2').closest('tr')!;
    expect(within(second).getByTestId('batch-status').textContent).toBe('发送中 3/10');
    expect(callsTo(get, '/admin/broadcast')[0]![1]).toEqual({ params: { page: 1, size: 10, channel: 'INSITE' } });
    // The running send is asked about again until it is done.
    await waitFor(() => expect(within(screen.getByText('通知2').closest('tr')!).getByTestId('batch-status').textContent).toBe('已完成'), { timeout: 10_000 });
    const calls = callsTo(get, '/admin/broadcast').length;
    await new Promise((r) => setTimeout(r, 3500));
    expect(callsTo(get, '/admin/broadcast').length).toBe(calls);
  });

  it('compose: segment, title and body; 预览 shows count and samples; 发送 after confirming sends what was previewed', async () => {
    const get = mockGet(superAdmin(), { lists: [page([])] });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/admin/broadcast/insite/preview') return ok(preview());
      if (url === '/admin/broadcast/insite/send') return ok({ batchId: ID(3), jobId: ID(4), total: 12 }, M.sent);
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute(INMAIL);
    const dialog = await openCompose('发送站内信');
    expect((within(dialog).getByTestId('compose-send') as HTMLButtonElement).disabled).toBe(true);

    // Incomplete: no values for a status segment, no title, no body.
    await pick(dialog, '发送对象', '按报名状态');
    fireEvent.click(within(dialog).getByTestId('compose-preview'));
    expect(await within(dialog).findByText(M.segmentValuesRequired)).toBeTruthy();
    expect(await within(dialog).findByText(M.titleRequired)).toBeTruthy();
    expect(await within(dialog).findByText(M.bodyRequired)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    await pick(dialog, '范围', '退回修改');
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: '补交提醒' } });
    fireEvent.change(within(dialog).getByLabelText('内容'), { target: { value: '请补交材料' } });
    fireEvent.click(within(dialog).getByTestId('compose-preview'));
    const draft = { segment: { kind: 'TEAM_STATUS', values: ['REVISING'] }, templateId: null, title: '补交提醒', body: '请补交材料' };
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/broadcast/insite/preview', draft, { silent: true }));
    const result = await within(dialog).findByTestId('compose-preview-result');
    expect(within(result).getByTestId('preview-total').textContent).toBe('符合条件的参赛者 12 人');
    expect(result.textContent).toContain('报名状态：退回修改');
    const samples = within(result).getAllByTestId('preview-sample');
    expect(samples).toHaveLength(2);
    expect(samples[0]!.textContent).toContain('张三');
    expect(samples[0]!.textContent).toContain('请补交材料');

    // A change after the preview asks for a new one.
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: '补交提醒！' } });
    expect(await within(dialog).findByTestId('compose-stale')).toBeTruthy();
    expect((within(dialog).getByTestId('compose-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: '补交提醒' } });
    await waitFor(() => expect((within(dialog).getByTestId('compose-send') as HTMLButtonElement).disabled).toBe(false));

    const listCalls = callsTo(get, '/admin/broadcast').length;
    fireEvent.click(within(dialog).getByTestId('compose-send'));
    const box = await confirmBox('确定向 12 位参赛者发送站内信「补交提醒」吗？');
    expect(callsTo(post, '/admin/broadcast/insite/send')).toHaveLength(0);
    fireEvent.click(within(box).getByRole('button', { name: '发送' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/broadcast/insite/send', draft, { silent: true }));
    expect(await screen.findByText(M.sent)).toBeTruthy();
    // The dialog closes (jsdom never ends antd's leave animation, so the node stays, leaving).
    await waitFor(() => expect(dialog.className).toContain('ant-zoom-leave'));
    await waitFor(() => expect(callsTo(get, '/admin/broadcast').length).toBeGreaterThan(listCalls));
  });

  it('picks chosen accounts by search; a refusal goes under the field it names', async () => {
    mockGet(superAdmin(), { lists: [page([])] });
    const post = vi.spyOn(api, 'post').mockRejectedValue(refused(M.variableUnknown, { field: 'body', variables: ['name'] }));
    renderRoute(INMAIL);
    const dialog = await openCompose('发送站内信');
    await pick(dialog, '发送对象', '指定用户');
    fireEvent.mouseDown(within(dialog).getByLabelText('范围'));
    fireEvent.click(await screen.findByText(/王五（wangwu）/, { selector: '.ant-select-item-option-content' }, SLOW));
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: 't' } });
    fireEvent.change(within(dialog).getByLabelText('内容'), { target: { value: '{name}您好' } });
    fireEvent.click(within(dialog).getByTestId('compose-preview'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/admin/broadcast/insite/preview', { segment: { kind: 'ACCOUNTS', values: [ID(7)] }, templateId: null, title: 't', body: '{name}您好' }, { silent: true }),
    );
    const error = await within(dialog).findByText(M.variableUnknown);
    expect(error.closest('.ant-form-item')!.textContent).toContain('内容');
    expect(within(dialog).queryByTestId('compose-preview-result')).toBeNull();
  });

  it('recalls a message after confirming; the detail drawer lists who read it', async () => {
    const detail: BroadcastDetail = {
      batch: batch(1),
      records: {
        list: [
          { accountId: ID(1), name: '张三', username: 'zhangsan', to: null, status: 'READ', providerAnswer: null, attempts: 0, sentAt: null, readAt: '2025-06-01T03:00:00.000Z' },
          { accountId: ID(2), name: '李四', username: 'lisi', to: null, status: 'UNREAD', providerAnswer: null, attempts: 0, sentAt: null, readAt: null },
        ] satisfies BroadcastRecord[],
        page: 1,
        size: 10,
        total: 2,
      },
    };
    const get = mockGet(superAdmin(), { lists: [page([batch(1)]), page([batch(1, { status: 'RECALLED', recalledAt: '2025-06-02T00:00:00.000Z' })])], detail });
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(batch(1, { status: 'RECALLED' }), M.recalled));
    renderRoute(INMAIL);
    const row = (await screen.findByText('通知1', {}, SLOW)).closest('tr')!;

    fireEvent.click(within(row).getByTestId('batch-open'));
    const drawer = await screen.findByTestId('records-table', {}, SLOW);
    expect(drawer.textContent).toContain('张三');
    expect(drawer.textContent).toContain('已读');
    expect(drawer.textContent).toContain('未读');
    expect(callsTo(get, `/admin/broadcast/${ID(1)}`)[0]![1]).toEqual({ params: { page: 1, size: 10 } });
    const drawerEl = drawer.closest('.ant-drawer') as HTMLElement;
    fireEvent.click(within(drawerEl).getByRole('button', { name: /close|关闭/i }));

    fireEvent.click(within(row).getByTestId('batch-recall'));
    const box = await confirmBox(/撤回后参赛者将不再看到「通知1」/);
    fireEvent.click(within(box).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/broadcast/${ID(1)}/recall`));
    // The toast says so (the row's status tag reads the same once the list is read again).
    await waitFor(() => expect(screen.getAllByText(M.recalled).some((el) => el.closest('.ant-message'))).toBe(true));
    await waitFor(() => expect(within(screen.getByText('通知1').closest('tr')!).queryByTestId('batch-recall')).toBeNull());
  });

  it('an operator without 发送站内信 sees the list but neither compose nor recall', async () => {
    mockGet(operator(['information']), { lists: [page([batch(1)])] });
    renderRoute(INMAIL);
    await screen.findByText('通知1', {}, SLOW);
    expect(screen.queryByTestId('compose-open')).toBeNull();
    expect(screen.queryByTestId('batch-recall')).toBeNull();
    expect(screen.getByTestId('batch-open')).toBeTruthy();
  });

  it('reads in English', async () => {
    localStorage.setItem('lang', 'en');
    mockGet(superAdmin(), { lists: [page([batch(1, { segment: { kind: 'PRELIM_STATUS', values: ['NOT_FILLED'] } })])] });
    renderRoute(`${INMAIL}?lang=en`, { search: '?lang=en' });
    const row = (await screen.findByText('通知1', {}, SLOW)).closest('tr')!;
    expect(row.textContent).toContain('Materials status: Not filled in');
    expect(row.textContent).toContain('Done');
    expect(screen.getByRole('button', { name: /Send in-site message/ })).toBeTruthy();
    localStorage.removeItem('lang');
  });
});

describe('短信管理', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  it('compose: counts characters and billed parts; a template fills the text; preview names phones; sends', async () => {
    mockGet(superAdmin(), { lists: [page([])], templates: page([template()]) });
    const smsPreview = preview({
      channel: 'SMS',
      total: 20,
      deliverable: 18,
      withPhone: 18,
      smsSegments: 1,
      samples: [{ accountId: ID(1), name: '张三', username: 'zhangsan', to: '139****0001', title: '', body: '', smsText: '张三您好，请尽快提交材料。' }],
    });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/admin/broadcast/sms/preview') return ok(smsPreview);
      if (url === '/admin/broadcast/sms/send') return ok({ batchId: ID(3), jobId: ID(4), total: 18 }, M.sent);
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute(NOTE);
    const dialog = await openCompose('发送短信');
    const text = within(dialog).getByLabelText('短信内容');
    fireEvent.change(text, { target: { value: '字'.repeat(71) } });
    expect(within(dialog).getByTestId('sms-counter').textContent).toBe('71 字，按 2 条计费');
    fireEvent.change(text, { target: { value: '字'.repeat(70) } });
    expect(within(dialog).getByTestId('sms-counter').textContent).toBe('70 字，按 1 条计费');

    await pick(dialog, '模板', '材料提醒模板');
    await waitFor(() => expect((within(dialog).getByLabelText('短信内容') as HTMLTextAreaElement).value).toBe('{name}您好，请尽快提交材料。'));
    await pick(dialog, '发送对象', '按参赛方向');
    await pick(dialog, '范围', '支付方式改革');
    fireEvent.click(within(dialog).getByTestId('compose-preview'));
    const draft = { segment: { kind: 'TRACK', values: ['PAYMENT_REFORM'] }, templateId: ID(50), smsText: '{name}您好，请尽快提交材料。' };
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/broadcast/sms/preview', draft, { silent: true }));
    const result = await within(dialog).findByTestId('compose-preview-result');
    expect(result.textContent).toContain('其中有手机号的 18 人将收到短信');
    expect(result.textContent).toContain('每条短信按 1 条计费');
    expect(result.textContent).toContain('139****0001');
    expect(result.textContent).toContain('张三您好，请尽快提交材料。');

    fireEvent.click(within(dialog).getByTestId('compose-send'));
    const box = await confirmBox('确定向 18 个手机号发送短信吗？短信发出后无法撤回。');
    fireEvent.click(within(box).getByRole('button', { name: '发送' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/broadcast/sms/send', draft, { silent: true }));
  });

  it('lists SMS sends (sent, failed, waiting) and opens the per-phone records with the gateway answers', async () => {
    const detail: BroadcastDetail = {
      batch: smsBatch(1),
      records: {
        list: [
          { accountId: ID(1), name: '张三', username: 'zhangsan', to: '139****0001', status: 'FAILED', providerAnswer: 'E_REFUSED: 号码无效', attempts: 5, sentAt: null, readAt: null },
          { accountId: ID(2), name: '李四', username: 'lisi', to: '139****0002', status: 'FAILED', providerAnswer: M.dailyCapReached, attempts: 0, sentAt: null, readAt: null },
          { accountId: ID(3), name: '王五', username: 'wangwu', to: '139****0003', status: 'SENT', providerAnswer: 'msg-123', attempts: 1, sentAt: '2025-06-01T02:01:00.000Z', readAt: null },
        ],
        page: 1,
        size: 10,
        total: 3,
      },
    };
    const get = mockGet(superAdmin(), { lists: [page([smsBatch(1)])], detail });
    renderRoute(NOTE);
    const row = (await screen.findByText('【大赛】短信1', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(row.textContent).toContain('参赛方向：支付方式改革'));
    expect(row.textContent).toContain('8');
    expect(within(row).queryByTestId('batch-recall')).toBeNull();
    expect(callsTo(get, '/admin/broadcast')[0]![1]).toEqual({ params: { page: 1, size: 10, channel: 'SMS' } });

    fireEvent.click(within(row).getByTestId('batch-open'));
    const table = await screen.findByTestId('records-table', {}, SLOW);
    expect(table.textContent).toContain('139****0001');
    expect(table.textContent).toContain('E_REFUSED: 号码无效');
    expect(table.textContent).toContain(M.dailyCapReached);
    expect(table.textContent).toContain('发送成功');

    await pick(screen.getByTestId('records-status').closest('.ant-drawer') as HTMLElement, '状态筛选', '发送失败');
    await waitFor(() => expect(callsTo(get, `/admin/broadcast/${ID(1)}`).at(-1)![1]).toEqual({ params: { page: 1, size: 10, status: 'FAILED' } }));
  });

  it('the 短信模板 tab lists the SMS templates', async () => {
    const get = mockGet(superAdmin(), {
      lists: [page([])],
      templates: page([template(), template({ key: 'TEAM_APPROVED', id: null, code: 'TEAM_APPROVED', eventName: '报名审核通过', name: '报名审核通过', smsText: '【智慧医保大赛】{teamName}审核结果：{status}。', smsTemplateId: null, enabled: false })]),
    });
    renderRoute(`${NOTE}?tab=templates`);
    const tab = await screen.findByTestId('sms-templates', {}, SLOW);
    await waitFor(() => expect(tab.textContent).toContain('材料提醒模板'));
    expect(tab.textContent).toContain('群发模板');
    expect(tab.textContent).toContain('事件通知');
    expect(tab.textContent).toContain('GW-1');
    expect(tab.textContent).toContain('停用');
    expect(callsTo(get, '/admin/templates').at(-1)![1]).toEqual({ params: { page: 1, size: 100, channel: 'SMS' } });
  });
});
