import { useTranslation } from 'react-i18next';
import type { PrelimAdminRow } from '@contest/shared';
import type { SearchColumns } from '../../../components/admin-kit';
import { AuditedDraftsPage } from '../components/audited-submission';
import { ApplicationChars } from './ApplicationChars';
import { PRELIM_DRAFT_FIELDS, TRACK_DICT } from './fields';
import { PRELIM_AUDIT } from './prelim-audit';
import './prelim.css';

/** 初赛草稿 (/admin/preliminary/preliminaryBox): materials saved but not submitted; read-only, with reminders. */
export function PrelimDraftsPage() {
  const { t } = useTranslation('admin');

  const columns: SearchColumns<PrelimAdminRow> = [
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
  ];

  return <AuditedDraftsPage workflow={PRELIM_AUDIT} searchFields={PRELIM_DRAFT_FIELDS} columns={columns} />;
}
