import { Alert, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { MessageTemplateItem } from '@contest/shared';
import { DataTable, formatDateTime } from '../../../components/admin-kit';
import { MESSAGING_QUERY_KEYS, fetchTemplates } from './messaging-api';

/**
 * The SMS templates (the templates module, GET /admin/templates?channel=SMS): event notices and
 * bulk templates with their text and the gateway's template id. Read-only here.
 */
export function SmsTemplatesTab() {
  const { t } = useTranslation('messaging');
  const { data, isFetching, isError } = useQuery({
    queryKey: MESSAGING_QUERY_KEYS.templates('SMS'),
    queryFn: () => fetchTemplates('SMS'),
    retry: false,
  });

  const columns: ColumnsType<MessageTemplateItem> = [
    {
      title: t('templates.name'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Space orientation="vertical" size={0}>
          <strong>{name}</strong>
          {row.eventName && row.eventName !== name && <Typography.Text type="secondary">{row.eventName}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('templates.kind'), dataIndex: 'code', render: (code: string | null) => <Tag>{code ? t('templates.event') : t('templates.bulk')}</Tag> },
    { title: t('templates.smsText'), dataIndex: 'smsText', render: (text: string) => <span className="messaging-sample__text">{text}</span> },
    { title: t('templates.smsTemplateId'), dataIndex: 'smsTemplateId' },
    {
      title: t('templates.enabled'),
      dataIndex: 'enabled',
      render: (enabled: boolean) => <Tag color={enabled ? 'success' : 'default'}>{enabled ? t('templates.on') : t('templates.off')}</Tag>,
    },
    { title: t('templates.updatedAt'), dataIndex: 'updatedAt', render: (v: string | null) => formatDateTime(v) },
  ];

  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="sms-templates">
      <Typography.Paragraph type="secondary">{t('templates.hint')}</Typography.Paragraph>
      {isError && <Alert type="error" showIcon title={t('templates.empty')} />}
      <DataTable<MessageTemplateItem> rowKey="key" columns={columns} dataSource={data?.list ?? []} loading={isFetching} />
    </Space>
  );
}
