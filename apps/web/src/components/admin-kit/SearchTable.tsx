import { useCallback, useEffect, useLayoutEffect, useMemo, useState, type Key, type ReactNode } from 'react';
import { Button, Form } from 'antd';
import type { ColumnsType, ColumnType, SorterResult } from 'antd/es/table/interface';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PAGE_SIZE_DEFAULT, type Page } from '@contest/shared';
import { useDictLabels } from '../contest/contest-common';
import { DataTable, type KitColumn } from './DataTable';
import { ColumnPicker, useHiddenColumns } from './ColumnPicker';
import { beijingTitle } from './kit-data';
import { Pager } from './Pager';
import { SearchForm } from './SearchForm';
import { SearchFields, fieldsToQuery, queryNamesOf, queryToFields, type SearchField } from './search-fields';

export interface PageParams {
  page: number;
  size: number;
}

export type SortOrder = 'asc' | 'desc';

export interface SortParams {
  sort?: string;
  order?: SortOrder;
}

/** An antd column plus the kit's declarations. */
export type SearchColumn<T> = ColumnsType<T>[number] & {
  /** Show the value (a code) by its name in this dictionary type (disabled items included). */
  dict?: string;
  /** A time column: an ISO time shows as `YYYY-MM-DD HH:mm:ss` and the title says Beijing time (DataTable's KitColumn). */
  dateTime?: boolean;
  /** With `sorter: true`: the `sort` value sent (default: the column's key, else its dataIndex). */
  sortKey?: string;
  /**
   * A column the reader may hide (`'shown'`) or show (`'hidden'`, hidden until chosen) with 列设置;
   * the choice is kept per list (`columnsId`). Needs a key or a string dataIndex.
   */
  optional?: 'shown' | 'hidden';
};
export type SearchColumns<T> = SearchColumn<T>[];

export interface SearchTableProps<T, F extends object> {
  /** Cache key prefix; the filters, page and sort are appended. */
  queryKey: readonly unknown[];
  fetchPage(params: F & PageParams & SortParams): Promise<Page<T>>;
  columns: SearchColumns<T>;
  rowKey: keyof T & string;
  /** Hand-written filter fields (Form.Item elements), shown after the declared ones. */
  filters?: ReactNode;
  /** Declared filter fields (see search-fields). */
  searchFields?: readonly SearchField[];
  /** The query while none is chosen (and after 重置). */
  initialFilters?: F;
  /**
   * Turns the form's values into the query. With `searchFields` it receives the declared query
   * (ranges already split and formatted); without, the form's values minus blanks.
   */
  toQuery?(values: Record<string, unknown>): F;
  /** Buttons between the form and the table; the function gets the applied filters (with sort/order). */
  toolbar?: ReactNode | ((filters: F & SortParams) => ReactNode);
  /** Keep filters, page, size, sort and order in the URL's search params. */
  urlState?: boolean;
  /** Turns on row selection; rendered beside the selection count. */
  batchActions?(selected: T[], clear: () => void): ReactNode;
  /** Rows that may be selected (others get a disabled box). */
  rowSelectable?(row: T): boolean;
  /** Where the reader's choice of optional columns is kept (one id per list; the query key by default). */
  columnsId?: string;
}

interface ListState<F> {
  query: F;
  page: number;
  size: number;
  sort?: string;
  order?: SortOrder;
}

const RESERVED = ['page', 'size', 'sort', 'order'];
/** Never a filter: the language parameter (docs/rules/screens.md, "Language and preferences"). */
const IGNORED = ['lang'];

function dropBlanks(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, v]) => v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '')),
  );
}

/** Query values as the URL holds them (arrays comma-separated, as the API client sends them). */
function toUrlValue(value: unknown): string {
  return Array.isArray(value) ? value.join(',') : String(value);
}

function sameQuery(a: object, b: object): boolean {
  const norm = (q: object) =>
    JSON.stringify(
      Object.entries(dropBlanks(q as Record<string, unknown>))
        .map(([k, v]) => [k, toUrlValue(v)])
        .sort(([x], [y]) => String(x).localeCompare(String(y))),
    );
  return norm(a) === norm(b);
}

function positiveInt(value: string | null, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= max ? n : fallback;
}

/** A column's id for 列设置: its key, else a string dataIndex. */
const columnIdOf = <T,>(column: SearchColumn<T>): string | undefined => {
  if (column.key !== undefined && column.key !== null) return String(column.key);
  const dataIndex = (column as ColumnType<T>).dataIndex;
  return typeof dataIndex === 'string' ? dataIndex : undefined;
};

const sortKeyOf = <T,>(column: SearchColumn<T>): string | undefined => {
  if (column.sortKey) return column.sortKey;
  if (column.key !== undefined && column.key !== null) return String(column.key);
  const dataIndex = (column as ColumnType<T>).dataIndex;
  return typeof dataIndex === 'string' ? dataIndex : undefined;
};

