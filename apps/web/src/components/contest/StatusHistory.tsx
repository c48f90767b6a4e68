import { Empty, Timeline, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import type { PrelimDocStatus, StatusHistoryEntry, TeamStatus } from '@contest/shared';
import { realmOfPath } from '../../api';
import { beijingTimeLabel } from '../../lib/beijing-time';
import './contest.css';

/** Who reads the history: participants see staff as the committee, staff see every actor by name. */
export type HistoryAudience = 'participant' | 'staff';

export interface StatusHistoryProps {
  kind: 'team' | 'prelim';
  entries: readonly StatusHistoryEntry[];
  /** Decided by the page's realm when absent: admin and expert pages are 'staff'. */
  audience?: HistoryAudience;
}

/** The audit trail of a sign-up or of the materials (docs/rules/team.md, "History and notices"): who, when, from, to, why; newest first. */
export function StatusHistory({ kind, entries, audience }: StatusHistoryProps) {
  const { t } = useTranslation('files');
  const pageRealm = realmOfPath(useLocation().pathname);
  const staff = (audience ?? (pageRealm === 'USER' ? 'participant' : 'staff')) === 'staff';
  const label = (status: PrelimDocStatus) =>
    kind === 'team' ? t(`contest.teamStatus.${status as TeamStatus}`) : t(`contest.prelimStatus.${status}`);
  if (entries.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('contest.historyEmpty')} />;
  const newestFirst = [...entries].reverse();
  const actorOf = (entry: StatusHistoryEntry): string => {
    // Staff names are not the participant's business (the server sends the committee's already).
    if (!staff) return entry.actorRealm === 'USER' ? entry.actorName : t('contest.organizer');
    // Staff see the name the server keeps for them, with the kind of account it belongs to.
    const realm = t(`contest.actorRealm.${entry.actorRealm}`);
    return entry.actorName ? t('contest.actorWithRealm', { name: entry.actorName, realm }) : realm;
  };
  return (
    <Timeline
      data-testid="status-history"
      items={newestFirst.map((entry) => {
        const actor = actorOf(entry);
        return {
          key: entry.id,
          color: entry.toStatus === 'REJECTED' ? 'red' : entry.toStatus === 'REVISING' ? 'orange' : entry.toStatus === 'APPROVED' ? 'green' : 'blue',
          content: (
            <div className="contest-history__item" data-testid="status-history-item">
              <Typography.Text type="secondary">{beijingTimeLabel(entry.createdAt)}</Typography.Text>
              <div>
                {entry.fromStatus
                  ? t('contest.historyLine', { actor, from: label(entry.fromStatus), to: label(entry.toStatus) })
                  : t('contest.historyCreated', { actor, to: label(entry.toStatus) })}
              </div>
              {entry.reason && (
                <div className="contest-history__reason">{t('contest.reasonLine', { reason: entry.reason })}</div>
              )}
            </div>
          ),
        };
      })}
    />
  );
}
