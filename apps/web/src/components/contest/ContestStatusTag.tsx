import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { PrelimDocStatus, TeamStatus } from '@contest/shared';

const COLOR: Record<PrelimDocStatus, string> = {
  NOT_FILLED: 'default',
  DRAFT: 'default',
  SUBMITTED: 'processing',
  APPROVED: 'success',
  REVISING: 'warning',
  REJECTED: 'error',
};

/** Status of a sign-up (`kind` team) or of the preliminary materials; null reads as "none yet". */
export function ContestStatusTag({ kind, status }: { kind: 'team' | 'prelim'; status: TeamStatus | PrelimDocStatus | null }) {
  const { t } = useTranslation('files');
  const label =
    kind === 'team'
      ? t(`contest.teamStatus.${(status ?? 'NONE') as TeamStatus | 'NONE'}`)
      : t(`contest.prelimStatus.${status ?? 'NONE'}`);
  return (
    <Tag color={status ? COLOR[status] : 'default'} data-testid="contest-status" data-status={status ?? 'NONE'}>
      {label}
    </Tag>
  );
}
