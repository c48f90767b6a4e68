import { useState, type ReactNode } from 'react';
import { Form } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { PAGE_SIZE_DEFAULT, type Page } from '@contest/shared';
import { DataTable } from './DataTable';
import { Pager } from './Pager';
import { SearchForm } from './SearchForm';

export interface PageParams {
  page: number;
  size: number;
}

export interface SearchTableProps<T, F extends object> {
  /** Cache key prefix; the filters and page are appended. */
  queryKey: readonly unknown[];
  fetchPage(params: F & PageParams): Promise<Page<T>>;
  columns: ColumnsType<T>;
  rowKey: keyof T & string;
  /** Filter fields; no form when absent. */
  filters?: ReactNode;
  /** Values the filters start with (and reset to). */
  initialFilters?: F;
  /** Turns the form's values into the query (dates to strings, blanks dropped...). */
  toQuery?(values: Record<string, unknown>): F;
  /** Buttons between the form and the table. */
  toolbar?: ReactNode | ((filters: F) => ReactNode);
}

function dropBlanks(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '')),
  );
}

/**
 * Search form + table + pager, the shape of every console list. A search starts again at
 * page 1; the previous page stays on screen while the next loads.
 */
export function SearchTable<T extends object, F extends object = Record<string, unknown>>({
  queryKey,
  fetchPage,
  columns,
  rowKey,
  filters,
  initialFilters,
  toQuery,
  toolbar,
}: SearchTableProps<T, F>) {
  const [form] = Form.useForm<Record<string, unknown>>();
  const [query, setQuery] = useState<F>(() => initialFilters ?? ({} as F));
  const [paging, setPaging] = useState<PageParams>({ page: 1, size: PAGE_SIZE_DEFAULT });
  const result = useQuery({
    queryKey: [...queryKey, query, paging],
    queryFn: () => fetchPage({ ...query, ...paging }),
    placeholderData: keepPreviousData,
  });

  const search = (values: Record<string, unknown>) => {
    const clean = dropBlanks(values);
    const next = toQuery ? toQuery(clean) : (clean as F);
    // Same filters, same page: the key does not change, and within staleTime the cached page
    // would be shown again. Pressing 查询 asks the server, so fetch anyway.
    if (paging.page === 1 && JSON.stringify(next) === JSON.stringify(query)) {
      void result.refetch();
      return;
    }
    setQuery(next);
    setPaging((p) => ({ ...p, page: 1 }));
  };

  return (
    <div className="kit-search-table">
      {filters && (
        <SearchForm form={form} onSearch={search} onReset={() => search({})}>
          {filters}
        </SearchForm>
      )}
      {toolbar && <div className="kit-toolbar">{typeof toolbar === 'function' ? toolbar(query) : toolbar}</div>}
      <DataTable<T>
        rowKey={rowKey}
        columns={columns}
        dataSource={result.data?.list ?? []}
        loading={result.isFetching}
      />
      <div className="kit-pager-row">
        <Pager
          page={paging.page}
          size={paging.size}
          total={result.data?.total ?? 0}
          onChange={(page, size) => setPaging({ page, size })}
        />
      </div>
    </div>
  );
}
