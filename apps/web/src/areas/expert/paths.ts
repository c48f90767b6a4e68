import { ROUND_SLUGS, type ReviewRound, type RoundSlug } from '@contest/shared';

/** Paths of the expert area (spec section 2). Kept apart from routes.ts so pages import no route table. */
export const EXPERT_PATHS = {
  root: '/expert',
  login: '/expert/login',
  home: '/expert/index',
  reviewManage: '/expert/review-manage',
  reviewAdminManage: '/expert/review-admin-manage',
  reviewDetail: '/expert/review-detail',
  reviewAdminDetail: '/expert/review-admin-detail',
} as const;

export interface RoundPages {
  round: ReviewRound;
  /** The round in API paths: /api/expert/review/<slug>/... */
  slug: RoundSlug;
  list: string;
  /** The scoring page without id; `detailPath(round, id)` adds it. */
  detail: string;
  /** Menu code of the list page (EXPERT_MENUS in packages/shared/src/admin-menus.ts). */
  menuCode: string;
}

/** 初赛评审 and 决赛评审: the same pages, one per round. */
export const ROUND_PAGES: Record<ReviewRound, RoundPages> = {
  PRELIMINARY: {
    round: 'PRELIMINARY',
    slug: ROUND_SLUGS.PRELIMINARY,
    list: EXPERT_PATHS.reviewManage,
    detail: EXPERT_PATHS.reviewDetail,
    menuCode: 'reviewManage',
  },
  FINAL: {
    round: 'FINAL',
    slug: ROUND_SLUGS.FINAL,
    list: EXPERT_PATHS.reviewAdminManage,
    detail: EXPERT_PATHS.reviewAdminDetail,
    menuCode: 'reviewAdminManage',
  },
};

export const detailPath = (round: ReviewRound, id: string) => `${ROUND_PAGES[round].detail}/${encodeURIComponent(id)}`;
