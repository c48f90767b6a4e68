import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ScoringRule, TieBreak } from '@contest/shared';

/** The tie-break chain in words: 排名依据得分 → 去掉最高最低分后的平均分 → …. */
export function useChainText(): (chain: readonly TieBreak[]) => string {
  const { t } = useTranslation('review');
  return (chain) => (chain.length === 0 ? t('rule.noChain') : chain.map((step) => t(`tieBreaks.${step}`)).join(' → '));
}

/** The round's rule in one sentence, and the divergence threshold when given (成绩查询 header, 评分细则). */
export function RuleText({ rule, threshold }: { rule: ScoringRule; threshold?: number }) {
  const { t } = useTranslation('review');
  const chain = useChainText();
  return (
    <div className="review-rule" data-testid="rule-text">
      <Typography.Text>
        {t('rule.sentence', {
          aggregate: t(`aggregates.${rule.aggregate}`),
          min: rule.minScoresForTrim,
          chain: chain(rule.tieBreak),
        })}
      </Typography.Text>
      {threshold !== undefined && <Typography.Text type="secondary">{t('rule.threshold', { n: threshold })}</Typography.Text>}
    </div>
  );
}
