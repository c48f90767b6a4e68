import { useState } from 'react';
import { Button, Descriptions, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import { RedoOutlined, RollbackOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import type { AdminSheetView, ReviewRound, ScoreDetail, SheetRevisionView } from '@contest/shared';
import { DataTable, DetailLayout, beijingTitle, formatDateTime, type KitColumn } from '../../../components/admin-kit';
import { useFeedback } from '../../../components/feedback';
import { RecordDetailShell } from '../components/RecordDetailShell';
import { ConflictList } from './ConflictTag';
import { DecidedByTag } from './DecidedByTag';
import { isStale } from './errors';
import { RereviewDialog } from './RereviewDialog';
import { REVIEW_QUERY_KEYS, fetchScoreDetail, returnSheet } from './review-api';
import { ReviewReasonDialog } from './ReviewReasonDialog';
import { TRACK_DICT, points, score, slugOf, useRoundAccess, type RoundProps } from './round';
import { RuleText } from './RuleText';
import { SheetHistory } from './SheetHistory';
import { SheetStatusTag } from './SheetStatusTag';
import '../admin-pages.css';
import './review.css';
import { criterionName } from '../../../lib/criterion-text';

type ExpertSheet = ScoreDetail['experts'][number];

/**
 * 成绩详情 (both rounds): the project, its aggregates side by side, every expert's sheet (the
 * dropped totals and re-review experts marked, earlier submissions expandable), its conflicts and
 * history; 退回 a submitted sheet and 发起复评 with the score-return button.
 */
export function ScoreDetailPage({ round }: RoundProps) {
  const { t } = useTranslation('review');
  const { id = '' } = useParams();
  const slug = slugOf(round);
  const queryClient = useQueryClient();
  const { message } = useFeedback();
  const access = useRoundAccess(round);
  const detail = useQuery({ queryKey: REVIEW_QUERY_KEYS.score(slug, id), queryFn: () => fetchScoreDetail(slug, id), enabled: id !== '' });
  const [returning, setReturning] = useState<ExpertSheet | null>(null);
  const [rereview, setRereview] = useState(false);

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.score(slug, id) });
    void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.scores(slug) });
    void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.monitorExperts(slug) });
    void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.monitorProjects(slug) });
  };

  const doReturn = async (reason: string) => {
    const sheet = returning?.sheet;
    if (!sheet) return;
    try {
      await returnSheet(slug, sheet.id, { reason, version: sheet.version });
    } catch (e) {
      if (!isStale(e)) throw e;
      // The expert changed the sheet meanwhile: show it as it is now.
      void message.warning((e as Error).message);
      refresh();
      return;
    }
    void message.success(t('detail.returned'));
    refresh();
  };

  return (
    <RecordDetailShell query={detail} className="review-page review-detail" testId="score-detail-page" loadFailed={t('detail.loadFailed')} reload={t('common.reload')}>
      {(data) => {
        const agg = data.aggregate;
        const trimmedNote = agg.trimmed ? t('detail.trimmed') : t('detail.notTrimmed', { min: data.rule.minScoresForTrim });
        return (
          <>
            <DetailLayout
              title={data.project.projectName || t('common.untitled')}
              status={
                agg.divergent ? (
                  <Tag color="red" data-testid="divergent-tag">
                    {t('scores.divergent')}
                  </Tag>
                ) : undefined
              }
              extra={
                access.scoreReturn && (
                  <Button icon={<RedoOutlined />} onClick={() => setRereview(true)} data-testid="rereview-open">
                    {t('rereview.open')}
                  </Button>
                )
              }
              sections={[
                {
                  key: 'project',
                  title: t('detail.project'),
                  items: [
                    { label: t('common.project'), value: data.project.projectName },
                    { label: t('common.team'), value: data.project.teamName },
                    { label: t('common.org'), value: data.project.orgName },
                    { label: t('common.track'), value: data.project.track, dict: TRACK_DICT },
                    { label: t('common.group'), value: data.project.groupName },
                  ],
                },
                {
                  key: 'aggregate',
                  title: t('detail.aggregates'),
                  columns: 3,
                  content: (
                    <div className="review-detail__rule">
                      <RuleText rule={data.rule} threshold={data.divergenceThreshold} />
                    </div>
                  ),
                  items: [
                    {
                      label: t('scores.ruleScoreOf', { aggregate: t(`aggregates.${data.rule.aggregate}`) }),
                      value: <strong className="review-num review-num--big" data-testid="detail-rule-score">{points(agg.ruleScore)}</strong>,
                    },
                    { label: t('scores.rank'), value: agg.rank === null ? t('scores.unranked') : String(agg.rank) },
                    { label: t('scores.trackRank'), value: agg.trackRank === null ? null : String(agg.trackRank) },
                    { label: t('aggregates.MEAN'), value: points(agg.mean) },
                    {
                      label: t('aggregates.TRIMMED_MEAN'),
                      value: (
                        <Space size={4} wrap>
                          <span className="review-num">{points(agg.trimmedMean)}</span>
                          {agg.count > 0 && <Typography.Text type="secondary">{trimmedNote}</Typography.Text>}
                        </Space>
                      ),
                    },
                    { label: t('aggregates.MEDIAN'), value: points(agg.median) },
                    { label: t('aggregates.ZSCORE'), value: points(agg.zMean) },
                    {
                      label: t('scores.spread'),
                      value: (
                        <Space size={4}>
                          <span className="review-num">{points(agg.spread)}</span>
                          {agg.divergent && <Tag color="red">{t('scores.divergent')}</Tag>}
                        </Space>
                      ),
                    },
                    { label: t('common.scoresIn'), value: t('common.ofExpected', { n: agg.count, expected: agg.expected }) },
                    { label: t('scores.decidedBy'), value: agg.decidedBy ? <DecidedByTag decidedBy={agg.decidedBy} /> : null },
                  ],
                },
                {
                  key: 'sheets',
                  title: t('detail.sheets', { count: data.experts.length }),
                  content: (
                    <SheetsTable
                      detail={data}
                      canReturn={access.scoreReturn}
                      onReturn={(row) => setReturning(row)}
                    />
                  ),
                },
                {
                  key: 'criteria',
                  title: t('detail.criteriaMeans'),
                  columns: 3,
                  items: data.criteria.map((c) => ({
                    label: t('scores.criterionMean', { name: criterionName(c), max: c.max }),
                    value: points(agg.criteria[c.key] ?? null),
                  })),
                },
                {
                  key: 'conflicts',
                  title: t('detail.conflicts', { count: data.conflicts.length }),
                  content: <ConflictList conflicts={data.conflicts} />,
                },
                { key: 'history', title: t('history.title'), content: <SheetHistory entries={data.history} /> },
              ]}
            />
            <ReviewReasonDialog
              open={returning !== null}
              title={t('detail.returnTitle')}
              okText={t('detail.return')}
              label={t('detail.returnReason')}
              onClose={() => setReturning(null)}
              onSubmit={doReturn}
            >
              {returning && (
                <p>{t('detail.returnOf', { expert: `${returning.expertCode} ${returning.expertName}`, total: score(returning.sheet?.total) })}</p>
              )}
            </ReviewReasonDialog>
            <RereviewDialog
              round={round}
              detail={data}
              open={rereview}
              onClose={() => setRereview(false)}
              onDone={() => {
                void message.success(t('rereview.done'));
                refresh();
              }}
            />
          </>
        );
      }}
    </RecordDetailShell>
  );
}

