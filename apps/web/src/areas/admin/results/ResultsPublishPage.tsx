import { useMemo, useState } from 'react';
import { Alert, Button, Card, Descriptions, Result, Skeleton, Space, Tag, Typography } from 'antd';
import { DiffOutlined, FileAddOutlined, SendOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { RESULT_OUTCOMES, type ResultEntryView, type ResultVersionView, type ReviewRound, type RoundResultState } from '@contest/shared';
import { CardTitle, DataTable, KitTabs, SearchTable, formatDateTimeLabel, type SearchField } from '../../../components/admin-kit';
import { PeriodCountdown, useResultsMessage, useServerClock } from '../../../components/results';
import { CompareDialog } from './CompareDialog';
import { NewVersionDialog } from './NewVersionDialog';
import { PublishDialog } from './PublishDialog';
import { RESULTS_QUERY_KEYS, fetchEntries, fetchOverview, fetchVersions } from './results-api';
import { RESULTS_PATHS, ROUNDS, TRACK_DICT, roundOfSlug, slugOf, useResultsAccess, useRuleSummary } from './results-common';
import { useEntryColumns } from './result-columns';
import '../admin-pages.css';
import './results.css';

/**
 * 结果发布 (docs/rules/results.md, "Publication"): per round (初赛 / 决赛 tabs, in the URL as ?round=) the state of its
 * result: not published (and why it cannot be yet), or the current version with its 公示 countdown,
 * appeal window and appeal counts; the versions with 对比; the lines of a version (filters in the
 * URL). 发布结果 and 发布新版本 need `result:publish`; without it the page only reads.
 */
export function ResultsPublishPage() {
  const { t } = useTranslation('results');
  const [params, setParams] = useSearchParams();
  const round = roundOfSlug(params.get('round'));
  const overview = useQuery({ queryKey: RESULTS_QUERY_KEYS.overview, queryFn: fetchOverview });
  const now = useServerClock(overview.data?.now);

  const setRound = (key: string) =>
    setParams(
      () => {
        // Each round's filters and version are its own.
        const next = new URLSearchParams();
        if (key === slugOf('FINAL')) next.set('round', key);
        return next;
      },
      { replace: true },
    );

  const stateOf = (r: ReviewRound) => overview.data?.rounds.find((s) => s.round === r) ?? null;

  return (
    <section className="admin-page results-page" data-testid="results-publish-page">
      <h1 className="admin-page__title">{t('titles.publish')}</h1>
      {overview.isError ? (
        <Result status="warning" title={t('common.loadFailed')} extra={<Button onClick={() => void overview.refetch()}>{t('common.reload')}</Button>} />
      ) : (
        <KitTabs
          activeKey={slugOf(round)}
          onChange={setRound}
          items={ROUNDS.map((r) => ({
            key: slugOf(r),
            txtMes: t(`rounds.${r}`),
            // Only the open round is mounted: both would read the same URL filters.
            component:
              r !== round ? null : !overview.data ? (
                <Skeleton active paragraph={{ rows: 6 }} />
              ) : (
                <RoundPanel round={r} state={stateOf(r)} now={now} />
              ),
          }))}
        />
      )}
    </section>
  );
}

interface RoundPanelProps {
  round: ReviewRound;
  state: RoundResultState | null;
  now: number;
}

function RoundPanel({ round, state, now }: RoundPanelProps) {
  const { t } = useTranslation('results');
  const translate = useResultsMessage();
  const ruleSummary = useRuleSummary();
  const access = useResultsAccess();
  const queryClient = useQueryClient();
  const [publishing, setPublishing] = useState(false);
  const [revising, setRevising] = useState(false);
  const slug = slugOf(round);
  const published = state?.published ?? false;
  const current = state?.current ?? null;

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEYS.overview });
    void queryClient.invalidateQueries({ queryKey: RESULTS_QUERY_KEYS.round(slug) });
  };

  const appeals = state?.appeals;
  const appealsLink = (status?: string, overdue?: boolean) => {
    const q = new URLSearchParams({ round });
    if (status) q.set('status', status);
    if (overdue) q.set('overdue', 'true');
    return `${RESULTS_PATHS.appeals}?${q.toString()}`;
  };

  return (
    <div className="results-round" data-testid={`results-round-${slug}`}>
      <Card size="small" className="results-card" data-testid="results-state">
        <CardTitle
          title={t('overview.title', { round: t(`rounds.${round}`) })}
          extra={
            access.publish &&
            (published && current ? (
              <Button icon={<FileAddOutlined />} onClick={() => setRevising(true)} data-testid="new-version-open">
                {t('newVersion.open')}
              </Button>
            ) : (
              <Button type="primary" icon={<SendOutlined />} disabled={!state?.canPublish} onClick={() => setPublishing(true)} data-testid="publish-open">
                {t('publish.open')}
              </Button>
            ))
          }
        />
        {!published || !current ? (
          <div data-testid="results-unpublished">
            <Alert type="info" showIcon title={t('overview.unpublished')} className="results-block" />
            {state?.publishBlocker && (
              <Alert type="warning" showIcon title={translate(state.publishBlocker)} className="results-block" data-testid="publish-blocker" />
            )}
          </div>
        ) : (
          <>
            {(appeals?.accepted ?? 0) > 0 && (
              <Alert type="warning" showIcon className="results-block" title={t('overview.acceptedHint', { count: appeals!.accepted })} data-testid="accepted-hint" />
            )}
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 1, md: 2 }}
              items={[
                {
                  key: 'version',
                  label: t('overview.version'),
                  children: (
                    <Space size={4} wrap>
                      <strong data-testid="current-version">{t('common.versionN', { n: current.version })}</strong>
                      <Typography.Text type="secondary">
                        {formatDateTimeLabel(current.publishedAt)} · {current.actorName}
                      </Typography.Text>
                    </Space>
                  ),
                },
                {
                  key: 'selected',
                  label: t(round === 'FINAL' ? 'publish.awarded' : 'publish.promoted'),
                  children: (
                    <Space size={[4, 4]} wrap>
                      <span>{t('publish.countOf', { selected: current.selected, total: current.total })}</span>
                      {current.levels.map((l) => (
                        <Tag key={l.code} color="gold">
                          {t('publish.levelCount', { name: l.name, count: l.count })}
                        </Tag>
                      ))}
                    </Space>
                  ),
                },
                {
                  key: 'period',
                  label: t('overview.period'),
                  children: (
                    <Space size={4} wrap>
                      <span>{t('overview.until', { at: formatDateTimeLabel(current.periodEndsAt) })}</span>
                      <PeriodCountdown endsAt={current.periodEndsAt} now={now} />
                    </Space>
                  ),
                },
                {
                  key: 'appealWindow',
                  label: t('overview.appealWindow'),
                  children: (
                    <Space size={4} wrap>
                      <span>{t('overview.until', { at: formatDateTimeLabel(current.appealEndsAt) })}</span>
                      <PeriodCountdown endsAt={current.appealEndsAt} now={now} data-testid="appeal-countdown" />
                    </Space>
                  ),
                },
                {
                  key: 'appeals',
                  label: t('overview.appeals'),
                  span: 2,
                  children: appeals && (
                    <Space size={[8, 4]} wrap data-testid="appeal-counts">
                      <Link to={appealsLink('SUBMITTED')}>{t('overview.appealsSubmitted', { count: appeals.submitted })}</Link>
                      {appeals.overdue > 0 && (
                        <Link to={appealsLink(undefined, true)}>
                          <Tag color="red">{t('overview.appealsOverdue', { count: appeals.overdue })}</Tag>
                        </Link>
                      )}
                      <Link to={appealsLink('ACCEPTED')}>{t('overview.appealsAccepted', { count: appeals.accepted })}</Link>
                      <Link to={appealsLink('REJECTED')}>{t('overview.appealsRejected', { count: appeals.rejected })}</Link>
                      <Link to={appealsLink('RESOLVED')}>{t('overview.appealsResolved', { count: appeals.resolved })}</Link>
                    </Space>
                  ),
                },
                { key: 'rule', label: t('publish.rule'), span: 2, children: ruleSummary(current.rule) },
                ...(current.newsId
                  ? [{ key: 'news', label: t('overview.notice'), span: 2, children: <Link to={RESULTS_PATHS.news(current.newsId)}>{t('overview.openNotice')}</Link> }]
                  : []),
              ]}
            />
          </>
        )}
      </Card>
      {published && current && <VersionsCard round={round} current={current} />}
      {published && current && <EntriesCard round={round} current={current} />}
      {access.publish && (
        <PublishDialog
          round={round}
          open={publishing}
          onClose={() => setPublishing(false)}
          onPublished={refresh}
        />
      )}
      {access.publish && current && (
        <NewVersionDialog round={round} current={current} open={revising} onClose={() => setRevising(false)} onPublished={refresh} />
      )}
    </div>
  );
}

