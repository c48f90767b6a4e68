import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DocumentItem, FeedbackItem, InboxMessage, Page, PrelimDocStatus, TeamStatus } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, participantInfo, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { changeLocale } from '../../../i18n';
import { canOpen } from '../ParticipantLayout';
import { PARTICIPANT_MENU } from '../routes';

type Responder = (url: string, config?: { params?: Record<string, unknown> }) => unknown;

/** An answer given as is, not wrapped in an envelope (a file). */
class Raw {
  constructor(readonly value: unknown) {}
}

/** Answers GET calls by path prefix, first match wins; anything else is refused. */
function mockGet(routes: Record<string, Responder>) {
  return vi.spyOn(api, 'get').mockImplementation((async (url: string, config?: { params?: Record<string, unknown> }) => {
    for (const [prefix, respond] of Object.entries(routes)) {
      if (url === prefix || url.startsWith(`${prefix}/`)) {
        const value = respond(url, config);
        if (value instanceof Error) throw value;
        if (value instanceof Raw) return value.value;
        return ok(value);
      }
    }
    throw refused(`unexpected GET ${url}`);
  }) as typeof api.get);
}

function page<T>(list: T[], total = list.length): Page<T> {
  return { list, page: 1, size: 10, total };
}

function message(id: string, read: boolean, over: Partial<InboxMessage> = {}): InboxMessage {
  return {
    id,
    title: `消息 ${id}`,
    body: `<p>正文 ${id}</p>`,
    en: null,
    event: null,
    kind: 'SYSTEM',
    read,
    readAt: read ? '2025-06-01T00:00:00.000Z' : null,
    createdAt: '2025-06-01T00:00:00.000Z',
    ...over,
  };
}

type Info = Omit<ReturnType<typeof participantInfo>, 'teamStatus' | 'prelimDocStatus'> & {
  teamStatus: TeamStatus | null;
  prelimDocStatus: PrelimDocStatus | null;
};

const info = (over: Partial<Info> = {}): Info => ({ ...participantInfo('demo1'), ...over });