/**
 * Search form + table + pager, the shape of every console list. A search starts again at
 * page 1; the previous page stays on screen while the next loads. With `urlState` the list's
 * state is the URL's, so reloads and shared links show the same list.
 */
export function SearchTable<T extends object, F extends object = Record<string, unknown>>({
  queryKey,
  fetchPage,
  columns,
  rowKey,
  filters,
  searchFields,
  initialFilters,
  toQuery,
  toolbar,
  urlState = false,
  batchActions,
  rowSelectable,
  columnsId,
}: SearchTableProps<T, F>) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<Record<string, unknown>>();
  const [params, setParams] = useSearchParams();
  const [local, setLocal] = useState<ListState<F>>(() => ({ query: initialFilters ?? ({} as F), page: 1, size: PAGE_SIZE_DEFAULT }));

  // Which URL params are filters: the declared ones (and the fixed initial ones); with
  // hand-written filters the names are unknown, so every param but paging/sort and lang.
  const urlNames = useMemo<string[] | null>(
    () => (searchFields && !filters ? [...queryNamesOf(searchFields), ...Object.keys(initialFilters ?? {})] : null),
    [searchFields, filters, initialFilters],
  );
  const isFilterParam = useCallback(
    (name: string) => !RESERVED.includes(name) && !IGNORED.includes(name) && (urlNames === null || urlNames.includes(name)),
    [urlNames],
  );

  const paramsText = params.toString();
  const fromUrl = useMemo<ListState<F>>(() => {
    const p = new URLSearchParams(paramsText);
    const query: Record<string, unknown> = {};
    for (const [name, value] of p) if (isFilterParam(name) && value !== '') query[name] = value;
    const order = p.get('order');
    const sort = p.get('sort') || undefined;
    return {
      query: (Object.keys(query).length > 0 ? query : (initialFilters ?? {})) as F,
      page: positiveInt(p.get('page'), 1),
      size: positiveInt(p.get('size'), PAGE_SIZE_DEFAULT, 100),
      ...(sort ? { sort, order: order === 'asc' ? 'asc' : 'desc' } : {}),
    };
    // initialFilters is read when the URL has no filter; pages pass a constant.
  }, [paramsText, isFilterParam]);

  const state = urlState ? fromUrl : local;

  const update = (next: ListState<F>, replace: boolean) => {
    if (!urlState) {
      setLocal(next);
      return;
    }
    setParams(
      (current) => {
        const out = new URLSearchParams();
        for (const [name, value] of current) if (!RESERVED.includes(name) && !isFilterParam(name)) out.append(name, value);
        for (const [name, value] of Object.entries(dropBlanks(next.query as Record<string, unknown>))) out.set(name, toUrlValue(value));
        if (next.page !== 1) out.set('page', String(next.page));
        if (next.size !== PAGE_SIZE_DEFAULT) out.set('size', String(next.size));
        if (next.sort) {
          out.set('sort', next.sort);
          out.set('order', next.order ?? 'desc');
        }
        return out;
      },
      { replace },
    );
  };

  const sortParams: SortParams = state.sort ? { sort: state.sort, order: state.order ?? 'desc' } : {};
  const result = useQuery({
    queryKey: [...queryKey, state.query, { page: state.page, size: state.size, ...sortParams }],
    queryFn: () => fetchPage({ ...state.query, page: state.page, size: state.size, ...sortParams }),
    placeholderData: keepPreviousData,
  });

  // The form shows the applied filters: at first (a pasted link) and when the URL changes
  // (back/forward). Values typed but not searched yet are kept while only the page changes.
  const queryText = JSON.stringify(state.query);
  const hasForm = Boolean(filters || searchFields);
  useLayoutEffect(() => {
    if (!hasForm || (!urlState && !searchFields)) return;
    const query = state.query as Record<string, unknown>;
    const declared = searchFields ? queryToFields(searchFields, query) : {};
    const rangeNames = new Set(searchFields ? queryNamesOf(searchFields) : []);
    const rest = Object.fromEntries(Object.entries(query).filter(([name]) => !rangeNames.has(name)));
    form.resetFields();
    form.setFieldsValue({ ...rest, ...declared });
  }, [queryText, hasForm]);

  // Selection: kept across pages (rows remembered as they were selected), cleared when the filters change.
  const [selected, setSelected] = useState<ReadonlyMap<Key, T>>(new Map());
  const clear = useCallback(() => setSelected(new Map()), []);
  useEffect(() => {
    clear();
  }, [queryText, clear]);

  const search = (values: Record<string, unknown>) => {
    const clean = searchFields ? fieldsToQuery(searchFields, values) : dropBlanks(values);
    const next = toQuery ? toQuery(clean) : (clean as F);
    // Same filters, same page: the key does not change, and within staleTime the cached page
    // would be shown again. Pressing 查询 asks the server, so fetch anyway.
    if (state.page === 1 && sameQuery(next, state.query)) {
      void result.refetch();
      return;
    }
    update({ ...state, query: next, page: 1 }, false);
  };

  const dictTypes = useMemo(
    () => [...new Set(columns.flatMap((c) => (c.dict ? [c.dict] : [])))].sort(),
    [columns],
  );
  const labels = useDictLabels(dictTypes);
  const sortKeys = new Map<string, string>();
  const pickable = columns.flatMap((c) => {
    const id = columnIdOf(c);
    const title = c.dateTime ? beijingTitle(c.title as ReactNode) : (c.title as ReactNode);
    return c.optional && id ? [{ id, title, hidden: c.optional === 'hidden' }] : [];
  });
  // By default a list's choice is kept under its query key (one per list page).
  const [hiddenColumns, chooseHidden] = useHiddenColumns(columnsId ?? queryKey.map(String).join('.'), pickable);
  const visibleColumns = columns.filter((c) => !c.optional || !hiddenColumns.has(columnIdOf(c) ?? ''));
  const tableColumns: KitColumn<T>[] = visibleColumns.map((column) => {
    const { dict, sortKey: _sortKey, optional: _optional, ...antdColumn } = column;
    // `dateTime` stays: DataTable renders the time columns (withDateTimes).
    const col = { ...antdColumn } as ColumnType<T> & KitColumn<T>;
    if (!col.render && dict) col.render = (value: unknown) => (typeof value === 'string' && value ? (labels.data?.[dict]?.[value] ?? value) : null);
    if (col.sorter) {
      const key = sortKeyOf(column);
      if (key) {
        const columnKey = col.key !== undefined && col.key !== null ? String(col.key) : key;
        col.key = columnKey;
        sortKeys.set(columnKey, key);
        col.sorter = true;
        col.sortOrder = state.sort === key ? (state.order === 'asc' ? 'ascend' : 'descend') : null;
      }
    }
    return col;
  });

  const onSort = (sorter: SorterResult<T> | SorterResult<T>[]) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const key = one?.columnKey !== undefined ? sortKeys.get(String(one.columnKey)) : undefined;
    const { sort: _s, order: _o, ...rest } = state;
    if (!key || !one?.order) update({ ...rest, page: 1 }, true);
    else update({ ...rest, page: 1, sort: key, order: one.order === 'ascend' ? 'asc' : 'desc' }, true);
  };

  const rows = [...selected.values()];
  const rowSelection = batchActions
    ? {
        selectedRowKeys: [...selected.keys()],
        preserveSelectedRowKeys: true,
        getCheckboxProps: (row: T) => ({ disabled: rowSelectable ? !rowSelectable(row) : false }),
        onChange: (keys: Key[], picked: T[]) => {
          setSelected((old) => {
            const next = new Map<Key, T>();
            for (const key of keys) {
              const row = picked.find((r) => r && (r as Record<string, unknown>)[rowKey] === key) ?? old.get(key);
              if (row) next.set(key, row);
            }
            return next;
          });
        },
      }
    : undefined;

  const toolbarFilters = { ...state.query, ...sortParams } as F & SortParams;

  return (
    <div className="kit-search-table">
      {hasForm && (
        <SearchForm form={form} onSearch={search} onReset={() => search({})}>
          {searchFields && <SearchFields fields={searchFields} />}
          {filters}
        </SearchForm>
      )}
      {(toolbar || pickable.length > 0) && (
        <div className="kit-toolbar">
          {toolbar && (typeof toolbar === 'function' ? toolbar(toolbarFilters) : toolbar)}
          {pickable.length > 0 && (
            <div className="kit-toolbar__end">
              <ColumnPicker columns={pickable} hidden={hiddenColumns} onChange={chooseHidden} />
            </div>
          )}
        </div>
      )}
      {batchActions && (
        <div className="kit-batch-bar" data-testid="kit-batch-bar">
          <span className="kit-batch-bar__count">{t('kit.selected', { count: rows.length })}</span>
          {rows.length > 0 && (
            <Button type="link" size="small" onClick={clear}>
              {t('kit.clearSelection')}
            </Button>
          )}
          <div className="kit-batch-bar__actions">{batchActions(rows, clear)}</div>
        </div>
      )}
      <DataTable<T>
        rowKey={rowKey}
        columns={tableColumns}
        dataSource={result.data?.list ?? []}
        loading={result.isFetching}
        scroll={{ x: 'max-content' }}
        rowSelection={rowSelection}
        onChange={(_pagination, _filters, sorter, extra) => {
          if (extra.action === 'sort') onSort(sorter);
        }}
      />
      <div className="kit-pager-row">
        <Pager
          page={state.page}
          size={state.size}
          total={result.data?.total ?? 0}
          onChange={(page, size) => update({ ...state, page, size }, true)}
        />
      </div>
    </div>
  );
}
