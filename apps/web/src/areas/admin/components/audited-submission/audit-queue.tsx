import { useRef, useState, type ReactNode } from 'react';
import { Button, Result, Skeleton, Space } from 'antd';
import { ArrowLeftOutlined, StepForwardOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery, type QueryKey, type UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { QueueNext } from '@contest/shared';
import { useFocusOnChange } from '../../../../components/a11y/move-focus';
import type { AuditedWorkflow } from './workflow';

export interface AuditQueueOptions<D> {
  /** The queue's key for the skipped ids (the hook adds the round). */
  queryKey(skipped: readonly string[]): QueryKey;
  fetchNext(skipped: readonly string[]): Promise<QueueNext<D>>;
  enabled?: boolean;
}

/**
 * The audit queue: the oldest SUBMITTED record not skipped in this session, and how many wait.
 * `skip` leaves one for later (sent as `exclude`); `advance` after a decision (or a STALE refusal)
 * asks again with the same exclusions for a fresh answer.
 */
export function useAuditQueue<D>({ queryKey, fetchNext, enabled = true }: AuditQueueOptions<D>) {
  const [skipped, setSkipped] = useState<string[]>([]);
  const [round, setRound] = useState(0);
  const next = useQuery({
    queryKey: [...queryKey(skipped), round],
    queryFn: () => fetchNext(skipped),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 0,
    gcTime: 0,
  });
  return {
    next,
    skipped,
    skip: (id: string) => setSkipped((list) => (list.includes(id) ? list : [...list, id])),
    reviewSkipped: () => setSkipped([]),
    advance: () => setRound((r) => r + 1),
  };
}

/** 返回列表 on the audit pages. */
export function BackToList({ path, label }: { path: string; label: string }) {
  const navigate = useNavigate();
  return (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(path)}>
      {label}
    </Button>
  );
}

/** 跳过: leaves the record for later in this session. */
export function SkipButton({ disabled, onClick, label }: { disabled: boolean; onClick(): void; label: string }) {
  return (
    <Button icon={<StepForwardOutlined />} disabled={disabled} onClick={onClick} data-testid="queue-skip">
      {label}
    </Button>
  );
}

export interface AuditQueueShellProps<T, D extends { id: string | null }> {
  workflow: AuditedWorkflow<unknown, unknown>;
  /** The record's query (the queue's next, or one record). */
  query: UseQueryResult<T>;
  /** The record to decide on; null when the queue is done. */
  recordOf(data: T): D | null;
  /** The queue's skipped ids (useAuditQueue): 审核跳过的 starts over with them. */
  queue: { skipped: readonly string[]; reviewSkipped(): void };
  /** The page around the record; `back` is its 返回列表. */
  children(record: D, data: T, back: ReactNode): ReactNode;
}

/**
 * The frame of an audit page: a warning with a retry when the load failed, a skeleton while it
 * loads, the done message (with 审核跳过的 when some were skipped), else the page.
 */
export function AuditQueueShell<T, D extends { id: string | null }>({ workflow, query, recordOf, queue, children }: AuditQueueShellProps<T, D>) {
  const { t } = useTranslation('admin');
  const { words, queue: texts } = workflow;
  const frame = useRef<HTMLDivElement>(null);
  const record = query.data ? recordOf(query.data) : undefined;
  // A decision or 跳过 replaces the record (or ends the queue): focus goes to what came instead.
  useFocusOnChange(record === undefined ? undefined : (record?.id ?? null), frame);
  if (query.isError && !query.data) {
    return (
      <Result
        status="warning"
        title={<h1 className="admin-result-title">{t(words.loadFailed)}</h1>}
        extra={<Button onClick={() => void query.refetch()}>{t(words.reload)}</Button>}
      />
    );
  }
  if (!query.data) return <Skeleton active paragraph={{ rows: 10 }} />;
  const back = <BackToList path={workflow.paths.list} label={t(texts.back)} />;
  if (record) return <div ref={frame}>{children(record, query.data, back)}</div>;
  const skipped = queue.skipped.length;
  return (
    <section className="admin-page" data-testid={texts.testId} ref={frame}>
      <Result
        status="success"
        title={
          // The page's h1, so focus moved here after the last decision says the queue is done.
          <h1 className="admin-result-title">{t(texts.done)}</h1>
        }
        subTitle={skipped > 0 ? t(texts.doneSkipped, { count: skipped }) : undefined}
        extra={
          <Space wrap>
            {back}
            {skipped > 0 && (
              <Button type="primary" onClick={queue.reviewSkipped} data-testid={texts.reviewSkippedTestId}>
                {t(texts.reviewSkipped)}
              </Button>
            )}
          </Space>
        }
        data-testid="queue-empty"
      />
    </section>
  );
}
