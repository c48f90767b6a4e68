import { Button, Space } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { TEAM_DICT_TYPES, type TeamAdminRow } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { QUALIFICATION_PATHS } from './paths';
import { TEAM_QUERY_KEYS, fetchDrafts } from './team-api';
import { useRemindDrafts } from './use-remind-drafts';
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
  const { modal } = useFeedback();
  const { remind, busy } = useRemindDrafts();

  const remindAll = () => {
    modal.confirm({
      title: t('pages.common.confirmTitle'),
      content: t('pages.qualificationDraft.confirmAll'),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      onOk: () => remind({ all: true }, 'all'),
    });
  };

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
      render: (_, row) => [row.leaderName, row.leaderPhone].filter(Boolean).join(' '),
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
          <Permission codes={['qualification-draft:remind']}>
            <Button
              type="link"
              size="small"
              loading={busy === row.id}
              onClick={() => void remind({ ids: [row.id] }, row.id)}
              data-testid="row-remind"
            >
              {t('pages.qualificationDraft.remind')}
            </Button>
          </Permission>
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
        toolbar={
          <Permission codes={['qualification-draft:remind']}>
            <Button icon={<BellOutlined />} loading={busy === 'all'} onClick={remindAll} data-testid="remind-all">
              {t('pages.qualificationDraft.remindAll')}
            </Button>
          </Permission>
        }
        batchActions={(rows, clear) => (
          <Permission codes={['qualification-draft:remind']}>
            <Button
              size="small"
              disabled={rows.length === 0}
              loading={busy === 'selected'}
              onClick={() => void remind({ ids: rows.map((r) => r.id) }, 'selected').then(clear)}
              data-testid="remind-selected"
            >
              {t('pages.qualificationDraft.remindSelected')}
            </Button>
          </Permission>
        )}
      />
    </section>
  );
}
