/**
 * State of the public login/register dialog. A module-level store rather than React
 * context because the HTTP client must open it on a participant 401 (docs/rules/screens.md, "Session and redirects"),
 * from outside React.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { useNavigate } from 'react-router';
import { useRouteHandle } from './route-handle';

export type AuthModalType = 'login' | 'register';

export interface AuthModalState {
  open: boolean;
  type: AuthModalType;
}

let state: AuthModalState = { open: false, type: 'login' };
const listeners = new Set<() => void>();

function update(next: AuthModalState): void {
  state = next;
  for (const listener of listeners) listener();
}

/** Opens the dialog without navigating; callers outside React navigate to / themselves. */
export function openAuthModal(type: AuthModalType = 'login'): void {
  update({ open: true, type });
}

export function closeAuthModal(): void {
  // Back to 'login' so the next plain open starts where the spec says it does.
  update({ open: false, type: 'login' });
}

export function setAuthModalType(type: AuthModalType): void {
  update({ ...state, type });
}

export function getAuthModalState(): AuthModalState {
  return state;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useAuthModalState(): AuthModalState {
  return useSyncExternalStore(subscribe, getAuthModalState, getAuthModalState);
}

/**
 * Opener for components: per spec, opening the dialog moves to / first unless the
 * current route is marked noLogin.
 */
export function useOpenAuthModal(): (type?: AuthModalType) => void {
  const navigate = useNavigate();
  const { noLogin } = useRouteHandle();
  return useCallback(
    (type: AuthModalType = 'login') => {
      if (!noLogin) void navigate('/');
      openAuthModal(type);
    },
    [navigate, noLogin],
  );
}
