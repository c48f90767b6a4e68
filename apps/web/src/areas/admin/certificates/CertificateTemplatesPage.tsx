import { Button, Space, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { CERTIFICATE_KINDS, type CertificateTemplateRow } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission, usePermission } from '../../../lib/permission';
import { CERTIFICATE_QUERY_KEYS, fetchTemplates, setTemplateEnabled } from './certificates-api';
import { CERTIFICATE_PATHS } from './certificate-paths';
import '../admin-pages.css';
import './certificates.css';

const FIELDS: SearchField[] = [
  { name: 'kind', label: 'certificates:templates.filters.kind', kind: 'select', options: CERTIFICATE_KINDS.map((k) => ({ value: k, label: `certificates:kind.${k}` })) },
  { name: 'keyword', label: 'certificates:templates.filters.keyword', kind: 'text', placeholder: 'certificates:templates.filters.keywordPlaceholder' },
];

/**
 * 证书模板 (/admin/results/certificate-templates, docs/certificates.md, "Templates"): every template
 * with its kind, award level, paper, current version and state; filters in the URL. Holders of
 * certificate:manage create, edit (each save a new version) and enable or disable templates.
 */
export function CertificateTemplatesPage() {
  const { t } = useTranslation('certificates');
  const navigate = useNavigate();
  const can = usePermission();
  const manage = can({ codes: ['certificate:manage'] });
  const queryClient = useQueryClient();
  const { message } = useFeedback();

  const toggle = async (row: CertificateTemplateRow) => {
    try {
      await setTemplateEnabled(row.id, !row.enabled);
      void message.success(t('templates.toggled'));
      await queryClient.invalidateQueries({ queryKey: CERTIFICATE_QUERY_KEYS.templates });
    } catch {
      // The client has shown the refusal.
    }
  };

  const columns: SearchColumns<CertificateTemplateRow> = [
    {
      title: t('templates.columns.name'),
      dataIndex: 'name',
      key: 'name',
      sorter: true,
      render: (name: string, row) => (
        <Link to={CERTIFICATE_PATHS.template(row.id)} data-testid="template-name">
          {name}
        </Link>
      ),
    },
    { title: t('templates.columns.kind'), dataIndex: 'kind', render: (kind: CertificateTemplateRow['kind']) => t(`kind.${kind}`) },
    {
      title: t('templates.columns.awardLevel'),
      dataIndex: 'awardLevel',
      render: (level: string | null, row) => (row.kind === 'AWARD' ? level || t('common.allLevels') : '--'),
    },
    {
      title: t('templates.columns.page'),
      key: 'page',
      render: (_, row) => t('templates.pageText', { size: t(`pageSize.${row.pageSize}`), orientation: t(`orientation.${row.orientation}`) }),
    },
    { title: t('templates.columns.version'), dataIndex: 'version', render: (n: number) => t('common.versionN', { n }) },
    {
      title: t('templates.columns.enabled'),
      dataIndex: 'enabled',
      render: (enabled: boolean) => <Tag color={enabled ? 'success' : 'default'}>{enabled ? t('common.enabled') : t('common.disabled')}</Tag>,
    },
    { title: t('templates.columns.documents'), dataIndex: 'documentCount' },
    { title: t('templates.columns.updatedAt'), dataIndex: 'updatedAt', key: 'updatedAt', dateTime: true, sorter: true },
    { title: t('templates.columns.updatedBy'), dataIndex: 'updatedBy', render: (v: string | null) => v || '--' },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(CERTIFICATE_PATHS.template(row.id))} data-testid="template-edit">
            {t('templates.edit')}
          </Button>
          {manage && (
            <Button type="link" size="small" onClick={() => void toggle(row)} data-testid="template-toggle">
              {row.enabled ? t('templates.disable') : t('templates.enable')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <section className="admin-page certificates-admin" data-testid="certificate-templates-page">
      <h1 className="admin-page__title">{t('templates.title')}</h1>
      <Typography.Paragraph type="secondary" className="certificates-admin__intro">
        {t('templates.intro')}
      </Typography.Paragraph>
      <SearchTable<CertificateTemplateRow>
        queryKey={CERTIFICATE_QUERY_KEYS.templates}
        fetchPage={fetchTemplates}
        rowKey="id"
        columns={columns}
        searchFields={FIELDS}
        urlState
        toolbar={
          <Permission codes={['certificate:manage']}>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => void navigate(CERTIFICATE_PATHS.newTemplate)} data-testid="template-new">
              {t('templates.new')}
            </Button>
          </Permission>
        }
      />
    </section>
  );
}
