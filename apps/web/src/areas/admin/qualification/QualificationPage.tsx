import { useState } from 'react';
import { Button, Space } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { TEAM_DICT_TYPES, TEAM_STATUSES, type TeamAdminRow } from '@contest/shared';
import { AuditDialog, ExportButton, SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { ContestStatusTag } from '../../../components/contest';
import { Permission, usePermission } from '../../../lib/permission';
import { useBatchAudit } from '../components/use-batch-audit';
import { piiValue } from '../components/PiiText';
import { QUALIFICATION_PATHS } from './paths';
import { TEAM_EXPORT_URL, TEAM_QUERY_KEYS, batchAuditTeams, fetchTeams } from './team-api';
import { useTeamAudit } from './use-team-audit';
import './qualification.css';

/** The filters of 资格管理 (the export takes the same). */
export const QUALIFICATION_FIELDS: SearchField[] = [
  { name: 'orgName', label: 'pages.qualification.fields.orgName', kind: 'text' },
  { name: 'orgType', label: 'pages.qualification.fields.orgType', kind: 'dict', dictType: TEAM_DICT_TYPES.orgType },
  { name: 'track', label: 'pages.qualification.fields.track', kind: 'dict', dictType: TEAM_DICT_TYPES.track },
  { name: 'region', label: 'pages.qualification.fields.region', kind: 'dict', dictType: TEAM_DICT_TYPES.region },
  {
    name: 'status',
    label: 'pages.qualification.fields.status',
    kind: 'select',
    options: TEAM_STATUSES.map((status) => ({ value: status, label: `files:contest.teamStatus.${status}` })),
  },
  {
    name: 'submitted',
    label: 'pages.qualification.fields.submittedAt',
    kind: 'dateTimeRange',
    fromName: 'submittedFrom',
    toName: 'submittedTo',
  },
];

const auditable = (row: TeamAdminRow) => row.status === 'SUBMITTED';

/** 资格管理 (/admin/competition/qualification): search, audit one or many, export, open the audit queue. */
export function QualificationPage() {
  const { t } = useTranslation('admin');
  const mayAudit = usePermission()({ codes: ['qualification:audit'] });
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEYS.list });
  const auditOne = useTeamAudit(refresh);
  const [single, setSingle] = useState<TeamAdminRow | null>(null);
  const batch = useBatchAudit<TeamAdminRow>({
    send: batchAuditTeams,
    refresh,
    outcomeLabel: (outcome) => t(`pages.qualification.batch.${outcome}`),
    nameLabel: t('pages.qualification.fields.teamName'),
  });

  const columns: SearchColumns<TeamAdminRow> = [
    {
      title: t('pages.qualification.fields.teamName'),
      dataIndex: 'teamName',
      key: 'teamName',
      sorter: true,
      render: (name: string, row) => (
        <Link to={QUALIFICATION_PATHS.detail(row.id)} className="qualification-link">
          {name || t('pages.qualification.untitled')}
        </Link>
      ),
    },
    { title: t('pages.qualification.fields.orgName'), dataIndex: 'orgName', key: 'orgName', sorter: true },
    { title: t('pages.qualification.fields.orgType'), dataIndex: 'orgType', dict: TEAM_DICT_TYPES.orgType },
    { title: t('pages.qualification.fields.track'), dataIndex: 'track', dict: TEAM_DICT_TYPES.track },
    { title: t('pages.qualification.fields.region'), dataIndex: 'region', dict: TEAM_DICT_TYPES.region },
    {
      title: t('pages.qualification.fields.leader'),
      key: 'leader',
      // Name over phone: one column narrower, so the table fits a 1440 screen without scrolling.
      render: (_, row) =>
        row.leaderName || row.leaderPhone ? (
          <span className="qualification-leader">
            {row.leaderName || '--'}
            {row.leaderPhone && <span className="qualification-leader__phone">{piiValue('team', row.id, 'leaderPhone', row.leaderPhone)}</span>}
          </span>
        ) : (
          '--'
        ),
    },
    {
      title: t('pages.qualification.fields.status'),
      dataIndex: 'status',
      render: (_, row) => <ContestStatusTag kind="team" status={row.status} />,
    },
    { title: t('pages.qualification.fields.submittedAt'), dataIndex: 'submittedAt', key: 'submittedAt', dateTime: true, sorter: true },
    { title: t('pages.qualification.fields.auditedAt'), dataIndex: 'auditedAt', dateTime: true },
    {
      title: t('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(QUALIFICATION_PATHS.detail(row.id))}>
            {t('pages.common.detail')}
          </Button>
          {auditable(row) && (
            <Permission codes={['qualification:audit']}>
              <Button type="link" size="small" onClick={() => setSingle(row)} data-testid="row-audit">
                {t('pages.qualification.audit')}
              </Button>
            </Permission>
          )}
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="qualification-page">
      <h1 className="admin-page__title">{t('titles.qualification')}</h1>
      <SearchTable<TeamAdminRow>
        queryKey={TEAM_QUERY_KEYS.list}
        fetchPage={fetchTeams}
        rowKey="id"
        columns={columns}
        searchFields={QUALIFICATION_FIELDS}
        urlState
        rowSelectable={auditable}
        toolbar={(filters) => (
          <>
            <Permission codes={['qualification:audit']}>
              <Button type="primary" icon={<AuditOutlined />} onClick={() => void navigate(QUALIFICATION_PATHS.audit)}>
                {t('pages.qualification.startAudit')}
              </Button>
            </Permission>
            <Permission codes={['qualification:export']}>
              <ExportButton url={TEAM_EXPORT_URL} params={filters} fallbackName={t('pages.qualification.exportName')} />
            </Permission>
          </>
        )}
        // Without the button there is nothing to do with a selection: no checkboxes either.
        batchActions={mayAudit ? batch.actions : undefined}
      />
      <AuditDialog
        open={single !== null}
        title={single ? t('pages.qualification.auditOf', { name: single.teamName || single.orgName }) : undefined}
        onClose={() => setSingle(null)}
        onSubmit={(decision) => (single ? auditOne(single.id, single.version, decision) : undefined)}
      />
      {batch.dialogs}
    </section>
  );
}
