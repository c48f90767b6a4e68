import { Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TieBreak } from '@contest/shared';

/** How a tie with the project ranked just above was settled: the chain step, or 并列 (equal rank). */
export function DecidedByTag({ decidedBy }: { decidedBy: TieBreak | 'EQUAL' | null }) {
  const { t } = useTranslation('review');
  if (!decidedBy) return null;
  if (decidedBy === 'EQUAL') {
    return (
      <Tooltip title={t('scores.equalHint')}>
        <Tag color="gold" data-testid="decided-by">
          {t('scores.equal')}
        </Tag>
      </Tooltip>
    );
  }
  return (
    <Tooltip title={t('scores.decidedByHint')}>
      <Tag color="cyan" data-testid="decided-by">
        {t(`tieBreaks.${decidedBy}`)}
      </Tag>
    </Tooltip>
  );
}
