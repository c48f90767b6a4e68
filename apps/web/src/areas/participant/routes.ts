import type { RouteObject } from 'react-router';
import type { RouteHandle } from '../../lib/route-handle';
import { guardRoutes, requireParticipantLogin } from '../../lib/route-guards';

/**
 * Logged-in participant pages (spec section 2). Placeholders until the sign-up features
 * land. Every page needs the AccessToken unless its handle says noLogin.
 */
export const PARTICIPANT_PATHS = {
  mySign: '/my-sign',
  mySignDetail: '/my-sign/detail',
  materialSubmission: '/material-submission',
  materialSubmissionDetail: '/material-submission/detail',
  myMessage: '/my-message',
  module: '/module',
} as const;

const page = async () => ({
  Component: (await import('./pages/ParticipantPlaceholderPage')).ParticipantPlaceholderPage,
});

export const participantRoutes: RouteObject[] = [
  {
    lazy: async () => ({ Component: (await import('./ParticipantLayout')).ParticipantLayout }),
    children: guardRoutes(
      [
        {
          path: PARTICIPANT_PATHS.mySign,
          handle: { title: 'participant:titles.mySign' } satisfies RouteHandle,
          lazy: page,
        },
        {
          path: PARTICIPANT_PATHS.mySignDetail,
          handle: { title: 'participant:titles.mySignDetail' } satisfies RouteHandle,
          lazy: page,
        },
        {
          path: PARTICIPANT_PATHS.materialSubmission,
          handle: { title: 'participant:titles.materialSubmission' } satisfies RouteHandle,
          lazy: page,
        },
        {
          path: PARTICIPANT_PATHS.materialSubmissionDetail,
          handle: { title: 'participant:titles.materialSubmissionDetail' } satisfies RouteHandle,
          lazy: page,
        },
        {
          path: PARTICIPANT_PATHS.myMessage,
          handle: { title: 'participant:titles.myMessage' } satisfies RouteHandle,
          lazy: page,
        },
        {
          path: PARTICIPANT_PATHS.module,
          handle: { title: 'participant:titles.module' } satisfies RouteHandle,
          lazy: page,
        },
      ],
      requireParticipantLogin,
    ),
  },
];