interface SheetsTableProps {
  detail: ScoreDetail;
  canReturn: boolean;
  onReturn(row: ExpertSheet): void;
}

/** Every expert expected to score, with their sheet: each criterion, total, comment, status, times; 退回 on a submitted one. */
function SheetsTable({ detail, canReturn, onReturn }: SheetsTableProps) {
  const { t } = useTranslation('review');
  const columns: KitColumn<ExpertSheet>[] = [
    { title: t('common.expertCode'), dataIndex: 'expertCode', fixed: 'left' },
    {
      title: t('common.expertName'),
      dataIndex: 'expertName',
      render: (name: string, row) => (
        <Space size={4} wrap>
          <span>{name}</span>
          {row.extra && (
            <Tag color="purple" data-testid="extra-tag">
              {t('common.extra')}
            </Tag>
          )}
        </Space>
      ),
    },
    ...detail.criteria.map((c) => ({
      title: t('detail.criterionOf', { name: criterionName(c), max: c.max }),
      key: `c-${c.key}`,
      align: 'right' as const,
      render: (_: unknown, row: ExpertSheet) => (row.sheet ? score(row.sheet.scores[c.key]) : null),
    })),
    {
      title: t('common.total'),
      key: 'total',
      align: 'right',
      render: (_, row) =>
        row.sheet ? (
          <Space size={4}>
            <strong>{score(row.sheet.total)}</strong>
            {row.sheet.dropped && (
              <Tooltip title={t('detail.droppedHint')}>
                <Tag data-testid="dropped-tag">{t('detail.dropped')}</Tag>
              </Tooltip>
            )}
          </Space>
        ) : null,
    },
    {
      title: t('common.comment'),
      key: 'comment',
      render: (_, row) => (row.sheet?.comment ? <div className="review-comment">{row.sheet.comment}</div> : null),
    },
    {
      title: t('common.status'),
      key: 'status',
      render: (_, row) => (
        <div>
          <SheetStatusTag status={row.sheet?.status ?? 'NONE'} />
          {row.sheet?.status === 'RETURNED' && row.sheet.returnReason && (
            <div className="review-reason">{t('detail.returnReasonLine', { reason: row.sheet.returnReason })}</div>
          )}
          {/* An abstention keeps its reason in the sheet (docs/rules/review.md, "Abstaining"). */}
          {row.sheet?.status === 'ABSTAINED' && row.sheet.returnReason && (
            <div className="review-reason" data-testid="abstain-reason">
              {t('detail.abstainReasonLine', { reason: row.sheet.returnReason })}
            </div>
          )}
        </div>
      ),
    },
    { title: t('common.submittedAt'), key: 'submittedAt', dateTime: true, render: (_, row) => formatDateTime(row.sheet?.submittedAt ?? null) },
    ...(canReturn
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right' as const,
            render: (_: unknown, row: ExpertSheet) =>
              row.sheet?.status === 'SUBMITTED' ? (
                <Button type="link" size="small" icon={<RollbackOutlined />} onClick={() => onReturn(row)} data-testid="sheet-return">
                  {t('detail.return')}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];

  if (detail.experts.length === 0) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noExperts')} />;
  return (
    <DataTable<ExpertSheet>
      rowKey="expertId"
      columns={columns}
      dataSource={detail.experts}
      rowClassName={(row) => (row.sheet?.dropped ? 'review-row--dropped' : '')}
      expandable={{
        rowExpandable: (row) => (row.sheet?.revisions.length ?? 0) > 0,
        expandedRowRender: (row) => <Revisions sheet={row.sheet!} detail={detail} />,
        columnTitle: t('detail.revisions'),
      }}
    />
  );
}

/** The earlier submissions of a returned sheet: scores, total, comment, when submitted and returned, by whom, why. */
function Revisions({ sheet, detail }: { sheet: AdminSheetView; detail: ScoreDetail }) {
  const { t } = useTranslation('review');
  // Numbered in the order they were submitted, whatever order they come in.
  const oldestFirst = [...sheet.revisions].sort((a: SheetRevisionView, b: SheetRevisionView) => a.returnedAt.localeCompare(b.returnedAt));
  return (
    <ol className="review-revisions" data-testid="sheet-revisions">
      {oldestFirst.map((rev, i) => (
        <li key={`${rev.returnedAt}-${i}`}>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, md: 3 }}
            title={t('detail.revisionN', { n: i + 1 })}
            items={[
              { key: 'total', label: t('common.total'), children: score(rev.total) },
              ...detail.criteria.map((c) => ({ key: c.key, label: criterionName(c), children: score(rev.scores[c.key]) })),
              { key: 'submittedAt', label: beijingTitle(t('common.submittedAt')), children: formatDateTime(rev.submittedAt) },
              { key: 'returnedAt', label: beijingTitle(t('detail.returnedAt')), children: formatDateTime(rev.returnedAt) },
              { key: 'returnedBy', label: t('detail.returnedBy'), children: rev.returnedBy ?? '--' },
              { key: 'reason', label: t('detail.returnReason'), children: rev.reason },
              { key: 'comment', label: t('common.comment'), children: rev.comment || '--', span: 3 },
            ]}
          />
        </li>
      ))}
    </ol>
  );
}

export function PrelimScoreDetailPage() {
  return <ScoreDetailPage round={'PRELIMINARY' satisfies ReviewRound} />;
}

export function FinalScoreDetailPage() {
  return <ScoreDetailPage round={'FINAL' satisfies ReviewRound} />;
}
