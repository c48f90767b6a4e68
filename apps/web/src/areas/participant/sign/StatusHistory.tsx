import { Empty, Timeline, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import type { PrelimDocStatus, StatusHistoryEntry, TeamStatus } from '@contest/shared';

/** The audit trail of a sign-up or of the materials (product.md 4): who, when, from, to, why; newest first. */
export function StatusHistory({ kind, entries }: { kind: 'team' | 'prelim'; entries: readonly StatusHistoryEntry[] }) {
  const { t } = useTranslation('signup');
  const label = (status: PrelimDocStatus) =>
    kind === 'team' ? t(`teamStatus.${status as TeamStatus}`) : t(`prelimStatus.${status}`);
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common.historyEmpty')} />;
  const newestFirst = [...entries].reverse();
  return (
    <Timeline
      data-testid="status-history"
      items={newestFirst.map((entry) => {
        // Staff names are not the participant's business; the server may already send the committee's.
        const actor = entry.actorRealm === 'USER' ? entry.actorName : entry.actorName || t('common.organizer');
        return {
          key: entry.id,
          color: entry.toStatus === 'REJECTED' ? 'red' : entry.toStatus === 'REVISING' ? 'orange' : entry.toStatus === 'APPROVED' ? 'green' : 'blue',
          children: (
            <div className="contest-history__item">
              <Typography.Text type="secondary">{dayjs(entry.createdAt).format('YYYY-MM-DD HH:mm:ss')}</Typography.Text>
              <div>
                {entry.fromStatus
                  ? t('common.historyLine', { actor, from: label(entry.fromStatus), to: label(entry.toStatus) })
                  : t('common.historyCreated', { actor, to: label(entry.toStatus) })}
              </div>
              {entry.reason && (
                <div className="contest-history__reason">
                  {t('common.reason')}：{entry.reason}
                </div>
              )}
            </div>
          ),
        };
      })}
    />
  );
}
