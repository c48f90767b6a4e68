import type { ReactNode } from 'react';
import { Button, Space } from 'antd';
import type { TFunction } from 'i18next';
import { Link, useNavigate } from 'react-router';
import type { SearchColumn, SearchColumns } from '../../../../components/admin-kit';
import type { AuditedWorkflow } from './workflow';

/**
 * A list's columns: the record's name as a link to `path` (sortable), the area's columns, then
 * the actions pinned right: 详情, then what the page adds (审核, 提醒).
 */
export function useWorkflowColumns<R extends { id: string }, D>(
  workflow: AuditedWorkflow<R, D>,
  t: TFunction<'admin'>,
  columns: SearchColumns<R>,
  path: (id: string) => string,
  extra: (row: R) => ReactNode,
): SearchColumns<R> {
  const navigate = useNavigate();
  const name: SearchColumn<R> = {
    title: t(workflow.words.name),
    dataIndex: workflow.nameField,
    key: workflow.nameField,
    sorter: true,
    render: (value: string, row: R) => (
      <Link to={path(row.id)} className={workflow.classes.link}>
        {value || t(workflow.words.untitled)}
      </Link>
    ),
  };
  const actions: SearchColumn<R> = {
    title: t('kit.actions'),
    key: 'actions',
    fixed: 'right',
    render: (_, row: R) => (
      <Space size={0}>
        <Button type="link" size="small" onClick={() => void navigate(path(row.id))}>
          {t('pages.common.detail')}
        </Button>
        {extra(row)}
      </Space>
    ),
  };
  return [name, ...columns, actions];
}
