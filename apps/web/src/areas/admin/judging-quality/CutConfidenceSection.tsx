import { useState } from 'react';
import { Alert, Button, Descriptions, Form, InputNumber, Radio, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  BOOTSTRAP_ROUNDS,
  BOOTSTRAP_ROUNDS_MAX,
  BOOTSTRAP_ROUNDS_MIN,
  CUT_TOP_N_MAX,
  type CutConfidenceProjectView,
  type CutConfidenceRunView,
  type ReviewRound,
} from '@contest/shared';
import { labelOf, useDictLabels } from '../../../components/contest';
import { useFeedback } from '../../../components/feedback';
import { beijingTitle, formatDateTime } from '../../../components/admin-kit';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { errorText } from '../review/errors';
import { REVIEW_QUERY_KEYS, fetchScoreDetail } from '../review/review-api';
import { RereviewDialog } from '../review/RereviewDialog';
import { TRACK_DICT, slugOf } from '../review/round';
import { QUALITY_QUERY_KEYS, fetchCutConfidence, startCutConfidence } from './judging-quality-api';
import { QueryState, percent, useQualityAccess } from './quality-common';
import { cutFailureReason } from './quality-url';

/** How often a running bootstrap is read again. */
export const CUT_POLL_MS = 2000;

interface RunValues {
  topN: number | null;
  perTrack: boolean;
  seed: number | null;
  rounds: number | null;
}

/**
 * 入围置信度 (docs/rules/judging-quality.md, "Confidence on the cut"): start a bootstrap run (the
 * cut-confidence button), follow it while RUNNING, and read the latest run: its seed, draws, N and
 * rule, per project the share of draws inside the cut, the rank interval and the on-the-cut tag;
 * 复评加专家 opens the score query's re-review for that project.
 */
export function CutConfidenceSection({ round }: { round: ReviewRound }) {
  const { t } = useTranslation('review');
  const slug = slugOf(round);
  const access = useQualityAccess(round);
  const queryClient = useQueryClient();
  const labels = useDictLabels([TRACK_DICT]);
  const [form] = Form.useForm<RunValues>();
  const key = QUALITY_QUERY_KEYS.cutConfidence(slug);
  const query = useQuery({
    queryKey: key,
    queryFn: () => fetchCutConfidence(slug),
    refetchInterval: (q) => (q.state.data?.status === 'RUNNING' ? CUT_POLL_MS : false),
  });

  const { busy, error, submit } = useFormSubmit(
    form,
    async (values) => {
      const run = await startCutConfidence(slug, {
        topN: values.topN ?? 1,
        perTrack: values.perTrack,
        ...(values.seed !== null && values.seed !== undefined ? { seed: values.seed } : {}),
        rounds: values.rounds ?? BOOTSTRAP_ROUNDS,
      });
      queryClient.setQueryData(key, run);
    },
    errorText,
  );

  const run = query.data;
  return (
    <section className="quality-section" aria-labelledby="quality-cut" data-testid="quality-cut">
      <h2 id="quality-cut" className="quality-section__title">
        {t('quality.cut.title')}
      </h2>
      <Typography.Paragraph type="secondary" className="quality-section__hint">
        {t('quality.cut.hint')}
      </Typography.Paragraph>
      {access.run && (
        <Form<RunValues>
          form={form}
          name="cut-confidence"
          layout="inline"
          className="quality-form"
          initialValues={{ topN: null, perTrack: false, seed: null, rounds: BOOTSTRAP_ROUNDS }}
          onFinish={() => void submit()}
          data-testid="cut-form"
        >
          <Form.Item name="topN" label={t('quality.topN')} rules={[{ required: true, message: t('quality.topNRequired') }]}>
            <InputNumber min={1} max={CUT_TOP_N_MAX} precision={0} />
          </Form.Item>
          <Form.Item name="perTrack" label={t('quality.cutMode')}>
            <Radio.Group
              options={[
                { value: false, label: t('quality.overall') },
                { value: true, label: t('quality.perTrack') },
              ]}
            />
          </Form.Item>
          <Form.Item name="seed" label={t('quality.cut.seed')} tooltip={t('quality.cut.seedHint')}>
            <InputNumber min={0} max={0xffff_ffff} precision={0} placeholder={t('quality.cut.seedRandom')} className="quality-form__seed" />
          </Form.Item>
          <Form.Item name="rounds" label={t('quality.cut.rounds')}>
            <InputNumber min={BOOTSTRAP_ROUNDS_MIN} max={BOOTSTRAP_ROUNDS_MAX} precision={0} step={500} />
          </Form.Item>
          <Form.Item>
            <Button type="primary" htmlType="submit" loading={busy} disabled={run?.status === 'RUNNING'} data-testid="cut-start">
              {t('quality.cut.start')}
            </Button>
          </Form.Item>
        </Form>
      )}
      {error && <Alert type="error" showIcon title={error} className="review-block" data-testid="cut-start-error" />}
      <QueryState query={query} testId="cut">
        {(latest) =>
          latest === null ? (
            <Typography.Paragraph type="secondary" data-testid="cut-none">
              {t('quality.cut.none')}
            </Typography.Paragraph>
          ) : (
            <RunView run={latest} labels={labels.data} canRereview={access.rereview} round={round} />
          )
        }
      </QueryState>
    </section>
  );
}

