import { Alert, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { BatchResult, BatchRowResult } from '@contest/shared';
import { AppDialog } from './AppDialog';
import { DataTable } from './DataTable';

export interface BatchResultDialogProps {
  /** The answer of a batch call; the dialog is open while it is not null. */
  result: BatchResult | null;
  onClose(): void;
  /** Heading of the name column (团队名称, 项目名称...). */
  nameLabel?: string;
  /** Names of the rows by id, for rows whose answer carries none. */
  names?: Readonly<Record<string, string>>;
}

/** Per-row outcome of a batch decision: how many succeeded, and each failed row with its reason. */
export function BatchResultDialog({ result, onClose, nameLabel, names }: BatchResultDialogProps) {
  const { t } = useTranslation('admin');
  const rows = result ? [...result.results].sort((a, b) => Number(a.ok) - Number(b.ok)) : [];
  const reasonOf = (row: BatchRowResult) => {
    if (row.ok) return null;
    if (row.reason === 'STALE') return t('kit.batch.stale');
    return row.message ?? (row.reason === 'NOT_FOUND' ? t('kit.batch.notFound') : null);
  };
  return (
    <AppDialog
      open={result !== null}
      title={t('kit.batch.title')}
      onCancel={onClose}
      onOk={onClose}
      cancelButtonProps={{ style: { display: 'none' } }}
      width={720}
      data-testid="batch-result"
    >
      {result && (
        <>
          <Alert
            type={result.failed === 0 ? 'success' : 'warning'}
            showIcon
            title={t('kit.batch.summary', { succeeded: result.succeeded, failed: result.failed })}
            style={{ marginBottom: 12 }}
            data-testid="batch-summary"
          />
          <DataTable<BatchRowResult>
            rowKey="id"
            size="small"
            scroll={{ x: 'max-content', y: 360 }}
            dataSource={rows}
            columns={[
              { title: nameLabel ?? t('kit.batch.name'), key: 'name', render: (_, row) => row.name ?? names?.[row.id] ?? row.id },
              {
                title: t('kit.batch.result'),
                key: 'ok',
                render: (_, row) => (
                  <Tag color={row.ok ? 'success' : 'error'} data-testid="batch-row-result">
                    {row.ok ? t('kit.batch.ok') : t('kit.batch.failed')}
                  </Tag>
                ),
              },
              { title: t('kit.batch.message'), key: 'message', render: (_, row) => reasonOf(row) },
            ]}
          />
        </>
      )}
    </AppDialog>
  );
}
