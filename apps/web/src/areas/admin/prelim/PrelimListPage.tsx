import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PrelimAdminRow } from '@contest/shared';
import type { SearchColumns } from '../../../components/admin-kit';
import { ContestStatusTag } from '../../../components/contest';
import { AuditedListPage } from '../components/audited-submission';
import { ApplicationChars } from './ApplicationChars';
import { PRELIM_FIELDS, TRACK_DICT } from './fields';
import { PRELIM_AUDIT } from './prelim-audit';
import './prelim.css';

/**
 * 初赛项目管理 (/admin/preliminary/preliminarySearch): search, open, send to the formal check
 * (one, a queue, or a batch of the selected SUBMITTED rows), export.
 */
export function PrelimListPage() {
  const { t } = useTranslation('admin');

  const columns: SearchColumns<PrelimAdminRow> = [
    { title: t('pages.prelim.fields.teamName'), dataIndex: 'teamName' },
    { title: t('pages.prelim.fields.orgName'), dataIndex: 'orgName' },
    { title: t('pages.prelim.fields.track'), dataIndex: 'track', dict: TRACK_DICT },
    {
      title: t('pages.prelim.fields.status'),
      dataIndex: 'status',
      render: (_, row) => <ContestStatusTag kind="prelim" status={row.status} />,
    },
    {
      title: t('pages.prelim.fields.applicationChars'),
      dataIndex: 'applicationChars',
      key: 'applicationChars',
      sorter: true,
      render: (_, row) => <ApplicationChars chars={row.applicationChars} max={row.maxApplicationChars} compact />,
    },
    { title: t('pages.prelim.fields.submittedAt'), dataIndex: 'submittedAt', key: 'submittedAt', dateTime: true, sorter: true },
    {
      title: t('pages.prelim.fields.inFinal'),
      dataIndex: 'inFinal',
      render: (inFinal: boolean) =>
        inFinal ? (
          <Tag color="gold" data-testid="in-final">
            {t('pages.prelim.yes')}
          </Tag>
        ) : (
          t('pages.prelim.no')
        ),
    },
  ];

  return <AuditedListPage workflow={PRELIM_AUDIT} searchFields={PRELIM_FIELDS} columns={columns} />;
}
