import { useCallback, useEffect, useState } from 'react';
import { Button, Space, Typography } from 'antd';
import { SendOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BROADCAST_MSG as M, BROADCAST_SEND_BUTTON, BROADCAST_STATUSES, type BroadcastBatch, type BroadcastChannel, type Page } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { BatchDrawer } from './BatchDrawer';
import { BatchStatusTag, isActive } from './BatchStatusTag';
import { ComposeDialog } from './ComposeDialog';
import { MESSAGING_QUERY_KEYS, fetchBatches, recallBroadcast } from './messaging-api';
import { useMessagingMessage } from './messaging-messages';
import { useSegmentText } from './SegmentPicker';

const FIELDS: SearchField[] = [
  { name: 'keyword', label: 'messaging:filters.keyword', kind: 'text', placeholder: 'messaging:filters.keywordPlaceholder', width: 220 },
  {
    name: 'status',
    label: 'messaging:filters.status',
    kind: 'select',
    options: BROADCAST_STATUSES.map((s) => ({ value: s, label: `messaging:status.${s}` })),
  },
  // A channel's sends of one month: SMS and email are billed and reconciled by the month.
  { name: 'month', label: 'messaging:filters.month', kind: 'month' },
];

const COMPOSE_LABEL = { INSITE: 'actions.composeInsite', SMS: 'actions.composeSms', EMAIL: 'actions.composeEmail' } as const satisfies Record<BroadcastChannel, string>;

/** How often a list with a running send asks again. */
export const POLL_MS = 3000;
const EXCERPT = 40;

const percent = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 100) : 0);

/**
 * The sends of one channel: the list (with read counts for in-site messages, sent / failed /
 * waiting for SMS and email), progress while a send runs (the list polls), the compose dialog, the
 * per-recipient drawer, and 撤回 for in-site messages.
 */
export function BatchList({ channel }: { channel: BroadcastChannel }) {
  const { t } = useTranslation('messaging');
  const { t: ta } = useTranslation('admin');
  const { modal, message } = useFeedback();
  const translate = useMessagingMessage();
  const segmentText = useSegmentText();
  const queryClient = useQueryClient();
  const [composing, setComposing] = useState(false);
  const [openId, setOpenId] = useState<string | null>(null);
  const [polling, setPolling] = useState(false);
  const insite = channel === 'INSITE';

  const refresh = useCallback(() => void queryClient.invalidateQueries({ queryKey: MESSAGING_QUERY_KEYS.all }), [queryClient]);

  // SearchTable owns the query; the page learns from each answer whether a send is still running.
  const fetchPage = useCallback(
    async (params: object): Promise<Page<BroadcastBatch>> => {
      const page = await fetchBatches(channel, params);
      setPolling(page.list.some((b) => isActive(b) || (b.pending ?? 0) > 0));
      return page;
    },
    [channel],
  );

  useEffect(() => {
    if (!polling) return;
    const timer = setInterval(() => void queryClient.invalidateQueries({ queryKey: MESSAGING_QUERY_KEYS.list(channel) }), POLL_MS);
    return () => clearInterval(timer);
  }, [polling, queryClient, channel]);

  const recall = (batch: BroadcastBatch) => {
    modal.confirm({
      title: t('recall.title'),
      content: t('recall.confirm', { title: batch.title }),
      okText: ta('kit.ok'),
      cancelText: ta('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        await recallBroadcast(batch.id);
        void message.success(translate(M.recalled));
        refresh();
      },
    });
  };

  const titleColumn = { title: t('fields.title'), dataIndex: 'title', render: (title: string) => <strong>{title}</strong> };
  const smsColumn = {
    title: t('fields.smsText'),
    dataIndex: 'body',
    render: (body: string) => (
      <Typography.Text className="messaging-excerpt" title={body}>
        {body.length > EXCERPT ? `${body.slice(0, EXCERPT)}…` : body}
      </Typography.Text>
    ),
  };
  const columns: SearchColumns<BroadcastBatch> = [
    // In-site messages and email carry a title (the subject); SMS only its text.
    channel === 'SMS' ? smsColumn : titleColumn,
    { title: t('fields.segment'), dataIndex: 'segment', render: (_: unknown, row) => segmentText(row.segment) },
    { title: t('fields.total'), dataIndex: 'total' },
    ...(insite
      ? [
          { title: t('fields.delivered'), dataIndex: 'delivered' },
          {
            title: t('fields.read'),
            dataIndex: 'read',
            render: (read: number, row: BroadcastBatch) => <span data-testid="batch-read">{t('readRate', { read, rate: percent(read, row.delivered) })}</span>,
          },
        ]
      : [
          { title: t('fields.sent'), dataIndex: 'delivered' },
          { title: t('fields.failed'), dataIndex: 'failed', render: (n: number) => (n ? <Typography.Text type="danger">{n}</Typography.Text> : 0) },
          { title: t('fields.pending'), dataIndex: 'pending' },
        ]),
    { title: t('fields.status'), dataIndex: 'status', render: (_: unknown, row) => <BatchStatusTag batch={row} /> },
    { title: t('fields.sender'), dataIndex: 'sender', render: (sender: BroadcastBatch['sender']) => sender?.name ?? null },
    { title: t('fields.createdAt'), dataIndex: 'createdAt', dateTime: true },
    {
      title: ta('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          <Button type="link" size="small" onClick={() => setOpenId(row.id)} data-testid="batch-open">
            {insite ? t('actions.detail') : t('actions.records')}
          </Button>
          {insite && row.status !== 'RECALLED' && (
            <Permission codes={['message:send']}>
              <Button type="link" size="small" danger onClick={() => recall(row)} data-testid="batch-recall">
                {t('actions.recall')}
              </Button>
            </Permission>
          )}
        </Space>
      ),
    },
  ];

  return (
    <>
      <SearchTable<BroadcastBatch>
        queryKey={MESSAGING_QUERY_KEYS.list(channel)}
        fetchPage={fetchPage}
        rowKey="id"
        columns={columns}
        searchFields={FIELDS}
        urlState
        toolbar={
          <Permission codes={[BROADCAST_SEND_BUTTON[channel]]}>
            <Button type="primary" icon={<SendOutlined />} onClick={() => setComposing(true)} data-testid="compose-open">
              {t(COMPOSE_LABEL[channel])}
            </Button>
          </Permission>
        }
      />
      <ComposeDialog
        channel={channel}
        open={composing}
        onClose={() => setComposing(false)}
        onSent={() => {
          setComposing(false);
          refresh();
        }}
      />
      <BatchDrawer batchId={openId} onClose={() => setOpenId(null)} />
    </>
  );
}
