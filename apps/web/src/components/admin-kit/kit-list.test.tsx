/** The declared list kit: search fields, URL state, sorting, selection, export, detail, audit dialog. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Button } from 'antd';
import dayjs from 'dayjs';
import type { ContestAttachment, Page, StatusHistoryEntry } from '@contest/shared';
import { api } from '../../lib/api';
import { ok, refused } from '../../test/api-mocks';
import { AuditDialog, withPreset } from './AuditDialog';
import { BatchResultDialog } from './BatchResultDialog';
import { DetailLayout } from './DetailLayout';
import { ExportButton } from './ExportButton';
import { renderKit } from './render-kit';
import { SearchTable, type SearchColumns } from './SearchTable';
import { fieldsToQuery, queryToFields, type SearchField } from './search-fields';

interface Row {
  id: string;
  name: string;
  orgType: string | null;
  status: string;
  submittedAt: string | null;
}

const FIELDS: SearchField[] = [
  { name: 'name', label: '关键字', kind: 'text' },
  { name: 'orgType', label: 'pages.qualification.fields.orgType', kind: 'dict', dictType: 'ORG_TYPE' },
  { name: 'status', label: '状态', kind: 'select', options: [{ value: 'SUBMITTED', label: 'files:contest.teamStatus.SUBMITTED' }] },
  { name: 'submitted', label: '提交时间', kind: 'dateRange', fromName: 'submittedFrom', toName: 'submittedTo' },
];

const COLUMNS: SearchColumns<Row> = [
  { title: '名称', dataIndex: 'name', key: 'name', sorter: true },
  { title: '类型', dataIndex: 'orgType', dict: 'ORG_TYPE' },
  { title: '提交时间', dataIndex: 'submittedAt', key: 'submittedAt', dateTime: true, sorter: true },
];

const DICT = {
  ORG_TYPE: [
    { code: 'ENTERPRISE', name: '企业' },
    { code: 'UNIVERSITY', name: '高校及科研院所' },
  ],
  AUDIT_REASON: [
    { code: 'INCOMPLETE', name: '材料不完整' },
    { code: 'UNCLEAR_PROOF', name: '证明材料不清晰' },
  ],
};
const LABELS = { ORG_TYPE: { ENTERPRISE: '企业', UNIVERSITY: '高校及科研院所' }, PROFESSIONAL_TITLE: { SENIOR: '正高级' } };

/** /dic/public and /dic/label answered from the fixtures above. */
function mockDictionaries() {
  return vi.spyOn(api, 'get').mockImplementation(async (url: string, config?: { params?: { types?: string[] } }) => {
    const types = config?.params?.types ?? [];
    if (url === '/dic/public') return ok(Object.fromEntries(types.map((t) => [t, DICT[t as keyof typeof DICT] ?? []])));
    if (url === '/dic/label') return ok(Object.fromEntries(types.map((t) => [t, LABELS[t as keyof typeof LABELS] ?? {}])));
    throw new Error(`unexpected GET ${url}`);
  });
}

const rows = (n: number, page = 1): Row[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `${page}-${i}`,
    name: `团队${page}-${i}`,
    orgType: i % 2 ? 'UNIVERSITY' : 'ENTERPRISE',
    status: i === 1 ? 'APPROVED' : 'SUBMITTED',
    submittedAt: '2025-05-01T02:03:04Z',
  }));

function fetcher() {
  return vi.fn(async (params: Record<string, unknown>): Promise<Page<Row>> => {
    const page = Number(params.page);
    return { list: rows(page === 1 ? 10 : 3, page), page, size: 10, total: 13 };
  });
}

afterEach(() => vi.restoreAllMocks());

