import type { ReactNode } from 'react';
import { SearchTable, type SearchTableProps } from '../../../../components/admin-kit';

export type WorkflowListProps<R extends { id: string }> = Omit<SearchTableProps<R, Record<string, unknown>>, 'rowKey' | 'urlState'> & {
  testId: string;
  title: string;
  /** Dialogs of the page, after the table. */
  children?: ReactNode;
};

/** The frame of the workflow's lists: the page's title over its SearchTable (rows by id, filters in the URL). */
export function WorkflowList<R extends { id: string }>({ testId, title, children, ...table }: WorkflowListProps<R>) {
  return (
    <section className="admin-page" data-testid={testId}>
      <h1 className="admin-page__title">{title}</h1>
      <SearchTable<R> rowKey="id" urlState {...table} />
      {children}
    </section>
  );
}
