import { useState } from 'react';
import { Button, Result } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { PromotionRecord } from '@contest/shared';
import { AppDialog, DataTable, type KitColumn } from '../../../components/admin-kit';
import { REVIEW_QUERY_KEYS, fetchPromotions } from './review-api';

/** 晋级记录: a button opening the confirmed promotions (when, who, how, how many); read only when opened. */
export function PromotionHistoryButton() {
  const { t } = useTranslation('review');
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button icon={<HistoryOutlined />} onClick={() => setOpen(true)} data-testid="promotion-history">
        {t('promotion.history')}
      </Button>
      <AppDialog open={open} title={t('promotion.history')} width={760} footer={null} onCancel={() => setOpen(false)} data-testid="promotion-history-dialog">
        {open && <PromotionHistory />}
      </AppDialog>
    </>
  );
}

export function PromotionHistory() {
  const { t } = useTranslation('review');
  const records = useQuery({ queryKey: REVIEW_QUERY_KEYS.promotions, queryFn: fetchPromotions });
  const columns: KitColumn<PromotionRecord>[] = [
    { title: t('promotion.at'), dataIndex: 'createdAt', dateTime: true },
    { title: t('promotion.mode'), dataIndex: 'mode', render: (m: PromotionRecord['mode']) => t(`promotion.modes.${m}`) },
    { title: 'N', dataIndex: 'n', align: 'right' },
    { title: t('promotion.countCol'), dataIndex: 'count', align: 'right' },
    { title: t('promotion.actor'), dataIndex: 'actorName' },
  ];
  if (records.isError) {
    return <Result status="warning" title={t('promotion.historyFailed')} extra={<Button onClick={() => void records.refetch()}>{t('common.reload')}</Button>} />;
  }
  return <DataTable<PromotionRecord> rowKey="id" columns={columns} dataSource={records.data ?? []} loading={records.isFetching} />;
}
