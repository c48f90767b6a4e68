import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Skeleton, Table, type TableProps } from 'antd';
import type { ColumnsType, ColumnType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { SKELETON_ROWS } from '@contest/shared';
import { beijingColumnTitle, formatDateTime } from './kit-data';
import './kit.css';

/** How long the skeleton stays at least once shown (docs/rules/screens.md, "Shared widgets": 500 ms). */
export const SKELETON_MIN_MS = 500;

/** Empty cells show '--' (docs/rules/screens.md, "Shared widgets"): null, undefined, '' and whitespace alike. */
export const EMPTY_CELL = '--';

export function isEmptyCell(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** `true` at once when `on` turns true; `false` only once it has been true for `minMs`. */
export function useMinimumDuration(on: boolean, minMs = SKELETON_MIN_MS): boolean {
  const [shown, setShown] = useState(on);
  const since = useRef<number | null>(on ? Date.now() : null);
  useEffect(() => {
    if (on) {
      since.current ??= Date.now();
      setShown(true);
      return;
    }
    if (since.current === null) return;
    const left = minMs - (Date.now() - since.current);
    const done = () => {
      since.current = null;
      setShown(false);
    };
    if (left <= 0) {
      done();
      return;
    }
    const timer = setTimeout(done, left);
    return () => clearTimeout(timer);
  }, [on, minMs]);
  return shown;
}

/** Wraps each column's render so an empty value shows '--'. Columns with their own render keep it. */
export function withEmptyCells<T>(columns: ColumnsType<T>): ColumnsType<T> {
  return columns.map((column) => {
    if ('children' in column && column.children) {
      return { ...column, children: withEmptyCells(column.children) };
    }
    const col = column as ColumnType<T>;
    const own = col.render;
    return {
      ...col,
      render: (value: unknown, record: T, index: number) => {
        const out: ReactNode = own ? (own(value, record, index) as ReactNode) : (value as ReactNode);
        return isEmptyCell(out) ? EMPTY_CELL : out;
      },
    };
  });
}

const DATE_TIME_WIDTH = 112;

/** A date and time that wraps between the two (copying it still gives "YYYY-MM-DD hh:mm:ss"). */
function DateTimeCell({ value }: { value: string | null }) {
  const text = formatDateTime(value);
  if (!text) return null;
  const [date, time] = text.split(' ');
  return (
    <span className="kit-datetime">
      <span>{date}</span> <span>{time}</span>
    </span>
  );
}

/**
 * An antd column plus `dateTime`: the column holds times. Its title says they are Beijing time
 * (docs/decisions.md, "English"); without its own render an ISO value shows as
 * `YYYY-MM-DD HH:mm:ss` on the Beijing clock, date over time in a narrow column.
 */
export type KitColumn<T> = ColumnsType<T>[number] & { dateTime?: boolean };

/** The kit's column declarations turned into antd's (the time columns' titles and cells). */
export function withDateTimes<T>(columns: readonly KitColumn<T>[]): ColumnsType<T> {
  return columns.map((column) => {
    if ('children' in column && column.children) return { ...column, children: withDateTimes(column.children) };
    const { dateTime, ...rest } = column as ColumnType<T> & { dateTime?: boolean };
    if (!dateTime) return rest;
    const col: ColumnType<T> = { ...rest };
    const title = col.title;
    col.title = typeof title === 'function' ? (props) => beijingColumnTitle(title(props)) : beijingColumnTitle(title);
    if (!col.render) {
      // Date over time in a narrow column: a 1440 px console shows every column of its lists
      // beside the fixed 操作 column (docs/rules/screens.md, "Shared widgets").
      col.render = (value: unknown) => <DateTimeCell value={typeof value === 'string' ? value : null} />;
      col.width ??= DATE_TIME_WIDTH;
    }
    return col;
  });
}

export interface DataTableProps<T> extends Omit<TableProps<T>, 'pagination' | 'loading' | 'columns'> {
  loading?: boolean;
  columns?: readonly KitColumn<T>[];
}

/**
 * The console's table (docs/rules/screens.md, "Shared widgets"): a skeleton of six rows while the first page loads,
 * 请求加载中.... over the rows while a later page loads, 暂无相关信息 when empty, '--' in empty cells. Paging is the separate <Pager/>. A table wider
 * than its card scrolls inside it (on a phone the columns never widen the page); a caller's
 * own `scroll` replaces that.
 */
export function DataTable<T extends object>({ loading = false, columns = [], dataSource, className, ...rest }: DataTableProps<T>) {
  const { t } = useTranslation('admin');
  const empty = !dataSource || dataSource.length === 0;
  const skeleton = useMinimumDuration(loading && empty);
  if (skeleton) {
    return (
      <div className="kit-table-skeleton" data-testid="table-skeleton" aria-busy="true">
        {Array.from({ length: SKELETON_ROWS }, (_, i) => (
          <Skeleton.Input key={i} active block size="small" className="kit-table-skeleton__row" />
        ))}
      </div>
    );
  }
  return (
    <Table<T>
      size="middle"
      scroll={{ x: 'max-content' }}
      {...rest}
      className={className ? `kit-table ${className}` : 'kit-table'}
      columns={withEmptyCells(withDateTimes(columns))}
      dataSource={dataSource}
      // A refetch over rows already shown (paging, sorting, a new search): the spec's 请求加载中.... over them.
      loading={loading ? { spinning: true, description: t('kit.requestLoading') } : false}
      pagination={false}
      locale={{ emptyText: t('kit.emptyTable') }}
    />
  );
}
