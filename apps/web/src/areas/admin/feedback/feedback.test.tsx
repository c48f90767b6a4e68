/** 用户反馈 (/admin/information/UserFeedback) with mocked answers (packages/shared/src/content/feedback.ts). */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { CONTENT_MSG, FEEDBACK_MSG, type AdminFeedbackItem, type Page } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import { formatDateTime } from '../../../components/admin-kit';
import { changeLocale } from '../../../i18n';
import type { StaffInfo } from '../../../lib/session';

// The preview dialog's PDF frame needs a real browser (e2e); images are enough here.
vi.mock('../../../components/preview/PdfFrame', () => ({ PdfFrame: () => null }));

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
const PATH = '/admin/information/UserFeedback';
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const LONG = '上传初赛材料时页面一直转圈，换了浏览器也一样，请帮忙看看是不是服务器的问题，谢谢！这是第二句，用来超过摘要长度。';

const item = (n: number, over: Partial<AdminFeedbackItem> = {}): AdminFeedbackItem => ({
  id: ID(n),
  type: 'BUG',
  typeName: '系统问题',
  content: LONG,
  contact: '13900000001',
  attachments: [{ uniqueNo: `U${n}`, name: '截图.png', size: 2048, filePath: `/api/attachment/stream/U${n}` }],
  status: 'OPEN',
  reply: null,
  repliedAt: null,
  createdAt: '2025-06-01T02:00:00.000Z',
  owner: { id: ID(100 + n), username: `demo${n}`, name: `参赛者${n}`, phone: '13800000001' },
  repliedBy: null,
  closedAt: null,
  ...over,
});

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

/** Names per language, as /dic/label answers them for `lang`. */
const LABELS: Record<string, Record<string, Record<string, string>>> = {
  'zh-cn': { FEEDBACK_TYPE: { BUG: '系统问题', CONSULT: '咨询' } },
  en: { FEEDBACK_TYPE: { BUG: 'System problem', CONSULT: 'Inquiry' } },
};

type Params = Record<string, unknown> | undefined;

function mockGet(info: StaffInfo, list: AdminFeedbackItem[], details: AdminFeedbackItem[][] = []) {
  localStorage.setItem('AdminToken', 'admin-token');
  // Each detail call takes the next answer of its id (the last one repeats).
  const served = new Map<string, number>();
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: Params }) => {
    const params = config?.params ?? {};
    const types = (params.types as string[] | undefined) ?? [];
    const lang = (params.lang as string | undefined) ?? 'zh-cn';
    if (url === '/admin/user/account') return ok(info);
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, LABELS[lang]?.[t] ?? {}])));
    if (url === '/dic/public') return ok(Object.fromEntries(types.map((t) => [t, Object.entries(LABELS[lang]?.[t] ?? {}).map(([code, name]) => ({ code, name }))])));
    if (url === '/admin/feedback') return ok(page(list));
    if (url.startsWith('/admin/feedback/')) {
      const id = url.split('/').pop()!;
      const answers = details.find((d) => d[0]!.id === id) ?? [list.find((f) => f.id === id)!];
      const n = served.get(id) ?? 0;
      served.set(id, n + 1);
      return ok(answers[Math.min(n, answers.length - 1)]);
    }
    // A blob answer (the preview), not an envelope.
    if (url.startsWith('/attachment/stream/')) return { blob: new Blob(['png'], { type: 'image/png' }), fileName: '截图.png' } as never;
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);

async function openDrawer(rowText: string) {
  const row = (await screen.findByText(rowText, {}, SLOW)).closest('tr')!;
  fireEvent.click(within(row).getByTestId('feedback-view'));
  return screen.findByTestId('feedback-detail', {}, SLOW);
}

