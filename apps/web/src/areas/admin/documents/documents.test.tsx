/** 文档管理 and 站点内容 with mocked answers (packages/shared/src/content/documents.ts and site.ts). */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { ADMIN_MENUS, CONTENT_MSG, DOCUMENT_MSG, SITE_CONTENT_KEYS, type DocumentAdminRow, type Page, type SiteBlockAdmin } from '@contest/shared';
import { api } from '../../../lib/api';
import type { CallConfig } from '../../../api';
import { directUnavailable, ok, refused } from '../../../test/api-mocks';
import { renderRoute } from '../../../test/render-route';
import { menuTree, operator, superAdmin } from '../../../components/admin-kit/staff-fixtures';
import type { StaffInfo } from '../../../lib/session';
import { toDocumentBody } from './DocumentEditPage';
import { toBlockBody } from './SiteBlocksPage';

// The first render loads antd and the page chunk; on a busy machine that exceeds the default 5 s.
const SLOW = { timeout: 20_000 };
const LIST = '/admin/user/docManage';
const EDIT = '/admin/user/docManagement-edit';
const BLOCKS = '/admin/user/siteContentManagement-blocks';

const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const doc = (n: number, over: Partial<DocumentAdminRow> = {}): DocumentAdminRow => ({
  id: ID(n),
  code: null,
  title: `文档${n}`,
  titleEn: null,
  category: 'GUIDE',
  audience: 'PUBLIC',
  sort: n,
  enabled: true,
  file: { uniqueNo: `u${n}`, name: `file${n}.pdf`, size: 2048, filePath: `/api/attachment/stream/u${n}` },
  createdAt: '2025-06-01T02:00:00Z',
  updatedAt: '2025-06-02T03:04:05Z',
  ...over,
});

const page = <T,>(list: T[]): Page<T> => ({ list, page: 1, size: 10, total: list.length });

const block = (key: SiteBlockAdmin['key'], over: Partial<SiteBlockAdmin> = {}): SiteBlockAdmin => ({
  key,
  title: '',
  body: '',
  titleEn: null,
  bodyEn: null,
  updatedAt: null,
  updatedBy: null,
  ...over,
});

function mockGet(info: StaffInfo, answers: { list?: DocumentAdminRow[]; detail?: DocumentAdminRow | Error; blocks?: SiteBlockAdmin[] } = {}) {
  localStorage.setItem('AdminToken', 'admin-token');
  return vi.spyOn(api, 'get').mockImplementation(async (url: string) => {
    if (url === '/admin/user/account') return ok(info);
    if (url === '/admin/documents') return ok(page(answers.list ?? []));
    if (url.startsWith('/admin/documents/')) {
      if (answers.detail instanceof Error) throw answers.detail;
      return ok(answers.detail);
    }
    if (url === '/admin/site-content') return ok(answers.blocks ?? SITE_CONTENT_KEYS.map((k) => block(k)));
    if (url === '/attachment/piece/status') return ok([]);
    throw new Error(`unexpected GET ${url}`);
  });
}

const callsTo = (spy: { mock: { calls: unknown[][] } }, url: string) => spy.mock.calls.filter(([u]) => u === url);

/** Only 文档管理 under 内容管理 (no 新闻资讯), with these buttons. */
const docsOnly = (buttons: string[]) =>
  superAdmin({
    account: 'ops2',
    roleCode: 'SYSTEM',
    roles: [{ id: 'r3', code: 'DOCS' }],
    menus: menuTree(ADMIN_MENUS.filter((m) => m.code === 'siteContentManage').map((m) => ({ ...m, children: m.children!.filter((c) => c.code === 'docManage') }))),
    buttons,
  });

