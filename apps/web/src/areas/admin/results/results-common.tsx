/** What the 结果发布 and 申诉处理 pages share: paths, access, refusals with their projects, value changes. */
import type { ReactNode } from 'react';
import { Alert, Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { APPEAL_WORKFLOW, ROUND_SLUGS, actionsFrom, type AppealStatus, type ResultMovement, type ResultRuleSnapshot, type ReviewRound, type RoundSlug } from '@contest/shared';
import { useResultsMessage } from '../../../components/results';
import { usePermission } from '../../../lib/permission';
import { errorText, reasonOf } from '../review/errors';
import { points } from '../review/round';

export { errorText, reasonOf } from '../review/errors';

/** Whether an admin may still decide the appeal (the workflow core's ACCEPT / REJECT from its state). */
export const decidable = (status: AppealStatus): boolean => actionsFrom(APPEAL_WORKFLOW, status, 'ADMIN').some((a) => a === 'ACCEPT' || a === 'REJECT');
export { TRACK_DICT, points } from '../review/round';

export const RESULTS_PATHS = {
  publish: '/admin/results/publish',
  appeals: '/admin/results/appeals',
  appeal: (id: string) => `/admin/results/appeals/${encodeURIComponent(id)}`,
  /** The public notice of a version, as the news console shows it. */
  news: (id: string) => `/admin/user/siteContentManagement-detail/${encodeURIComponent(id)}`,
};

export const ROUNDS: readonly ReviewRound[] = ['PRELIMINARY', 'FINAL'];

/** The order movements are counted in: what changes the outcome first, then ranks, then the rest. */
export const RESULT_MOVEMENTS_ORDER: readonly ResultMovement[] = ['IN', 'OUT', 'UP', 'DOWN', 'ADDED', 'REMOVED', 'SAME'];
export const slugOf = (round: ReviewRound): RoundSlug => ROUND_SLUGS[round];
export const roundOfSlug = (slug: string | null): ReviewRound => (slug === ROUND_SLUGS.FINAL ? 'FINAL' : 'PRELIMINARY');

/** The buttons of the two pages the signed-in admin holds. */
export function useResultsAccess() {
  const can = usePermission();
  return { publish: can({ codes: ['result:publish'] }), decide: can({ codes: ['appeal:decide'] }) };
}

/** A project named by a refusal (INCOMPLETE, REREVIEW_UNFINISHED, FINAL_HAS_SCORES). */
interface RefusedProject {
  id: string;
  projectName: string;
  count?: number;
  expected?: number;
  pending?: number;
}

function projectsOf(error: unknown): RefusedProject[] {
  const data = (error as { data?: unknown } | null)?.data;
  const list = (data as { projects?: unknown } | null)?.projects;
  return Array.isArray(list) ? (list.filter((p) => p && typeof p === 'object') as RefusedProject[]) : [];
}

/**
 * A refused write inside its dialog: the server's text (translated), and the projects it names
 * (those the final cannot be published without, re-reviews still running, final projects that
 * already have scores), each with its scores in / expected when given.
 */
export function RefusalAlert({ error, action }: { error: unknown; action?: ReactNode }) {
  const { t } = useTranslation('results');
  const translate = useResultsMessage();
  const text = errorText(error);
  if (!text) return null;
  const projects = projectsOf(error);
  return (
    <Alert
      type="error"
      showIcon
      className="results-block"
      title={translate(text)}
      action={action}
      description={
        projects.length > 0 && (
          <div data-testid="refusal-projects" data-reason={reasonOf(error) ?? ''}>
            <Typography.Text type="secondary">{t('common.refusedProjects', { count: projects.length })}</Typography.Text>
            <ul className="results-refused">
              {projects.map((p) => (
                <li key={p.id}>
                  <strong>{p.projectName || t('common.untitled')}</strong>
                  {typeof p.count === 'number' && typeof p.expected === 'number' && (
                    <Typography.Text type="secondary">
                      {' '}
                      {t('common.scoresOf', { count: p.count, expected: p.expected })}
                      {p.pending ? t('common.pendingSheets', { count: p.pending }) : ''}
                    </Typography.Text>
                  )}
                </li>
              ))}
            </ul>
          </div>
        )
      }
      data-testid="results-refusal"
    />
  );
}

/** "a → b" when a value changed between two versions, else the value once. */
export function Change({ a, b, render = (v) => v ?? '--' }: { a: ReactNode; b: ReactNode; render?(value: ReactNode): ReactNode }) {
  if (a === b) return <span>{render(b)}</span>;
  return (
    <span className="results-change" data-testid="value-change">
      <span className="results-change__from">{render(a)}</span>
      <span aria-hidden> → </span>
      <strong>{render(b)}</strong>
    </span>
  );
}

export const scoreText = (value: number | null | undefined) => points(value);

/** How a version chose its promoted projects / awards, in words. */
export function useRuleSummary(): (rule: ResultRuleSnapshot) => string {
  const { t } = useTranslation('results');
  return (rule) => {
    if (rule.round === 'FINAL') {
      const awards = rule.awards;
      if (!awards) return t('rule.noAwards');
      const levels = awards.levels
        .map((l) => (awards.mode === 'RANK_COUNTS' ? (l.count === null ? t('rule.levelRest', { name: l.name }) : t('rule.levelCount', { name: l.name, count: l.count })) : t('rule.levelScore', { name: l.name, score: points(l.minScore) })))
        .join(t('rule.separator'));
      return t(`rule.awards.${awards.mode}`, { levels });
    }
    const s = rule.selection;
    if (!s) return t('rule.noSelection');
    if (s.mode === 'PROMOTION') {
      return s.promotionMode === 'PICKED' || s.promotionN === null
        ? t('rule.promotionPicked')
        : t(`rule.promotion.${s.promotionMode ?? 'TOP_OVERALL'}`, { n: s.promotionN });
    }
    if (s.mode === 'KEEP') return t('rule.keep');
    return t(`rule.selection.${s.mode}`, { n: s.n ?? 0 });
  };
}

/**
 * The footer of the two-step dialogs (publish, new version): 取消, 预览, then 确认 once the preview
 * matches what would be sent. `testId` prefixes the buttons' test ids (`-preview`, `-confirm`).
 */
export function PreviewConfirmFooter(props: {
  testId: string;
  previewLabel: string;
  confirmLabel: string;
  onClose(): void;
  onPreview(): void;
  onConfirm(): void;
  previewing: boolean;
  confirming: boolean;
  canConfirm: boolean;
}) {
  const { t } = useTranslation('results');
  return (
    <Space wrap>
      <Button onClick={props.onClose} disabled={props.confirming}>
        {t('common.cancel')}
      </Button>
      <Button onClick={props.onPreview} loading={props.previewing} disabled={props.confirming} data-testid={`${props.testId}-preview`}>
        {props.previewLabel}
      </Button>
      <Button type="primary" onClick={props.onConfirm} loading={props.confirming} disabled={!props.canConfirm} data-testid={`${props.testId}-confirm`}>
        {props.confirmLabel}
      </Button>
    </Space>
  );
}