describe('declared search fields', () => {
  it('turn form values into the query and back', () => {
    const from = dayjs('2025-05-01 08:00:00');
    const to = dayjs('2025-05-31 20:00:00');
    const query = fieldsToQuery(FIELDS, { name: ' 医 ', orgType: 'ENTERPRISE', status: undefined, submitted: [from, to], extra: 'x' });
    expect(query).toEqual({ name: '医', orgType: 'ENTERPRISE', submittedFrom: '2025-05-01', submittedTo: '2025-05-31', extra: 'x' });
    const timed = fieldsToQuery([{ name: 'at', label: 'at', kind: 'dateTimeRange' }], { at: [from, to] });
    expect(timed).toEqual({ atFrom: '2025-05-01 08:00:00', atTo: '2025-05-31 20:00:00' });

    const values = queryToFields(FIELDS, query);
    expect(values.name).toBe('医');
    expect(values.status).toBeUndefined();
    const range = values.submitted as [dayjs.Dayjs, dayjs.Dayjs];
    expect(range[0].format('YYYY-MM-DD')).toBe('2025-05-01');
    expect(range[1].format('YYYY-MM-DD')).toBe('2025-05-31');
  });

  it('send a month as YYYY-MM (the month picker of the spec) and read only a well-formed one back', async () => {
    const month: SearchField[] = [{ name: 'month', label: '发送月份', kind: 'month' }];
    expect(fieldsToQuery(month, { month: dayjs('2025-06-18 10:00:00') })).toEqual({ month: '2025-06' });
    expect(fieldsToQuery(month, { month: null })).toEqual({});
    expect((queryToFields(month, { month: '2025-06' }).month as dayjs.Dayjs).format('YYYY-MM')).toBe('2025-06');
    for (const bad of ['2025-13', '2025-6', 'june', '']) expect(queryToFields(month, { month: bad }).month).toBeUndefined();
  });
});

describe('SearchTable with urlState', { timeout: 30_000 }, () => {
  it('reads filters, page and sort from a pasted link, shows them in the form and writes searches back', async () => {
    const get = mockDictionaries();
    const fetchPage = fetcher();
    const { router } = renderKit(
      <SearchTable<Row> queryKey={['rows']} fetchPage={fetchPage} columns={COLUMNS} rowKey="id" searchFields={FIELDS} urlState />,
      { path: '/admin/test?name=%E5%8C%BB&orgType=ENTERPRISE&submittedFrom=2025-05-01&submittedTo=2025-05-31&page=2&sort=name&order=asc&lang=zh-cn' },
    );
    expect(await screen.findByText('团队2-0')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith({
      name: '医',
      orgType: 'ENTERPRISE',
      submittedFrom: '2025-05-01',
      submittedTo: '2025-05-31',
      page: 2,
      size: 10,
      sort: 'name',
      order: 'asc',
    });
    // The form shows the same values: text, the dictionary option by name, the dates.
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('医');
    const form = screen.getByTestId('kit-search-form');
    await waitFor(() => expect(within(form).getByText('企业')).toBeTruthy());
    expect(within(form).getByDisplayValue('2025-05-01')).toBeTruthy();
    expect(within(form).getByDisplayValue('2025-05-31')).toBeTruthy();
    // Dictionary options come from /dic/public in one call; the column shows names, not codes.
    expect(get).toHaveBeenCalledWith('/dic/public', { params: { types: ['ORG_TYPE'], lang: 'zh-cn' } });
    const table = screen.getByRole('table');
    await waitFor(() => expect(within(table).getAllByText('企业').length).toBeGreaterThan(0));
    expect(within(table).queryByText('ENTERPRISE')).toBeNull();
    // Date over time in a narrow column; the cell still reads as one "YYYY-MM-DD HH:mm:ss", in Beijing time whatever the device's zone.
    const stamp = '2025-05-01 10:03:04';
    const cells = [...table.querySelectorAll('.kit-datetime')].map((c) => c.textContent);
    expect(cells).toContain(stamp);
    // The sorted column shows its order.
    expect(screen.getByRole('columnheader', { name: /名称/ }).getAttribute('aria-sort')).toBe('ascending');

    // A search goes to page 1 and into the URL (sort kept, lang left alone).
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '医保' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(router.state.location.search).toContain('name=%E5%8C%BB%E4%BF%9D'));
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('page')).toBeNull();
    expect(params.get('sort')).toBe('name');
    expect(params.get('lang')).toBe('zh-cn');
    expect(params.get('orgType')).toBe('ENTERPRISE');
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ name: '医保', page: 1 })));
    expect(router.state.historyAction).toBe('PUSH');

    // Paging replaces the entry.
    fireEvent.click(within(screen.getByTestId('kit-pager')).getByText('2'));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2'));
    expect(router.state.historyAction).toBe('REPLACE');

    // Back: the previous filters again, in the list and in the form.
    await act(() => router.navigate(-1));
    await waitFor(() => expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('医'));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ name: '医', page: 2 })));

    // 重置 empties the form and the URL's filters.
    fireEvent.click(screen.getByRole('button', { name: '重置' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('name')).toBeNull());
    expect(new URLSearchParams(router.state.location.search).get('orgType')).toBeNull();
    expect((screen.getByLabelText('关键字') as HTMLInputElement).value).toBe('');
  });

  it('sends sort and order when a sortable column is clicked, and clears them on the third click', async () => {
    mockDictionaries();
    const fetchPage = fetcher();
    const { router } = renderKit(
      <SearchTable<Row> queryKey={['rows']} fetchPage={fetchPage} columns={COLUMNS} rowKey="id" searchFields={FIELDS} urlState />,
    );
    expect(await screen.findByText('团队1-0')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10 });
    const header = () => screen.getByRole('columnheader', { name: /提交时间/ });
    fireEvent.click(header());
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, sort: 'submittedAt', order: 'asc' }));
    expect(new URLSearchParams(router.state.location.search).get('sort')).toBe('submittedAt');
    fireEvent.click(header());
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10, sort: 'submittedAt', order: 'desc' }));
    fireEvent.click(header());
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10 }));
    expect(router.state.location.search).toBe('');
  });

  it('keeps its state to itself without urlState', async () => {
    mockDictionaries();
    const fetchPage = fetcher();
    const { router } = renderKit(<SearchTable<Row> queryKey={['rows']} fetchPage={fetchPage} columns={COLUMNS} rowKey="id" searchFields={FIELDS} />, {
      path: '/admin/test?name=x',
    });
    expect(await screen.findByText('团队1-0')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10 });
    fireEvent.click(within(screen.getByTestId('kit-pager')).getByText('2'));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ page: 2, size: 10 }));
    expect(router.state.location.search).toBe('?name=x');
  });
});

