import { Empty, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { StatusHistoryEntry } from '@contest/shared';
import { formatDateTimeLabel } from '../../../components/admin-kit';

/** Entries into and out of the final round (FINAL workflow: IN / OUT), with who, when and why; newest first. */
export function FinalHistory({ entries }: { entries: readonly StatusHistoryEntry[] }) {
  const { t } = useTranslation(['admin', 'files']);
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('pages.prelim.final.historyEmpty')} />;
  const actionOf = (status: string) => (status === 'OUT' ? t('pages.prelim.final.action.OUT') : t('pages.prelim.final.action.IN'));
  const actorOf = (entry: StatusHistoryEntry) => {
    const realm = t(`files:contest.actorRealm.${entry.actorRealm}`);
    return entry.actorName ? t('files:contest.actorWithRealm', { name: entry.actorName, realm }) : realm;
  };
  return (
    <Timeline
      data-testid="final-history"
      items={[...entries].reverse().map((entry) => ({
        key: entry.id,
        color: (entry.toStatus as string) === 'OUT' ? 'red' : 'green',
        content: (
          <div data-testid="final-history-item">
            <Typography.Text type="secondary">{formatDateTimeLabel(entry.createdAt)}</Typography.Text>
            <div>{t('pages.prelim.final.historyLine', { actor: actorOf(entry), action: actionOf(entry.toStatus) })}</div>
            {entry.reason && <div className="prelim-final__reason">{t('pages.prelim.final.reasonLine', { reason: entry.reason })}</div>}
          </div>
        ),
      }))}
    />
  );
}
