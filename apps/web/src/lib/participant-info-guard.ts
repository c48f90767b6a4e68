import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { openAuthModal } from './auth-modal';
import { useRouteHandle } from './route-handle';
import { clearAccountInfo, getToken, removeToken, saveRedirectPath, useUserInfo } from './session';

/**
 * docs/rules/identity.md, "Who am I": when the participant info cannot be loaded on a page that needs login,
 * the token is treated as dead: removed, and the login dialog opened on /. (A 401 is
 * already handled this way by the HTTP client; this covers every other failure.)
 */
export function useParticipantInfoGuard(): void {
  const { noLogin = false } = useRouteHandle();
  const { isError } = useUserInfo();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();

  useEffect(() => {
    if (!isError || noLogin || !getToken('USER')) return;
    removeToken('USER');
    clearAccountInfo('USER');
    saveRedirectPath(pathname + search);
    void navigate('/');
    openAuthModal('login');
  }, [isError, noLogin, navigate, pathname, search]);
}