describe('SearchTable selection and batch actions', { timeout: 30_000 }, () => {
  it('hands the selected rows to batchActions, keeps them across pages and clears them when the filters change', async () => {
    mockDictionaries();
    const fetchPage = fetcher();
    const seen: string[][] = [];
    renderKit(
      <SearchTable<Row>
        queryKey={['rows']}
        fetchPage={fetchPage}
        columns={COLUMNS}
        rowKey="id"
        searchFields={FIELDS}
        rowSelectable={(row) => row.status === 'SUBMITTED'}
        batchActions={(selected, clear) => {
          seen.push(selected.map((r) => r.id));
          return (
            <>
              <Button disabled={selected.length === 0}>批量通过</Button>
              <Button onClick={clear}>自定义清空</Button>
            </>
          );
        }}
      />,
    );
    const first = (await screen.findByText('团队1-0')).closest('tr')!;
    const bar = screen.getByTestId('kit-batch-bar');
    expect(bar.textContent).toContain('已选 0 项');
    expect((within(bar).getByRole('button', { name: '批量通过' }) as HTMLButtonElement).disabled).toBe(true);
    // A row that may not be selected has a disabled box.
    const approved = screen.getByText('团队1-1').closest('tr')!;
    expect((within(approved).getByRole('checkbox') as HTMLInputElement).disabled).toBe(true);

    fireEvent.click(within(first).getByRole('checkbox'));
    fireEvent.click(within(screen.getByText('团队1-2').closest('tr')!).getByRole('checkbox'));
    await waitFor(() => expect(bar.textContent).toContain('已选 2 项'));
    expect(seen.at(-1)).toEqual(['1-0', '1-2']);

    // Another page: the selection stays and grows.
    fireEvent.click(within(screen.getByTestId('kit-pager')).getByText('2'));
    const other = (await screen.findByText('团队2-0')).closest('tr')!;
    fireEvent.click(within(other).getByRole('checkbox'));
    await waitFor(() => expect(bar.textContent).toContain('已选 3 项'));
    expect(seen.at(-1)).toEqual(['1-0', '1-2', '2-0']);

    // The clear function given to batchActions.
    fireEvent.click(within(bar).getByRole('button', { name: '自定义清空' }));
    await waitFor(() => expect(bar.textContent).toContain('已选 0 项'));

    // Select again, then change the filters: the selection is gone.
    fireEvent.click(within(screen.getByText('团队2-0').closest('tr')!).getByRole('checkbox'));
    await waitFor(() => expect(bar.textContent).toContain('已选 1 项'));
    fireEvent.change(screen.getByLabelText('关键字'), { target: { value: '医' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith({ name: '医', page: 1, size: 10 }));
    await waitFor(() => expect(bar.textContent).toContain('已选 0 项'));
    expect(seen.at(-1)).toEqual([]);
  });
});

describe('ExportButton', { timeout: 20_000 }, () => {
  it('downloads the filtered list as a blob under the server name, loading meanwhile', async () => {
    let resolve!: (v: unknown) => void;
    const get = vi.spyOn(api, 'get').mockImplementation(() => new Promise((r) => (resolve = r)) as never);
    const createUrl = vi.fn(() => 'blob:x');
    Object.assign(URL, { createObjectURL: createUrl, revokeObjectURL: vi.fn() });
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    renderKit(<ExportButton url="/admin/team/export" params={{ orgName: '医', page: 3, size: 10, sort: 'teamName', order: 'asc' }} fallbackName="x.xlsx" />);
    const button = await screen.findByRole('button', { name: /导出/ });
    fireEvent.click(button);
    await waitFor(() => expect(button.className).toContain('ant-btn-loading'));
    expect(get).toHaveBeenCalledWith('/admin/team/export', {
      params: { orgName: '医', sort: 'teamName', order: 'asc' },
      responseType: 'blob',
    });
    await act(async () => resolve({ blob: new Blob(['x']), fileName: '报名信息-20250501.xlsx' }));
    await waitFor(() => expect(clicked).toEqual(['报名信息-20250501.xlsx']));
    await waitFor(() => expect(button.className).not.toContain('ant-btn-loading'));
  });
});

const file = (name: string): ContestAttachment => ({
  uniqueNo: `u-${name}`,
  name,
  extension: name.split('.').pop()!,
  size: 2048,
  filePath: `/api/attachment/stream/u-${name}`,
});

describe('DetailLayout', { timeout: 20_000 }, () => {
  it('shows dictionary names, -- for empty values, wrapped long texts, attachments and the history', async () => {
    mockDictionaries();
    const history: StatusHistoryEntry[] = [
      { id: 'h1', fromStatus: null, toStatus: 'SUBMITTED', reason: null, actorRealm: 'USER', actorName: 'demo1', createdAt: '2025-05-01T00:00:00Z' },
      { id: 'h2', fromStatus: 'SUBMITTED', toStatus: 'REVISING', reason: '材料不完整', actorRealm: 'ADMIN', actorName: '运营一号', createdAt: '2025-05-02T00:00:00Z' },
    ];
    const long = '很长的说明'.repeat(80);
    renderKit(
      <DetailLayout
        title="智慧医保队"
        sections={[
          {
            key: 'org',
            title: '单位信息',
            items: [
              { label: '单位类型', value: 'ENTERPRISE', dict: 'ORG_TYPE' },
              { label: '职称', value: 'SENIOR', dict: 'PROFESSIONAL_TITLE' },
              { label: '统一社会信用代码', value: '' },
              { label: '城市', value: null },
              { label: '说明', value: long, span: 2 },
            ],
          },
        ]}
        attachments={[
          { label: '单位证明材料', files: [file('证明.pdf')] },
          { label: '推荐函', files: [null] },
        ]}
        history={{ kind: 'team', entries: history }}
      />,
      { path: '/admin/competition/qualification-detail/1' },
    );
    const org = await screen.findByTestId('detail-section-org');
    await waitFor(() => expect(within(org).getByText('企业')).toBeTruthy());
    expect(within(org).getByText('正高级')).toBeTruthy();
    expect(within(org).getAllByText('--')).toHaveLength(2);
    expect(within(org).getByText(long).className).toContain('kit-detail__value');
    const files = screen.getByTestId('detail-attachments');
    expect(within(files).getByText('证明.pdf')).toBeTruthy();
    expect(within(files).getByRole('button', { name: /预览/ })).toBeTruthy();
    expect(within(files).getByText('未上传')).toBeTruthy();
    const items = within(screen.getByTestId('detail-history')).getAllByTestId('status-history-item');
    expect(items[0]!.textContent).toContain('运营一号');
    expect(items[0]!.textContent).toContain('材料不完整');
    // The record is the page's subject: its title is the page's h1.
    expect(screen.getByRole('heading', { level: 1 }).textContent).toContain('智慧医保队');
  });

  it('titles a record inside a drawer with an h2, under the page\'s own h1', () => {
    mockDictionaries();
    renderKit(<DetailLayout title="用户反馈" headingLevel={2} sections={[]} />, { path: '/admin/information/UserFeedback' });
    expect(screen.getByRole('heading', { level: 2, name: '用户反馈' })).toBeTruthy();
    expect(screen.queryByRole('heading', { level: 1 })).toBeNull();
  });
});

describe('AuditDialog', { timeout: 30_000 }, () => {
  it('requires a reason unless approving, at most 500 characters, and fills it from the presets', async () => {
    const get = mockDictionaries();
    const onSubmit = vi.fn(async () => undefined);
    const onClose = vi.fn();
    renderKit(<AuditDialog open onClose={onClose} onSubmit={onSubmit} initialOutcome="REVISING" />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('radio', { name: '退回修改' })).toBeTruthy();
    // The choices are a named group (a screen reader says 审核结果 before them).
    expect(within(dialog).getByRole('radiogroup', { name: '审核结果' })).toBeTruthy();
    expect((within(dialog).getByRole('radio', { name: '退回修改' }) as HTMLInputElement).checked).toBe(true);

    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    expect(await within(dialog).findByText('请填写审核意见')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    const reason = within(dialog).getByRole('textbox') as HTMLTextAreaElement;
    fireEvent.change(reason, { target: { value: '字'.repeat(501) } });
    expect(await within(dialog).findByText('审核意见不能超过 500 个字符')).toBeTruthy();

    // Presets from the AUDIT_REASON dictionary fill the reason, which stays editable.
    expect(get).toHaveBeenCalledWith('/dic/public', { params: { types: ['AUDIT_REASON'], lang: 'zh-cn' } });
    fireEvent.change(reason, { target: { value: '' } });
    fireEvent.click(await within(dialog).findByText('材料不完整'));
    await waitFor(() => expect(reason.value).toBe('材料不完整'));
    fireEvent.click(within(dialog).getByText('证明材料不清晰'));
    await waitFor(() => expect(reason.value).toBe('材料不完整；证明材料不清晰'));
    fireEvent.change(reason, { target: { value: '材料不完整，请补充盖章页' } });

    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ outcome: 'REVISING', reason: '材料不完整，请补充盖章页' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
  });

  it('approves without a reason, and says how many records a batch decision covers', async () => {
    mockDictionaries();
    const onSubmit = vi.fn(async () => undefined);
    renderKit(<AuditDialog open batch count={3} onClose={vi.fn()} onSubmit={onSubmit} />);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('audit-count').textContent).toContain('3');
    expect(within(dialog).getByText('批量审核')).toBeTruthy();
    // No presets while approving.
    expect(within(dialog).queryByTestId('audit-presets')).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: '提交审核' }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ outcome: 'APPROVED', reason: '' }));
  });

  it('stays open on a server 400 with the message, loading while the call runs', async () => {
    mockDictionaries();
    let reject!: (e: unknown) => void;
    const onSubmit = vi.fn(() => new Promise((_, r) => (reject = r)));
    const onClose = vi.fn();
    renderKit(<AuditDialog open onClose={onClose} onSubmit={onSubmit} initialOutcome="REJECTED" />);
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox'), { target: { value: '不符合参赛条件' } });
    const submit = within(dialog).getByRole('button', { name: /提交审核/ });
    fireEvent.click(submit);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ outcome: 'REJECTED', reason: '不符合参赛条件' }));
    await waitFor(() => expect(submit.className).toContain('ant-btn-loading'));
    await act(async () => reject(refused('只能审核已提交的记录', { reason: 'NOT_ALLOWED' })));
    expect((await within(dialog).findByTestId('audit-error')).textContent).toContain('只能审核已提交的记录');
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('dialog')).toBeTruthy();
  });

  it('appends presets without repeating them', () => {
    expect(withPreset('', '材料不完整')).toBe('材料不完整');
    expect(withPreset('材料不完整', '材料不完整')).toBe('材料不完整');
    expect(withPreset('请补充', '材料不完整')).toBe('请补充；材料不完整');
  });
});

describe('BatchResultDialog', { timeout: 20_000 }, () => {
  it('lists failed rows first with their reason, explaining STALE ones', async () => {
    renderKit(
      <BatchResultDialog
        onClose={vi.fn()}
        nameLabel="团队名称"
        result={{
          succeeded: 1,
          failed: 2,
          results: [
            { id: 'a', ok: true, name: '甲队', status: 'APPROVED' },
            { id: 'b', ok: false, reason: 'STALE', message: '已被他人处理', name: '乙队' },
            { id: 'c', ok: false, reason: 'NOT_ALLOWED', message: '只能审核已提交的记录' },
          ],
        }}
        names={{ c: '丙队' }}
      />,
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByTestId('batch-summary').textContent).toBe('成功 1 条，失败 2 条');
    const body = within(dialog).getAllByRole('row').slice(1);
    expect(body.map((r) => r.textContent)).toEqual([
      expect.stringContaining('乙队失败该记录已被他人处理或已被更新'),
      expect.stringContaining('丙队失败只能审核已提交的记录'),
      '甲队成功--',
    ]);
  });
});
