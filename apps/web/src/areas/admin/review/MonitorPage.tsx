import { useMemo } from 'react';
import { Button, Progress, Space, Tag, Typography } from 'antd';
import { AuditOutlined, BellOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ROUND_ACCESS, type MonitorExpertRow, type MonitorProjectRow, type ReviewRound } from '@contest/shared';
import { KitTabs, SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { menuCodes } from '../../../components/admin-kit/console-menu';
import { useStaffInfo } from '../../../lib/session';
import { QUALITY_PATHS } from '../judging-quality/quality-paths';
import { AbstainedCell, ReplacementCell } from './MonitorAbstentions';
import { REVIEW_QUERY_KEYS, fetchGroupOptions, fetchMonitorExperts, fetchMonitorProjects } from './review-api';
import { REVIEW_PATHS, TRACK_DICT, points, slugOf, useRoundAccess, type RoundProps } from './round';
import { useExpertRemind } from './use-expert-remind';
import '../admin-pages.css';
import './review.css';

const TABS = ['experts', 'projects'] as const;
type Tab = (typeof TABS)[number];

/** Group options for the filters; none when the admin may not read the groups. */
function useGroupOptions(round: ReviewRound) {
  const slug = slugOf(round);
  const groups = useQuery({ queryKey: [...REVIEW_QUERY_KEYS.groups(slug), 'options'], queryFn: () => fetchGroupOptions(slug), retry: false });
  return useMemo(() => groups.data?.groups.map((g) => ({ value: g.id, label: g.name })) ?? [], [groups.data]);
}

/**
 * 初赛评分监控 / 决赛评分监控: by expert (assigned, submitted, drafts, returned, remaining, last
 * activity, reminded today; remind the selected or every expert with something left) and by
 * project (scores in / expected, drafts, spread, divergence; abstentions with their reasons and,
 * where the project needs a scorer, the suggested replacements, each added in one click). The
 * tab is in the URL (?tab=). 评审质量 opens the round's judging-quality page (the score query's
 * menu grants it).
 */
export function MonitorPage({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = (TABS as readonly string[]).includes(tabParam ?? '') ? (tabParam as Tab) : 'experts';
  const navigate = useNavigate();
  const menus = useStaffInfo('ADMIN').data?.menus;
  const canQuality = menus ? menuCodes(menus).has(ROUND_ACCESS[round].scoresMenu) : false;

  const setTab = (key: string) =>
    setParams(
      (current) => {
        // The experts tab keeps its filters in the URL; the projects tab keeps its own.
        const next = key === 'experts' ? new URLSearchParams(current) : new URLSearchParams();
        next.set('tab', key);
        return next;
      },
      { replace: true },
    );

  return (
    <section className="admin-page review-page" data-testid="monitor-page">
      <div className="review-head">
        <h1 className="admin-page__title">{t(`titles.monitor.${round}`)}</h1>
        {canQuality && (
          // 评审质量: calibration, normalisation effect and confidence on the cut of this round.
          <Button icon={<AuditOutlined />} onClick={() => void navigate(QUALITY_PATHS[round])} data-testid="monitor-quality">
            {t('quality.open')}
          </Button>
        )}
      </div>
      <KitTabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'experts', txtMes: t('monitor.byExpert'), component: <ExpertsTab round={round} /> },
          { key: 'projects', txtMes: t('monitor.byProject'), component: <ProjectsTab round={round} /> },
        ]}
      />
    </section>
  );
}

