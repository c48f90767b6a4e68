import { useState } from 'react';
import { Alert, Button, Card, Descriptions, Flex, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADMIN_MENU_PATHS, RETENTION_KINDS, type RetentionKind, type RetentionKindState, type RetentionRunItem, type RetentionRunStatus } from '@contest/shared';
import { beijingTitle, formatDateTime } from '../../../components/admin-kit';
import { CardTitle } from '../../../components/admin-kit/CardTitle';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { RETENTION_QUERY_KEYS, dryRunRetention, executeRetention, fetchRetentionOverview, fetchRetentionRuns } from './retention-api';
import './retention.css';

const STATUS_COLOR: Record<RetentionRunStatus, string> = {
  PLANNED: 'blue',
  QUEUED: 'gold',
  RUNNING: 'processing',
  DONE: 'success',
  FAILED: 'error',
  DISCARDED: 'default',
};

const total = (counts: Partial<Record<RetentionKind, number>>) => Object.values(counts).reduce((a, b) => a + (b ?? 0), 0);

/**
 * 数据保留 (/admin/system/retention, docs/retention.md): each kind's period and due date, a dry run
 * (预演) showing counts and a masked sample, the run of exactly that plan, and every run so far.
 */
export function RetentionPage() {
  const { t } = useTranslation('retention');
  const { modal } = useFeedback();
  const queryClient = useQueryClient();
  const overview = useQuery({ queryKey: RETENTION_QUERY_KEYS.overview, queryFn: fetchRetentionOverview, refetchInterval: (q) => (q.state.data?.active ? 3000 : false) });
  const [plan, setPlan] = useState<RetentionRunItem | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: RETENTION_QUERY_KEYS.all });

  const dryRun = useMutation({
    mutationFn: dryRunRetention,
    onSuccess: (run) => {
      setPlan(run);
      refresh();
    },
  });
  const execute = useMutation({
    mutationFn: (id: string) => executeRetention(id),
    onSuccess: () => {
      setPlan(null);
      refresh();
    },
  });

  const confirmRun = (run: RetentionRunItem) => {
    modal.confirm({
      title: t('actions.runConfirmTitle'),
      content: t('actions.runConfirm', { count: total(run.counts) }),
      okButtonProps: { danger: true },
      onOk: () => execute.mutateAsync(run.id),
    });
  };

  const kindColumns = [
    { title: t('overview.kind'), dataIndex: 'kind', render: (k: RetentionKind) => t(`kinds.${k}`) },
    { title: t('overview.days'), dataIndex: 'days' },
    { title: beijingTitle(t('overview.dueAt')), dataIndex: 'dueAt', render: (v: string | null) => formatDateTime(v) ?? '--' },
    {
      title: t('overview.state'),
      dataIndex: 'due',
      render: (due: boolean, row: RetentionKindState) => (row.dueAt ? <Tag color={due ? 'warning' : 'default'}>{due ? t('overview.due') : t('overview.notDue')}</Tag> : '--'),
    },
  ];

  const when = (v: string | null) => formatDateTime(v) ?? '--';
  const runColumns: TableColumnsType<RetentionRunItem> = [
    { title: beijingTitle(t('runs.createdAt')), dataIndex: 'createdAt', width: 170, render: when },
    { title: t('runs.source'), dataIndex: 'source', render: (s: RetentionRunItem['source']) => t(`runs.sources.${s}`) },
    { title: t('runs.status'), dataIndex: 'status', render: (s: RetentionRunStatus) => <Tag color={STATUS_COLOR[s]}>{t(`status.${s}`)}</Tag> },
    { title: t('runs.createdBy'), dataIndex: 'createdBy', render: (v: string) => v || '--' },
    { title: t('runs.startedBy'), dataIndex: 'startedBy', render: (v: string | null) => v || '--' },
    { title: beijingTitle(t('runs.finishedAt')), dataIndex: 'finishedAt', width: 170, render: when },
    {
      title: t('runs.counts'),
      key: 'counts',
      render: (_: unknown, row: RetentionRunItem) => (
        <span className="retention-counts">
          {RETENTION_KINDS.filter((k) => row.counts[k] !== undefined).map((k) => (
            <span key={k}>
              {t(`kinds.${k}`)} {row.done[k] ?? 0}/{row.counts[k]}
            </span>
          ))}
          {row.skipped > 0 && <span>{t('runs.skipped')} {row.skipped}</span>}
          {row.lastError && <Typography.Text type="danger">{t('runs.error')}: {row.lastError}</Typography.Text>}
        </span>
      ),
    },
  ];

  const data = overview.data;
  const active = data?.active ?? null;
  return (
    <section className="admin-page retention-page" data-testid="retention-page">
      <h1 className="admin-page__title">{t('title')}</h1>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Flex vertical gap={16}>
        <Card>
          <CardTitle title={t('overview.title')} />
          <Descriptions
            size="small"
            column={1}
            items={[{ key: 'end', label: beijingTitle(t('overview.contestEnd')), children: data ? (formatDateTime(data.contestEndsAt) ?? t('overview.notSet')) : '--' }]}
          />
          <Table<RetentionKindState>
            rowKey="kind"
            size="small"
            pagination={false}
            loading={overview.isPending}
            dataSource={data?.kinds ?? []}
            columns={kindColumns}
            scroll={{ x: 'max-content' }}
            data-testid="retention-kinds"
          />
          <Typography.Paragraph className="retention-page__settings-link">
            <Link to={ADMIN_MENU_PATHS.systemSettings}>{t('overview.editInSettings')}</Link>
          </Typography.Paragraph>
        </Card>

        {active && (
          <Alert
            type="info"
            showIcon
            data-testid="retention-active"
            title={t('active', { done: Object.values(active.done).reduce((a, b) => a + (b ?? 0), 0) + active.skipped, total: total(active.counts) })}
          />
        )}

        <Permission codes={['retention:run']}>
          <Card>
            <CardTitle title={t('plan.title')} />
            <Space wrap>
              <Button type="primary" loading={dryRun.isPending} onClick={() => dryRun.mutate()} data-testid="retention-dry-run">
                {t('actions.dryRun')}
              </Button>
              <Typography.Text type="secondary">{t('plan.expiresHint')}</Typography.Text>
            </Space>
            {plan && <PlanView plan={plan} onRun={() => confirmRun(plan)} running={execute.isPending} />}
          </Card>
        </Permission>

        <Card>
          <CardTitle title={t('runs.title')} />
          <RunsTable columns={runColumns} active={!!active} />
        </Card>
      </Flex>
    </section>
  );
}

