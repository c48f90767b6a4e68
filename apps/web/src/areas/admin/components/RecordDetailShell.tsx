import type { ReactNode } from 'react';
import { Button, Result, Skeleton } from 'antd';
import type { UseQueryResult } from '@tanstack/react-query';

export interface RecordDetailShellProps<T> {
  /** The record's query (a sign-up, materials, a draft...). */
  query: UseQueryResult<T>;
  /** Added to `admin-page` on the section. */
  className: string;
  testId: string;
  /** The area's own words for a failed load and its retry button. */
  loadFailed: string;
  reload: string;
  children(data: T): ReactNode;
}

/**
 * The frame of a record's detail page: a warning with a retry when the load failed, a skeleton
 * while it loads, then the page's section around what `children` makes of the record.
 */
export function RecordDetailShell<T>({ query, className, testId, loadFailed, reload, children }: RecordDetailShellProps<T>) {
  if (query.isError) {
    // The failure is the page's subject: its title is the page's h1.
    return <Result status="warning" title={<h1 className="admin-result-title">{loadFailed}</h1>} extra={<Button onClick={() => void query.refetch()}>{reload}</Button>} />;
  }
  if (!query.data) return <Skeleton active paragraph={{ rows: 10 }} />;
  return (
    <section className={`admin-page ${className}`} data-testid={testId}>
      {children(query.data)}
    </section>
  );
}
