import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';

/** Public site (spec section 2). The app router wraps these routes in the gateway layout. */
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
} as const;

export const siteRoutes: RouteObject[] = [
  {
    index: true,
    handle: { title: 'site:titles.home', noLogin: true } satisfies RouteHandle,
    lazy: async () => ({ Component: (await import('./pages/HomePage')).HomePage }),
  },
  {
    path: SITE_PATHS.medicalInsurance,
    handle: { title: 'site:titles.medicalInsurance', noLogin: true } satisfies RouteHandle,
    lazy: async () => ({
      Component: (await import('./pages/MedicalInsurancePage')).MedicalInsurancePage,
    }),
  },
  {
    path: SITE_PATHS.contestDynamic,
    handle: { title: 'site:titles.contestDynamic', noLogin: true } satisfies RouteHandle,
    lazy: async () => ({
      Component: (await import('./pages/ContestDynamicPage')).ContestDynamicPage,
    }),
  },
  {
    path: SITE_PATHS.dynamicDetail,
    handle: { title: 'site:titles.dynamicDetail', noLogin: true } satisfies RouteHandle,
    lazy: async () => ({
      Component: (await import('./pages/DynamicDetailPage')).DynamicDetailPage,
    }),
  },
  {
    path: SITE_PATHS.dynamicLook,
    handle: { title: 'site:titles.dynamicLook', noLogin: true } satisfies RouteHandle,
    lazy: async () => ({ Component: (await import('./pages/DynamicLookPage')).DynamicLookPage }),
  },
  {
    path: SITE_PATHS.signGuide,
    handle: { title: 'site:titles.signGuide', noLogin: true } satisfies RouteHandle,
    lazy: async () => ({ Component: (await import('./pages/SignGuidePage')).SignGuidePage }),
  },
  {
    // Needs login once the identity feature lands, hence no noLogin.
    path: SITE_PATHS.signUp,
    handle: { title: 'site:titles.signUp' } satisfies RouteHandle,
    lazy: async () => ({ Component: (await import('./pages/SignUpPage')).SignUpPage }),
  },
  {
    path: SITE_PATHS.materialsSubmit,
    handle: { title: 'site:titles.materialsSubmit' } satisfies RouteHandle,
    lazy: async () => ({
      Component: (await import('./pages/MaterialsSubmitPage')).MaterialsSubmitPage,
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
];
