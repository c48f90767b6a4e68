/** 站内信管理 and 短信管理 with mocked answers (packages/shared/src/content/broadcast.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import {
  BROADCAST_MSG as M,
  TEMPLATE_MSG as TM,
  unknownVariablesMessage,
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
  subjectEn: '',
  bodyEn: '',
  smsTextEn: '',
  smsTemplateId: 'GW-1',
  enabled: true,
  version: 1,
  customized: false,
  updatedAt: '2025-06-01T02:00:00.000Z',
  updatedBy: 'admin',
  ...over,
});

/** An event template (edited before: version 2). */
const eventTemplate = (over: Partial<MessageTemplateItem> = {}): MessageTemplateItem =>
  template({
    key: 'TEAM_REVISING',
    id: ID(60),
    code: 'TEAM_REVISING',
    eventName: '报名信息需修改',
    audience: 'PARTICIPANT',
    variables: ['teamName', 'status', 'reason'],
    name: '报名信息需修改',
    channels: ['INSITE', 'SMS'],
    subject: '报名信息需修改',
    body: '您的团队需修改。',
    smsText: '【大赛】请修改',
    subjectEn: 'Sign-up needs changes',
    bodyEn: 'Your team needs changes.',
    smsTextEn: '[Contest] Please make changes',
    smsTemplateId: null,
    version: 2,
    customized: true,
    ...over,
  });

interface Answers {
  lists?: Array<Page<BroadcastBatch>>;
  detail?: BroadcastDetail;
  templates?: Page<MessageTemplateItem>;
  /** GET /admin/templates/{key} (the editor's reload). */
  template?: MessageTemplateItem;
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
    if (url.startsWith('/admin/templates/') && answers.template) return ok(answers.template);
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

  it('compose: the finalists need no values; award winners are picked by published result', async () => {
    mockGet(superAdmin(), { lists: [page([])] });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/admin/broadcast/insite/preview') return ok(preview());
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute(INMAIL);
    const dialog = await openCompose('发送站内信');
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: '决赛安排' } });
    fireEvent.change(within(dialog).getByLabelText('内容'), { target: { value: '请准时参加现场答辩' } });
    await pick(dialog, '发送对象', '入围决赛');
    fireEvent.click(within(dialog).getByTestId('compose-preview'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith('/admin/broadcast/insite/preview', { segment: { kind: 'FINALIST', values: [] }, templateId: null, title: '决赛安排', body: '请准时参加现场答辩' }, { silent: true }),
    );
    await pick(dialog, '发送对象', '按评审结果');
    await pick(dialog, '范围', '决赛获奖');
    fireEvent.click(within(dialog).getByTestId('compose-preview'));
    await waitFor(() =>
      expect(post).toHaveBeenLastCalledWith('/admin/broadcast/insite/preview', { segment: { kind: 'RESULT', values: ['FINAL:AWARDED'] }, templateId: null, title: '决赛安排', body: '请准时参加现场答辩' }, { silent: true }),
    );
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

  it('filters the sends by 发送月份 (YYYY-MM) from a pasted link, and shows the month in the picker', async () => {
    const get = mockGet(superAdmin(), { lists: [page([smsBatch(1)])] });
    renderRoute(`${NOTE}?month=2025-06`);
    await screen.findByText('【大赛】短信1', {}, SLOW);
    expect(callsTo(get, '/admin/broadcast')[0]![1]).toEqual({ params: { page: 1, size: 10, month: '2025-06', channel: 'SMS' } });
    expect((screen.getByLabelText('发送月份') as HTMLInputElement).value).toBe('2025-06');
  });

  it('the 短信模板 tab lists the SMS templates', async () => {
    const get = mockGet(superAdmin(), {
      lists: [page([])],
      templates: page([template(), template({ key: 'TEAM_APPROVED', id: null, code: 'TEAM_APPROVED', eventName: '报名审核通过', name: '报名审核通过', smsText: '【智慧医保大赛】{teamName}审核结果：{status}。', smsTemplateId: null, enabled: false })]),
    });
    renderRoute(`${NOTE}?tab=templates`);
    const tab = await screen.findByTestId('templates-tab', {}, SLOW);
    await waitFor(() => expect(tab.textContent).toContain('材料提醒模板'));
    expect(tab.textContent).toContain('群发模板');
    expect(tab.textContent).toContain('事件通知');
    expect(tab.textContent).toContain('GW-1');
    expect(callsTo(get, '/admin/templates').at(-1)![1]).toEqual({ params: { page: 1, size: 10, channel: 'SMS' } });
    // The SMS page offers no channel filter: it is the SMS templates.
    expect(within(tab).queryByLabelText('发送渠道')).toBeNull();
    const switches = within(tab).getAllByTestId('template-enabled');
    expect(switches.map((s) => s.getAttribute('aria-checked'))).toEqual(['true', 'false']);
  });
});

