import { Empty, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SHEET_VIEW_STATUSES, type SheetViewStatus, type StatusHistoryEntry } from '@contest/shared';
import { formatDateTimeLabel } from '../../../components/admin-kit';

const COLORS: Partial<Record<SheetViewStatus, string>> = { DRAFT: 'blue', SUBMITTED: 'green', RETURNED: 'orange' };

/**
 * The project's score-sheet history (SHEET workflow: saved, submitted, returned), newest first,
 * each with who and why. The entries travel in the materials' history type, but their states are
 * a sheet's, so the materials' timeline (components/contest StatusHistory) cannot name them.
 */
export function SheetHistory({ entries }: { entries: readonly StatusHistoryEntry[] }) {
  const { t } = useTranslation('review');
  const { t: tf } = useTranslation('files');
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} />;
  const label = (status: string) =>
    (SHEET_VIEW_STATUSES as readonly string[]).includes(status) ? t(`sheetStatus.${status as SheetViewStatus}`) : status;
  const newestFirst = [...entries].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
  return (
    <Timeline
      data-testid="sheet-history"
      items={newestFirst.map((entry) => {
        const realm = tf(`contest.actorRealm.${entry.actorRealm}`);
        const actor = entry.actorName ? tf('contest.actorWithRealm', { name: entry.actorName, realm }) : realm;
        return {
          key: entry.id,
          color: COLORS[entry.toStatus as SheetViewStatus] ?? 'gray',
          content: (
            <div data-testid="sheet-history-item">
              <Typography.Text type="secondary">{formatDateTimeLabel(entry.createdAt)}</Typography.Text>
              <div>
                {entry.fromStatus
                  ? t('history.line', { actor, from: label(entry.fromStatus), to: label(entry.toStatus) })
                  : t('history.created', { actor, to: label(entry.toStatus) })}
              </div>
              {entry.reason && <div className="review-reason">{t('history.reason', { reason: entry.reason })}</div>}
            </div>
          ),
        };
      })}
    />
  );
}