// Whole-app renders: slow on a shared CI machine.
describe('participant centre', { timeout: 20_000 }, () => {
  beforeEach(() => localStorage.setItem('AccessToken', 'token-1'));
  afterEach(() => vi.restoreAllMocks());

  describe('layout', () => {
    it('carries the spec meta on the four menu routes', () => {
      expect(PARTICIPANT_MENU.map((m) => m.path)).toEqual(['/my-sign', '/material-submission', '/my-message', '/module']);
      for (const item of PARTICIPANT_MENU) {
        expect(item.meta.code).toBe('*');
        expect(item.meta.permissions).toEqual(['SUPER_ADMIN', 'SYSTEM', 'USER']);
        expect(item.meta.defaultMenu).toBe(item.name);
        expect(item.meta.breadcrumb.at(-1)).toBe(item.meta.title);
        expect(item.meta.icon).toBeTruthy();
      }
      const meta = PARTICIPANT_MENU[0]!.meta;
      expect(canOpen(meta, info())).toBe(true);
      expect(canOpen(meta, info({ account: { name: 'x', permissionCodeList: [], roleCode: 'EXPERT' } }))).toBe(false);
      expect(canOpen({ ...meta, code: 'sign:view' }, info({ account: { name: 'x', permissionCodeList: [], roleCode: 'USER' } }))).toBe(false);
      expect(canOpen({ ...meta, code: 'sign:view' }, info({ account: { name: 'x', permissionCodeList: ['sign:view'], roleCode: 'USER' } }))).toBe(true);
    });

    it('shows the navigation with the unread badge, the dot and the data-document menu name', async () => {
      mockGet({
        '/user/account': () => info({ hasUnReadMessage: true, dataDocMenuName: '赛题数据' }),
        '/messages/summary': () => ({ unreadCount: 3 }),
        '/documents': () => [],
      });
      renderRoute('/module');
      const nav = await screen.findByTestId('participant-nav');
      await waitFor(() => expect(nav.textContent).toContain('赛题数据'));
      for (const label of ['参赛报名', '初赛材料提交', '我的消息']) expect(nav.textContent).toContain(label);
      await waitFor(() => expect(within(nav).getByTestId('message-badge').textContent).toContain('3'));
      expect(nav.querySelector('.ant-badge-dot')).toBeTruthy();
      // The module page and its breadcrumb take the menu name too; a menu path has no back arrow.
      expect((await screen.findByTestId('module-title')).textContent).toBe('赛题数据');
      expect(screen.getByTestId('breadcrumb').textContent).toBe('赛题数据');
      expect(screen.queryByTestId('breadcrumb-back')).toBeNull();
      expect(nav.querySelector('.ant-menu-item-selected')?.textContent).toContain('赛题数据');
    });

    it('has neither badge nor dot without unread mail', async () => {
      mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/documents': () => [],
      });
      renderRoute('/module');
      const nav = await screen.findByTestId('participant-nav');
      await screen.findByTestId('module-title');
      await waitFor(() => expect(nav.textContent).toContain('数据文档'));
      expect(nav.querySelector('.ant-badge-count')).toBeNull();
      expect(nav.querySelector('.ant-badge-dot')).toBeNull();
    });
  });

  describe('/my-message', () => {
    it('opens a message, which marks it read: the badge drops', async () => {
      let unread = 2;
      const messages = [message('m1', false), message('m2', false), message('m3', true)];
      const get = mockGet({
        '/user/account': () => info({ hasUnReadMessage: unread > 0 }),
        '/messages/summary': () => ({ unreadCount: unread }),
        '/messages': (url) => {
          // Copies, as a server's answers are: the page must not see its list change under it.
          if (url === '/messages') return page(messages.map((m) => ({ ...m })));
          const found = messages.find((m) => url === `/messages/${m.id}`)!;
          if (!found.read) {
            found.read = true;
            unread -= 1;
          }
          return { ...found };
        },
      });
      renderRoute('/my-message');
      expect(await screen.findByRole('heading', { level: 1, name: '我的消息' })).toBeTruthy();
      const rows = await screen.findAllByTestId('message-row');
      expect(rows.map((r) => r.dataset.read)).toEqual(['false', 'false', 'true']);
      expect(get).toHaveBeenCalledWith('/messages', { params: { page: 1, size: 10, order: 'unread' } });
      const nav = screen.getByTestId('participant-nav');
      await waitFor(() => expect(within(nav).getByTestId('message-badge').textContent).toContain('2'));

      fireEvent.click(rows[0]!);
      expect((await screen.findByTestId('message-body')).innerHTML).toBe('<p>正文 m1</p>');
      expect(get).toHaveBeenCalledWith('/messages/m1');
      await waitFor(() => expect(within(nav).getByTestId('message-badge').textContent).toContain('1'));
      await waitFor(() => expect(screen.getAllByTestId('message-row')[0]!.dataset.read).toBe('true'));
    });

    it('switches to newest first and marks all read', async () => {
      let unread = 1;
      const get = mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: unread }),
        '/messages': () => page([message('m1', unread === 0)]),
      });
      const put = vi.spyOn(api, 'put').mockImplementation((async () => {
        unread = 0;
        return ok({ updated: 1 }, '已全部标记为已读');
      }) as typeof api.put);
      renderRoute('/my-message');
      await screen.findAllByTestId('message-row');
      fireEvent.click(screen.getByText('按时间'));
      await waitFor(() => expect(get).toHaveBeenCalledWith('/messages', { params: { page: 1, size: 10, order: 'time' } }));
      fireEvent.click(screen.getByRole('button', { name: /全部已读/ }));
      expect(await screen.findByText('已全部标记为已读')).toBeTruthy();
      expect(put).toHaveBeenCalledWith('/messages/read-all');
      await waitFor(() => expect(screen.getByTestId('message-row').dataset.read).toBe('true'));
    });

    it('in English acknowledges marking all read in English, not with the server\'s Chinese', async () => {
      let unread = 1;
      mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: unread }),
        '/messages': () => page([message('m1', unread === 0)]),
      });
      vi.spyOn(api, 'put').mockImplementation((async () => {
        unread = 0;
        return ok({ updated: 1 }, '已全部标记为已读');
      }) as typeof api.put);
      renderRoute('/my-message', { search: '?lang=en' });
      await screen.findAllByTestId('message-row');
      fireEvent.click(screen.getByRole('button', { name: /Mark all read/ }));
      expect(await screen.findByText('All marked as read')).toBeTruthy();
      expect(screen.queryByText('已全部标记为已读')).toBeNull();
    });

    it('in English renders known system notices by their kind, with Beijing times; others as sent', async () => {
      const notice = message('m1', false, {
        title: '报名信息需修改',
        body: '您的团队「A&amp;B 队」报名审核结果：退回修改。审核意见：请补充盖章页<br>谢谢',
        createdAt: '2025-05-01T00:00:00.000Z',
      });
      const edited = message('m2', true, { title: '报名审核通过', body: '组委会自拟的通知', createdAt: '2025-05-01T00:00:00.000Z' });
      const admin = message('m3', true, { title: '大赛通知', kind: 'ADMIN' });
      mockGet({
        '/user/account': () => info({ hasUnReadMessage: true }),
        '/messages/summary': () => ({ unreadCount: 1 }),
        '/messages': (url) => {
          if (url === '/messages') return page([notice, edited, admin]);
          return [notice, edited, admin].find((m) => url === `/messages/${m.id}`)!;
        },
      });
      renderRoute('/my-message', { search: '?lang=en' });
      const rows = await screen.findAllByTestId('message-row', {}, { timeout: 20_000 });
      expect(rows.map((r) => r.querySelector('.my-message__title')!.textContent)).toEqual(['Sign-up needs changes', 'Sign-up approved', '大赛通知']);
      expect(rows[0]!.textContent).toContain('2025-05-01 08:00:00 (Beijing time)');
      fireEvent.click(rows[0]!);
      expect((await screen.findByTestId('message-body')).textContent).toBe(
        "The sign-up of your team “A&B 队” was returned for changes. Reviewer's comments: 请补充盖章页\n谢谢",
      );
      // Edited in 模板管理: the body no longer matches the default, so it shows as sent.
      fireEvent.click(screen.getAllByTestId('message-row')[1]!);
      await waitFor(() => expect(screen.getAllByTestId('message-body').some((b) => b.textContent === '组委会自拟的通知')).toBe(true));
    });

    it("in English shows the server's English of event notices (results, edited templates)", async () => {
      const results = message('m1', false, {
        title: '初赛结果公示',
        body: '初赛结果已发布并进入公示期。您的项目「医保智审」：晋级决赛。',
        en: { title: 'Preliminary Round results published', body: 'Your project "医保智审": Promoted to the final.<br />Good luck.' },
      });
      // The template was edited: no default to recognise, but the server renders the edited English.
      const edited = message('m2', true, { title: '报名审核通过', body: '组委会自拟的通知', en: { title: 'Welcome aboard', body: 'A text of our own' } });
      const answers = {
        '/user/account': () => info({ hasUnReadMessage: true }),
        '/messages/summary': () => ({ unreadCount: 1 }),
        '/messages': (url: string) => {
          if (url === '/messages') return page([results, edited]);
          return [results, edited].find((m) => url === `/messages/${m.id}`)!;
        },
      };
      mockGet(answers);
      renderRoute('/my-message', { search: '?lang=en' });
      const rows = await screen.findAllByTestId('message-row', {}, { timeout: 20_000 });
      expect(rows.map((r) => r.querySelector('.my-message__title')!.textContent)).toEqual(['Preliminary Round results published', 'Welcome aboard']);
      fireEvent.click(rows[0]!);
      expect((await screen.findByTestId('message-body')).innerHTML).toBe('Your project "医保智审": Promoted to the final.<br>Good luck.');
      fireEvent.click(screen.getAllByTestId('message-row')[1]!);
      await waitFor(() => expect(screen.getAllByTestId('message-body').some((b) => b.textContent === 'A text of our own')).toBe(true));
    });

    it('in English the Chinese is recognised only for notices stored before events were kept; an event notice without English reads as sent', async () => {
      const text = { title: '报名审核通过', body: '您的团队「甲队」报名审核已通过，请在初赛材料提交时间内提交初赛材料。' };
      // Stored before this change: no event, recognised by its default Chinese.
      const older = message('m1', true, { ...text, createdAt: '2025-05-01T00:00:00.000Z' });
      // Stored with its event, the template's English emptied in 模板管理: its English readers get the Chinese.
      const emptied = message('m2', true, { ...text, event: 'TEAM_APPROVED', en: null });
      mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/messages': (url) => (url === '/messages' ? page([older, emptied]) : [older, emptied].find((m) => url === `/messages/${m.id}`)!),
      });
      renderRoute('/my-message', { search: '?lang=en' });
      const rows = await screen.findAllByTestId('message-row', {}, { timeout: 20_000 });
      expect(rows.map((r) => r.querySelector('.my-message__title')!.textContent)).toEqual(['Sign-up approved', '报名审核通过']);
      fireEvent.click(rows[1]!);
      expect((await screen.findByTestId('message-body')).textContent).toBe(text.body);
    });

    it('switching to English on the page saves the account language and reads the open inbox in English', async () => {
      const results = message('m1', false, {
        title: '初赛结果公示',
        body: '您的项目「医保智审」：晋级决赛。',
        event: 'RESULT_PUBLISHED',
        en: { title: 'Preliminary Round results published', body: 'Your project "医保智审": Promoted to the final.' },
      });
      const bulk = message('m2', true, { title: '系统维护通知', body: '今晚维护', kind: 'ADMIN' });
      mockGet({
        '/user/account': () => info({ hasUnReadMessage: true }),
        '/messages/summary': () => ({ unreadCount: 1 }),
        '/messages': (url) => (url === '/messages' ? page([results, bulk]) : results),
      });
      const put = vi.spyOn(api, 'put').mockImplementation((async () => ok({ locale: 'en' })) as typeof api.put);
      try {
        renderRoute('/my-message');
        const titles = () => screen.getAllByTestId('message-row').map((r) => r.querySelector('.my-message__title')!.textContent);
        await screen.findAllByTestId('message-row', {}, { timeout: 20_000 });
        expect(titles()).toEqual(['初赛结果公示', '系统维护通知']);
        fireEvent.click(within(screen.getAllByTestId('lang-switch')[0]!).getByRole('radio', { name: 'English' }));
        expect(put).toHaveBeenCalledWith('/user/locale', { locale: 'en' }, { silent: true });
        // Rendered by the server from the event; the bulk send (no event) stays as written.
        await waitFor(() => expect(titles()).toEqual(['Preliminary Round results published', '系统维护通知']), { timeout: 15_000 });
        fireEvent.click(screen.getAllByTestId('message-row')[0]!);
        expect((await screen.findByTestId('message-body')).textContent).toBe('Your project "医保智审": Promoted to the final.');
      } finally {
        changeLocale('zh-cn');
      }
    });

    it('in Chinese shows event notices as sent, whatever English they carry', async () => {
      const results = message('m1', false, { title: '初赛结果公示', body: '您的项目「医保智审」：晋级决赛。', en: { title: 'Preliminary Round results published', body: 'Promoted' } });
      mockGet({
        '/user/account': () => info({ hasUnReadMessage: true }),
        '/messages/summary': () => ({ unreadCount: 1 }),
        '/messages': (url) => (url === '/messages' ? page([results]) : results),
      });
      renderRoute('/my-message');
      const rows = await screen.findAllByTestId('message-row', {}, { timeout: 20_000 });
      expect(rows[0]!.querySelector('.my-message__title')!.textContent).toBe('初赛结果公示');
      fireEvent.click(rows[0]!);
      expect((await screen.findByTestId('message-body')).textContent).toBe('您的项目「医保智审」：晋级决赛。');
    });

    it('shows the empty inbox', async () => {
      mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/messages': () => page([]),
      });
      renderRoute('/my-message');
      expect(await screen.findByText('暂无相关信息')).toBeTruthy();
    });

    it('sends feedback and lists it with the reply', async () => {
      const mine: FeedbackItem[] = [
        {
          id: 'f1',
          type: 'BUG',
          typeName: '系统问题',
          content: '上传很慢',
          contact: null,
          attachments: [{ uniqueNo: 'u1', name: '截图.png', size: 10, filePath: '/api/attachment/stream/u1' }],
          status: 'REPLIED',
          reply: '已优化',
          repliedAt: '2025-06-02T00:00:00.000Z',
          createdAt: '2025-06-01T00:00:00.000Z',
        },
      ];
      const get = mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/messages': () => page([]),
        '/dic/module': () => ({ FEEDBACK_TYPE: [{ code: 'BUG', name: '系统问题' }, { code: 'ADVICE', name: '意见建议' }] }),
        '/dic/label': () => ({ FEEDBACK_TYPE: { BUG: '系统问题', ADVICE: '意见建议' } }),
        '/feedback/my': () => page(mine),
      });
      const post = vi.spyOn(api, 'post').mockImplementation((async (_url: string, body: unknown) => {
        const sent = body as { type: string; content: string; contact: string | null };
        mine.unshift({ ...mine[0]!, id: 'f2', type: sent.type, typeName: '意见建议', content: sent.content, attachments: [], status: 'OPEN', reply: null, repliedAt: null });
        return ok(mine[0], '反馈已提交');
      }) as typeof api.post);

      const { router } = renderRoute('/my-message');
      await screen.findByRole('heading', { level: 1, name: '我的消息' });
      fireEvent.click(screen.getByRole('tab', { name: '意见反馈' }));
      await waitFor(() => expect(router.state.location.search).toBe('?tab=feedback'));

      const row = await screen.findByTestId('feedback-row');
      expect(row.textContent).toContain('系统问题');
      expect(row.textContent).toContain('已回复');
      expect(within(row).getByTestId('feedback-reply').textContent).toContain('已优化');
      expect(row.textContent).toContain('截图.png');
      expect(get).toHaveBeenCalledWith('/dic/module', { params: { module: 'FEEDBACK', lang: 'zh-cn' } });

      // Required fields first.
      fireEvent.click(screen.getByRole('button', { name: '提交反馈' }));
      expect(await screen.findByText('请输入反馈内容')).toBeTruthy();
      expect(post).not.toHaveBeenCalled();

      fireEvent.mouseDown(screen.getByRole('combobox'));
      fireEvent.click(await screen.findByTitle('意见建议'));
      fireEvent.change(screen.getByPlaceholderText('请描述您遇到的问题或建议'), { target: { value: '希望增加夜间模式' } });
      fireEvent.change(screen.getByPlaceholderText('选填，便于我们联系您'), { target: { value: '13800000001' } });
      fireEvent.click(screen.getByRole('button', { name: '提交反馈' }));

      expect(await screen.findByText('反馈已提交')).toBeTruthy();
      expect(post).toHaveBeenCalledWith('/feedback', {
        type: 'ADVICE',
        content: '希望增加夜间模式',
        contact: '13800000001',
        attachments: [],
      });
      await waitFor(() => expect(screen.getAllByTestId('feedback-row')).toHaveLength(2));
      expect(screen.getAllByTestId('feedback-row')[0]!.textContent).toContain('待回复');
    });
    it('in English acknowledges sent feedback in English, not with the server\'s Chinese', async () => {
      mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/messages': () => page([]),
        '/dic/module': () => ({ FEEDBACK_TYPE: [{ code: 'ADVICE', name: 'Suggestion' }] }),
        '/dic/label': () => ({ FEEDBACK_TYPE: { ADVICE: 'Suggestion' } }),
        '/feedback/my': () => page([]),
      });
      const post = vi.spyOn(api, 'post').mockImplementation((async () => ok(null, '反馈已提交')) as typeof api.post);
      renderRoute('/my-message?tab=feedback&lang=en', { search: '?lang=en' });
      fireEvent.mouseDown(await screen.findByRole('combobox'));
      fireEvent.click(await screen.findByTitle('Suggestion'));
      fireEvent.change(screen.getByPlaceholderText('Describe the problem or your suggestion'), { target: { value: 'Night mode please' } });
      fireEvent.click(screen.getByRole('button', { name: 'Send feedback' }));
      expect(await screen.findByText('Feedback sent')).toBeTruthy();
      expect(post).toHaveBeenCalledTimes(1);
      expect(screen.queryByText('反馈已提交')).toBeNull();
    });

    it('names the feedback type in English on English pages, the Chinese name when it has no English one', async () => {
      const item = (id: string, type: string, typeName: string): FeedbackItem => ({
        id,
        type,
        typeName,
        content: `内容 ${id}`,
        contact: null,
        attachments: [],
        status: 'OPEN',
        reply: null,
        repliedAt: null,
        createdAt: '2025-06-01T00:00:00.000Z',
      });
      const get = mockGet({
        '/user/account': () => info(),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/messages': () => page([]),
        '/dic/module': () => ({ FEEDBACK_TYPE: [{ code: 'BUG', name: 'System problem' }] }),
        // In English the dictionary answers each item's English name (its Chinese one when it has none).
        '/dic/label': (_url, config) => (config?.params?.lang === 'en' ? { FEEDBACK_TYPE: { BUG: 'System problem', OTHER: '其他' } } : { FEEDBACK_TYPE: { BUG: '系统问题', OTHER: '其他' } }),
        '/feedback/my': () => page([item('f1', 'BUG', '系统问题'), item('f2', 'OTHER', '其他'), item('f3', 'GONE', '旧类型')]),
      });
      localStorage.setItem('lang', 'en');
      try {
        renderRoute('/my-message?tab=feedback&lang=en', { search: '?lang=en' });
        const rows = await screen.findAllByTestId('feedback-row');
        expect(rows).toHaveLength(3);
        await waitFor(() => expect(within(rows[0]!).getByTestId('feedback-type').textContent).toBe('System problem'));
        expect(within(rows[1]!).getByTestId('feedback-type').textContent).toBe('其他');
        // A code the dictionary does not know keeps the name the server stored.
        expect(within(rows[2]!).getByTestId('feedback-type').textContent).toBe('旧类型');
        expect(get).toHaveBeenCalledWith('/dic/label', { params: { types: ['FEEDBACK_TYPE'], lang: 'en' } });
        // The data page keeps the default name of the settings (数据文档) in the page's language.
        const nav = screen.getByTestId('participant-nav');
        expect(nav.textContent).toContain('Data documents');
        expect(nav.textContent).not.toContain('数据文档');
      } finally {
        localStorage.removeItem('lang');
        changeLocale('zh-cn');
      }
    });
  });

  describe('/module', () => {
    const doc: DocumentItem = {
      id: 'd1',
      code: null,
      title: '赛题数据说明',
      category: 'DATA',
      audience: 'APPROVED',
      file: { uniqueNo: 'u9', name: '数据说明.pdf', size: 1024 * 1024, filePath: '/api/attachment/stream/u9' },
      downloadPath: '/api/documents/d1/file',
      updatedAt: '2025-06-01T00:00:00.000Z',
    };

    it('lists the data documents of an approved team and downloads through the document', async () => {
      const get = mockGet({
        '/user/account': () => info({ teamStatus: 'APPROVED' }),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/documents': (url) =>
          url === '/documents' ? [doc] : new Raw({ blob: new Blob(['%PDF'], { type: 'application/pdf' }), fileName: '数据说明.pdf' }),
      });
      const createUrl = vi.fn(() => 'blob:x');
      vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() }));
      renderRoute('/module');
      const row = await screen.findByTestId('data-doc');
      expect(row.textContent).toContain('赛题数据说明');
      expect(row.textContent).toContain('1 MB');
      expect(get).toHaveBeenCalledWith('/documents', { params: { category: 'DATA', lang: 'zh-cn' } });
      expect(screen.queryByText(/报名审核通过后/)).toBeNull();
      expect(within(row).getByRole('button', { name: /预览/ })).toBeTruthy();

      fireEvent.click(within(row).getByRole('button', { name: /下载/ }));
      await waitFor(() =>
        expect(get).toHaveBeenCalledWith('/documents/d1/file', { responseType: 'blob', params: undefined, signal: undefined }),
      );
      await waitFor(() => expect(createUrl).toHaveBeenCalled());
      vi.unstubAllGlobals();
    });

    it('tells a team that is not approved why the list is empty', async () => {
      mockGet({
        '/user/account': () => info({ teamStatus: 'SUBMITTED' }),
        '/messages/summary': () => ({ unreadCount: 0 }),
        '/documents': () => [],
      });
      renderRoute('/module');
      expect(await screen.findByText('报名审核通过后，即可在此查看和下载数据文档。')).toBeTruthy();
      expect(screen.getByText('暂无相关信息')).toBeTruthy();
    });
  });
});