/** The editor's field of `label` (antd ties the label to the control). */
const field = (editor: HTMLElement, label: string) => within(editor).getByLabelText(label) as HTMLInputElement | HTMLTextAreaElement;

/** Puts the cursor in a text field at `at` (a real focus, so the editor learns which field it is). */
function placeCursor(el: HTMLInputElement | HTMLTextAreaElement, at: number) {
  act(() => el.focus());
  el.setSelectionRange(at, at);
}

function clickChip(editor: HTMLElement, variable: string) {
  const chip = within(editor).getByTestId(`template-var-${variable}`);
  fireEvent.mouseDown(chip);
  fireEvent.click(chip);
}

async function openEditor(testId: 'template-edit' | 'template-view' = 'template-edit', row = 0) {
  const buttons = await screen.findAllByTestId(testId, {}, SLOW);
  fireEvent.click(buttons[row]!);
  return screen.findByTestId('template-editor', {}, SLOW);
}

describe('消息模板', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  it('editor: a variable chip goes in at the cursor; the preview fills sample values; SMS length and parts; saves with the version', async () => {
    const get = mockGet(superAdmin(), { templates: page([eventTemplate()]) });
    const put = vi.spyOn(api, 'put').mockImplementation(async (url: string, body: unknown) => {
      if (url === '/admin/templates/TEAM_REVISING') return ok({ ...eventTemplate(), ...(body as object), version: 3 }, TM.templateSaved);
      throw new Error(`unexpected PUT ${url}`);
    });
    renderRoute(`${NOTE}?tab=templates`);
    const editor = await openEditor();
    expect(editor.textContent).toContain('报名信息需修改（TEAM_REVISING）');

    // The chip lands where the cursor is, not at the end.
    const body = field(editor, '正文');
    placeCursor(body, 4);
    clickChip(editor, 'teamName');
    await waitFor(() => expect(body.value).toBe('您的团队{teamName}需修改。'));
    await waitFor(() => expect(within(editor).getByTestId('template-preview-INSITE').textContent).toContain('您的团队智慧医保创新队需修改。'));

    // A selection is replaced; SMS counts the text as sent (sample values filled in).
    const sms = field(editor, '短信内容');
    placeCursor(sms, 4);
    sms.setSelectionRange(4, 7);
    clickChip(editor, 'reason');
    await waitFor(() => expect(sms.value).toBe('【大赛】{reason}'));
    // The preview reads the text through antd's Form.useWatch, which delivers it a render later: waited for, not read at once.
    await waitFor(() => expect(within(editor).getByTestId('template-preview-SMS').textContent).toContain('【大赛】请补充单位推荐函'));
    await waitFor(() => expect(within(editor).getByTestId('template-sms-counter').textContent).toBe('示例内容 12 字，按 1 条计费'));
    fireEvent.change(sms, { target: { value: `${'字'.repeat(63)}{reason}` } });
    await waitFor(() => expect(within(editor).getByTestId('template-sms-counter').textContent).toBe('示例内容 71 字，按 2 条计费'));
    fireEvent.change(sms, { target: { value: '【大赛】{reason}' } });

    const lists = callsTo(get, '/admin/templates').length;
    fireEvent.click(within(editor).getByTestId('template-save'));
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith(
        '/admin/templates/TEAM_REVISING',
        {
          name: '报名信息需修改',
          channels: ['INSITE', 'SMS'],
          subject: '报名信息需修改',
          body: '您的团队{teamName}需修改。',
          smsText: '【大赛】{reason}',
          subjectEn: 'Sign-up needs changes',
          bodyEn: 'Your team needs changes.',
          smsTextEn: '[Contest] Please make changes',
          smsTemplateId: null,
          version: 2,
        },
        { silent: true },
      ),
    );
    expect(await screen.findByText(TM.templateSaved)).toBeTruthy();
    await waitFor(() => expect(callsTo(get, '/admin/templates').length).toBeGreaterThan(lists));
  });

  it('editor: an event template shows its English texts next to the Chinese, chips go into them, an unknown variable there is said, and they are saved (emptied too)', async () => {
    mockGet(superAdmin(), { templates: page([eventTemplate()]) });
    const put = vi.spyOn(api, 'put').mockImplementation(async (url: string, body: unknown) => {
      if (url === '/admin/templates/TEAM_REVISING') return ok({ ...eventTemplate(), ...(body as object), version: 3 }, TM.templateSaved);
      throw new Error(`unexpected PUT ${url}`);
    });
    renderRoute(`${NOTE}?tab=templates`);
    const editor = await openEditor();
    const english = within(editor).getByTestId('template-english');
    expect(english.textContent).toContain('英文版本');
    const subjectEn = field(editor, '英文标题');
    const bodyEn = field(editor, '英文正文');
    const smsEn = field(editor, '英文短信内容');
    expect([subjectEn.value, bodyEn.value, smsEn.value]).toEqual(['Sign-up needs changes', 'Your team needs changes.', '[Contest] Please make changes']);

    // A chip goes in at the cursor of an English field too.
    placeCursor(bodyEn, 9);
    clickChip(editor, 'teamName');
    await waitFor(() => expect(bodyEn.value).toBe('Your team{teamName} needs changes.'));
    fireEvent.change(subjectEn, { target: { value: 'About {score}' } });
    expect((await within(editor).findByTestId('template-unknown')).textContent).toContain('模板中有未知变量：{score}');
    fireEvent.change(subjectEn, { target: { value: 'Changes needed: {teamName}' } });
    fireEvent.change(smsEn, { target: { value: '' } });
    await waitFor(() => expect(within(editor).queryByTestId('template-unknown')).toBeNull());

    fireEvent.click(within(editor).getByTestId('template-save'));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]![1]).toMatchObject({ subjectEn: 'Changes needed: {teamName}', bodyEn: 'Your team{teamName} needs changes.', smsTextEn: '' });
    expect(await screen.findByText(TM.templateSaved)).toBeTruthy();
  });

  it('editor: on an English page the event is named in English (the template\'s own name stays as written)', async () => {
    mockGet(superAdmin(), { templates: page([eventTemplate()]) });
    renderRoute(`${NOTE}?tab=templates&lang=en`, { search: '?lang=en' });
    const editor = await openEditor();
    expect(within(editor).getByText('Sign-up needs changes (TEAM_REVISING)')).toBeTruthy();
    expect(within(editor).queryByText(/报名信息需修改（TEAM_REVISING）/)).toBeNull();
  });

  it('editor: a bulk template has no English texts', async () => {
    mockGet(superAdmin(), { templates: page([template()]) });
    renderRoute(`${NOTE}?tab=templates`);
    const editor = await openEditor();
    expect(within(editor).queryByTestId('template-english')).toBeNull();
  });

  it('editor: UNKNOWN_VARIABLE goes under its field; STALE offers a reload, after which the new version saves', async () => {
    const fresh = eventTemplate({ name: '报名需修改（他人已改）', version: 5 });
    const get = mockGet(superAdmin(), { templates: page([eventTemplate()]), template: fresh });
    const put = vi
      .spyOn(api, 'put')
      .mockRejectedValueOnce(
        refused(unknownVariablesMessage(['foo']), { reason: 'UNKNOWN_VARIABLE', field: 'smsText', variables: ['foo'], allowed: ['teamName', 'status', 'reason'] }),
      )
      .mockRejectedValueOnce(refused(TM.templateStale, { reason: 'STALE', version: 5 }))
      .mockResolvedValueOnce(ok(fresh, TM.templateSaved));
    renderRoute(`${NOTE}?tab=templates`);
    const editor = await openEditor();

    fireEvent.change(field(editor, '短信内容'), { target: { value: '请修改{foo}' } });
    // Said at once in the preview, and by the server under the field on saving.
    expect((await within(editor).findByTestId('template-unknown')).textContent).toContain('模板中有未知变量：{foo}');
    fireEvent.click(within(editor).getByTestId('template-save'));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    await waitFor(() => {
      const item = within(editor).getAllByText('模板中有未知变量：{foo}').find((el) => el.closest('.ant-form-item'));
      expect(item!.closest('.ant-form-item')!.textContent).toContain('短信内容');
    });

    fireEvent.change(field(editor, '短信内容'), { target: { value: '请修改{reason}' } });
    fireEvent.click(within(editor).getByTestId('template-save'));
    const stale = await within(editor).findByTestId('template-stale');
    expect(stale.textContent).toContain(TM.templateStale);
    expect((within(editor).getByTestId('template-save') as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(within(stale).getByTestId('template-reload'));
    await waitFor(() => expect(callsTo(get, '/admin/templates/TEAM_REVISING')).toHaveLength(1));
    // The form is mounted again on the current version (the old nodes go away).
    await waitFor(() => expect((screen.getByLabelText('模板名称') as HTMLInputElement).value).toBe('报名需修改（他人已改）'));
    const reloaded = screen.getByTestId('template-editor');
    expect(within(reloaded).queryByTestId('template-stale')).toBeNull();
    fireEvent.click(within(reloaded).getByTestId('template-save'));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(3));
    expect((put.mock.calls[2]![1] as { version: number; name: string })).toMatchObject({ version: 5, name: '报名需修改（他人已改）' });
    expect(await screen.findByText(TM.templateSaved)).toBeTruthy();
  });

  it('list: enabled switch with the version, 恢复默认 of an edited event template, 删除 of a bulk one, 新建群发模板', async () => {
    mockGet(superAdmin(), { templates: page([eventTemplate(), eventTemplate({ key: 'TEAM_APPROVED', code: 'TEAM_APPROVED', name: '报名审核通过', customized: false, version: 0, id: null }), template()]) });
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(eventTemplate({ enabled: false, version: 3 }), TM.templateDisabled));
    const del = vi.spyOn(api, 'delete').mockImplementation(async (url: string) =>
      url.endsWith('TEAM_REVISING') ? ok({ key: 'TEAM_REVISING', reset: true }, TM.templateReset) : ok({ key: ID(50), reset: false }, TM.templateDeleted),
    );
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(template({ id: ID(51), key: ID(51) }), TM.templateCreated));
    renderRoute(`${INMAIL}?tab=templates`);
    const tab = await screen.findByTestId('templates-tab', {}, SLOW);
    const rows = await waitFor(() => {
      const found = within(tab).getAllByTestId('template-enabled').map((s) => s.closest('tr')!);
      expect(found).toHaveLength(3);
      return found;
    });
    // 恢复默认 only for the edited event template, 删除 only for the bulk one.
    expect(within(rows[0]!).getByTestId('template-reset')).toBeTruthy();
    expect(within(rows[1]!).queryByTestId('template-reset')).toBeNull();
    expect(within(rows[1]!).queryByTestId('template-delete')).toBeNull();
    expect(within(rows[2]!).getByTestId('template-delete')).toBeTruthy();
    expect(rows[0]!.textContent).toContain('已修改');

    fireEvent.click(within(rows[0]!).getByTestId('template-enabled'));
    await waitFor(() => expect(put).toHaveBeenCalledWith('/admin/templates/TEAM_REVISING/enabled', { enabled: false, version: 2 }, { silent: true }));
    expect(await screen.findByText(TM.templateDisabled)).toBeTruthy();

    fireEvent.click(within(rows[0]!).getByTestId('template-reset'));
    fireEvent.click(within(await confirmBox(/恢复后「报名信息需修改」将使用系统默认内容/)).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith('/admin/templates/TEAM_REVISING', { silent: true }));
    expect(await screen.findByText(TM.templateReset)).toBeTruthy();

    fireEvent.click(within(rows[2]!).getByTestId('template-delete'));
    fireEvent.click(within(await confirmBox(/确定删除模板「材料提醒模板」吗/)).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith(`/admin/templates/${ID(50)}`, { silent: true }));

    // A new bulk template offers the bulk send's variables; nothing is sent before it is complete.
    fireEvent.click(screen.getByTestId('template-create'));
    const editor = await screen.findByTestId('template-editor', {}, SLOW);
    expect(within(editor).getByTestId('template-var-orgName')).toBeTruthy();
    fireEvent.click(within(editor).getByTestId('template-save'));
    expect(await within(editor).findByText(TM.templateNameRequired)).toBeTruthy();
    expect(await within(editor).findByText(TM.templateChannelsRequired)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    fireEvent.change(field(editor, '模板名称'), { target: { value: '决赛通知' } });
    fireEvent.click(within(editor).getByLabelText('邮件'));
    fireEvent.change(await within(editor).findByLabelText('标题'), { target: { value: '{name}您好' } });
    placeCursor(field(editor, '正文'), 0);
    clickChip(editor, 'projectName');
    await waitFor(() => expect(field(editor, '正文').value).toBe('{projectName}'));
    expect(within(editor).getByTestId('template-preview-EMAIL').textContent).toContain('张三您好');
    fireEvent.click(within(editor).getByTestId('template-save'));
    await waitFor(() =>
      expect(post).toHaveBeenCalledWith(
        '/admin/templates',
        { name: '决赛通知', channels: ['EMAIL'], subject: '{name}您好', body: '{projectName}', smsText: '', smsTemplateId: null },
        { silent: true },
      ),
    );
    expect(await screen.findByText(TM.templateCreated)).toBeTruthy();
  });

  it('without 编辑短信模板: every channel, filters from the URL, read-only (no switch, no edit, no create)', async () => {
    const get = mockGet(operator(['information']), { templates: page([eventTemplate(), template()]) });
    renderRoute(`${INMAIL}?tab=templates&keyword=${encodeURIComponent('报名')}&channel=SMS`);
    const tab = await screen.findByTestId('templates-tab', {}, SLOW);
    await waitFor(() => expect(tab.textContent).toContain('报名信息需修改'));
    expect(callsTo(get, '/admin/templates').at(-1)![1]).toEqual({ params: { page: 1, size: 10, keyword: '报名', channel: 'SMS' } });
    expect((within(tab).getByLabelText('关键字') as HTMLInputElement).value).toBe('报名');
    expect(within(tab).queryByTestId('template-enabled')).toBeNull();
    expect(within(tab).queryByTestId('template-edit')).toBeNull();
    expect(within(tab).queryByTestId('template-reset')).toBeNull();
    expect(within(tab).queryByTestId('template-delete')).toBeNull();
    expect(screen.queryByTestId('template-create')).toBeNull();
    expect(tab.textContent).toContain('启用');

    const editor = await openEditor('template-view');
    expect(editor.textContent).toContain('您没有编辑消息模板的权限，仅可查看。');
    expect(field(editor, '正文').disabled).toBe(true);
    expect((within(editor).getByTestId('template-var-teamName') as HTMLButtonElement).disabled).toBe(true);
    expect(within(editor).queryByTestId('template-save')).toBeNull();
  });
});

