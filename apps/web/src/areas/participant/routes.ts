import type { RouteObject } from 'react-router';
import { ROLE, type RoleCode } from '@contest/shared';
import type { BreadcrumbHandle } from '../../components/Breadcrumb';
import type { RouteHandle, TitleKey } from '../../lib/route-handle';
import { withNamespaces } from '../../i18n';
import { guardRoutes, requireParticipantLogin } from '../../lib/route-guards';

/**
 * Logged-in participant pages (docs/rules/screens.md, "Participant centre"). Every page needs the AccessToken unless its
 * handle says noLogin.
 */
export const PARTICIPANT_PATHS = {
  mySign: '/my-sign',
  mySignDetail: '/my-sign/detail',
  materialSubmission: '/material-submission',
  materialSubmissionDetail: '/material-submission/detail',
  myMessage: '/my-message',
  module: '/module',
  /** The speed test; not in the left navigation (it has four fixed entries): linked from the materials form. */
  speedTest: '/user/speed-test',
  /** 个人数据 (docs/retention.md): opened from the account menu, not the four-entry navigation. */
  myData: '/my-data',
} as const;

/** Route names; a page's defaultMenu is the name of the menu entry it lights up. */
export type ParticipantRouteName = 'mySign' | 'materialSubmission' | 'myMessage' | 'module';

/** Icon names of the left navigation (mapped to components by the layout). */
export type ParticipantIcon = 'sign' | 'materials' | 'message' | 'module';

/** Route meta of the spec: title, code '*', breadcrumb, icon, permissions (roles), defaultMenu. */
export interface ParticipantRouteMeta extends RouteHandle, BreadcrumbHandle {
  title: TitleKey;
  /** Permission code the account needs; '*' lets every account in. */
  code: string;
  breadcrumb: readonly TitleKey[];
  icon: ParticipantIcon;
  /** Roles allowed on the page. */
  permissions: readonly RoleCode[];
  defaultMenu: ParticipantRouteName;
}

const ROLES: readonly RoleCode[] = [ROLE.SUPER_ADMIN, ROLE.SYSTEM, ROLE.USER];

function meta(
  title: TitleKey,
  defaultMenu: ParticipantRouteName,
  icon: ParticipantIcon,
  parent?: TitleKey,
): ParticipantRouteMeta {
  return { title, code: '*', breadcrumb: parent ? [parent, title] : [title], icon, permissions: ROLES, defaultMenu };
}

/** The left navigation, in display order: name, path and meta of each top-level page. */
export const PARTICIPANT_MENU: readonly { name: ParticipantRouteName; path: string; meta: ParticipantRouteMeta }[] = [
  { name: 'mySign', path: PARTICIPANT_PATHS.mySign, meta: meta('participant:titles.mySign', 'mySign', 'sign') },
  {
    name: 'materialSubmission',
    path: PARTICIPANT_PATHS.materialSubmission,
    meta: meta('participant:titles.materialSubmission', 'materialSubmission', 'materials'),
  },
  {
    name: 'myMessage',
    path: PARTICIPANT_PATHS.myMessage,
    meta: meta('participant:titles.myMessage', 'myMessage', 'message'),
  },
  { name: 'module', path: PARTICIPANT_PATHS.module, meta: meta('participant:titles.module', 'module', 'module') },
];

const menuMeta = (name: ParticipantRouteName): ParticipantRouteMeta =>
  PARTICIPANT_MENU.find((item) => item.name === name)!.meta;

const myMessagePage = async () => ({ Component: (await import('./pages/MyMessagePage')).MyMessagePage });
const modulePage = async () => ({ Component: (await import('./pages/ModulePage')).ModulePage });
const speedTestPage = async () => ({ Component: (await import('./speed-test/SpeedTestPage')).SpeedTestPage });
const myDataPage = withNamespaces(['retention'], async () => ({ Component: (await import('./my-data/MyDataPage')).MyDataPage }));

// The status redirects of the spec are static loaders (guardRoutes wraps them after the login
// check); a loader returned by `lazy` would be ignored next to the guard's static one.
const mySignLoader = async () => (await import('./team/team-loader')).mySignLoader();
const materialSubmissionLoader = async () => (await import('./prelim/prelim-loader')).materialSubmissionLoader();
const mySignPage = async () => ({ Component: (await import('./team/MyTeamPage')).MyTeamPage });
const mySignDetailPage = async () => ({ Component: (await import('./team/MyTeamDetailPage')).MyTeamDetailPage });
const materialPage = async () => ({
  Component: (await import('./prelim/MyPrelimPage')).MyPrelimPage,
});
// The detail shows the published results (docs/rules/results.md) and the team's certificates
// (docs/certificates.md), whose texts are their own namespaces.
const materialDetailPage = withNamespaces(['results', 'certificates'], async () => ({
  Component: (await import('./prelim/MyPrelimDetailPage')).MyPrelimDetailPage,
}));

export const participantRoutes: RouteObject[] = [
  {
    // The area's texts come with its layout (the page chunks wait for both).
    lazy: withNamespaces(['participant', 'signup', 'files'], async () => ({
      Component: (await import('./ParticipantLayout')).ParticipantLayout,
    })),
    children: guardRoutes(
      [
        {
          path: PARTICIPANT_PATHS.mySign,
          handle: menuMeta('mySign'),
          loader: mySignLoader,
          lazy: mySignPage,
        },
        {
          path: PARTICIPANT_PATHS.mySignDetail,
          handle: meta('participant:titles.mySignDetail', 'mySign', 'sign', 'participant:titles.mySign'),
          lazy: mySignDetailPage,
        },
        {
          path: PARTICIPANT_PATHS.materialSubmission,
          handle: menuMeta('materialSubmission'),
          loader: materialSubmissionLoader,
          lazy: materialPage,
        },
        {
          path: PARTICIPANT_PATHS.materialSubmissionDetail,
          handle: meta(
            'participant:titles.materialSubmissionDetail',
            'materialSubmission',
            'materials',
            'participant:titles.materialSubmission',
          ),
          lazy: materialDetailPage,
        },
        {
          path: PARTICIPANT_PATHS.myMessage,
          handle: menuMeta('myMessage'),
          lazy: myMessagePage,
        },
        {
          path: PARTICIPANT_PATHS.module,
          handle: menuMeta('module'),
          lazy: modulePage,
        },
        {
          // Lights up the materials entry: the page is about uploading them.
          path: PARTICIPANT_PATHS.speedTest,
          handle: meta('participant:titles.speedTest', 'materialSubmission', 'materials', 'participant:titles.materialSubmission'),
          lazy: speedTestPage,
        },
        {
          // The account's own data: lights up the personal centre's first entry.
          path: PARTICIPANT_PATHS.myData,
          handle: meta('participant:titles.myData', 'mySign', 'sign'),
          lazy: myDataPage,
        },
      ],
      requireParticipantLogin,
    ),
  },
];
