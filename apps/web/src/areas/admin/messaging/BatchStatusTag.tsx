import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BroadcastBatch, BroadcastStatus } from '@contest/shared';

const COLOR: Record<BroadcastStatus, string> = {
  QUEUED: 'default',
  RUNNING: 'processing',
  DONE: 'success',
  FAILED: 'error',
  RECALLED: 'warning',
};

/** A batch's status; while it runs, with its progress (recipients handled of all). */
export function BatchStatusTag({ batch }: { batch: Pick<BroadcastBatch, 'status' | 'progress'> }) {
  const { t } = useTranslation('messaging');
  const running = batch.status === 'RUNNING' || batch.status === 'QUEUED';
  return (
    <Tag color={COLOR[batch.status]} data-testid="batch-status">
      {t(`status.${batch.status}`)}
      {running && batch.progress.total > 0 ? ` ${t('progress', { done: batch.progress.done, total: batch.progress.total })}` : ''}
    </Tag>
  );
}

export const isActive = (batch: Pick<BroadcastBatch, 'status'>) => batch.status === 'QUEUED' || batch.status === 'RUNNING';