/** A dry run's counts per kind and its masked sample, with the button that runs exactly it. */
function PlanView({ plan, onRun, running }: { plan: RetentionRunItem; onRun(): void; running: boolean }) {
  const { t } = useTranslation('retention');
  const kinds = RETENTION_KINDS.filter((k) => plan.counts[k] !== undefined);
  const count = total(plan.counts);
  return (
    <div className="retention-plan" data-testid="retention-plan">
      <Typography.Paragraph>
        {beijingTitle(t('plan.createdAt'))}：{formatDateTime(plan.createdAt)}
      </Typography.Paragraph>
      <Table
        rowKey="kind"
        size="small"
        pagination={false}
        scroll={{ x: 'max-content' }}
        dataSource={kinds.map((k) => ({
          kind: k,
          count: plan.counts[k] ?? 0,
          sample: plan.samples
            .filter((s) => s.kind === k)
            .map((s) => s.label)
            .join('、'),
        }))}
        columns={[
          { title: t('overview.kind'), dataIndex: 'kind', render: (k: RetentionKind) => t(`kinds.${k}`) },
          { title: t('plan.count'), dataIndex: 'count' },
          { title: t('plan.sample'), dataIndex: 'sample', render: (v: string) => v || '--' },
        ]}
      />
      {count === 0 ? (
        <Typography.Paragraph type="secondary">{t('plan.empty')}</Typography.Paragraph>
      ) : (
        <Button danger type="primary" className="retention-plan__run" loading={running} onClick={onRun} data-testid="retention-run">
          {t('actions.run')}
        </Button>
      )}
    </div>
  );
}

/** Every run so far, newest first (a page at a time; refreshed while one executes). */
function RunsTable({ columns, active }: { columns: TableColumnsType<RetentionRunItem>; active: boolean }) {
  const [paging, setPaging] = useState({ page: 1, size: 10 });
  const runs = useQuery({
    queryKey: [...RETENTION_QUERY_KEYS.runs, paging],
    queryFn: () => fetchRetentionRuns(paging),
    refetchInterval: active ? 3000 : false,
  });
  return (
    <Table<RetentionRunItem>
      rowKey="id"
      size="small"
      loading={runs.isPending}
      dataSource={runs.data?.list ?? []}
      columns={columns}
      scroll={{ x: 'max-content' }}
      data-testid="retention-runs"
      pagination={{
        current: paging.page,
        pageSize: paging.size,
        total: runs.data?.total ?? 0,
        showSizeChanger: false,
        onChange: (page) => setPaging((p) => ({ ...p, page })),
      }}
    />
  );
}
