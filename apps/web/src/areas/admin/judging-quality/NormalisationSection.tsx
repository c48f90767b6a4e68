import { Form, InputNumber, Radio, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CUT_TOP_N_MAX, type NormalisationMove, type NormalisationView, type ReviewRound } from '@contest/shared';
import { labelOf, useDictLabels } from '../../../components/contest';
import { TRACK_DICT, points, slugOf } from '../review/round';
import { QUALITY_QUERY_KEYS, fetchCalibration, fetchNormalisation } from './judging-quality-api';
import { NoScores, QueryState } from './quality-common';
import { useQualityCut } from './quality-url';

/**
 * 归一化影响 (docs/rules/judging-quality.md, "Normalisation effect"): the projects inside the cut
 * under one aggregate and outside under another, with score and rank under each rule, the
 * declared rule first. N and the mode are the URL's (useQualityCut).
 */
export function NormalisationSection({ round }: { round: ReviewRound }) {
  const { t } = useTranslation('review');
  const slug = slugOf(round);
  const labels = useDictLabels([TRACK_DICT]);
  const { topN, perTrack, setTopN, setPerTrack } = useQualityCut();
  // Whether the round has scores at all: the calibration call the page makes anyway (one cache entry).
  const calibration = useQuery({ queryKey: QUALITY_QUERY_KEYS.calibration(slug), queryFn: () => fetchCalibration(slug) });
  const noScores = calibration.data !== undefined && calibration.data.experts.every((e) => e.scored === 0);
  const query = useQuery({
    queryKey: QUALITY_QUERY_KEYS.normalisation(slug, topN ?? 0, perTrack),
    queryFn: () => fetchNormalisation(slug, topN ?? 1, perTrack),
    enabled: topN !== null,
    placeholderData: keepPreviousData,
  });

  const ruleColumns = (view: NormalisationView): ColumnsType<NormalisationMove> =>
    [view.declared, ...view.alternatives].map((aggregate, i) => ({
      title: i === 0 ? t('quality.normalisation.declaredRule', { aggregate: t(`aggregates.${aggregate}`) }) : t(`aggregates.${aggregate}`),
      key: aggregate,
      className: i === 0 ? 'quality-col--declared' : undefined,
      render: (_: unknown, row: NormalisationMove) => {
        const under = row.under.find((u) => u.aggregate === aggregate) ?? row.under[i];
        if (!under) return '--';
        const rank = view.perTrack ? under.trackRank : under.rank;
        return (
          <div className="quality-rule-cell">
            <strong className="review-num">{points(under.score)}</strong>
            <span>
              <Typography.Text type="secondary">{t('quality.normalisation.rankOf', { rank: rank ?? '--' })}</Typography.Text>{' '}
              <Tag color={under.inCut ? 'green' : 'default'}>{under.inCut ? t('quality.normalisation.in') : t('quality.normalisation.out')}</Tag>
            </span>
          </div>
        );
      },
    }));

  return (
    <section className="quality-section" aria-labelledby="quality-normalisation" data-testid="quality-normalisation">
      <h2 id="quality-normalisation" className="quality-section__title">
        {t('quality.normalisation.title')}
      </h2>
      <Typography.Paragraph type="secondary" className="quality-section__hint">
        {t('quality.normalisation.hint')}
      </Typography.Paragraph>
      <Form layout="inline" className="quality-form">
        <Form.Item label={t('quality.topN')} htmlFor="normalisation-top-n">
          <InputNumber id="normalisation-top-n" min={1} max={CUT_TOP_N_MAX} precision={0} value={topN} onChange={(v) => setTopN(typeof v === 'number' ? v : null)} />
        </Form.Item>
        <Form.Item label={t('quality.cutMode')}>
          <Radio.Group
            value={perTrack}
            onChange={(e) => setPerTrack(e.target.value as boolean)}
            options={[
              { value: false, label: t('quality.overall') },
              { value: true, label: t('quality.perTrack') },
            ]}
            data-testid="normalisation-mode"
          />
        </Form.Item>
      </Form>
      {noScores ? (
        <NoScores testId="normalisation-empty" />
      ) : topN === null ? (
        <Typography.Text type="secondary">{t('quality.topNRequired')}</Typography.Text>
      ) : (
        <QueryState query={query} testId="normalisation">
          {(view) => (
            <>
              <Typography.Paragraph data-testid="normalisation-summary">
                {view.moves.length === 0
                  ? t('quality.normalisation.noMoves', { n: view.topN, aggregate: t(`aggregates.${view.declared}`) })
                  : t('quality.normalisation.moves', { count: view.moves.length, n: view.topN })}
              </Typography.Paragraph>
              {view.moves.length > 0 && (
                <Table<NormalisationMove>
                  size="small"
                  rowKey="projectId"
                  loading={query.isFetching}
                  columns={[
                    { title: t('quality.projectCode'), dataIndex: 'projectCode', width: 110 },
                    { title: t('common.project'), dataIndex: 'projectName', render: (v: string) => <span className="review-cell--wide">{v || t('common.untitled')}</span> },
                    { title: t('common.track'), dataIndex: 'track', render: (code: string | null) => labelOf(labels.data, TRACK_DICT, code) },
                    ...ruleColumns(view),
                  ]}
                  dataSource={view.moves}
                  scroll={{ x: 'max-content' }}
                  pagination={{ pageSize: 50, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
                  data-testid="normalisation-table"
                />
              )}
            </>
          )}
        </QueryState>
      )}
    </section>
  );
}
