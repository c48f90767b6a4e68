/**
 * CONTRIBUTING.md, "Adding a console list page", as a newcomer would follow it: a toy list of
 * suggestions is declared (fields, columns, a toolbar with the export) and works as every
 * console list does: the filters live in the URL, the server gets them with page and size, the
 * export sends the same filters. If this stops compiling or working, the guide is out of date.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Page } from '@contest/shared';
import { api } from '../../lib/api';
import { ExportButton } from './ExportButton';
import { renderKit } from './render-kit';
import { SearchTable, type SearchColumns } from './SearchTable';
import type { SearchField } from './search-fields';

interface SuggestionRow {
  id: string;
  title: string;
  status: 'SUBMITTED' | 'ACCEPTED';
  createdAt: string;
}

// The declaration: what the page filters by and what it shows.
const FIELDS: SearchField[] = [
  { name: 'title', label: '建议标题', kind: 'text' },
  { name: 'status', label: '状态', kind: 'select', options: [{ value: 'SUBMITTED', label: '待处理' }, { value: 'ACCEPTED', label: '已采纳' }] },
  { name: 'created', label: '提交日期', kind: 'dateRange', fromName: 'createdFrom', toName: 'createdTo' },
];

const COLUMNS: SearchColumns<SuggestionRow> = [
  { title: '建议标题', dataIndex: 'title', key: 'title', sorter: true },
  { title: '状态', dataIndex: 'status', render: (_, row) => (row.status === 'ACCEPTED' ? '已采纳' : '待处理') },
  { title: '提交时间', dataIndex: 'createdAt', key: 'createdAt', dateTime: true, sorter: true },
];

function SuggestionsPage({ fetchPage }: { fetchPage: (q: Record<string, unknown>) => Promise<Page<SuggestionRow>> }) {
  return (
    <section className="admin-page">
      <h1 className="admin-page__title">建议管理</h1>
      <SearchTable<SuggestionRow>
        queryKey={['admin', 'toy-suggestions']}
        fetchPage={fetchPage}
        rowKey="id"
        columns={COLUMNS}
        searchFields={FIELDS}
        urlState
        toolbar={(filters) => <ExportButton url="/admin/suggestion/export" params={filters} fallbackName="建议.xlsx" />}
      />
    </section>
  );
}

afterEach(() => vi.restoreAllMocks());

describe('CONTRIBUTING walkthrough: a toy console list page', { timeout: 30_000 }, () => {
  it('lists, searches through the URL and exports with the same filters', async () => {
    const rows: SuggestionRow[] = [
      { id: 's1', title: '夜间也能上传', status: 'SUBMITTED', createdAt: '2025-05-01T02:00:00Z' },
      { id: 's2', title: '评分表加备注', status: 'ACCEPTED', createdAt: '2025-05-02T02:00:00Z' },
    ];
    const fetchPage = vi.fn(async (q: Record<string, unknown>): Promise<Page<SuggestionRow>> => {
      const list = rows.filter((r) => !q.title || r.title.includes(String(q.title)));
      return { list, page: Number(q.page), size: Number(q.size), total: list.length };
    });
    const get = vi.spyOn(api, 'get').mockResolvedValue({ blob: new Blob(['x']), fileName: '建议.xlsx' } as never);
    Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});

    const { router } = renderKit(<SuggestionsPage fetchPage={fetchPage} />, { path: '/admin/suggestions' });
    expect(await screen.findByText('夜间也能上传')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, size: 10 });

    fireEvent.change(within(screen.getByTestId('kit-search-form')).getByLabelText('建议标题'), { target: { value: '评分' } });
    fireEvent.click(screen.getByRole('button', { name: '查询' }));
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('title')).toBe('评分'));
    await waitFor(() => expect(within(screen.getByRole('table')).queryByText('夜间也能上传')).toBeNull());
    expect(fetchPage).toHaveBeenLastCalledWith({ title: '评分', page: 1, size: 10 });

    fireEvent.click(screen.getByRole('button', { name: /导出/ }));
    await waitFor(() => expect(get).toHaveBeenCalledWith('/admin/suggestion/export', { params: { title: '评分' }, responseType: 'blob' }));
  });
});
