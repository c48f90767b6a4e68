import { useState } from 'react';
import { Descriptions, Select, Space, Tag, Typography } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE_DEFAULT, type BroadcastChannel, type BroadcastRecord, type BroadcastRecordStatus } from '@contest/shared';
import { DataTable, Pager, beijingTitle, formatDateTime, type KitColumn } from '../../../components/admin-kit';
import { SideDrawer } from '../../../components/admin-kit/SideDrawer';
import { MESSAGING_QUERY_KEYS, fetchBatchDetail } from './messaging-api';
import { BatchStatusTag } from './BatchStatusTag';
import { useSegmentText } from './SegmentPicker';

const RECORD_COLOR: Record<BroadcastRecordStatus, string> = {
  QUEUED: 'default',
  SENDING: 'processing',
  SENT: 'success',
  FAILED: 'error',
  READ: 'success',
  UNREAD: 'default',
};

const STATUS_FILTERS: Record<BroadcastChannel, BroadcastRecordStatus[]> = {
  INSITE: ['READ', 'UNREAD'],
  SMS: ['QUEUED', 'SENDING', 'SENT', 'FAILED'],
  EMAIL: ['QUEUED', 'SENDING', 'SENT', 'FAILED'],
};

/**
 * One bulk send: its summary (email: the subject and the text as written, before variables are
 * filled) and one record per recipient (SMS/email: the masked phone or address, status, the
 * gateway's or mail server's answer and attempts, failures first; in-site: read or not).
 */
export function BatchDrawer({ batchId, onClose }: { batchId: string | null; onClose(): void }) {
  const { t } = useTranslation('messaging');
  const segmentText = useSegmentText();
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<BroadcastRecordStatus | undefined>(undefined);
  const params = { page, size: PAGE_SIZE_DEFAULT, ...(status ? { status } : {}) };
  const detail = useQuery({
    queryKey: [...MESSAGING_QUERY_KEYS.detail(batchId ?? ''), params],
    queryFn: () => fetchBatchDetail(batchId!, params),
    enabled: batchId !== null,
    placeholderData: keepPreviousData,
    // Records change while the dispatcher sends: keep them fresh while the drawer is open.
    refetchInterval: (query) => {
      const b = query.state.data?.batch;
      return b && (b.status === 'QUEUED' || b.status === 'RUNNING' || (b.pending ?? 0) > 0) ? 3000 : false;
    },
  });
  const batch = detail.data?.batch;
  const channel = batch?.channel ?? 'INSITE';
  const insite = channel === 'INSITE';

  const columns: KitColumn<BroadcastRecord>[] = [
    { title: t('record.name'), dataIndex: 'name' },
    { title: t('record.username'), dataIndex: 'username' },
    ...(insite ? [] : [{ title: channel === 'SMS' ? t('record.phone') : t('record.email'), dataIndex: 'to' }]),
    {
      title: t('record.status'),
      dataIndex: 'status',
      render: (s: BroadcastRecordStatus) => <Tag color={RECORD_COLOR[s]}>{t(`record.statuses.${s}`)}</Tag>,
    },
    ...(insite
      ? [{ title: t('record.readAt'), dataIndex: 'readAt', dateTime: true }]
      : [
          {
            title: t('record.providerAnswer'),
            dataIndex: 'providerAnswer',
            render: (v: string | null) => (v ? <Typography.Text className="messaging-answer">{v}</Typography.Text> : null),
          },
          { title: t('record.attempts'), dataIndex: 'attempts' },
          { title: t('record.sentAt'), dataIndex: 'sentAt', dateTime: true },
        ]),
  ];

  const close = () => {
    setPage(1);
    setStatus(undefined);
    onClose();
  };

  return (
    <SideDrawer open={batchId !== null} onClose={close} title={insite ? t('detail.title') : t('actions.records')} data-testid="batch-drawer">
      {batch && (
        <Space orientation="vertical" size="large" style={{ width: '100%' }}>
          <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }} title={t('detail.summary')}>
            {channel === 'SMS' ? (
              <Descriptions.Item label={t('fields.smsText')} span="filled">
                <span className="messaging-sample__text">{batch.body}</span>
              </Descriptions.Item>
            ) : (
              <Descriptions.Item label={t('fields.title')} span="filled">
                <span className="messaging-sample__text">{batch.title}</span>
              </Descriptions.Item>
            )}
            {channel === 'EMAIL' && (
              <Descriptions.Item label={t('fields.body')} span="filled">
                <span className="messaging-sample__text" data-testid="batch-body">
                  {batch.body}
                </span>
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('fields.segment')} span="filled">
              {segmentText(batch.segment)}
            </Descriptions.Item>
            <Descriptions.Item label={t('fields.status')}>
              <BatchStatusTag batch={batch} />
            </Descriptions.Item>
            <Descriptions.Item label={t('fields.total')}>{batch.total}</Descriptions.Item>
            <Descriptions.Item label={insite ? t('fields.delivered') : t('fields.sent')}>{batch.delivered}</Descriptions.Item>
            {insite ? (
              <Descriptions.Item label={t('fields.read')}>{batch.read}</Descriptions.Item>
            ) : (
              <Descriptions.Item label={t('fields.failed')}>
                {batch.failed} / {t('fields.pending')} {batch.pending}
              </Descriptions.Item>
            )}
            <Descriptions.Item label={t('detail.sender')}>{batch.sender?.name ?? '--'}</Descriptions.Item>
            <Descriptions.Item label={beijingTitle(t('detail.createdAt'))}>{formatDateTime(batch.createdAt)}</Descriptions.Item>
            {batch.recalledAt && <Descriptions.Item label={beijingTitle(t('detail.recalledAt'))}>{formatDateTime(batch.recalledAt)}</Descriptions.Item>}
          </Descriptions>

          <div>
            <div className="messaging-records__bar">
              <Typography.Title level={5} style={{ margin: 0 }}>
                {t('detail.recipients')}
              </Typography.Title>
              <Select<BroadcastRecordStatus | 'ALL'>
                value={status ?? 'ALL'}
                onChange={(v) => {
                  setStatus(v === 'ALL' ? undefined : v);
                  setPage(1);
                }}
                options={[{ value: 'ALL' as const, label: t('detail.all') }, ...STATUS_FILTERS[channel].map((s) => ({ value: s, label: t(`record.statuses.${s}`) }))]}
                aria-label={t('detail.statusFilter')}
                style={{ minWidth: 140 }}
                data-testid="records-status"
              />
            </div>
            <DataTable<BroadcastRecord>
              rowKey={(r) => r.accountId ?? `${r.username}-${r.to}`}
              columns={columns}
              dataSource={detail.data?.records.list ?? []}
              loading={detail.isFetching}
              scroll={{ x: 'max-content' }}
              data-testid="records-table"
            />
            <div className="kit-pager-row">
              <Pager page={page} total={detail.data?.records.total ?? 0} onChange={(p) => setPage(p)} />
            </div>
          </div>
        </Space>
      )}
    </SideDrawer>
  );
}
