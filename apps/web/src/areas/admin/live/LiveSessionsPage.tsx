import { useState } from 'react';
import { Button, Space, Tooltip } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LIVE_MSG, LIVE_SESSION_STATUSES, LIVE_WEB_PATHS, type LiveSessionRow } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { LIVE_QUERY_KEYS, deleteSession, fetchSession, fetchSessions } from './live-api';
import { liveErrorText, liveText } from './live-errors';
import { SessionStatusTag } from './LiveStatusTag';
import { SessionDialog, type SessionTarget } from './SessionDialog';
import './live.css';

const FIELDS: SearchField[] = [
  { name: 'keyword', label: 'liveAdmin:fields.keyword', kind: 'text', placeholder: 'liveAdmin:fields.keywordPlaceholder', width: 220 },
  {
    name: 'status',
    label: 'liveAdmin:fields.status',
    kind: 'select',
    options: LIVE_SESSION_STATUSES.map((status) => ({ value: status, label: `liveAdmin:status.${status}` })),
  },
];

/** The console paths of a session's pages (detail routes of 现场答辩). */
export const livePaths = {
  list: LIVE_WEB_PATHS.admin,
  session: (id: string) => `${LIVE_WEB_PATHS.admin}/${id}`,
  chair: (id: string) => `${LIVE_WEB_PATHS.admin}/${id}/chair`,
  runningOrder: (id: string) => `${LIVE_WEB_PATHS.admin}/${id}/running-order`,
};

/**
 * 决赛管理 > 现场答辩 (docs/live-final.md): the sessions, searched by keyword and status; create,
 * edit, delete while 未开始; open the planning page or the chair's console.
 */
export function LiveSessionsPage() {
  const { t } = useTranslation('liveAdmin');
  const { t: ta } = useTranslation('admin');
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<SessionTarget>(null);

  const refresh = () => void queryClient.invalidateQueries({ queryKey: LIVE_QUERY_KEYS.all });

  const edit = async (row: LiveSessionRow) => {
    try {
      const detail = await fetchSession(row.id);
      setEditing({ ...detail, judgeIds: detail.judgeList.map((j) => j.expertId) });
    } catch {
      // The client has shown why (not found...).
    }
  };

  const remove = (row: LiveSessionRow) =>
    modal.confirm({
      title: t('chair.confirmTitle'),
      content: t('list.deleteConfirm', { name: row.name }),
      okText: ta('kit.ok'),
      cancelText: ta('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await deleteSession(row.id);
          void message.success(liveText(LIVE_MSG.sessionDeleted));
        } catch (e) {
          void message.error(liveErrorText(e) ?? '');
        }
        refresh();
      },
    });

  const columns: SearchColumns<LiveSessionRow> = [
    {
      title: t('fields.name'),
      dataIndex: 'name',
      fixed: 'left',
      render: (name: string, row) => (
        <Link to={livePaths.session(row.id)} data-testid="live-row-name">
          {name}
        </Link>
      ),
    },
    { title: t('fields.venue'), dataIndex: 'venue' },
    { title: t('fields.date'), dataIndex: 'date' },
    { title: t('fields.startTimeBeijing'), dataIndex: 'startTime' },
    {
      title: t('fields.durations'),
      dataIndex: 'presentationMinutes',
      render: (_: number, row) => t('fields.minutesShort', { presentation: row.presentationMinutes, qa: row.qaMinutes }),
    },
    { title: t('fields.judgeCount'), dataIndex: 'judges' },
    { title: t('fields.doneOfProjects'), dataIndex: 'projects', render: (projects: number, row) => `${row.done} / ${projects}` },
    { title: t('fields.status'), dataIndex: 'status', render: (status: LiveSessionRow['status']) => <SessionStatusTag status={status} /> },
    { title: t('fields.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', dateTime: true },
    {
      title: ta('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => void navigate(livePaths.session(row.id))} data-testid="live-row-plan">
            {t('list.plan')}
          </Button>
          <Permission codes={['live:chair']}>
            <Button type="link" size="small" onClick={() => void navigate(livePaths.chair(row.id))} data-testid="live-row-chair">
              {t('list.chair')}
            </Button>
          </Permission>
          <Permission codes={['live:plan']}>
            <Button type="link" size="small" disabled={row.status === 'ENDED'} onClick={() => void edit(row)} data-testid="live-row-edit">
              {t('list.edit')}
            </Button>
            <Tooltip title={row.status !== 'PLANNED' ? t('list.deleteNotPlanned') : undefined}>
              <Button type="link" size="small" danger disabled={row.status !== 'PLANNED'} onClick={() => remove(row)} data-testid="live-row-delete">
                {t('list.delete')}
              </Button>
            </Tooltip>
          </Permission>
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="live-sessions-page">
      <h1 className="admin-page__title">{ta('titles.liveFinal')}</h1>
      <SearchTable<LiveSessionRow>
        queryKey={LIVE_QUERY_KEYS.list}
        fetchPage={fetchSessions}
        rowKey="id"
        columns={columns}
        searchFields={FIELDS}
        urlState
        toolbar={
          <Permission codes={['live:plan']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="live-create">
              {t('list.create')}
            </Button>
          </Permission>
        }
      />
      <SessionDialog
        target={editing}
        onClose={() => setEditing(null)}
        onSaved={(id) => {
          refresh();
          if (editing === 'new') void navigate(livePaths.session(id));
        }}
      />
    </section>
  );
}
