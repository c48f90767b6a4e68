import type { ReviewRound } from '@contest/shared';

/** Console paths of each round's judging-quality page (declared in ../routes.ts). */
export const QUALITY_PATHS: Record<ReviewRound, string> = {
  PRELIMINARY: '/admin/grade/judging-quality',
  FINAL: '/admin/grade/judging-quality-admin',
};
