import { Alert, Button, Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import type { UseQueryResult } from '@tanstack/react-query';
import { ROUND_ACCESS, type ReviewRound } from '@contest/shared';
import { usePermission } from '../../../lib/permission';

/** The page's write buttons, by the round's button codes (packages/shared/src/review/access.ts). */
export function useQualityAccess(round: ReviewRound) {
  const can = usePermission();
  const access = ROUND_ACCESS[round];
  return {
    export: can({ codes: [access.scoreExport] }),
    note: can({ codes: [access.remind] }),
    run: can({ codes: [access.cutConfidence] }),
    // 复评 is the score query's re-review, behind the same button code as on the score detail page.
    rereview: can({ codes: [access.scoreReturn] }),
  };
}

/** Signed, one decimal: +2.4 / -0.8 / 0.0; '--' when there is none. */
export function signed1(value: number | null | undefined): string {
  if (value === null || value === undefined) return '--';
  const text = (Math.round(value * 10) / 10).toFixed(1);
  return value > 0 && text !== '0.0' ? `+${text}` : text === '-0.0' ? '0.0' : text;
}

export function fixed(value: number | null | undefined, digits: number): string {
  return value === null || value === undefined ? '--' : value.toFixed(digits);
}

/** A share of draws as a whole percent (one decimal under 1% and above 99%, where it matters). */
export function percent(value: number | null | undefined): string {
  if (value === null || value === undefined) return '--';
  const p = value * 100;
  return `${p > 0 && p < 1 ? p.toFixed(1) : p > 99 && p < 100 ? p.toFixed(1) : Math.round(p)}%`;
}

/** Loading, a failed load with 重新加载, or the section's content. */
export function QueryState<T>({ query, children, testId }: { query: UseQueryResult<T>; children(data: T): React.ReactNode; testId: string }) {
  const { t } = useTranslation('review');
  if (query.isPending)
    return (
      <div className="quality-state" data-testid={`${testId}-loading`}>
        <Spin />
        <span>{t('common.loading')}</span>
      </div>
    );
  if (query.isError)
    return (
      <Alert
        type="error"
        showIcon
        title={t('quality.loadFailed')}
        action={
          <Button size="small" onClick={() => void query.refetch()}>
            {t('common.reload')}
          </Button>
        }
        data-testid={`${testId}-error`}
      />
    );
  return <>{children(query.data)}</>;
}

export function NoScores({ testId }: { testId: string }) {
  const { t } = useTranslation('review');
  return <Empty description={t('quality.noScores')} data-testid={testId} />;
}
