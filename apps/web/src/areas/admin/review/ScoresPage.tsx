import { useMemo } from 'react';
import { Button, Space, Tag, Typography } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { ReviewRound, ScoreList, ScoreRow } from '@contest/shared';
import { ExportButton, SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { QUALITY_PATHS } from '../judging-quality/quality-paths';
import { DecidedByTag } from './DecidedByTag';
import { REVIEW_QUERY_KEYS, fetchGroupOptions, fetchScores, scoresExportUrl } from './review-api';
import { REVIEW_PATHS, TRACK_DICT, points, slugOf, useRoundAccess, type RoundProps } from './round';
import { RuleText } from './RuleText';
import '../admin-pages.css';
import './review.css';
import { criterionName } from '../../../lib/criterion-text';

type Meta = Omit<ScoreList, 'list' | 'page' | 'size' | 'total'>;

/**
 * 初赛成绩查询 / 决赛成绩查询: every project of the round in rank order under the round's rule:
 * rank overall and in its track, scores in / expected, the rule's score, each aggregate, the
 * criterion means, the spread with the divergence flag, and how a tie was settled. The header
 * states the rule, the tie-break chain and the divergence threshold; export with the filters.
 */
export function ScoresPage({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const navigate = useNavigate();
  const slug = slugOf(round);
  const access = useRoundAccess(round);
  const paths = REVIEW_PATHS[round];
  const queryClient = useQueryClient();
  // The rule, criteria and threshold come with each page of the list; kept beside the pages in
  // the cache, so a list shown from the cache (back from a detail) still has its header.
  const metaKey = [...REVIEW_QUERY_KEYS.scores(slug), 'meta'];
  const meta =
    useQuery<Meta | null>({ queryKey: metaKey, queryFn: () => null, enabled: false, staleTime: Infinity }).data ?? null;
  const groups = useQuery({ queryKey: [...REVIEW_QUERY_KEYS.groups(slug), 'options'], queryFn: () => fetchGroupOptions(slug), retry: false });

  const fields = useMemo<SearchField[]>(
    () => [
      { name: 'keyword', label: 'review:scores.keyword', kind: 'text', placeholder: 'review:projects.keywordPlaceholder' },
      { name: 'track', label: 'review:common.track', kind: 'dict', dictType: TRACK_DICT },
      ...(groups.data && groups.data.groups.length > 0
        ? [{ name: 'groupId', label: 'review:common.group', kind: 'select' as const, options: groups.data.groups.map((g) => ({ value: g.id, label: g.name })) }]
        : []),
      {
        name: 'divergent',
        label: 'review:scores.divergentFilter',
        kind: 'select',
        options: [
          { value: 'true', label: 'review:scores.divergentOnly' },
          { value: 'false', label: 'review:scores.notDivergent' },
        ],
      },
    ],
    [groups.data],
  );

  const fetchPage = async (params: object) => {
    const answer = await fetchScores(slug, params);
    const { list: _list, page: _page, size: _size, total: _total, ...rest } = answer;
    queryClient.setQueryData<Meta | null>(metaKey, rest);
    return answer;
  };

  const criteria = meta?.criteria ?? [];
  const num = (value: number | null) => <span className="review-num">{points(value)}</span>;
  const columns: SearchColumns<ScoreRow> = [
    { title: t('scores.rank'), dataIndex: 'rank', fixed: 'left', width: 64, render: (rank: number | null) => rank ?? <Typography.Text type="secondary">{t('scores.unranked')}</Typography.Text> },
    { title: t('scores.trackRank'), dataIndex: 'trackRank', width: 80 },
    {
      title: t('common.project'),
      dataIndex: 'projectName',
      render: (name: string, row) => (
        <div className="review-cell--wide">
          <Link to={paths.score(row.projectId)} className="review-link">
            {name || t('common.untitled')}
          </Link>
          <div>
            <Typography.Text type="secondary">{row.teamName}</Typography.Text>
          </div>
        </div>
      ),
    },
    // At 1440 px the list shows what ranking needs; the other aggregates are one click away (列设置)
    // and all of them are on the project's detail page.
    { title: t('common.org'), dataIndex: 'orgName', optional: 'shown', width: 150 },
    { title: t('common.track'), dataIndex: 'track', dict: TRACK_DICT },
    { title: t('common.group'), dataIndex: 'groupName', optional: 'shown' },
    { title: t('common.scoresIn'), key: 'count', render: (_, row) => t('common.ofExpected', { n: row.count, expected: row.expected }) },
    {
      title: meta ? t('scores.ruleScoreOf', { aggregate: t(`aggregates.${meta.rule.aggregate}`) }) : t('scores.ruleScore'),
      dataIndex: 'ruleScore',
      // The header names the rule's aggregate: it wraps, so 极差 and 并列判定 stay in view at 1440 px.
      width: 120,
      render: (value: number | null) => <strong className="review-num" data-testid="rule-score">{points(value)}</strong>,
    },
    { title: t('aggregates.MEAN'), dataIndex: 'mean', render: num, optional: 'hidden' },
    {
      title: t('aggregates.TRIMMED_MEAN'),
      dataIndex: 'trimmedMean',
      optional: 'hidden',
      render: (value: number | null, row) => (
        <Space size={4}>
          {num(value)}
          {value !== null && !row.trimmed && <Typography.Text type="secondary">{t('scores.notTrimmed')}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('aggregates.MEDIAN'), dataIndex: 'median', render: num, optional: 'hidden' },
    { title: t('aggregates.ZSCORE'), dataIndex: 'zMean', render: num, optional: 'hidden' },
    ...criteria.map((c) => ({
      title: t('scores.criterionMean', { name: criterionName(c), max: c.max }),
      key: `criterion-${c.key}`,
      optional: 'hidden' as const,
      render: (_: unknown, row: ScoreRow) => num(row.criteria[c.key] ?? null),
    })),
    {
      title: t('scores.spread'),
      dataIndex: 'spread',
      render: (value: number | null, row) => (
        <Space size={4}>
          {num(value)}
          {row.divergent && (
            <Tag color="red" data-testid="divergent-tag">
              {t('scores.divergent')}
            </Tag>
          )}
        </Space>
      ),
    },
    { title: t('scores.decidedBy'), dataIndex: 'decidedBy', render: (value: ScoreRow['decidedBy']) => <DecidedByTag decidedBy={value} /> },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Button type="link" size="small" onClick={() => void navigate(paths.score(row.projectId))} data-testid="score-detail">
          {t('common.detail')}
        </Button>
      ),
    },
  ];

  return (
    <section className="admin-page review-page" data-testid="scores-page">
      <h1 className="admin-page__title">{t(`titles.scores.${round}`)}</h1>
      <div className="review-rule-bar" data-testid="scores-rule">
        {meta ? (
          <>
            <RuleText rule={meta.rule} threshold={meta.divergenceThreshold} />
            {meta.roundMean !== null && (
              <Typography.Text type="secondary">
                {t('scores.roundStats', { mean: points(meta.roundMean), sd: points(meta.roundSd) })}
              </Typography.Text>
            )}
          </>
        ) : (
          <Typography.Text type="secondary">{t('common.loading')}</Typography.Text>
        )}
      </div>
      <SearchTable<ScoreRow>
        queryKey={REVIEW_QUERY_KEYS.scores(slug)}
        fetchPage={fetchPage}
        rowKey="projectId"
        columns={columns}
        columnsId={`scores-${slug}`}
        searchFields={fields}
        urlState
        toolbar={(filters) => (
          <Space wrap>
            {/* 评审质量: calibration, normalisation effect and confidence on the cut of this round. */}
            <Button icon={<AuditOutlined />} onClick={() => void navigate(QUALITY_PATHS[round])} data-testid="scores-quality">
              {t('quality.open')}
            </Button>
            {access.scoreExport && (
              <ExportButton url={scoresExportUrl(slug)} params={filters} fallbackName={t('scores.exportName', { round: t(`rounds.${round}`) })} />
            )}
          </Space>
        )}
      />
    </section>
  );
}

export function PrelimScoresPage() {
  return <ScoresPage round={'PRELIMINARY' satisfies ReviewRound} />;
}

export function FinalScoresPage() {
  return <ScoresPage round={'FINAL' satisfies ReviewRound} />;
}