/** Every version, newest first; two ticked open the comparison, 查看名单 shows one version's lines. */
function VersionsCard({ round, current }: { round: ReviewRound; current: ResultVersionView }) {
  const { t } = useTranslation('results');
  const slug = slugOf(round);
  const [, setParams] = useSearchParams();
  const versions = useQuery({ queryKey: [...RESULTS_QUERY_KEYS.versions(slug), current.version], queryFn: () => fetchVersions(slug) });
  const [picked, setPicked] = useState<number[]>([]);
  const [pair, setPair] = useState<{ a: number; b: number } | null>(null);
  const list = versions.data?.versions ?? [];

  const showLines = (n: number) =>
    setParams(
      (currentParams) => {
        const next = new URLSearchParams();
        const r = currentParams.get('round');
        if (r) next.set('round', r);
        if (n !== current.version) next.set('version', String(n));
        return next;
      },
      { replace: true },
    );

  const openCompare = () => {
    const [x, y] = [...picked].sort((p, q) => p - q);
    if (x !== undefined && y !== undefined) setPair({ a: x, b: y });
  };

  return (
    <Card size="small" className="results-card" data-testid="results-versions">
      <CardTitle
        title={t('versions.title')}
        extra={
          <Button icon={<DiffOutlined />} disabled={picked.length !== 2} onClick={openCompare} data-testid="compare-open">
            {t('versions.compare')}
          </Button>
        }
      />
      <Typography.Paragraph type="secondary">{t('versions.pickHint')}</Typography.Paragraph>
      <DataTable<ResultVersionView>
        rowKey="version"
        loading={versions.isFetching}
        dataSource={list}
        rowSelection={{
          selectedRowKeys: picked,
          hideSelectAll: true,
          onChange: (keys) => setPicked(keys.map(Number).slice(-2)),
          getCheckboxProps: (row) => ({
            disabled: picked.length >= 2 && !picked.includes(row.version),
            'aria-label': t('versions.pickOf', { n: row.version }),
          }),
        }}
        columns={[
          { title: t('versions.version'), dataIndex: 'version', render: (n: number) => t('common.versionN', { n }) },
          {
            title: t('versions.status'),
            dataIndex: 'status',
            render: (s: ResultVersionView['status']) => <Tag color={s === 'PUBLISHED' ? 'green' : 'default'}>{t(`versionStatus.${s}`)}</Tag>,
          },
          { title: t('versions.publishedAt'), dataIndex: 'publishedAt', dateTime: true },
          { title: t('versions.actor'), dataIndex: 'actorName' },
          { title: t('versions.periodEnds'), dataIndex: 'periodEndsAt', dateTime: true },
          { title: t('versions.selected'), key: 'selected', render: (_, v) => t('publish.countOf', { selected: v.selected, total: v.total }) },
          {
            title: t('versions.appeals'),
            key: 'appeals',
            render: (_, v) => t('versions.appealsOf', { count: v.appeals.submitted + v.appeals.rejected + v.appeals.accepted + v.appeals.resolved }),
          },
          { title: t('versions.reason'), dataIndex: 'reason', render: (r: string | null) => <div className="results-text results-cell--wide">{r ?? t('versions.firstVersion')}</div> },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, v) => (
              <Button type="link" size="small" onClick={() => showLines(v.version)} data-testid="version-lines">
                {t('versions.lines')}
              </Button>
            ),
          },
        ]}
      />
      <CompareDialog round={round} pair={pair} onClose={() => setPair(null)} />
    </Card>
  );
}

