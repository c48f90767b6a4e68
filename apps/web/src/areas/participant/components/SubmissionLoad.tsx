import type { ReactNode } from 'react';
import { Button, Result, Skeleton } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { SubmissionFlow } from './submission-flow';

/**
 * The participant's own record (the sign-up, the materials) as a page reads it: a warning with a
 * retry when the load failed, a skeleton while it loads, then what `children` makes of it (null:
 * there is none yet).
 */
export function SubmissionLoad<P, D>({ flow, children }: { flow: SubmissionFlow<P, D>; children(record: D | null): ReactNode }) {
  const { t } = useTranslation('signup');
  const query = useQuery({ queryKey: flow.keys.record, queryFn: flow.api.fetch });
  if (query.isError) {
    return <Result status="warning" title={t('common.loadFailed')} extra={<Button onClick={() => void query.refetch()}>{t('common.reload')}</Button>} />;
  }
  if (!query.isSuccess) return <Skeleton active paragraph={{ rows: 8 }} />;
  return <>{children(query.data)}</>;
}

export interface GoElsewhereProps {
  title: string;
  subTitle?: string;
  /** The button that leads where the participant can go on. */
  label: string;
  to: string;
  testId: string;
}

/** Nothing to show here (no team, no materials, the form closed): why, and a button to where to go instead. */
export function GoElsewhere({ title, subTitle, label, to, testId }: GoElsewhereProps) {
  const navigate = useNavigate();
  return (
    <Result
      status="info"
      title={title}
      subTitle={subTitle}
      extra={
        <Button type="primary" onClick={() => void navigate(to)}>
          {label}
        </Button>
      }
      data-testid={testId}
    />
  );
}
