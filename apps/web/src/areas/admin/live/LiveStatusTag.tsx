import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LiveJudgeProgress, LiveProjectState, LiveSessionStatus } from '@contest/shared';

const SESSION_COLOR: Record<LiveSessionStatus, string> = { PLANNED: 'default', LIVE: 'processing', ENDED: 'success' };
const PROJECT_COLOR: Record<LiveProjectState, string> = {
  WAITING: 'default',
  PRESENTING: 'processing',
  QA: 'processing',
  SCORING: 'warning',
  CLOSED: 'purple',
  REVEALED: 'success',
  ABSENT: 'error',
  SKIPPED: 'default',
};
const PROGRESS_COLOR: Record<LiveJudgeProgress, string> = { PENDING: 'default', SUBMITTED: 'success', RETURNED: 'warning' };

/** 未开始 / 进行中 / 已结束. */
export function SessionStatusTag({ status }: { status: LiveSessionStatus }) {
  const { t } = useTranslation('liveAdmin');
  return (
    <Tag color={SESSION_COLOR[status]} data-testid="live-session-status">
      {t(`status.${status}`)}
    </Tag>
  );
}

/** A project's state in the session (待答辩, 陈述中...). */
export function ProjectStateTag({ state }: { state: LiveProjectState }) {
  const { t } = useTranslation('liveAdmin');
  return (
    <Tag color={PROJECT_COLOR[state]} data-testid="live-project-state">
      {t(`state.${state}`)}
    </Tag>
  );
}

/** A judge's progress on a project: 未提交 / 已提交 / 已退回. */
export function ProgressTag({ status }: { status: LiveJudgeProgress }) {
  const { t } = useTranslation('liveAdmin');
  return (
    <Tag color={PROGRESS_COLOR[status]} data-testid="live-judge-progress">
      {t(`progress.${status}`)}
    </Tag>
  );
}
