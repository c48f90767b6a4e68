import { Button, Space, Tag } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { PrelimAdminRow } from '@contest/shared';
import { ExportButton, SearchTable, type SearchColumns } from '../../../components/admin-kit';
import { ContestStatusTag } from '../../../components/contest';
import { Permission, usePermission } from '../../../lib/permission';
import { useBatchAudit } from '../components/use-batch-audit';
import { ApplicationChars } from './ApplicationChars';
import { PRELIM_FIELDS, TRACK_DICT, auditable } from './fields';
import { PRELIM_PATHS } from './paths';
import { PRELIM_EXPORT_URL, PRELIM_QUERY_KEYS, auditPrelimBatch, fetchPrelims } from './prelim-api';
import './preliminary.css';

const AUDIT = ['preliminary:audit'];

/**
 * 初赛项目管理 (/admin/preliminary/preliminarySearch): search, open, send to the formal check
 * (one, a queue, or a batch of the selected SUBMITTED rows), export.
 */
export function PrelimListPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const can = usePermission();
  const mayAudit = can({ codes: AUDIT });
  const batch = useBatchAudit<PrelimAdminRow>({
    send: auditPrelimBatch,
    refresh: () => void queryClient.invalidateQueries({ queryKey: PRELIM_QUERY_KEYS.all }),
    outcomeLabel: (outcome) => t(`pages.prelim.list.batch.${outcome}`),
    nameLabel: t('pages.prelim.fields.projectName'),
    nameOf: (row) => row.projectName,
  });

  const columns: SearchColumns<PrelimAdminRow> = [
    {
      title: t('pages.prelim.fields.projectName'),
      dataIndex: 'projectName',
      key: 'projectName',
      sorter: true,
      render: (name: string, row) => (
        <Link to={PRELIM_PATHS.detail(row.id)} className="prelim-link">
          {name || t('pages.prelim.untitled')}
        </Link>
      ),
    },
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
    {
      title: t('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(PRELIM_PATHS.detail(row.id))}>
            {t('pages.common.detail')}
          </Button>
          {auditable(row) && (
            <Permission codes={AUDIT}>
              <Button type="link" size="small" onClick={() => void navigate(PRELIM_PATHS.audit(row.id))} data-testid="row-audit">
                {t('pages.prelim.list.audit')}
              </Button>
            </Permission>
          )}
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page" data-testid="prelim-list-page">
      <h1 className="admin-page__title">{t('titles.preliminarySearch')}</h1>
      <SearchTable<PrelimAdminRow>
        queryKey={PRELIM_QUERY_KEYS.list}
        fetchPage={fetchPrelims}
        rowKey="id"
        columns={columns}
        searchFields={PRELIM_FIELDS}
        urlState
        rowSelectable={auditable}
        toolbar={(filters) => (
          <>
            <Permission codes={AUDIT}>
              <Button type="primary" icon={<AuditOutlined />} onClick={() => void navigate(PRELIM_PATHS.queue)} data-testid="start-audit">
                {t('pages.prelim.list.startAudit')}
              </Button>
            </Permission>
            <Permission codes={['preliminary:export']}>
              <ExportButton url={PRELIM_EXPORT_URL} params={filters} fallbackName={t('pages.prelim.list.exportName')} />
            </Permission>
          </>
        )}
        // Without the button there is nothing to do with a selection: no checkboxes either.
        batchActions={mayAudit ? batch.actions : undefined}
      />
      {batch.dialogs}
    </section>
  );
}
