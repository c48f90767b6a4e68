/**
 * The participant's account state and the personal-centre actions, without any UI: the gateway
 * header needs them on the first load, the dropdown (./AccountMenu) only once signed in.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { logout, useUserInfo } from '../lib/session';
import { useToken } from '../lib/session-store';

export const PERSONAL_CENTRE_PATH = '/my-sign';
export const CHANGE_PASSWORD_PATH = '/alert-password';
/** 个人数据: export and deletion of one's own data (docs/retention.md). */
export const MY_DATA_PATH = '/my-data';

export type ParticipantAccountState =
  | { status: 'anonymous' }
  | { status: 'loading' }
  | { status: 'signedIn'; name: string };

/** Signed in means both a token and the user info (the personal-centre menu, docs/rules/screens.md, "Public site"). */
export function useParticipantAccount(): ParticipantAccountState {
  const token = useToken('USER');
  const info = useUserInfo();
  if (!token) return { status: 'anonymous' };
  if (info.data) return { status: 'signedIn', name: info.data.account.name };
  // A failed fetch shows the login buttons again; the guard decides about the token.
  if (info.isError) return { status: 'anonymous' };
  return { status: 'loading' };
}

export type AccountAction = 'centre' | 'myData' | 'changePassword' | 'logout';

/** The three entries of the personal-centre menu, for the dropdown and the mobile drawer alike. */
export function useAccountActions(): (action: AccountAction) => void {
  const navigate = useNavigate();
  return useCallback(
    (action: AccountAction) => {
      switch (action) {
        case 'centre':
          void navigate(PERSONAL_CENTRE_PATH);
          return;
        case 'myData':
          void navigate(MY_DATA_PATH);
          return;
        case 'changePassword':
          // A new tab, per spec; the token in localStorage signs that tab in too.
          window.open(CHANGE_PASSWORD_PATH, '_blank', 'noopener');
          return;
        case 'logout':
          // Local state goes at once; the server call finishes in the background.
          void logout('USER');
          void navigate('/');
          return;
      }
    },
    [navigate],
  );
}
