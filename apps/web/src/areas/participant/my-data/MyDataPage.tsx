import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Flex, Form, Input, Skeleton, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatFileSize, type DataRequestItem } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { beijingTimeLabel } from '../../../lib/beijing-time';
import { saveBlob } from '../../../lib/save-blob';
import { MY_DATA_QUERY_KEY, downloadExport, fetchMyData, requestDeletion, requestExport } from './my-data-api';
import './my-data.css';

/** The status line of a request, in the page's language (a waiting deletion says what it waits for). */
function StatusTag({ item }: { item: DataRequestItem }) {
  const { t } = useTranslation('retention');
  const color = item.status === 'READY' || item.status === 'DONE' ? 'success' : item.status === 'REJECTED' || item.status === 'EXPIRED' ? 'default' : item.status === 'FAILED' ? 'error' : 'processing';
  return (
    <Tag color={color} data-testid="my-data-status">
      {t(`requestStatus.${item.status}`)}
    </Tag>
  );
}

/**
 * 个人数据 (/my-data, docs/retention.md "Requests"): the participant exports everything the portal
 * holds about them (a zip prepared in the background, theirs only, for 7 days) and asks for
 * deletion with a reason; the organisers' answer and a waiting deletion's reason show here.
 */
export function MyDataPage() {
  const { t } = useTranslation('retention');
  const { t: tp } = useTranslation('participant');
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const mine = useQuery({
    queryKey: MY_DATA_QUERY_KEY,
    queryFn: fetchMyData,
    // While an export is being prepared the page looks again every few seconds.
    refetchInterval: (q) => (q.state.data?.export?.status === 'QUEUED' ? 3000 : false),
  });
  const [form] = Form.useForm<{ reason: string }>();
  const [busy, setBusy] = useState<'export' | 'delete' | 'download' | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: MY_DATA_QUERY_KEY });

  const startExport = async () => {
    setBusy('export');
    try {
      await requestExport();
      void message.success(t('requestStatus.QUEUED'));
      refresh();
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(null);
    }
  };

  const download = async (id: string) => {
    setBusy('download');
    try {
      saveBlob(await downloadExport(id), 'my-data.zip');
    } catch {
      refresh();
    } finally {
      setBusy(null);
    }
  };

  const askDeletion = async () => {
    const { reason } = await form.validateFields();
    modal.confirm({
      title: t('my.confirmTitle'),
      content: t('my.confirm'),
      okButtonProps: { danger: true },
      onOk: async () => {
        setBusy('delete');
        try {
          await requestDeletion({ reason });
          form.resetFields();
          void message.success(t('requestStatus.PENDING'));
          refresh();
        } catch {
          // The client has shown the refusal.
        } finally {
          setBusy(null);
        }
      },
    });
  };

  const exp = mine.data?.export ?? null;
  const del = mine.data?.deletion ?? null;
  const deletionOpen = del && (del.status === 'PENDING' || del.status === 'WAITING');

  return (
    <section className="participant-page my-data" data-testid="my-data-page">
      <h1 className="participant-page__title">{tp('titles.myData')}</h1>
      <Typography.Paragraph type="secondary">{t('my.intro')}</Typography.Paragraph>
      {mine.isPending ? (
        <Skeleton active />
      ) : (
        <Flex vertical gap={16}>
          <Card size="small" className="contest-card" title={<h2 className="my-data__heading">{t('my.exportTitle')}</h2>} data-testid="my-data-export">
            <Typography.Paragraph type="secondary">{t('my.exportHint')}</Typography.Paragraph>
            {exp && (
              <Descriptions
                size="small"
                column={1}
                items={[
                  { key: 'status', label: t('my.status'), children: <StatusTag item={exp} /> },
                  ...(exp.status === 'READY' && exp.expiresAt ? [{ key: 'expires', label: t('requestStatus.READY'), children: t('my.expiresAt', { time: beijingTimeLabel(exp.expiresAt) }) }] : []),
                ]}
              />
            )}
            <Flex gap={8} wrap>
              {exp?.status === 'READY' && (
                <Button type="primary" icon={<DownloadOutlined />} loading={busy === 'download'} onClick={() => void download(exp.id)} data-testid="my-data-download">
                  {t('my.download', { size: formatFileSize(exp.size ?? 0) })}
                </Button>
              )}
              <Button loading={busy === 'export'} disabled={exp?.status === 'QUEUED'} onClick={() => void startExport()} data-testid="my-data-export-button">
                {exp ? t('my.exportAgain') : t('my.export')}
              </Button>
            </Flex>
          </Card>

          <Card size="small" className="contest-card" title={<h2 className="my-data__heading">{t('my.deleteTitle')}</h2>} data-testid="my-data-deletion">
            <Typography.Paragraph type="secondary">{t('my.deleteHint')}</Typography.Paragraph>
            {del && (
              <Descriptions
                size="small"
                column={1}
                items={[
                  { key: 'status', label: t('my.status'), children: <StatusTag item={del} /> },
                  { key: 'reason', label: t('my.reason'), children: del.reason },
                  ...(del.reply ? [{ key: 'reply', label: t('my.reply'), children: del.reply }] : []),
                ]}
              />
            )}
            {del?.status === 'WAITING' && (
              <Alert
                type="info"
                showIcon
                data-testid="my-data-waiting"
                title={del.waitReason ? t('my.waiting', { reason: t(`wait.${del.waitReason}`) }) : t('my.processing')}
              />
            )}
            {!deletionOpen && del?.status !== 'DONE' && (
              <Form form={form} layout="vertical" className="my-data__form">
                <Form.Item
                  name="reason"
                  label={t('my.reason')}
                  rules={[
                    { required: true, whitespace: true, message: t('my.reasonPlaceholder') },
                    { max: 500, message: t('my.reasonPlaceholder') },
                  ]}
                >
                  <Input.TextArea rows={3} maxLength={500} showCount placeholder={t('my.reasonPlaceholder')} />
                </Form.Item>
                <Button danger loading={busy === 'delete'} onClick={() => void askDeletion().catch(() => {})} data-testid="my-data-delete-button">
                  {t('my.submit')}
                </Button>
              </Form>
            )}
          </Card>
        </Flex>
      )}
    </section>
  );
}
