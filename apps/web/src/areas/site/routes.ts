import type { RouteObject } from 'react-router';
import type { BreadcrumbHandle } from '../../components/Breadcrumb';
import type { RouteHandle } from '../../lib/route-handle';
import { withNamespaces } from '../../i18n';

type SiteHandle = RouteHandle & BreadcrumbHandle;

/** Public site (docs/rules/screens.md, "Public site"). The app router wraps these routes in the gateway layout. */
export const SITE_PATHS = {
  home: '/',
  medicalInsurance: '/medical-insurance',
  contestDynamic: '/contest-dynamic',
  dynamicDetail: '/dynamic-detail',
  dynamicLook: '/dynamic-look',
  signGuide: '/sign-guide',
  signUp: '/sign-up',
  materialsSubmit: '/materials-submit',
  forgetPassword: '/forget-password',
  alertPassword: '/alert-password',
  /** Public verification of a certificate's serial (docs/certificates.md, "Verification"); the QR code opens /verify/{serial}. */
  verify: '/verify',
} as const;

/** A news article's page. */
export function detailPath(id: string): string {
  return `${SITE_PATHS.dynamicDetail}?id=${encodeURIComponent(id)}`;
}

export const siteRoutes: RouteObject[] = [
  {
    index: true,
    handle: { title: 'site:titles.home', noLogin: true } satisfies RouteHandle,
    lazy: async () => ({ Component: (await import('./pages/HomePage')).HomePage }),
  },
  {
    path: SITE_PATHS.medicalInsurance,
    handle: {
      title: 'site:titles.medicalInsurance',
      noLogin: true,
      breadcrumb: ['site:titles.medicalInsurance'],
    } satisfies SiteHandle,
    lazy: async () => ({
      Component: (await import('./pages/MedicalInsurancePage')).MedicalInsurancePage,
    }),
  },
  {
    path: SITE_PATHS.contestDynamic,
    handle: {
      title: 'site:titles.contestDynamic',
      noLogin: true,
      breadcrumb: ['site:titles.contestDynamic'],
    } satisfies SiteHandle,
    lazy: async () => ({
      Component: (await import('./pages/ContestDynamicPage')).ContestDynamicPage,
    }),
  },
  {
    path: SITE_PATHS.dynamicDetail,
    handle: {
      title: 'site:titles.dynamicDetail',
      noLogin: true,
      breadcrumb: ['site:titles.dynamicDetail'],
    } satisfies SiteHandle,
    lazy: async () => ({
      Component: (await import('./pages/DynamicDetailPage')).DynamicDetailPage,
    }),
  },
  {
    path: SITE_PATHS.dynamicLook,
    handle: {
      title: 'site:titles.dynamicLook',
      noLogin: true,
      breadcrumb: ['site:titles.dynamicLook'],
    } satisfies SiteHandle,
    lazy: async () => ({ Component: (await import('./pages/DynamicLookPage')).DynamicLookPage }),
  },
  {
    path: SITE_PATHS.signGuide,
    handle: {
      title: 'site:titles.signGuide',
      noLogin: true,
      breadcrumb: ['site:titles.signGuide'],
    } satisfies SiteHandle,
    lazy: async () => ({ Component: (await import('./pages/SignGuidePage')).SignGuidePage }),
  },
  {
    // Not noLogin: its login button moves to / first; signed in, it sends the user on (spec 4).
    path: SITE_PATHS.signUp,
    handle: { title: 'site:titles.signUp', breadcrumb: ['site:titles.signUp'] } satisfies SiteHandle,
    lazy: async () => ({ Component: (await import('./pages/TeamEntryPage')).TeamEntryPage }),
  },
  {
    path: SITE_PATHS.materialsSubmit,
    handle: { title: 'site:titles.materialsSubmit', breadcrumb: ['site:titles.materialsSubmit'] } satisfies SiteHandle,
    lazy: async () => ({
      Component: (await import('./pages/PrelimEntryPage')).PrelimEntryPage,
    }),
  },
  {
    path: SITE_PATHS.forgetPassword,
    handle: {
      title: 'site:titles.forgetPassword',
      noLogin: true,
      hideFooter: true,
      hideUserInfo: true,
    } satisfies RouteHandle,
    lazy: async () => ({
      Component: (await import('./pages/ForgetPasswordPage')).ForgetPasswordPage,
    }),
  },
  {
    path: SITE_PATHS.alertPassword,
    handle: {
      title: 'site:titles.alertPassword',
      noLogin: true,
      hideFooter: true,
    } satisfies RouteHandle,
    lazy: async () => ({
      Component: (await import('./pages/AlertPasswordPage')).AlertPasswordPage,
    }),
  },
  {
    path: SITE_PATHS.verify,
    handle: { title: 'site:titles.verify', noLogin: true, breadcrumb: ['site:titles.verify'] } satisfies SiteHandle,
    lazy: withNamespaces(['certificates'], async () => ({ Component: (await import('./pages/VerifyPage')).VerifyFormPage })),
  },
  {
    path: `${SITE_PATHS.verify}/:serial`,
    handle: { title: 'site:titles.verify', noLogin: true, breadcrumb: ['site:titles.verify'] } satisfies SiteHandle,
    lazy: withNamespaces(['certificates'], async () => ({ Component: (await import('./pages/VerifyPage')).VerifyPage })),
  },
];
