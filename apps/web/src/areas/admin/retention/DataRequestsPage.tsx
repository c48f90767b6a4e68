import { useState } from 'react';
import { Button, Form, Input, Radio, Tag, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DATA_REQUEST_KINDS, DATA_REQUEST_STATUSES, type AdminDataRequestItem, type DataRequestItem, type DataRequestStatus } from '@contest/shared';
import { AppDialog, SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { RETENTION_QUERY_KEYS, decideDataRequest, fetchDataRequests } from './retention-api';
import './retention.css';

const FIELDS: SearchField[] = [
  { name: 'kind', label: 'retention:requests.kind', kind: 'select', options: DATA_REQUEST_KINDS.map((k) => ({ value: k, label: `retention:requests.kinds.${k}` })) },
  { name: 'status', label: 'retention:requests.status', kind: 'select', options: DATA_REQUEST_STATUSES.map((s) => ({ value: s, label: `retention:requestStatus.${s}` })) },
];

const STATUS_COLOR: Partial<Record<DataRequestStatus, string>> = { PENDING: 'gold', WAITING: 'processing', DONE: 'success', READY: 'success', REJECTED: 'default', FAILED: 'error' };

/** The status as the console and the participant read it: a waiting deletion says what it waits for. */
export function useRequestStatusText() {
  const { t } = useTranslation('retention');
  return (r: Pick<DataRequestItem, 'status' | 'waitReason' | 'kind'>) => {
    if (r.kind === 'DELETE' && r.status === 'WAITING') return r.waitReason ? `${t('requestStatus.WAITING')}：${t(`wait.${r.waitReason}`)}` : t('requests.processing');
    return t(`requestStatus.${r.status}`);
  };
}

/**
 * 个人数据申请 (/admin/system/data-requests, docs/retention.md "Requests"): participants' exports and
 * deletion requests; a pending deletion is approved or rejected with a reply (data-request:decide).
 */
export function DataRequestsPage() {
  const { t } = useTranslation('retention');
  const statusText = useRequestStatusText();
  const [open, setOpen] = useState<AdminDataRequestItem | null>(null);

  const columns: SearchColumns<AdminDataRequestItem> = [
    { title: t('requests.createdAt'), dataIndex: 'createdAt', dateTime: true, width: 170 },
    { title: t('requests.account'), key: 'account', render: (_, row) => row.account.name || row.account.username },
    { title: t('requests.phone'), key: 'phone', render: (_, row) => row.account.phone ?? '--' },
    { title: t('requests.kind'), dataIndex: 'kind', render: (k: AdminDataRequestItem['kind']) => t(`requests.kinds.${k}`) },
    { title: t('requests.status'), key: 'status', render: (_, row) => <Tag color={STATUS_COLOR[row.status] ?? 'default'}>{statusText(row)}</Tag> },
    { title: t('requests.reason'), dataIndex: 'reason', render: (v: string | null) => (v ? <Typography.Text ellipsis={{ tooltip: v }} style={{ maxWidth: 240 }}>{v}</Typography.Text> : '--') },
    { title: t('requests.reply'), dataIndex: 'reply', render: (v: string | null) => v ?? '--' },
    { title: t('requests.decidedBy'), dataIndex: 'decidedBy', render: (v: string | null) => v ?? '--' },
    { title: t('requests.decidedAt'), dataIndex: 'decidedAt', dateTime: true, width: 170 },
    {
      title: t('requests.decide'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) =>
        row.kind === 'DELETE' && row.status === 'PENDING' ? (
          <Permission codes={['data-request:decide']}>
            <Button type="link" size="small" onClick={() => setOpen(row)} data-testid="data-request-decide">
              {t('requests.decide')}
            </Button>
          </Permission>
        ) : null,
    },
  ];

  return (
    <section className="admin-page" data-testid="data-requests-page">
      <h1 className="admin-page__title">{t('requests.title')}</h1>
      <Typography.Paragraph type="secondary">{t('requests.intro')}</Typography.Paragraph>
      <SearchTable<AdminDataRequestItem> queryKey={RETENTION_QUERY_KEYS.requests} fetchPage={fetchDataRequests} rowKey="id" columns={columns} searchFields={FIELDS} urlState />
      {open && <DecideDialog request={open} onClose={() => setOpen(null)} />}
    </section>
  );
}

/** Approve or reject with a reply, at the version the list showed (two admins at once: the second is told). */
function DecideDialog({ request, onClose }: { request: AdminDataRequestItem; onClose(): void }) {
  const { t } = useTranslation('retention');
  const { message } = useFeedback();
  const statusText = useRequestStatusText();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<{ decision: 'APPROVE' | 'REJECT'; reply: string }>();
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    // The form shows what is missing.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    setSaving(true);
    try {
      const res = await decideDataRequest(request.id, { ...values, version: request.version });
      void message.success(statusText({ kind: 'DELETE', status: res.data.status, waitReason: res.data.waitReason }));
      void queryClient.invalidateQueries({ queryKey: RETENTION_QUERY_KEYS.requests });
      onClose();
    } catch {
      // The client has shown the refusal (STALE: decided by someone else); the list is refreshed.
      void queryClient.invalidateQueries({ queryKey: RETENTION_QUERY_KEYS.requests });
    } finally {
      setSaving(false);
    }
  };

  return (
    <AppDialog open title={t('requests.decideTitle')} onCancel={onClose} onOk={() => void submit()} confirmLoading={saving}>
      <Typography.Paragraph>
        {t('requests.reason')}：{request.reason}
      </Typography.Paragraph>
      <Form form={form} layout="vertical" initialValues={{ decision: 'APPROVE', reply: '' }}>
        <Form.Item name="decision" label={t('requests.decide')}>
          <Radio.Group>
            <Radio value="APPROVE">{t('requests.approve')}</Radio>
            <Radio value="REJECT">{t('requests.reject')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="reply" label={t('requests.reply')} rules={[{ required: true, whitespace: true, message: t('requests.replyRequired') }, { max: 500 }]}>
          <Input.TextArea rows={4} maxLength={500} showCount placeholder={t('requests.replyPlaceholder')} />
        </Form.Item>
      </Form>
    </AppDialog>
  );
}
