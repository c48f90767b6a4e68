import { useTranslation } from 'react-i18next';
import { TEAM_DICT_TYPES, type TeamAdminRow } from '@contest/shared';
import type { SearchColumns } from '../../../components/admin-kit';
import { ContestStatusTag } from '../../../components/contest';
import { AuditedListPage } from '../components/audited-submission';
import { piiValue } from '../components/PiiText';
import { TEAM_FIELDS, orgColumns } from './fields';
import { TEAM_AUDIT } from './team-audit';
import './team.css';

/** 资格管理 (/admin/competition/qualification): search, audit one or many, export, open the audit queue. */
export function TeamListPage() {
  const { t } = useTranslation('admin');

  const columns: SearchColumns<TeamAdminRow> = [
    ...orgColumns(t, { orgTypeOptional: true }),
    { title: t('pages.qualification.fields.region'), dataIndex: 'region', dict: TEAM_DICT_TYPES.region, optional: 'hidden' },
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
  ];

  return <AuditedListPage workflow={TEAM_AUDIT} searchFields={TEAM_FIELDS} columns={columns} />;
}
