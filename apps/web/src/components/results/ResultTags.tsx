import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { AppealStatus, ResultMovement, ResultOutcome } from '@contest/shared';

const OUTCOME_COLOR: Record<ResultOutcome, string> = { PROMOTED: 'green', NOT_PROMOTED: 'default', AWARDED: 'gold', NONE: 'default' };

/** A project's line: 晋级决赛 / 未晋级决赛 (preliminary), the award level's name / 未获奖 (final). */
export function OutcomeTag({ outcome, awardName }: { outcome: ResultOutcome | null; awardName?: string | null }) {
  const { t } = useTranslation('results');
  if (!outcome) return <Tag data-testid="outcome-tag">{t('outcome.ABSENT')}</Tag>;
  return (
    <Tag color={OUTCOME_COLOR[outcome]} data-testid="outcome-tag" data-outcome={outcome}>
      {outcome === 'AWARDED' && awardName ? awardName : t(`outcome.${outcome}`)}
    </Tag>
  );
}

const APPEAL_COLOR: Record<AppealStatus, string> = { SUBMITTED: 'processing', REJECTED: 'error', ACCEPTED: 'warning', RESOLVED: 'success' };

/** An appeal's state; `audience` user words it for the team (已提交，待处理 ...). */
export function AppealStatusTag({ status, audience = 'staff' }: { status: AppealStatus; audience?: 'staff' | 'user' }) {
  const { t } = useTranslation('results');
  return (
    <Tag color={APPEAL_COLOR[status]} data-testid="appeal-status" data-status={status}>
      {audience === 'user' ? t(`appealStatusUser.${status}`) : t(`appealStatus.${status}`)}
    </Tag>
  );
}

const MOVEMENT_COLOR: Record<ResultMovement, string> = {
  IN: 'green',
  OUT: 'red',
  UP: 'cyan',
  DOWN: 'orange',
  SAME: 'default',
  ADDED: 'blue',
  REMOVED: 'magenta',
};

/** How a project moved between two versions. */
export function MovementTag({ movement }: { movement: ResultMovement }) {
  const { t } = useTranslation('results');
  return (
    <Tag color={MOVEMENT_COLOR[movement]} data-testid="movement-tag" data-movement={movement}>
      {t(`movement.${movement}`)}
    </Tag>
  );
}