describe('文档管理', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists documents with category, audience, code, file and status; filters by category', async () => {
    const get = mockGet(superAdmin(), {
      list: [doc(1, { code: 'COMMITMENT_LETTER', category: 'TEMPLATE', titleEn: 'Commitment letter' }), doc(2, { enabled: false, audience: 'APPROVED', category: 'DATA' })],
    });
    renderRoute(LIST);
    const first = (await screen.findByText('文档1', {}, SLOW)).closest('tr')!;
    expect(first.textContent).toContain('Commitment letter');
    expect(first.textContent).toContain('模板');
    expect(first.textContent).toContain('所有人');
    expect(first.textContent).toContain('COMMITMENT_LETTER');
    expect(first.textContent).toContain('file1.pdf');
    expect(first.textContent).toContain('2 KB');
    expect(first.textContent).toContain('启用');
    const second = screen.getByText('文档2').closest('tr')!;
    expect(second.textContent).toContain('数据文档');
    expect(second.textContent).toContain('审核通过的团队');
    expect(within(second).getByTestId('row-toggle').textContent).toBe('启用');
    expect(screen.getByTestId('doc-create')).toBeTruthy();
    expect(within(first).getByTestId('row-delete')).toBeTruthy();
    expect(screen.getByTestId('open-site-blocks').getAttribute('href')).toBe(BLOCKS);
    expect(screen.getByRole('button', { name: '下载 file1.pdf' })).toBeTruthy();

    const form = screen.getByTestId('kit-search-form');
    fireEvent.change(within(form).getByLabelText('关键字'), { target: { value: '承诺' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(callsTo(get, '/admin/documents').at(-1)![1]).toEqual({ params: { keyword: '承诺', page: 1, size: 10 } }), SLOW);
  });

  it('without the buttons: no create, edit, enable/disable or delete; no site-content link without the news menu', async () => {
    mockGet(docsOnly([]), { list: [doc(1)] });
    renderRoute(LIST);
    const first = (await screen.findByText('文档1', {}, SLOW)).closest('tr')!;
    expect(within(first).queryByTestId('row-edit')).toBeNull();
    expect(within(first).queryByTestId('row-toggle')).toBeNull();
    expect(within(first).queryByTestId('row-delete')).toBeNull();
    expect(screen.queryByTestId('doc-create')).toBeNull();
    expect(screen.queryByTestId('open-site-blocks')).toBeNull();
  });

  it('doc:edit without doc:delete: edit and toggle but no delete', async () => {
    mockGet(docsOnly(['doc:edit']), { list: [doc(1)] });
    renderRoute(LIST);
    const first = (await screen.findByText('文档1', {}, SLOW)).closest('tr')!;
    expect(within(first).getByTestId('row-edit')).toBeTruthy();
    expect(within(first).getByTestId('row-toggle')).toBeTruthy();
    expect(within(first).queryByTestId('row-delete')).toBeNull();
  });

  it('disable and delete ask first, then call the server and refresh the list', async () => {
    const get = mockGet(superAdmin(), { list: [doc(1)] });
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(doc(1, { enabled: false }), DOCUMENT_MSG.docDisabled));
    const del = vi.spyOn(api, 'delete').mockResolvedValue(ok(null, DOCUMENT_MSG.docDeleted));
    renderRoute(LIST);
    const first = (await screen.findByText('文档1', {}, SLOW)).closest('tr')!;
    const listCalls = () => callsTo(get, '/admin/documents').length;

    fireEvent.click(within(first).getByTestId('row-toggle'));
    const ask = await screen.findByRole('dialog');
    expect(ask.textContent).toContain('确定禁用文档「文档1」吗');
    expect(put).not.toHaveBeenCalled();
    const before = listCalls();
    fireEvent.click(within(ask).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(put).toHaveBeenCalledWith(`/admin/documents/${ID(1)}/enabled`, { enabled: false }));
    expect(await screen.findByText(DOCUMENT_MSG.docDisabled)).toBeTruthy();
    await waitFor(() => expect(listCalls()).toBeGreaterThan(before));

    fireEvent.click(within(first).getByTestId('row-delete'));
    const confirm = (await screen.findAllByRole('dialog')).find((d) => d.textContent?.includes('删除后不可恢复'))!;
    expect(del).not.toHaveBeenCalled();
    fireEvent.click(within(confirm).getByRole('button', { name: '确认' }));
    await waitFor(() => expect(del).toHaveBeenCalledWith(`/admin/documents/${ID(1)}`));
    expect(await screen.findByText(DOCUMENT_MSG.docDeleted)).toBeTruthy();
  });

  it('create: checks the form, uploads the file with origin DOC, places a server refusal under its field, then goes back', async () => {
    mockGet(superAdmin(), { list: [] });
    const stored = { complete: true, id: 'up', chunks: 1, received: [0], uniqueNo: 'u-new', name: '承诺书.pdf', extension: 'pdf', size: 1234, mimeType: 'application/pdf', isPublic: true, filePath: '/api/attachment/stream/u-new' };
    const post = vi.spyOn(api, 'post').mockImplementation(async (url: string) => {
      if (url === '/attachment/piece/upload') return ok(stored);
      if (url === '/attachment/direct/start') throw directUnavailable();
      throw new Error(`unexpected POST ${url}`);
    });
    const { router } = renderRoute(EDIT);
    const form = await screen.findByTestId('document-form', {}, SLOW);
    expect(screen.getByRole('heading', { name: '新增文档' })).toBeTruthy();

    fireEvent.click(screen.getByTestId('doc-save'));
    expect(await within(form).findByText(DOCUMENT_MSG.docTitleRequired)).toBeTruthy();
    expect(within(form).getByText(DOCUMENT_MSG.docCategoryRequired)).toBeTruthy();
    expect(within(form).getByText(DOCUMENT_MSG.docFileRequired)).toBeTruthy();
    expect(callsTo(post, '/admin/documents')).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText('编码'), { target: { value: '9x' } });
    expect(await within(form).findByText(CONTENT_MSG.docCodeInvalid)).toBeTruthy();

    fireEvent.change(within(form).getByLabelText('标题'), { target: { value: ' 参赛承诺书 ' } });
    fireEvent.change(within(form).getByLabelText('英文标题'), { target: { value: 'Commitment letter' } });
    fireEvent.change(within(form).getByLabelText('编码'), { target: { value: 'commitment_letter' } });
    expect((within(form).getByLabelText('编码') as HTMLInputElement).value).toBe('COMMITMENT_LETTER');
    fireEvent.mouseDown(within(form).getByRole('combobox'));
    fireEvent.click(await screen.findByText('模板', { selector: '.ant-select-item-option-content' }));
    fireEvent.click(within(form).getByLabelText('已登录参赛者'));
    expect(await within(form).findByText('登录后的参赛者可以看到和下载。')).toBeTruthy();

    const input = form.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toContain('.pdf');
    fireEvent.change(input, { target: { files: [new File([new Uint8Array([0x25, 0x50, 0x44, 0x46])], '承诺书.pdf', { type: 'application/pdf' })] } });
    await waitFor(() => expect(callsTo(post, '/attachment/piece/upload')).toHaveLength(1), SLOW);
    expect((callsTo(post, '/attachment/piece/upload')[0]![2] as CallConfig).params).toMatchObject({ origin: 'DOC', name: '承诺书.pdf' });
    expect(await within(form).findByText('承诺书.pdf')).toBeTruthy();

    post.mockImplementation(async (url: string) => {
      if (url === '/admin/documents') throw refused(DOCUMENT_MSG.docCodeTaken, { field: 'code' });
      throw new Error(`unexpected POST ${url}`);
    });
    fireEvent.click(screen.getByTestId('doc-save'));
    expect(await within(form).findByText(DOCUMENT_MSG.docCodeTaken)).toBeTruthy();
    expect(callsTo(post, '/admin/documents')[0]).toEqual([
      '/admin/documents',
      { title: '参赛承诺书', titleEn: 'Commitment letter', file: 'u-new', code: 'COMMITMENT_LETTER', category: 'TEMPLATE', audience: 'PARTICIPANT', sort: 0, enabled: true },
      { silent: true },
    ]);

    post.mockImplementation(async () => ok(doc(9), DOCUMENT_MSG.docCreated));
    fireEvent.change(within(form).getByLabelText('编码'), { target: { value: 'COMMITMENT_LETTER_2' } });
    fireEvent.click(screen.getByTestId('doc-save'));
    expect(await screen.findByText(DOCUMENT_MSG.docCreated)).toBeTruthy();
    await waitFor(() => expect(router.state.location.pathname).toBe(LIST));
  });

  it('edit: loads the document into the form and saves it with PUT', async () => {
    mockGet(superAdmin(), { list: [], detail: doc(3, { code: 'GUIDE_A', titleEn: 'Guide', audience: 'APPROVED', category: 'DATA', sort: 4 }) });
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(doc(3), DOCUMENT_MSG.docSaved));
    renderRoute(`${EDIT}/${ID(3)}`);
    const form = await screen.findByTestId('document-form', {}, SLOW);
    expect(screen.getByRole('heading', { name: '编辑文档' })).toBeTruthy();
    await waitFor(() => expect((within(form).getByLabelText('标题') as HTMLInputElement).value).toBe('文档3'));
    expect(within(form).getByText('file3.pdf')).toBeTruthy();
    expect((within(form).getByLabelText('审核通过的团队') as HTMLInputElement).checked).toBe(true);
    fireEvent.change(within(form).getByLabelText('标题'), { target: { value: '数据说明' } });
    fireEvent.click(screen.getByTestId('doc-save'));
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith(
        `/admin/documents/${ID(3)}`,
        { title: '数据说明', titleEn: 'Guide', file: 'u3', code: 'GUIDE_A', category: 'DATA', audience: 'APPROVED', sort: 4, enabled: true },
        { silent: true },
      ),
    );
    expect(await screen.findByText(DOCUMENT_MSG.docSaved)).toBeTruthy();
  });

  it('edit: an unknown document says so; without doc:edit the form is read-only', async () => {
    mockGet(superAdmin(), { detail: refused(CONTENT_MSG.documentNotFound, null, 404) });
    renderRoute(`${EDIT}/${ID(8)}`);
    expect(await screen.findByText('文档不存在或已被删除', {}, SLOW)).toBeTruthy();
    vi.restoreAllMocks();

    mockGet(operator(['siteContentManage']), { detail: doc(4) });
    renderRoute(`${EDIT}/${ID(4)}`);
    const form = await screen.findByTestId('document-form', {}, SLOW);
    expect(await screen.findByText('当前账号没有编辑文档的权限，只能查看。')).toBeTruthy();
    expect(screen.queryByTestId('doc-save')).toBeNull();
    expect((within(form).getByLabelText('标题') as HTMLInputElement).disabled).toBe(true);
  });

  it('toDocumentBody drops blanks to none and sends the file by uniqueNo', () => {
    expect(
      toDocumentBody({ title: ' 甲 ', titleEn: '  ', code: ' ', category: 'GUIDE', audience: 'PUBLIC', sort: null, enabled: false, file: [{ uid: 'x', id: 'u9', fileName: 'a.pdf', fileSize: 1, filePath: '/p' }] }),
    ).toEqual({ title: '甲', titleEn: null, code: null, category: 'GUIDE', audience: 'PUBLIC', sort: 0, enabled: false, file: 'u9' });
  });
});

