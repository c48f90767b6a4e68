import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { PrelimAdminRow } from '@contest/shared';
import { SearchTable, type SearchColumns } from '../../../components/admin-kit';
import { usePermission } from '../../../lib/permission';
import { ApplicationChars } from './ApplicationChars';
import { PRELIM_DRAFT_FIELDS, TRACK_DICT } from './fields';
import { PRELIM_PATHS } from './paths';
import { PRELIM_QUERY_KEYS, fetchPrelimDrafts } from './prelim-api';
import { REMIND_PRELIM, useRemindPrelim } from './use-remind-prelim';
import './preliminary.css';

/** 初赛草稿 (/admin/preliminary/preliminaryBox): materials saved but not submitted; read-only, with reminders. */
export function PrelimDraftsPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const reminders = useRemindPrelim();
  const mayRemind = usePermission()({ codes: REMIND_PRELIM });

  const columns: SearchColumns<PrelimAdminRow> = [
    {
      title: t('pages.prelim.fields.projectName'),
      dataIndex: 'projectName',
      key: 'projectName',
      sorter: true,
      render: (name: string, row) => (
        <Link to={PRELIM_PATHS.draft(row.id)} className="prelim-link">
          {name || t('pages.prelim.untitled')}
        </Link>
      ),
    },
    { title: t('pages.prelim.fields.teamName'), dataIndex: 'teamName' },
    { title: t('pages.prelim.fields.orgName'), dataIndex: 'orgName' },
    { title: t('pages.prelim.fields.track'), dataIndex: 'track', dict: TRACK_DICT },
    {
      title: t('pages.prelim.fields.applicationChars'),
      dataIndex: 'applicationChars',
      render: (_, row) => (row.applicationChars === null ? null : <ApplicationChars chars={row.applicationChars} max={row.maxApplicationChars} compact />),
    },
    { title: t('pages.prelim.fields.account'), dataIndex: 'ownerUsername' },
    { title: t('pages.prelim.fields.createdAt'), dataIndex: 'createdAt', key: 'createdAt', dateTime: true, sorter: true },
    { title: t('pages.prelim.fields.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', dateTime: true, sorter: true },
    {
      title: t('pages.prelim.fields.lastRemindedOn'),
      dataIndex: 'lastRemindedOn',
      render: (day: string | null) => day ?? t('pages.prelim.drafts.never'),
    },
    {
      title: t('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(PRELIM_PATHS.draft(row.id))}>
            {t('pages.common.detail')}
          </Button>
          {reminders.rowButton(row.id)}
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="prelim-drafts-page">
      <h1 className="admin-page__title">{t('titles.preliminaryBox')}</h1>
      <SearchTable<PrelimAdminRow>
        queryKey={PRELIM_QUERY_KEYS.drafts}
        fetchPage={fetchPrelimDrafts}
        rowKey="id"
        columns={columns}
        searchFields={PRELIM_DRAFT_FIELDS}
        urlState
        toolbar={reminders.allButton}
        // Without the button there is nothing to do with a selection: no checkboxes either.
        batchActions={mayRemind ? reminders.selectedButton : undefined}
      />
    </section>
  );
}
