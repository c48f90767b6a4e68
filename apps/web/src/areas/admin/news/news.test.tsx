/** 新闻资讯 list, edit and detail pages with mocked answers (docs/api-content.md, "News administration"). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { NEWS_MSG, type AdminNewsDetail, type AdminNewsRow, type Page } from '@contest/shared';
import { api } from '../../../lib/api';
import { ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../../lib/session';
import { resources } from '../../../i18n/resources';
import { toNewsBody, valuesOf } from './NewsEditPage';

// The editor itself is tested with real ProseMirror in RichTextEditor.test.tsx; here a text area
// stands in, so a test can type a body.
vi.mock('./RichTextEditor', () => ({
  RichTextEditor: ({ id, value, onChange, ariaLabel, disabled }: { id?: string; value?: string; onChange?: (v: string) => void; ariaLabel: string; disabled?: boolean }) => (
    <textarea id={id} aria-label={ariaLabel} value={value ?? ''} disabled={disabled} onChange={(e) => onChange?.(e.target.value)} data-testid="editor-stub" />
  ),
}));

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
const LIST = '/admin/user/siteContentManagement';
const EDIT = '/admin/user/siteContentManagement-edit';
const DETAIL = '/admin/user/siteContentManagement-detail';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const COVER = 'CoverCoverCoverCover01';

const row = (n: number, over: Partial<AdminNewsRow> = {}): AdminNewsRow => ({
  id: ID(n),
  category: 'CONTEST_DYNAMIC',
  title: `资讯${n}`,
  titleEn: null,
  status: 'DRAFT',
  scheduled: false,
  pinned: false,
  coverPath: null,
  source: null,
  publishAt: null,
  createdAt: '2025-06-01T02:00:00Z',
  updatedAt: '2025-06-02T02:00:00Z',
  authorName: '运营一号',
  ...over,
});

const detail = (n: number, over: Partial<AdminNewsDetail> = {}): AdminNewsDetail => ({
  ...row(n),
  summary: `摘要${n}`,
  summaryEn: null,
  body: `<p>正文${n}</p>`,
  bodyEn: null,
  cover: null,
  ...over,
});

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

function mockGet(info: StaffInfo, list: AdminNewsRow[] = [], details: AdminNewsDetail[] = []) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(info);
    if (url === '/admin/news') return ok(page(list));
    const found = details.find((d) => url === `/admin/news/${d.id}`);
    if (found) return ok(found);
    if (url.startsWith('/admin/news/')) throw refused(NEWS_MSG.newsMissing, null, 404);
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);
const editor = () => operator(['siteContentManage'], ['news:edit']);

async function confirmDialog(text: RegExp | string) {
  const dialogs = await screen.findAllByRole('dialog');
  const dialog = dialogs.find((d) => (typeof text === 'string' ? d.textContent?.includes(text) : text.test(d.textContent ?? '')))!;
  expect(dialog).toBeTruthy();
  fireEvent.click(within(dialog).getByRole('button', { name: '确认' }));
}

describe('新闻资讯 list', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists articles with category, status (scheduled too), pinned and times; searches by title', async () => {
    const get = mockGet(superAdmin(), [
      row(1, { pinned: true, status: 'PUBLISHED', publishAt: '2025-06-01T02:00:00Z' }),
      row(2, { status: 'PUBLISHED', scheduled: true, category: 'MEDICAL_INSURANCE', publishAt: '2099-01-01T00:00:00Z' }),
      row(3),
      row(4, { status: 'OFFLINE' }),
    ]);
    renderRoute(LIST);
    const first = (await screen.findByText('资讯1', {}, SLOW)).closest('tr')!;
    expect(first.textContent).toContain('置顶');
    expect(first.textContent).toContain('大赛动态');
    expect(within(first).getByTestId('news-status').textContent).toBe('已发布');
    expect(within(first).getByTestId('row-offline')).toBeTruthy();
    expect(within(first).getByTestId('row-pin').textContent).toBe('取消置顶');
    const second = screen.getByText('资讯2').closest('tr')!;
    expect(within(second).getByTestId('news-status').textContent).toBe('定时发布');
    expect(second.textContent).toContain('医保资讯');
    const third = screen.getByText('资讯3').closest('tr')!;
    expect(within(third).getByTestId('news-status').textContent).toBe('草稿');
    expect(within(third).getByTestId('row-publish')).toBeTruthy();
    expect(within(screen.getByText('资讯4').closest('tr')!).getByTestId('news-status').textContent).toBe('已下线');
    expect(within(first).getByTestId('row-preview').getAttribute('href')).toBe(`/dynamic-look?id=${ID(1)}`);
    expect(within(first).getByTestId('row-title').getAttribute('href')).toBe(`${DETAIL}/${ID(1)}`);
    expect(screen.getByTestId('news-create')).toBeTruthy();

    const form = screen.getByTestId('kit-search-form');
    fireEvent.change(within(form).getByLabelText('标题'), { target: { value: '启动' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(callsTo(get, '/admin/news').at(-1)![1]).toEqual({ params: { keyword: '启动', page: 1, size: 10 } }), SLOW);
  });

  it('shows only what the account may do: an editor edits, nobody else publishes or deletes', async () => {
    mockGet(editor(), [row(1, { status: 'PUBLISHED' })]);
    renderRoute(LIST);
    const first = (await screen.findByText('资讯1', {}, SLOW)).closest('tr')!;
    expect(within(first).getByTestId('row-edit')).toBeTruthy();
    expect(within(first).getByTestId('row-preview')).toBeTruthy();
    expect(within(first).queryByTestId('row-offline')).toBeNull();
    expect(within(first).queryByTestId('row-pin')).toBeNull();
    expect(within(first).queryByTestId('row-delete')).toBeNull();
    expect(screen.getByTestId('news-create')).toBeTruthy();
  });

  it('a reader without buttons sees the list and previews only', async () => {
    mockGet(operator(['siteContentManage']), [row(1)]);
    renderRoute(LIST);
    const first = (await screen.findByText('资讯1', {}, SLOW)).closest('tr')!;
    expect(within(first).queryByTestId('row-edit')).toBeNull();
    expect(within(first).queryByTestId('row-publish')).toBeNull();
    expect(within(first).queryByTestId('row-delete')).toBeNull();
    expect(within(first).getByTestId('row-preview')).toBeTruthy();
    expect(screen.queryByTestId('news-create')).toBeNull();
  });

  it('publish, offline and delete ask first; pin does not; each reloads the list', async () => {
    const get = mockGet(superAdmin(), [row(1), row(2, { status: 'PUBLISHED' })]);
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => ok(detail(1), url.endsWith('publish') ? NEWS_MSG.newsPublished : NEWS_MSG.newsOfflined));
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(detail(1, { pinned: true }), NEWS_MSG.newsPinned));
    const del = vi.spyOn(api, 'delete').mockResolvedValue(ok(null, NEWS_MSG.newsDeleted));
    renderRoute(LIST);
    const first = (await screen.findByText('资讯1', {}, SLOW)).closest('tr')!;
    const listCalls = () => callsTo(get, '/admin/news').length;

    fireEvent.click(within(first).getByTestId('row-publish'));
    expect(post).not.toHaveBeenCalled();
    await confirmDialog('确定发布资讯「资讯1」');
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/news/${ID(1)}/publish`, {}, undefined));
    await waitFor(() => expect(listCalls()).toBeGreaterThan(1));

    const second = screen.getByText('资讯2').closest('tr')!;
    fireEvent.click(within(second).getByTestId('row-offline'));
    await confirmDialog('下线后公众将无法查看');
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/news/${ID(2)}/offline`));

    fireEvent.click(within(first).getByTestId('row-pin'));
    await waitFor(() => expect(put).toHaveBeenCalledWith(`/admin/news/${ID(1)}/pinned`, { pinned: true }));

    fireEvent.click(within(first).getByTestId('row-delete'));
    expect(del).not.toHaveBeenCalled();
    await confirmDialog('删除后不可恢复');
    await waitFor(() => expect(del).toHaveBeenCalledWith(`/admin/news/${ID(1)}`));
  });
});

describe('新闻资讯 edit', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('a new article: checks the form first, then saves a draft and moves to its own address', async () => {
    mockGet(editor());
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(detail(7, { title: '新资讯' }), NEWS_MSG.newsCreated));
    const { router } = renderRoute(EDIT);
    const saveButton = await screen.findByTestId('news-save', {}, SLOW);
    expect(screen.getByRole('heading', { name: '新增资讯' })).toBeTruthy();
    // No publish button without news:publish.
    expect(screen.queryByTestId('news-publish')).toBeNull();
    fireEvent.click(saveButton);
    expect(await screen.findByText(NEWS_MSG.newsTitleRequired)).toBeTruthy();
    expect(screen.getByText(NEWS_MSG.newsCategoryRequired)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText('标题'), { target: { value: '  新资讯  ' } });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: '类别' }));
    fireEvent.click(await screen.findByText('医保资讯', { selector: '.ant-select-item-option-content' }));
    fireEvent.change(screen.getByRole('textbox', { name: '正文' }), { target: { value: '<p>正文</p>' } });
    fireEvent.change(screen.getByLabelText('来源'), { target: { value: '组委会' } });
    fireEvent.click(saveButton);
    await waitFor(() => expect(post).toHaveBeenCalledTimes(1));
    expect(post).toHaveBeenCalledWith(
      '/admin/news',
      {
        category: 'MEDICAL_INSURANCE',
        title: '新资讯',
        titleEn: null,
        summary: '',
        summaryEn: null,
        body: '<p>正文</p>',
        bodyEn: null,
        source: '组委会',
        cover: null,
        publishAt: null,
        pinned: false,
      },
      { silent: true },
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`${EDIT}/${ID(7)}`));
  });

  it('an existing article: loads it, saves with its version; a STALE refusal shows the reload banner', async () => {
    const article = detail(3, { titleEn: 'News 3', bodyEn: '<p>en</p>', cover: COVER, coverPath: `/api/attachment/stream/${COVER}`, publishAt: '2099-01-01T00:00:00.000Z', pinned: true });
    mockGet(superAdmin(), [], [article]);
    const put = vi
      .spyOn(api, 'put')
      .mockRejectedValueOnce(refused(NEWS_MSG.newsStale, { reason: 'STALE', updatedAt: '2025-06-03T00:00:00.000Z' }))
      .mockResolvedValueOnce(ok(detail(3, { title: '改后' }), NEWS_MSG.newsSaved));
    renderRoute(`${EDIT}/${ID(3)}`);
    const title = (await screen.findByLabelText('标题', {}, SLOW)) as HTMLInputElement;
    expect(title.value).toBe('资讯3');
    expect((screen.getByRole('textbox', { name: '正文' }) as HTMLTextAreaElement).value).toBe('<p>正文3</p>');
    expect(screen.getByTestId('news-cover').getAttribute('src')).toBe(`/api/attachment/stream/${COVER}?preview=1`);
    expect(screen.getByTestId('news-preview').getAttribute('href')).toBe(`/dynamic-look?id=${ID(3)}`);
    fireEvent.change(title, { target: { value: '改后' } });
    fireEvent.click(screen.getByTestId('news-save'));
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    expect(put.mock.calls[0]![0]).toBe(`/admin/news/${ID(3)}`);
    expect(put.mock.calls[0]![1]).toMatchObject({
      title: '改后',
      titleEn: 'News 3',
      bodyEn: '<p>en</p>',
      cover: COVER,
      publishAt: '2099-01-01T00:00:00.000Z',
      pinned: true,
      updatedAt: article.updatedAt,
    });
    expect(await screen.findByTestId('news-stale')).toBeTruthy();
    expect((screen.getByTestId('news-save') as HTMLButtonElement).disabled).toBe(true);
  });

  it("places the server's refusal under its field, on the English tab for English fields", async () => {
    mockGet(superAdmin(), [], [detail(4)]);
    vi.spyOn(api, 'put').mockRejectedValueOnce(refused(NEWS_MSG.newsTitleEnTooLong, { field: 'titleEn' }));
    renderRoute(`${EDIT}/${ID(4)}`);
    fireEvent.change(await screen.findByLabelText('标题', {}, SLOW), { target: { value: '资讯4改' } });
    fireEvent.click(screen.getByTestId('news-save'));
    expect(await screen.findByText(NEWS_MSG.newsTitleEnTooLong)).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('tab', { name: 'English' }).getAttribute('aria-selected')).toBe('true'));
  });

  it('publish: asks, saves the changes first, publishes and returns to the list', async () => {
    mockGet(superAdmin(), [], [detail(5)]);
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(detail(5, { title: '资讯5改', updatedAt: '2025-06-05T00:00:00.000Z' }), NEWS_MSG.newsSaved));
    const post = vi.spyOn(api, 'post').mockResolvedValue(ok(detail(5, { status: 'PUBLISHED' }), NEWS_MSG.newsPublished));
    const { router } = renderRoute(`${EDIT}/${ID(5)}`);
    fireEvent.change(await screen.findByLabelText('标题', {}, SLOW), { target: { value: '资讯5改' } });
    fireEvent.click(screen.getByTestId('news-publish'));
    await confirmDialog('确定发布资讯「资讯5改」');
    await waitFor(() => expect(put).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(post).toHaveBeenCalledWith(`/admin/news/${ID(5)}/publish`, {}, { silent: true }));
    expect(put.mock.invocationCallOrder[0]!).toBeLessThan(post.mock.invocationCallOrder[0]!);
    await waitFor(() => expect(router.state.location.pathname).toBe(LIST));
  });

  it('publish refused for an empty body: the message shows and the page stays', async () => {
    mockGet(superAdmin(), [], [detail(6, { body: '' })]);
    vi.spyOn(api, 'post').mockRejectedValue(refused(NEWS_MSG.newsBodyRequired, { field: 'body' }));
    const { router } = renderRoute(`${EDIT}/${ID(6)}`);
    fireEvent.click(await screen.findByTestId('news-publish', {}, SLOW));
    await confirmDialog('确定发布资讯');
    expect(await screen.findByText(NEWS_MSG.newsBodyRequired)).toBeTruthy();
    expect(router.state.location.pathname).toBe(`${EDIT}/${ID(6)}`);
  });

  it('asks before leaving with unsaved changes', async () => {
    mockGet(editor(), [], [detail(8)]);
    const { router } = renderRoute(`${EDIT}/${ID(8)}`);
    fireEvent.change(await screen.findByLabelText('标题', {}, SLOW), { target: { value: '没保存' } });
    fireEvent.click(screen.getByTestId('news-back'));
    const ask = (await screen.findAllByRole('dialog')).find((d) => d.textContent?.includes('有未保存的修改'))!;
    fireEvent.click(within(ask).getByRole('button', { name: '留下' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${EDIT}/${ID(8)}`));
    fireEvent.click(screen.getByTestId('news-back'));
    const again = (await screen.findAllByRole('dialog')).find((d) => d.textContent?.includes('有未保存的修改') && d.querySelector('button'))!;
    fireEvent.click(within(again).getByRole('button', { name: '离开' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(LIST));
  });

  it('an unknown article is a 404 page', async () => {
    mockGet(editor());
    renderRoute(`${EDIT}/${ID(99)}`);
    expect(await screen.findByText('资讯不存在', {}, SLOW)).toBeTruthy();
  });
});

describe('新闻资讯 detail', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('shows the article as the public page would, in Chinese and in English (falling back)', async () => {
    mockGet(superAdmin(), [], [detail(9, { status: 'PUBLISHED', scheduled: true, publishAt: '2099-01-01T00:00:00.000Z', titleEn: 'News nine', source: '组委会' })]);
    renderRoute(`${DETAIL}/${ID(9)}`);
    expect(await screen.findByRole('heading', { level: 1, name: '资讯9' }, SLOW)).toBeTruthy();
    expect(screen.getByTestId('news-status').textContent).toBe('定时发布');
    const zh = screen.getByTestId('article-body');
    expect(zh.innerHTML).toBe('<p>正文9</p>');
    expect(screen.getByText('来源：组委会')).toBeTruthy();
    expect(screen.getByTestId('news-offline')).toBeTruthy();
    expect(screen.getByTestId('news-preview').getAttribute('href')).toBe(`/dynamic-look?id=${ID(9)}`);
    fireEvent.click(screen.getByRole('tab', { name: 'English' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'News nine' })).toBeTruthy();
  });

  it('a reader sees no actions but preview', async () => {
    mockGet(operator(['siteContentManage']), [], [detail(10)]);
    renderRoute(`${DETAIL}/${ID(10)}`);
    await screen.findByRole('heading', { level: 1, name: '资讯10' }, SLOW);
    expect(screen.queryByTestId('news-edit')).toBeNull();
    expect(screen.queryByTestId('news-publish')).toBeNull();
    expect(screen.queryByTestId('news-delete')).toBeNull();
    expect(screen.getByTestId('news-preview')).toBeTruthy();
  });

  it('for an unknown id, or none, a 404 page', async () => {
    mockGet(superAdmin());
    const { unmount } = renderRoute(`${DETAIL}/${ID(98)}`);
    expect(await screen.findByText('资讯不存在', {}, SLOW)).toBeTruthy();
    unmount();
    renderRoute(DETAIL);
    expect(await screen.findByText('未指定资讯', {}, SLOW)).toBeTruthy();
  });
});

describe('form mapping and texts', () => {
  it('toNewsBody trims, drops blanks and sends the cover by uniqueNo', () => {
    const values = valuesOf(detail(1, { cover: COVER, coverPath: `/api/attachment/stream/${COVER}`, titleEn: '', summaryEn: null }));
    expect(toNewsBody({ ...values, title: ' 标题 ', source: '  ', titleEn: ' ' })).toEqual({
      category: 'CONTEST_DYNAMIC',
      title: '标题',
      titleEn: null,
      summary: '摘要1',
      summaryEn: null,
      body: '<p>正文1</p>',
      bodyEn: null,
      source: null,
      cover: COVER,
      publishAt: null,
      pinned: false,
    });
  });

  it('every shared news text has its Chinese twin, word for word', () => {
    const msg = resources['zh-cn'].newsAdmin.msg as Record<string, string>;
    for (const [key, text] of Object.entries(NEWS_MSG)) expect(msg[key], key).toBe(text);
    expect(Object.keys(resources.en.newsAdmin.msg).sort()).toEqual(Object.keys(msg).sort());
  });
});
