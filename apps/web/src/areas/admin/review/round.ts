/** What the review pages of one round need to know about it: slug, access codes, paths, number formats. */
import { ROUND_ACCESS, ROUND_SLUGS, TEAM_DICT_TYPES, round2, type ReviewRound, type RoundSlug } from '@contest/shared';
import { usePermission } from '../../../lib/permission';

export const TRACK_DICT = TEAM_DICT_TYPES.track;

export interface RoundProps {
  round: ReviewRound;
}

export const slugOf = (round: ReviewRound): RoundSlug => ROUND_SLUGS[round];

/** Console paths of each round's review pages. */
export const REVIEW_PATHS: Record<
  ReviewRound,
  { groups: string; scores: string; monitor: string; score(id: string): string; monitorExpert(id: string): string }
> = {
  PRELIMINARY: {
    groups: '/admin/grade/review-group',
    scores: '/admin/grade/gradeManage-grade',
    monitor: '/admin/grade/scoringMonitoringExpert',
    score: (id) => `/admin/competition/grade-detail/${encodeURIComponent(id)}`,
    monitorExpert: (id) => `/admin/competition/scoring-monitoring-expert-detail/${encodeURIComponent(id)}`,
  },
  FINAL: {
    groups: '/admin/grade/review-admin-group',
    scores: '/admin/grade/gradeManage-admin-grade',
    monitor: '/admin/grade/scoringMonitoringAdminExpert',
    score: (id) => `/admin/competition/grade-admin-detail/${encodeURIComponent(id)}`,
    monitorExpert: (id) => `/admin/competition/scoring-monitoring-expert-admin-detail/${encodeURIComponent(id)}`,
  },
};

/** Which of the round's write buttons the signed-in admin holds. */
export function useRoundAccess(round: ReviewRound) {
  const can = usePermission();
  const access = ROUND_ACCESS[round];
  return {
    groupEdit: can({ codes: [access.groupEdit] }),
    scoreReturn: can({ codes: [access.scoreReturn] }),
    scoreExport: can({ codes: [access.scoreExport] }),
    remind: can({ codes: [access.remind] }),
  };
}

/** Points as the console shows them: two decimals, '--' when there is none. */
export function points(value: number | null | undefined): string {
  return value === null || value === undefined ? '--' : round2(value).toFixed(2);
}

/** A sheet total or a criterion score: 0.5 steps, shown without trailing zeros. */
export function score(value: number | null | undefined): string {
  return value === null || value === undefined ? '--' : String(value);
}