/** The lines of one version (the current one unless ?version= names another), filters in the URL. */
function EntriesCard({ round, current }: { round: ReviewRound; current: ResultVersionView }) {
  const { t } = useTranslation('results');
  const slug = slugOf(round);
  const [params] = useSearchParams();
  const asked = Number(params.get('version'));
  const version = Number.isInteger(asked) && asked >= 1 && asked <= current.version ? asked : current.version;
  const columns = useEntryColumns();
  const outcomes = RESULT_OUTCOMES.filter((o) => (round === 'FINAL' ? o === 'AWARDED' || o === 'NONE' : o === 'PROMOTED' || o === 'NOT_PROMOTED'));
  const fields = useMemo<SearchField[]>(
    () => [
      { name: 'keyword', label: 'results:entries.keyword', kind: 'text', placeholder: 'results:entries.keywordPlaceholder' },
      { name: 'outcome', label: 'results:entries.outcome', kind: 'select', options: outcomes.map((o) => ({ value: o, label: `results:outcome.${o}` })) },
      { name: 'track', label: 'results:common.track', kind: 'dict', dictType: TRACK_DICT },
    ],
    [outcomes.join()],
  );
  return (
    <Card size="small" className="results-card" data-testid="results-entries">
      <CardTitle
        title={
          <Space size={4} wrap>
            <span>{t('entries.title', { n: version })}</span>
            {version !== current.version && <Tag>{t('versionStatus.SUPERSEDED')}</Tag>}
          </Space>
        }
      />
      <SearchTable<ResultEntryView>
        queryKey={[...RESULTS_QUERY_KEYS.entries(slug, version)]}
        fetchPage={(q) => fetchEntries(slug, version, q)}
        rowKey="projectId"
        columns={columns}
        searchFields={fields}
        urlState
      />
    </Card>
  );
}