describe('用户反馈', { timeout: 60_000 }, () => {
  beforeEach(() => {
    vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:test/1');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
  });
  afterEach(() => {
    vi.restoreAllMocks();
    changeLocale('zh-cn');
  });

  it('lists feedback with type names, an excerpt and the status; searches by keyword and status', async () => {
    const get = mockGet(superAdmin(), [item(1), item(2, { status: 'REPLIED', type: 'CONSULT', content: '短内容', reply: '好的', repliedAt: '2025-06-02T02:00:00.000Z' })]);
    renderRoute(PATH);
    const first = (await screen.findByText('参赛者1', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(first.textContent).toContain('系统问题'), SLOW);
    expect(first.textContent).not.toContain('BUG');
    expect(first.textContent).toContain(`${LONG.slice(0, 40)}…`);
    expect(first.textContent).not.toContain(LONG);
    expect(first.textContent).toContain('13900000001');
    expect(first.textContent).toContain('待回复');
    expect(first.textContent).toContain(formatDateTime('2025-06-01T02:00:00.000Z'));
    expect(within(first).getByTestId('feedback-view').textContent).toBe('回复');
    const second = screen.getByText('参赛者2').closest('tr')!;
    expect(second.textContent).toContain('咨询');
    expect(second.textContent).toContain('已回复');
    expect(second.textContent).toContain(formatDateTime('2025-06-02T02:00:00.000Z'));
    expect(within(second).getByTestId('feedback-view').textContent).toBe('查看');
    expect(get).toHaveBeenCalledWith('/dic/label', { params: { types: ['FEEDBACK_TYPE'], lang: 'zh-cn' } });

    const form = screen.getByTestId('kit-search-form');
    fireEvent.change(within(form).getByLabelText('关键字'), { target: { value: '转圈' } });
    fireEvent.mouseDown(within(form).getByLabelText('状态'));
    fireEvent.click(await screen.findByText('待回复', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(callsTo(get, '/admin/feedback').at(-1)![1]).toEqual({ params: { keyword: '转圈', status: 'OPEN', page: 1, size: 10 } }), SLOW);
  });

  it('the drawer shows the whole text and previews attachments; a reply is checked, sent against what was seen, and closes the drawer', async () => {
    const get = mockGet(superAdmin(), [item(1)]);
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(item(1, { status: 'REPLIED', reply: '已修复' }), CONTENT_MSG.replied));
    renderRoute(PATH);
    const drawer = await openDrawer('参赛者1');
    expect((await within(drawer).findByTestId('feedback-content', {}, SLOW)).textContent).toBe(LONG);
    expect(drawer.textContent).toContain('demo1');
    expect(drawer.textContent).toContain('13800000001');
    await waitFor(() => expect(drawer.textContent).toContain('系统问题'));
    expect(drawer.textContent).toContain('尚未回复');

    const attachment = within(drawer).getByTestId('attachment-row');
    expect(attachment.textContent).toContain('截图.png');
    fireEvent.click(within(attachment).getByRole('button', { name: /预览/ }));
    expect(await screen.findByTestId('preview-image', {}, SLOW)).toBeTruthy();
    expect(get).toHaveBeenCalledWith('/attachment/stream/U1', expect.objectContaining({ responseType: 'blob' }));

    fireEvent.click(within(drawer).getByTestId('feedback-reply-submit'));
    expect(await within(drawer).findByText(CONTENT_MSG.replyRequired)).toBeTruthy();
    fireEvent.change(within(drawer).getByLabelText('回复内容'), { target: { value: '字'.repeat(2001) } });
    expect(await within(drawer).findByText(CONTENT_MSG.replyTooLong)).toBeTruthy();
    fireEvent.click(within(drawer).getByTestId('feedback-reply-submit'));
    expect(post).not.toHaveBeenCalled();

    const listCalls = callsTo(get, '/admin/feedback').length;
    fireEvent.change(within(drawer).getByLabelText('回复内容'), { target: { value: '已修复，请重试' } });
    fireEvent.click(within(drawer).getByTestId('feedback-reply-submit'));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/feedback/${ID(1)}/reply`, { reply: '已修复，请重试', lastRepliedAt: null }, { silent: true }));
    expect(await screen.findByText(CONTENT_MSG.replied)).toBeTruthy();
    await waitFor(() => expect(screen.queryByTestId('feedback-detail')).toBeNull());
    await waitFor(() => expect(callsTo(get, '/admin/feedback').length).toBeGreaterThan(listCalls));
  });

  it("a colleague's reply in between: the drawer shows it, keeps the text, and the next reply is written against it", async () => {
    const theirs = item(1, { status: 'REPLIED', reply: '同事的回复', repliedAt: '2025-06-03T01:00:00.000Z', repliedBy: { id: ID(9), username: 'ops2', name: '运营二号' } });
    mockGet(superAdmin(), [item(1)], [[item(1), theirs]]);
    const post = vi
      .spyOn(api, 'post')
      .mockRejectedValueOnce(refused(FEEDBACK_MSG.feedbackReplyStale, { reason: 'STALE' }))
      .mockResolvedValueOnce(ok(theirs, CONTENT_MSG.replied));
    renderRoute(PATH);
    const drawer = await openDrawer('参赛者1');
    const box = (await within(drawer).findByLabelText('回复内容', {}, SLOW)) as HTMLTextAreaElement;
    fireEvent.change(box, { target: { value: '我的回复' } });
    fireEvent.click(within(drawer).getByTestId('feedback-reply-submit'));

    expect((await within(drawer).findByTestId('feedback-notice')).textContent).toContain('其他管理员刚刚回复了这条反馈');
    expect((await within(drawer).findByTestId('feedback-current-reply')).textContent).toContain('同事的回复');
    expect(within(drawer).getByTestId('feedback-current-reply').textContent).toContain('运营二号');
    expect((within(drawer).getByLabelText('回复内容') as HTMLTextAreaElement).value).toBe('我的回复');
    expect(drawer.textContent).toContain('再次回复会替换当前回复');

    fireEvent.click(within(drawer).getByTestId('feedback-reply-submit'));
    await waitFor(() => expect(post).toHaveBeenLastCalledWith(`/admin/feedback/${ID(1)}/reply`, { reply: '我的回复', lastRepliedAt: theirs.repliedAt }, { silent: true }));
  });

  it('closes after confirming; a closed feedback shows no reply box', async () => {
    const closed = item(1, { status: 'CLOSED', closedAt: '2025-06-04T02:00:00.000Z' });
    mockGet(superAdmin(), [item(1), item(2, { status: 'CLOSED', reply: '已处理', repliedAt: '2025-06-02T02:00:00.000Z', closedAt: '2025-06-04T02:00:00.000Z' })]);
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(closed, FEEDBACK_MSG.feedbackClosedOk));
    renderRoute(PATH);
    let drawer = await openDrawer('参赛者1');
    fireEvent.click(await within(drawer).findByTestId('feedback-close', {}, SLOW));
    const confirm = (await screen.findByText(/关闭后不能再回复/)).closest('[role="dialog"]') as HTMLElement;
    expect(confirm.textContent).toContain('关闭反馈');
    fireEvent.click(within(confirm).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/feedback/${ID(1)}/close`, undefined, { silent: true }));
    await waitFor(() => expect(screen.queryByTestId('feedback-detail')).toBeNull());

    drawer = await openDrawer('参赛者2');
    expect(await within(drawer).findByTestId('feedback-closed', {}, SLOW)).toBeTruthy();
    expect(within(drawer).getByTestId('feedback-current-reply').textContent).toContain('已处理');
    expect(drawer.textContent).toContain(formatDateTime('2025-06-04T02:00:00.000Z'));
    expect(within(drawer).queryByTestId('feedback-reply-submit')).toBeNull();
    expect(within(drawer).queryByTestId('feedback-close')).toBeNull();
  });

  it('a feedback closed meanwhile: the refusal is explained and the box goes away', async () => {
    const closed = item(1, { status: 'CLOSED', closedAt: '2025-06-04T02:00:00.000Z' });
    mockGet(superAdmin(), [item(1)], [[item(1), closed]]);
    vi.spyOn(api, 'post').mockRejectedValue(refused(FEEDBACK_MSG.feedbackClosed, { reason: 'CLOSED' }));
    renderRoute(PATH);
    const drawer = await openDrawer('参赛者1');
    fireEvent.change(await within(drawer).findByLabelText('回复内容', {}, SLOW), { target: { value: '回复' } });
    fireEvent.click(within(drawer).getByTestId('feedback-reply-submit'));
    expect((await within(drawer).findByTestId('feedback-notice')).textContent).toContain('刚刚被其他管理员关闭');
    expect(await within(drawer).findByTestId('feedback-closed')).toBeTruthy();
    expect(within(drawer).queryByTestId('feedback-reply-submit')).toBeNull();
  });

  it('without feedback:reply: reads only', async () => {
    mockGet(operator(['information']), [item(1)]);
    renderRoute(PATH);
    const row = (await screen.findByText('参赛者1', {}, SLOW)).closest('tr')!;
    expect(within(row).getByTestId('feedback-view').textContent).toBe('查看');
    const drawer = await openDrawer('参赛者1');
    expect(await within(drawer).findByTestId('feedback-content', {}, SLOW)).toBeTruthy();
    expect(within(drawer).queryByLabelText('回复内容')).toBeNull();
    expect(within(drawer).queryByTestId('feedback-close')).toBeNull();
  });

  it('in English: dictionary names and texts in English; switching language fetches the names again', async () => {
    const get = mockGet(superAdmin(), [item(1)]);
    renderRoute(PATH, { search: '?lang=en' });
    const row = (await screen.findByText('参赛者1', {}, SLOW)).closest('tr')!;
    await waitFor(() => expect(row.textContent).toContain('System problem'), SLOW);
    expect(row.textContent).toContain('Awaiting reply');
    expect(get).toHaveBeenCalledWith('/dic/label', { params: { types: ['FEEDBACK_TYPE'], lang: 'en' } });

    act(() => changeLocale('zh-cn'));
    await waitFor(() => expect(row.textContent).toContain('系统问题'), SLOW);
    expect(get).toHaveBeenCalledWith('/dic/label', { params: { types: ['FEEDBACK_TYPE'], lang: 'zh-cn' } });
  });
});