describe('站点内容', { timeout: 60_000 }, () => {
  afterEach(() => vi.restoreAllMocks());

  const blocks = () =>
    SITE_CONTENT_KEYS.map((k) =>
      k === 'sign-guide' ? block(k, { title: '报名指南', body: '<p>第一步</p>', updatedAt: '2025-06-02T03:04:05Z', updatedBy: '运营一号' }) : block(k),
    );

  it('shows every block; editing updates the sandboxed preview; saving sends the texts and shows what the server kept', async () => {
    mockGet(superAdmin(), { blocks: blocks() });
    const kept = block('sign-guide', { title: '报名指南', body: '<p>新的步骤</p>', titleEn: 'Guide', bodyEn: '<p>Steps</p>', updatedAt: '2025-06-03T00:00:00Z', updatedBy: '超级管理员' });
    const put = vi.spyOn(api, 'put').mockResolvedValue(ok(kept, DOCUMENT_MSG.siteSaved));
    renderRoute(BLOCKS);
    await screen.findByTestId('site-blocks-page', {}, SLOW);
    expect(screen.getByRole('heading', { name: '站点内容' })).toBeTruthy();
    await screen.findByRole('tab', { name: '报名指南' }, SLOW);
    for (const name of ['首页 · 大赛简介', '首页 · 赛道介绍', '首页 · 赛程说明', '首页 · 组织单位', '首页 · 联系方式', '报名指南']) {
      expect(screen.getByRole('tab', { name })).toBeTruthy();
    }
    expect(within(screen.getByTestId('site-block-home-intro')).getByTestId('site-block-updated').textContent).toBe('尚未编辑');

    fireEvent.click(screen.getByRole('tab', { name: '报名指南' }));
    const editor = await screen.findByTestId('site-block-sign-guide');
    expect(within(editor).getByTestId('site-block-updated').textContent).toContain('运营一号');
    const body = within(editor).getByLabelText('正文（HTML）') as HTMLTextAreaElement;
    await waitFor(() => expect(body.value).toBe('<p>第一步</p>'));
    fireEvent.change(body, { target: { value: '<p>新的步骤</p><script>x()</script>' } });
    const frame = within(editor).getByTestId('site-block-preview') as HTMLIFrameElement;
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('<p>新的步骤</p>'));
    // No scripts run in the preview: the frame is sandboxed without allow-scripts.
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.title).toBe('报名指南预览');

    fireEvent.change(within(editor).getByLabelText('英文标题'), { target: { value: 'Guide' } });
    fireEvent.change(within(editor).getByLabelText('英文正文（HTML）'), { target: { value: '<p>Steps</p>' } });
    fireEvent.click(within(editor).getByText('English'));
    await waitFor(() => expect(frame.getAttribute('srcdoc')).toContain('<p>Steps</p>'));

    fireEvent.click(within(editor).getByTestId('site-block-save'));
    await waitFor(() =>
      expect(put).toHaveBeenCalledWith(
        '/admin/site-content/sign-guide',
        { title: '报名指南', body: '<p>新的步骤</p><script>x()</script>', titleEn: 'Guide', bodyEn: '<p>Steps</p>' },
        { silent: true },
      ),
    );
    expect(await screen.findByText(DOCUMENT_MSG.siteSaved)).toBeTruthy();
    await waitFor(() => expect(body.value).toBe('<p>新的步骤</p>'));
    expect(within(editor).getByTestId('site-block-updated').textContent).toContain('超级管理员');
  });

  it('places a refusal under its field', async () => {
    mockGet(superAdmin(), { blocks: blocks() });
    vi.spyOn(api, 'put').mockRejectedValue(refused(DOCUMENT_MSG.siteTitleTooLong, { field: 'title' }));
    renderRoute(BLOCKS);
    const editor = await screen.findByTestId('site-block-home-intro', {}, SLOW);
    fireEvent.change(within(editor).getByLabelText('标题'), { target: { value: '大赛简介' } });
    fireEvent.click(within(editor).getByTestId('site-block-save'));
    expect(await within(editor).findByText(DOCUMENT_MSG.siteTitleTooLong)).toBeTruthy();
  });

  it('without news:edit the blocks are read-only', async () => {
    mockGet(operator(['siteContentManage']), { blocks: blocks() });
    renderRoute(BLOCKS);
    const editor = await screen.findByTestId('site-block-home-intro', {}, SLOW);
    expect(within(editor).queryByTestId('site-block-save')).toBeNull();
    expect((within(editor).getByLabelText('标题') as HTMLInputElement).disabled).toBe(true);
  });

  it('in English the page and the server texts are English', async () => {
    mockGet(superAdmin(), { blocks: blocks() });
    vi.spyOn(api, 'put').mockRejectedValue(refused(DOCUMENT_MSG.siteBodyTooLong, { field: 'body' }));
    renderRoute(BLOCKS, { search: '?lang=en' });
    const editor = await screen.findByTestId('site-block-home-intro', {}, SLOW);
    expect(screen.getByRole('heading', { name: 'Site content' })).toBeTruthy();
    fireEvent.click(within(editor).getByTestId('site-block-save'));
    expect(await within(editor).findByText('The body may have at most 100000 characters')).toBeTruthy();
  });

  it('toBlockBody sends blank English texts as none', () => {
    expect(toBlockBody({ title: ' 甲 ', body: '<p>x</p>', titleEn: ' ', bodyEn: '  ' })).toEqual({ title: '甲', body: '<p>x</p>', titleEn: null, bodyEn: null });
  });
});
