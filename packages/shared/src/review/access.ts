import type { ButtonCode, MenuCode } from '../admin-menus.js';
import type { ReviewRound } from '../admin/settings.js';

/** The two rounds in URLs: /api/admin/review/prelim/... and /api/admin/review/final/...; /api/expert/review/prelim/... */
export const ROUND_SLUGS = { PRELIMINARY: 'prelim', FINAL: 'final' } as const satisfies Record<ReviewRound, string>;
export type RoundSlug = (typeof ROUND_SLUGS)[ReviewRound];
export const roundOfSlug = (slug: string): ReviewRound | undefined =>
  slug === 'prelim' ? 'PRELIMINARY' : slug === 'final' ? 'FINAL' : undefined;

/** The phase window each round's scoring must fall in (大赛设置). */
export const ROUND_PHASE = { PRELIMINARY: 'prelimReview', FINAL: 'finalReview' } as const;

/** Which menu and buttons guard each round's console pages and calls. */
export const ROUND_ACCESS = {
  PRELIMINARY: {
    groupsMenu: 'reviewGroup',
    groupEdit: 'group:edit',
    scoresMenu: 'gradeManageGrade',
    scoreReturn: 'score:return',
    scoreExport: 'score:export',
    cutConfidence: 'score:cut-confidence',
    monitorMenu: 'scoringMonitoringExpert',
    remind: 'monitor:remind',
  },
  FINAL: {
    groupsMenu: 'reviewAdminGroup',
    groupEdit: 'final-group:edit',
    scoresMenu: 'gradeManageAdminGrade',
    scoreReturn: 'final-score:return',
    scoreExport: 'final-score:export',
    cutConfidence: 'final-score:cut-confidence',
    monitorMenu: 'scoringMonitoringAdminExpert',
    remind: 'final-monitor:remind',
  },
} as const satisfies Record<
  ReviewRound,
  { groupsMenu: MenuCode; groupEdit: ButtonCode; scoresMenu: MenuCode; scoreReturn: ButtonCode; scoreExport: ButtonCode; cutConfidence: ButtonCode; monitorMenu: MenuCode; remind: ButtonCode }
>;

export const ROUND_NAMES: Record<ReviewRound, string> = { PRELIMINARY: '初赛', FINAL: '决赛' };