describe('邮件', { timeout: 60_000 }, () => {
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  const emailBatch = (n: number, over: Partial<BroadcastBatch> = {}) =>
    batch(n, { channel: 'EMAIL', title: `邮件${n}`, body: '{name}您好，请查收。', segment: { kind: 'ALL', values: [] }, read: null, failed: 1, pending: 0, delivered: 8, ...over });

  it('lists email sends and their records (masked address, status, server answer); composes a title and a body, previews, sends', async () => {
    const detail: BroadcastDetail = {
      batch: emailBatch(1),
      records: {
        list: [
          { accountId: ID(1), name: '张三', username: 'zhangsan', to: 'z***@example.com', status: 'FAILED', providerAnswer: '550 mailbox unavailable', attempts: 5, sentAt: null, readAt: null },
          { accountId: ID(2), name: '李四', username: 'lisi', to: 'l***@example.com', status: 'SENT', providerAnswer: '250 OK id=abc', attempts: 1, sentAt: '2025-06-01T02:01:00.000Z', readAt: null },
        ],
        page: 1,
        size: 10,
        total: 2,
      },
    };
    const get = mockGet(superAdmin(), { lists: [page([emailBatch(1)])], detail, templates: page([]) });
    const emailPreview = preview({
      channel: 'EMAIL',
      total: 10,
      deliverable: 9,
      withEmail: 9,
      samples: [{ accountId: ID(1), name: '张三', username: 'zhangsan', to: 'z***@example.com', title: '决赛通知', body: '张三您好，请查收。', smsText: '' }],
    });
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/admin/broadcast/email/preview') return ok(emailPreview);
      if (url === '/admin/broadcast/email/send') return ok({ batchId: ID(3), jobId: ID(4), total: 9 }, M.sent);
      throw new Error(`unexpected POST ${url}`);
    });
    renderRoute(`${INMAIL}?tab=email`);
    const row = (await screen.findByText('邮件1', {}, SLOW)).closest('tr')!;
    expect(callsTo(get, '/admin/broadcast')[0]![1]).toEqual({ params: { page: 1, size: 10, channel: 'EMAIL' } });
    expect(row.textContent).toContain('全部参赛用户');
    expect(within(row).queryByTestId('batch-recall')).toBeNull();

    fireEvent.click(within(row).getByTestId('batch-open'));
    const table = await screen.findByTestId('records-table', {}, SLOW);
    expect(table.textContent).toContain('邮箱');
    expect(table.textContent).toContain('z***@example.com');
    expect(table.textContent).toContain('550 mailbox unavailable');
    expect(table.textContent).toContain('发送失败');
    expect(table.textContent).toContain('发送成功');
    expect(screen.getByTestId('batch-body').textContent).toBe('{name}您好，请查收。');
    fireEvent.click(within(table.closest('.ant-drawer') as HTMLElement).getByRole('button', { name: /close|关闭/i }));

    const dialog = await openCompose('发送邮件');
    expect(dialog.textContent).toContain('可使用变量');
    fireEvent.change(within(dialog).getByLabelText('标题'), { target: { value: '决赛通知' } });
    fireEvent.change(within(dialog).getByLabelText('内容'), { target: { value: '{name}您好，请查收。' } });
    fireEvent.click(within(dialog).getByTestId('compose-preview'));
    const draft = { segment: { kind: 'ALL', values: [] }, templateId: null, title: '决赛通知', body: '{name}您好，请查收。' };
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/broadcast/email/preview', draft, { silent: true }));
    const result = await within(dialog).findByTestId('compose-preview-result');
    expect(result.textContent).toContain('其中有邮箱的 9 人将收到邮件');
    expect(result.textContent).toContain('z***@example.com');
    expect(result.textContent).toContain('张三您好，请查收。');

    fireEvent.click(within(dialog).getByTestId('compose-send'));
    const box = await confirmBox('确定向 9 个邮箱发送邮件「决赛通知」吗？邮件发出后无法撤回。');
    fireEvent.click(within(box).getByRole('button', { name: '发送' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith('/admin/broadcast/email/send', draft, { silent: true }));
  });
});
