import { useState } from 'react';
import { Button, Popover, Space, Spin, Tag, Typography } from 'antd';
import { UserAddOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MonitorProjectRow, ReplacementSuggestion, ReviewRound } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { errorText } from './errors';
import { REVIEW_QUERY_KEYS, fetchScoreDetail, startRereview } from './review-api';
import { REVIEW_PATHS, slugOf, useRoundAccess } from './round';
import './monitor-abstentions.css';

/**
 * The re-review reason sent when a replacement is added from 评分监控 in one click (the added
 * expert reads it in their notice). Chinese, like every reason the portal records by itself
 * (docs/rules/judging-quality.md, "Abstentions in the console").
 */
export const REPLACEMENT_REASON = '原评审专家已回避，请补充评审该项目';

/**
 * 已回避 N 人 on a monitoring row (docs/rules/review.md, "Abstaining"): hover, focus or click shows
 * who abstained and why, read from the project's score detail when first opened (the row carries
 * the count only). Without the score query's menu the detail is refused: the count stays, with a
 * pointer to the score detail.
 */
export function AbstainedCell({ round, row }: { round: ReviewRound; row: MonitorProjectRow }) {
  const { t } = useTranslation('review');
  const [open, setOpen] = useState(false);
  const count = row.abstained ?? 0;
  if (count === 0) return null;
  return (
    <Popover
      open={open}
      onOpenChange={setOpen}
      trigger={['hover', 'focus', 'click']}
      title={t('monitor.abstainedTitle', { name: row.projectName || t('common.untitled') })}
      content={open ? <AbstainReasons round={round} projectId={row.id} /> : null}
    >
      <Button
        size="small"
        type="text"
        className="review-abstained"
        aria-label={t('monitor.abstainedOf', { count, name: row.projectName || t('common.untitled') })}
        data-testid="abstained-count"
      >
        <Tag className="review-abstained__tag">{t('monitor.abstainedCount', { count })}</Tag>
      </Button>
    </Popover>
  );
}

function AbstainReasons({ round, projectId }: { round: ReviewRound; projectId: string }) {
  const { t } = useTranslation('review');
  const slug = slugOf(round);
  const detail = useQuery({ queryKey: REVIEW_QUERY_KEYS.score(slug, projectId), queryFn: () => fetchScoreDetail(slug, projectId), retry: false });
  if (detail.isPending) return <Spin size="small" aria-label={t('common.loading')} />;
  const abstained = detail.data?.experts.filter((e) => e.sheet?.status === 'ABSTAINED') ?? [];
  if (!detail.data || abstained.length === 0) {
    return <Typography.Text type="secondary">{t('monitor.abstainedSeeDetail')}</Typography.Text>;
  }
  return (
    <ul className="review-abstained__list" data-testid="abstain-reasons">
      {abstained.map((e) => (
        <li key={e.expertId}>
          <strong>{t('monitor.expertWithCode', { name: e.expertName, code: e.expertCode })}</strong>
          <div className="review-reason">{t('detail.abstainReasonLine', { reason: e.sheet?.returnReason || '--' })}</div>
        </li>
      ))}
      <li>
        <Link to={REVIEW_PATHS[round].score(projectId)} className="review-link">
          {t('monitor.openScoreDetail')}
        </Link>
      </li>
    </ul>
  );
}

/**
 * 待补充专家 on a monitoring row: the project lost a scorer to an abstention not yet made up.
 * The server's suggestions (best first) each add that expert through re-review (ADD_EXPERTS) in
 * one click, for an admin holding the round's score-return button; others see the names only.
 * An abstention already made up shows 已补充.
 */
export function ReplacementCell({ round, row }: { round: ReviewRound; row: MonitorProjectRow }) {
  const { t } = useTranslation('review');
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const access = useRoundAccess(round);
  const slug = slugOf(round);
  const [busy, setBusy] = useState<string | null>(null);
  if (!row.abstained) return null;
  if (!row.needsScorer) {
    return (
      <Tag color="green" data-testid="replacement-done">
        {t('monitor.replaced')}
      </Tag>
    );
  }
  const replacements = row.replacements ?? [];

  const add = async (expert: ReplacementSuggestion) => {
    setBusy(expert.expertId);
    try {
      await startRereview(slug, row.id, { mode: 'ADD_EXPERTS', expertIds: [expert.expertId], reason: REPLACEMENT_REASON });
      void message.success(t('monitor.replacementAdded', { name: expert.name, project: row.projectName || t('common.untitled') }));
      // The row's figures, the score detail and the expert's own figures all change.
      await queryClient.invalidateQueries({ queryKey: REVIEW_QUERY_KEYS.round(slug) });
    } catch (error) {
      void message.error(errorText(error) ?? t('monitor.replacementFailed'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <div className="review-replacements" data-testid="replacements">
      <Tag color="red" data-testid="needs-scorer">
        {t('monitor.needsScorer')}
      </Tag>
      {replacements.length === 0 ? (
        <Typography.Text type="secondary" data-testid="no-replacement">
          {t('monitor.noReplacement')}
        </Typography.Text>
      ) : (
        <Space size={[4, 4]} wrap>
          {replacements.map((r) => {
            const label = t('monitor.replacementLabel', { name: r.name, code: r.code, group: r.groupName ?? '--', count: r.projects });
            return access.scoreReturn ? (
              <Button
                key={r.expertId}
                size="small"
                icon={<UserAddOutlined />}
                loading={busy === r.expertId}
                disabled={busy !== null && busy !== r.expertId}
                onClick={() => void add(r)}
                title={label}
                aria-label={t('monitor.addReplacement', { label })}
                data-testid="add-replacement"
              >
                {r.name}
              </Button>
            ) : (
              <Tag key={r.expertId} title={label}>
                {r.name}
              </Tag>
            );
          })}
        </Space>
      )}
    </div>
  );
}