function RunView({ run, labels, canRereview, round }: { run: CutConfidenceRunView; labels: ReturnType<typeof useDictLabels>['data']; canRereview: boolean; round: ReviewRound }) {
  const { t } = useTranslation('review');
  const [rereviewOf, setRereviewOf] = useState<string | null>(null);

  const columns: ColumnsType<CutConfidenceProjectView> = [
    { title: t('quality.projectCode'), dataIndex: 'projectCode', width: 110 },
    { title: t('common.project'), dataIndex: 'projectName', render: (v: string) => <span className="review-cell--wide">{v || t('common.untitled')}</span> },
    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => labelOf(labels, TRACK_DICT, code) },
    { title: t('quality.cut.scores'), dataIndex: 'count', align: 'right' },
    {
      title: run.perTrack ? t('quality.cut.pTrack') : t('quality.cut.pOverall'),
      key: 'p',
      align: 'right',
      render: (_, row) => <strong className="review-num" data-testid="cut-p">{percent(run.perTrack ? row.pTrack : row.pOverall)}</strong>,
    },
    ...(run.perTrack
      ? [{ title: t('quality.cut.pOverall'), key: 'pOverall', align: 'right' as const, render: (_: unknown, row: CutConfidenceProjectView) => <span className="review-num">{percent(row.pOverall)}</span> }]
      : []),
    {
      title: t('quality.cut.rankInterval'),
      key: 'interval',
      render: (_, row) =>
        row.rankLow === null || row.rankHigh === null ? '--' : row.rankLow === row.rankHigh ? String(row.rankLow) : `${row.rankLow} – ${row.rankHigh}`,
    },
    {
      title: t('quality.cut.state'),
      key: 'onCut',
      render: (_, row) =>
        (run.perTrack ? row.onCutTrack : row.onCutOverall) ? (
          <Tag color="orange" data-testid="on-cut-tag">
            {t('quality.onCut')}
          </Tag>
        ) : null,
    },
    ...(canRereview
      ? [
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_: unknown, row: CutConfidenceProjectView) => (
              <Button type="link" size="small" onClick={() => setRereviewOf(row.projectId)} data-testid="cut-rereview" aria-label={t('quality.cut.rereviewOf', { name: row.projectName })}>
                {t('quality.cut.rereview')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  const onCut = run.projects.filter((p) => (run.perTrack ? p.onCutTrack : p.onCutOverall)).length;
  return (
    <div data-testid="cut-run">
      {run.status === 'RUNNING' && (
        <Alert
          type="info"
          showIcon
          icon={<Spin size="small" />}
          title={t('quality.cut.running', { rounds: run.rounds })}
          description={t('quality.cut.runningHint')}
          className="review-block"
          data-testid="cut-running"
        />
      )}
      {run.status === 'FAILED' && (
        <Alert
          type="error"
          showIcon
          title={t('quality.cut.failed')}
          // A reason in the page's language, never the computation's own text (cutFailureReason).
          description={t(`quality.cut.failedReasons.${cutFailureReason(run.error)}`)}
          className="review-block"
          data-testid="cut-failed"
        />
      )}
      {run.stale && run.status !== 'FAILED' && <Alert type="warning" showIcon title={t('quality.cut.stale')} className="review-block" data-testid="cut-stale" />}
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, lg: 4 }}
        className="review-block"
        data-testid="cut-recorded"
        items={[
          { key: 'status', label: t('quality.cut.status'), children: <Tag color={run.status === 'DONE' ? 'green' : run.status === 'FAILED' ? 'red' : 'processing'}>{t(`quality.cut.statuses.${run.status}`)}</Tag> },
          { key: 'n', label: t('quality.topN'), children: t('quality.cut.nOf', { n: run.topN, mode: run.perTrack ? t('quality.perTrack') : t('quality.overall') }) },
          { key: 'rule', label: t('quality.cut.rule'), children: t(`aggregates.${run.aggregate}`) },
          { key: 'seed', label: t('quality.cut.seed'), children: <span className="review-num" data-testid="cut-seed">{run.seed}</span> },
          { key: 'rounds', label: t('quality.cut.rounds'), children: run.rounds },
          { key: 'by', label: t('quality.cut.startedBy'), children: run.startedBy },
          { key: 'at', label: beijingTitle(t('quality.cut.startedAt')), children: formatDateTime(run.startedAt) },
          { key: 'done', label: beijingTitle(t('quality.cut.finishedAt')), children: formatDateTime(run.finishedAt) ?? '--' },
        ]}
      />
      {run.status === 'DONE' && (
        <>
          <Typography.Paragraph data-testid="cut-summary">{t('quality.cut.summary', { count: onCut, total: run.projects.length })}</Typography.Paragraph>
          <Table<CutConfidenceProjectView>
            size="small"
            rowKey="projectId"
            columns={columns}
            dataSource={run.projects}
            scroll={{ x: 'max-content' }}
            rowClassName={(row) => ((run.perTrack ? row.onCutTrack : row.onCutOverall) ? 'review-row--cut' : '')}
            pagination={{ pageSize: 50, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
            locale={{ emptyText: t('quality.noScores') }}
            data-testid="cut-table"
          />
        </>
      )}
      {rereviewOf && <RereviewFor round={round} projectId={rereviewOf} onClose={() => setRereviewOf(null)} />}
    </div>
  );
}

/** The score detail the re-review dialog needs (who already scores the project, conflicts), then the dialog. */
function RereviewFor({ round, projectId, onClose }: { round: ReviewRound; projectId: string; onClose(): void }) {
  const { t } = useTranslation('review');
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const slug = slugOf(round);
  const detail = useQuery({ queryKey: REVIEW_QUERY_KEYS.score(slug, projectId), queryFn: () => fetchScoreDetail(slug, projectId) });
  if (detail.isPending) return <Spin className="quality-rereview-wait" data-testid="cut-rereview-loading" />;
  if (!detail.data) return null;
  return (
    <RereviewDialog
      round={round}
      detail={detail.data}
      open
      onClose={onClose}
      onDone={() => {
        void message.success(t('rereview.done'));
        void queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.round(slug) });
      }}
    />
  );
}
