/**
 * Who is signed in, per realm (docs/rules/screens.md, "Session and redirects"). Tokens live in localStorage under
 * TOKEN_KEYS (the observable store is ./session-store, re-exported here); the user info comes
 * from the server through TanStack Query. The header, the guards and the forms all react to a
 * login or logout at once.
 */
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import {
  API_BASE,
  type PrelimDocStatus,
  type Realm,
  type RoleCode,
  type TeamStatus,
} from '@contest/shared';
import { realmOfPath } from '../api';
import { api, onClearUserInfo } from './api';
import { emitTokens, getToken, removeToken, saveRedirectPath, setToken, useToken, type StaffRealm } from './session-store';

export {
  REDIRECT_PATH_KEY,
  getToken,
  removeToken,
  saveRedirectPath,
  setToken,
  takeRedirectPath,
  useToken,
  type StaffRealm,
} from './session-store';

/** GET /user/account. */
export interface ParticipantInfo {
  account: { name: string; permissionCodeList: string[]; roleCode: RoleCode | string };
  teamStatus: TeamStatus | null;
  prelimDocStatus: PrelimDocStatus | null;
  hasUnReadMessage: boolean;
  agree: boolean;
  watermark: string;
  dataDocMenuName: string;
  /** The password was set by an administrator: it must be changed first. */
  mustChangePassword?: boolean;
  user: {
    roleId: string | null;
    organizationType: string | null;
    organization: {
      id: string;
      direction?: string | null;
      authenticationStatus?: string | null;
      reason?: string | null;
    } | null;
    account: { name: string; phone: string };
  };
}

export interface StaffMenu {
  code: string;
  name: string;
  nameEn?: string;
  path?: string;
  icon?: string | null;
  children: StaffMenu[];
}

/** GET /admin/user/account, for admins and experts alike. */
export interface StaffInfo {
  account: string;
  roles: { id: string; code: string }[];
  roleCode: string;
  roleName: string;
  menus: StaffMenu[];
  buttons: string[];
  agree: boolean;
  name: string;
  code: string | null;
  /** The password was set by someone else: nothing but its change works until then. */
  mustChangePassword?: boolean;
}

/** Answer of POST /login, /admin/login and /expert/login. */
export interface LoginResult {
  accessToken: string;
  account: string;
  teamStatus: TeamStatus | null;
  prelimDocStatus: PrelimDocStatus | null;
  /** The password was set by an administrator: the client goes to the change-password page first. */
  mustChangePassword?: boolean;
}

export const USER_ACCOUNT_QUERY_KEY = ['user-account'] as const;
export const STAFF_ACCOUNT_QUERY_KEY = ['staff-account'] as const;

// ---------------------------------------------------------------------------------------
// Query cache

let boundClient: QueryClient | null = null;

function staffKey(realm: StaffRealm) {
  return [...STAFF_ACCOUNT_QUERY_KEY, realm] as const;
}

/** Forgets the cached info of a realm (the participant's, or one staff realm's). */
export function clearAccountInfo(realm: Realm): void {
  if (!boundClient) return;
  boundClient.removeQueries({ queryKey: realm === 'USER' ? USER_ACCOUNT_QUERY_KEY : staffKey(realm) });
}

/**
 * Rendered once inside the query client provider: gives the session helpers (which run
 * outside React too) the cache, and tells the HTTP client how to forget the participant
 * after a 401.
 */
export function SessionBridge(): null {
  const client = useQueryClient();
  useEffect(() => {
    boundClient = client;
    onClearUserInfo(() => {
      // The client already removed the token; where the user was is worth coming back to.
      const { pathname, search } = window.location;
      saveRedirectPath(pathname + search);
      clearAccountInfo('USER');
      emitTokens();
    });
    return () => {
      if (boundClient === client) boundClient = null;
      onClearUserInfo(() => {});
    };
  }, [client]);
  return null;
}

// ---------------------------------------------------------------------------------------
// Login and logout

/** Stores a fresh token and drops whatever was cached for the previous account of the realm. */
export function login(realm: Realm, accessToken: string): void {
  clearAccountInfo(realm);
  setToken(realm, accessToken);
  // A forced logout (409) blocks every staff call until the next successful login.
  if (realm !== 'USER') api.resetSessionReplaced();
}

/**
 * Best effort: the server call may fail (expired session, no network) and the user is
 * logged out locally anyway. It bypasses the shared client on purpose: there a 401 would
 * reopen the login dialog and a 409 raise the forced-logout box, neither of which fits a
 * user who asked to leave.
 */
async function revokeOnServer(token: string): Promise<void> {
  try {
    await fetch(`${API_BASE}/logout`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      credentials: 'include',
      keepalive: true,
    });
  } catch {
    // Nothing to do: the local session is gone either way.
  }
}

/** Ends the realm's session: token removed and cached info cleared at once, server told. */
export async function logout(realm: Realm): Promise<void> {
  const token = getToken(realm);
  removeToken(realm);
  clearAccountInfo(realm);
  if (token) await revokeOnServer(token);
}

// ---------------------------------------------------------------------------------------
// Queries

export async function fetchUserInfo(): Promise<ParticipantInfo> {
  return (await api.get<ParticipantInfo>('/user/account')).data;
}

export async function fetchStaffInfo(): Promise<StaffInfo> {
  return (await api.get<StaffInfo>('/admin/user/account')).data;
}

/**
 * The realm of the page being shown. The HTTP client picks the token (and what a 401 does) by
 * the page URL, so an account's info may only be loaded on a page of its own realm: on an admin
 * page /user/account would go out with the AdminToken, answer 401, and end the admin session.
 */
function usePageRealm(): Realm {
  return realmOfPath(useLocation().pathname);
}

/** The signed-in participant; idle (no request) without an AccessToken or outside participant pages. */
export function useUserInfo() {
  const token = useToken('USER');
  const pageRealm = usePageRealm();
  return useQuery({
    queryKey: USER_ACCOUNT_QUERY_KEY,
    queryFn: fetchUserInfo,
    enabled: token !== null && pageRealm === 'USER',
    // The client has already told the user; a retry would only repeat the toast.
    retry: false,
  });
}

/**
 * The signed-in admin or expert (key ['staff-account', realm]); idle without the realm's token
 * or on a page of another realm (the call would carry that page's token, see usePageRealm).
 */
export function useStaffInfo(realm: StaffRealm) {
  const token = useToken(realm);
  const pageRealm = usePageRealm();
  return useQuery({
    queryKey: staffKey(realm),
    queryFn: fetchStaffInfo,
    enabled: token !== null && pageRealm === realm,
    retry: false,
    // Menus and buttons change only with a new login (which clears this cache): permission-guarded
    // buttons remounting after "refresh tab" must not refetch the account each time.
    staleTime: Infinity,
  });
}