function ExpertsTab({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const slug = slugOf(round);
  const access = useRoundAccess(round);
  const navigate = useNavigate();
  const paths = REVIEW_PATHS[round];
  const groupOptions = useGroupOptions(round);
  const { remind, remindAll, busy } = useExpertRemind(round);

  const fields = useMemo<SearchField[]>(
    () => [
      { name: 'keyword', label: 'review:monitor.keyword', kind: 'text', placeholder: 'review:monitor.keywordPlaceholder' },
      ...(groupOptions.length > 0 ? [{ name: 'groupId', label: 'review:common.group', kind: 'select' as const, options: groupOptions }] : []),
      { name: 'late', label: 'review:monitor.lateFilter', kind: 'select', options: [{ value: 'true', label: 'review:monitor.lateOnly' }] },
    ],
    [groupOptions],
  );

  const columns: SearchColumns<MonitorExpertRow> = [
    { title: t('common.expertCode'), dataIndex: 'code' },
    {
      title: t('common.expertName'),
      dataIndex: 'name',
      render: (name: string, row) => (
        <Link to={paths.monitorExpert(row.expertId)} className="review-link">
          {name}
        </Link>
      ),
    },
    { title: t('common.group'), dataIndex: 'groupName' },
    { title: t('monitor.assigned'), dataIndex: 'assigned', align: 'right' },
    { title: t('monitor.submitted'), dataIndex: 'submitted', align: 'right' },
    { title: t('monitor.draft'), dataIndex: 'draft', align: 'right' },
    { title: t('monitor.returned'), dataIndex: 'returned', align: 'right' },
    {
      title: t('monitor.remaining'),
      dataIndex: 'remaining',
      align: 'right',
      render: (n: number) => (n > 0 ? <Typography.Text type="danger" strong>{n}</Typography.Text> : <Typography.Text type="success">0</Typography.Text>),
    },
    {
      title: t('monitor.progress'),
      key: 'progress',
      render: (_, row) => (
        <Progress
          percent={row.assigned ? Math.round((row.submitted / row.assigned) * 100) : 0}
          size="small"
          className="review-progress"
          aria-label={t('monitor.progressOf', { name: row.name })}
        />
      ),
    },
    { title: t('monitor.lastActivity'), dataIndex: 'lastActivityAt', dateTime: true },
    {
      title: t('monitor.remindedToday'),
      dataIndex: 'remindedToday',
      render: (value: boolean) => (value ? <Tag color="blue">{t('monitor.remindedTag')}</Tag> : null),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => void navigate(paths.monitorExpert(row.expertId))} data-testid="expert-detail">
            {t('common.detail')}
          </Button>
          {access.remind && row.remaining > 0 && (
            <Button
              type="link"
              size="small"
              disabled={row.remindedToday}
              loading={busy === row.expertId}
              onClick={() => void remind({ expertIds: [row.expertId] }, row.expertId)}
              data-testid="row-remind"
            >
              {t('monitor.remind')}
            </Button>
          )}
        </Space>
      ),
    },
  ];

  return (
    <SearchTable<MonitorExpertRow>
      queryKey={REVIEW_QUERY_KEYS.monitorExperts(slug)}
      fetchPage={(q) => fetchMonitorExperts(slug, q)}
      rowKey="expertId"
      columns={columns}
      searchFields={fields}
      urlState
      {...(access.remind
        ? {
            rowSelectable: (row: MonitorExpertRow) => row.remaining > 0,
            batchActions: (rows: MonitorExpertRow[], clear: () => void) => (
              <Button
                size="small"
                disabled={rows.length === 0}
                loading={busy === 'selected'}
                onClick={() => void remind({ expertIds: rows.map((r) => r.expertId) }, 'selected').then((done) => done && clear())}
                data-testid="remind-selected"
              >
                {t('monitor.remindSelected')}
              </Button>
            ),
          }
        : {})}
      toolbar={
        access.remind && (
          <Button icon={<BellOutlined />} loading={busy === 'all'} onClick={remindAll} data-testid="remind-all">
            {t('monitor.remindAll')}
          </Button>
        )
      }
    />
  );
}

function ProjectsTab({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const slug = slugOf(round);
  const paths = REVIEW_PATHS[round];
  const groupOptions = useGroupOptions(round);

  const fields = useMemo<SearchField[]>(
    () => [
      { name: 'keyword', label: 'review:projects.keyword', kind: 'text', placeholder: 'review:projects.keywordPlaceholder' },
      ...(groupOptions.length > 0 ? [{ name: 'groupId', label: 'review:common.group', kind: 'select' as const, options: groupOptions }] : []),
      { name: 'track', label: 'review:common.track', kind: 'dict', dictType: TRACK_DICT },
      {
        name: 'incomplete',
        label: 'review:monitor.incompleteFilter',
        kind: 'select',
        options: [{ value: 'true', label: 'review:monitor.incompleteOnly' }],
      },
    ],
    [groupOptions],
  );

  const columns: SearchColumns<MonitorProjectRow> = [
    {
      title: t('common.project'),
      dataIndex: 'projectName',
      render: (name: string, row) => (
        <Link to={paths.score(row.id)} className="review-link">
          {name || t('common.untitled')}
        </Link>
      ),
    },
    { title: t('common.track'), dataIndex: 'track', dict: TRACK_DICT },
    { title: t('common.group'), dataIndex: 'groupName' },
    {
      title: t('common.scoresIn'),
      key: 'scores',
      render: (_, row) => (
        // A project that lost a scorer to an abstention is short of scores even when every expected one is in.
        <Typography.Text type={row.scoresIn < row.expected || row.needsScorer ? 'warning' : 'success'}>
          {t('common.ofExpected', { n: row.scoresIn, expected: row.expected })}
        </Typography.Text>
      ),
    },
    { title: t('monitor.drafts'), dataIndex: 'drafts', align: 'right' },
    {
      title: t('scores.spread'),
      dataIndex: 'spread',
      render: (value: number | null, row) => (
        <Space size={4}>
          <span className="review-num">{points(value)}</span>
          {row.divergent && (
            <Tag color="red" data-testid="divergent-tag">
              {t('scores.divergent')}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('monitor.abstained'), key: 'abstained', render: (_, row) => <AbstainedCell round={round} row={row} /> },
    { title: t('monitor.replacements'), key: 'replacements', render: (_, row) => <ReplacementCell round={round} row={row} /> },
  ];

  return (
    <SearchTable<MonitorProjectRow>
      queryKey={REVIEW_QUERY_KEYS.monitorProjects(slug)}
      fetchPage={(q) => fetchMonitorProjects(slug, q)}
      rowKey="id"
      columns={columns}
      searchFields={fields}
    />
  );
}

export function PrelimMonitorPage() {
  return <MonitorPage round={'PRELIMINARY' satisfies ReviewRound} />;
}

export function FinalMonitorPage() {
  return <MonitorPage round={'FINAL' satisfies ReviewRound} />;
}
