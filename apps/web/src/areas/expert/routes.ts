import { redirect, type RouteObject } from 'react-router';
import { withNamespaces } from '../../i18n';
import type { ConsoleRouteHandle } from '../../components/admin-kit/console-handle';
import type { RouteHandle } from '../../lib/route-handle';
import { guardRoutes, requireStaffLogin } from '../../lib/route-guards';
import { ROUND_SLUGS, type ReviewRound, type RoundSlug } from '@contest/shared';

/**
 * Paths of the expert area. Here, not in their own module, because the router
 * (and so the home page's bundle) loads this file and no other file of the area; pages import
 * them through ./paths.
 */
export const EXPERT_PATHS = {
  root: '/expert',
  login: '/expert/login',
  changePassword: '/expert/change-password',
  home: '/expert/index',
  reviewManage: '/expert/review-manage',
  reviewAdminManage: '/expert/review-admin-manage',
  reviewDetail: '/expert/review-detail',
  reviewAdminDetail: '/expert/review-admin-detail',
  /** 现场答辩: the sessions the expert judges, and the phone page of one (docs/live-final.md, "Judges"). */
  live: '/expert/live',
  /** 我的聘书与感谢信: the expert's letters (docs/certificates.md, "Web pages"). */
  letters: '/expert/letters',
  /** 申报回避单位: the organisations the expert declares for conflicts (docs/rules/review.md, "Conflicts of interest"). */
  organisations: '/expert/organisations',
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

/**
 * Expert area under /expert (docs/rules/screens.md, "Consoles"). Pages need the ExpertToken. Each page names the
 * menu code of EXPERT_MENUS it belongs to (for the menu's highlight); the console does not enforce
 * them for experts: the review pages sit behind the agreement gate instead, which sends an expert
 * who has not agreed to the agreement on the home page (the server hides the final-review entry
 * until then, and a /404 would be the wrong answer to a page they will be allowed to open).
 */
export const expertRoutes: RouteObject[] = [
  {
    path: EXPERT_PATHS.root,
    children: [
      // element: null tells react-router the empty render before the redirect is intended.
      { index: true, loader: () => redirect(EXPERT_PATHS.login), element: null },
      {
        path: EXPERT_PATHS.login,
        handle: { title: 'expert:titles.login', noLogin: true } satisfies RouteHandle,
        lazy: withNamespaces(['expert'], async () => ({
          Component: (await import('./pages/ExpertLoginPage')).ExpertLoginPage,
        })),
      },
      {
        // Outside the console: a password set by someone else opens nothing else (docs/security.md).
        path: EXPERT_PATHS.changePassword,
        handle: { title: 'expert:titles.changePassword' } satisfies RouteHandle,
        loader: requireStaffLogin('EXPERT'),
        lazy: withNamespaces(['expert', 'admin'], async () => ({
          Component: (await import('./pages/ExpertChangePasswordPage')).ExpertChangePasswordPage,
        })),
      },
      {
        // The expert console is the admin kit's: it reads the admin texts too.
        lazy: withNamespaces(['expert', 'admin', 'files'], async () => ({
          Component: (await import('./ExpertLayout')).ExpertLayout,
        })),
        children: guardRoutes(
          [
            {
              path: EXPERT_PATHS.home,
              handle: { title: 'expert:titles.home', code: 'expertIndex' } satisfies ConsoleRouteHandle,
              // 'live': the 现场答辩 entry of the home page.
              lazy: withNamespaces(['live'], async () => ({
                Component: (await import('./pages/ExpertHomePage')).ExpertHomePage,
              })),
            },
            {
              // Outside the agreement gate: letters are the expert's whatever they agreed to.
              path: EXPERT_PATHS.letters,
              handle: { title: 'expert:titles.letters', notInMenu: true, activeMenu: 'expertLetters' } satisfies ConsoleRouteHandle,
              lazy: withNamespaces(['certificates'], async () => ({
                Component: (await import('./letters/LettersPage')).LettersPage,
              })),
            },
            {
              lazy: async () => ({
                Component: (await import('./components/AgreementGate')).AgreementGate,
              }),
              children: [
                {
                  path: ROUND_PAGES.PRELIMINARY.list,
                  handle: { title: 'expert:titles.reviewManage', code: ROUND_PAGES.PRELIMINARY.menuCode } satisfies ConsoleRouteHandle,
                  lazy: async () => ({
                    Component: (await import('./pages/ReviewListPage')).PrelimReviewListPage,
                  }),
                },
                {
                  path: ROUND_PAGES.FINAL.list,
                  handle: { title: 'expert:titles.reviewAdminManage', code: ROUND_PAGES.FINAL.menuCode } satisfies ConsoleRouteHandle,
                  lazy: async () => ({
                    Component: (await import('./pages/ReviewListPage')).FinalReviewListPage,
                  }),
                },
                {
                  path: EXPERT_PATHS.organisations,
                  handle: { title: 'expert:titles.organisations', notInMenu: true, activeMenu: 'expertOrganisations' } satisfies ConsoleRouteHandle,
                  lazy: async () => ({
                    Component: (await import('./pages/OrganisationsPage')).OrganisationsPage,
                  }),
                },
                {
                  path: EXPERT_PATHS.live,
                  handle: { title: 'live:titles.sessions', notInMenu: true, activeMenu: 'expertLive' } satisfies ConsoleRouteHandle,
                  lazy: withNamespaces(['live'], async () => ({
                    Component: (await import('./live/LiveSessionsPage')).LiveSessionsPage,
                  })),
                },
                {
                  path: `${EXPERT_PATHS.live}/:id`,
                  handle: { title: 'live:titles.judge', notInMenu: true, activeMenu: 'expertLive' } satisfies ConsoleRouteHandle,
                  lazy: withNamespaces(['live'], async () => ({
                    Component: (await import('./live/LiveJudgePage')).LiveJudgePage,
                  })),
                },
                {
                  path: `${ROUND_PAGES.PRELIMINARY.detail}/:id?`,
                  handle: {
                    title: 'expert:titles.reviewDetail',
                    notInMenu: true,
                    activeMenu: ROUND_PAGES.PRELIMINARY.menuCode,
                  } satisfies ConsoleRouteHandle,
                  lazy: async () => ({
                    Component: (await import('./pages/ReviewDetailPage')).PrelimReviewDetailPage,
                  }),
                },
                {
                  path: `${ROUND_PAGES.FINAL.detail}/:id?`,
                  handle: {
                    title: 'expert:titles.reviewAdminDetail',
                    notInMenu: true,
                    activeMenu: ROUND_PAGES.FINAL.menuCode,
                  } satisfies ConsoleRouteHandle,
                  lazy: async () => ({
                    Component: (await import('./pages/ReviewDetailPage')).FinalReviewDetailPage,
                  }),
                },
              ],
            },
            // Unknown /expert paths: a 404 inside the console, back to its home.
            {
              path: '*',
              lazy: async () => ({
                Component: (await import('../../components/admin-kit/ConsoleNotFound')).ConsoleNotFound,
              }),
            },
          ],
          requireStaffLogin('EXPERT'),
        ),
      },
    ],
  },
];
