import { Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { TEAM_DICT_TYPES, type TeamAdminRow } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { usePermission } from '../../../lib/permission';
import { piiValue } from '../components/PiiText';
import { QUALIFICATION_PATHS } from './paths';
import { TEAM_QUERY_KEYS, fetchDrafts } from './team-api';
import { REMIND_DRAFTS, useRemindDrafts } from './use-remind-drafts';
import './qualification.css';

export const DRAFT_FIELDS: SearchField[] = [
  { name: 'orgName', label: 'pages.qualification.fields.orgName', kind: 'text' },
  { name: 'teamName', label: 'pages.qualification.fields.teamName', kind: 'text' },
  { name: 'orgType', label: 'pages.qualification.fields.orgType', kind: 'dict', dictType: TEAM_DICT_TYPES.orgType },
  { name: 'track', label: 'pages.qualification.fields.track', kind: 'dict', dictType: TEAM_DICT_TYPES.track },
  { name: 'region', label: 'pages.qualification.fields.region', kind: 'dict', dictType: TEAM_DICT_TYPES.region },
];

/** 报名草稿 (/admin/competition/qualification-draft): teams that have not submitted; read-only, with reminders. */
export function QualificationDraftPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const reminders = useRemindDrafts();
  const mayRemind = usePermission()({ codes: REMIND_DRAFTS });

  const columns: SearchColumns<TeamAdminRow> = [
    {
      title: t('pages.qualification.fields.teamName'),
      dataIndex: 'teamName',
      key: 'teamName',
      sorter: true,
      render: (name: string, row) => (
        <Link to={QUALIFICATION_PATHS.draft(row.id)} className="qualification-link">
          {name || t('pages.qualification.untitled')}
        </Link>
      ),
    },
    { title: t('pages.qualification.fields.orgName'), dataIndex: 'orgName', key: 'orgName', sorter: true },
    { title: t('pages.qualification.fields.orgType'), dataIndex: 'orgType', dict: TEAM_DICT_TYPES.orgType },
    { title: t('pages.qualification.fields.track'), dataIndex: 'track', dict: TEAM_DICT_TYPES.track },
    {
      title: t('pages.qualification.fields.leader'),
      key: 'leader',
      render: (_, row) =>
        row.leaderName || row.leaderPhone ? (
          <>
            {row.leaderName} {piiValue('team', row.id, 'leaderPhone', row.leaderPhone)}
          </>
        ) : null,
    },
    { title: t('pages.qualification.fields.account'), dataIndex: 'ownerUsername' },
    { title: t('pages.qualification.fields.createdAt'), dataIndex: 'createdAt', key: 'createdAt', dateTime: true, sorter: true },
    { title: t('pages.qualification.fields.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', dateTime: true, sorter: true },
    { title: t('pages.qualificationDraft.lastRemindedOn'), dataIndex: 'lastRemindedOn' },
    {
      title: t('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(QUALIFICATION_PATHS.draft(row.id))}>
            {t('pages.common.detail')}
          </Button>
          {reminders.rowButton(row.id)}
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="qualification-draft-page">
      <h1 className="admin-page__title">{t('titles.qualificationDraft')}</h1>
      <SearchTable<TeamAdminRow>
        queryKey={TEAM_QUERY_KEYS.drafts}
        fetchPage={fetchDrafts}
        rowKey="id"
        columns={columns}
        searchFields={DRAFT_FIELDS}
        urlState
        toolbar={reminders.allButton}
        // Without the button there is nothing to do with a selection: no checkboxes either.
        batchActions={mayRemind ? reminders.selectedButton : undefined}
      />
    </section>
  );
}
