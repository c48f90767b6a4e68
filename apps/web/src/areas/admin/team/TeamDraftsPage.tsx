import { useTranslation } from 'react-i18next';
import type { TeamAdminRow } from '@contest/shared';
import type { SearchColumns } from '../../../components/admin-kit';
import { AuditedDraftsPage } from '../components/audited-submission';
import { piiValue } from '../components/PiiText';
import { DRAFT_FIELDS, orgColumns } from './fields';
import { TEAM_AUDIT } from './team-audit';
import './team.css';

/** 报名草稿 (/admin/competition/qualification-draft): teams that have not submitted; read-only, with reminders. */
export function TeamDraftsPage() {
  const { t } = useTranslation('admin');

  const columns: SearchColumns<TeamAdminRow> = [
    ...orgColumns(t),
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
  ];

  return <AuditedDraftsPage workflow={TEAM_AUDIT} searchFields={DRAFT_FIELDS} columns={columns} />;
}
