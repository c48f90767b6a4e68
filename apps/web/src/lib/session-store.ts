/**
 * The light half of the session (docs/rules/screens.md, "Session and redirects"): tokens in localStorage, observable, and
 * the page to return to after logging in. Guards and route tables use it; it pulls in neither the
 * HTTP client nor TanStack Query, so the first load stays small.
 */
import { useSyncExternalStore } from 'react';
import { TOKEN_KEYS, type Realm } from '@contest/shared';

export type StaffRealm = Exclude<Realm, 'USER'>;

/** sessionStorage key of the page to return to after logging in. */
export const REDIRECT_PATH_KEY = 'redirectPath';

// ---------------------------------------------------------------------------------------
// Tokens

const tokenListeners = new Set<() => void>();

/** Tells every useToken() reader to look again (after a change made behind the store's back). */
export function emitTokens(): void {
  for (const listener of tokenListeners) listener();
}

function subscribeTokens(listener: () => void): () => void {
  tokenListeners.add(listener);
  // Another tab logging in or out changes the same localStorage.
  const onStorage = (event: StorageEvent) => {
    if (event.key === null || (Object.values(TOKEN_KEYS) as string[]).includes(event.key)) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    tokenListeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

export function getToken(realm: Realm): string | null {
  try {
    return localStorage.getItem(TOKEN_KEYS[realm]);
  } catch {
    return null;
  }
}

export function setToken(realm: Realm, token: string): void {
  localStorage.setItem(TOKEN_KEYS[realm], token);
  emitTokens();
}

export function removeToken(realm: Realm): void {
  try {
    localStorage.removeItem(TOKEN_KEYS[realm]);
  } finally {
    emitTokens();
  }
}

/** The realm's token, re-rendering when it is stored or removed (here or in another tab). */
export function useToken(realm: Realm): string | null {
  return useSyncExternalStore(
    subscribeTokens,
    () => getToken(realm),
    () => null,
  );
}

// ---------------------------------------------------------------------------------------
// Redirect after login

/** Only same-site paths: the value comes back from storage and must not become an open redirect. */
function isSafePath(path: string | null): path is string {
  return !!path && path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}

export function saveRedirectPath(path: string): void {
  if (!isSafePath(path) || path === '/') return;
  try {
    sessionStorage.setItem(REDIRECT_PATH_KEY, path);
  } catch {
    // Without storage the user simply lands on the default page after logging in.
  }
}

function realmPrefix(realm: Realm): string | null {
  return realm === 'ADMIN' ? '/admin' : realm === 'EXPERT' ? '/expert' : null;
}

function belongsTo(realm: Realm, path: string): boolean {
  const prefix = realmPrefix(realm);
  if (prefix) return path === prefix || path.startsWith(`${prefix}/`);
  return !/^\/(admin|expert)(\/|$)/.test(path);
}

/**
 * Reads and forgets the saved path. One key serves all realms (the spec names one), so a
 * path from another realm is dropped rather than followed: an admin login must not land a
 * participant page.
 */
export function takeRedirectPath(realm: Realm = 'USER'): string | null {
  let path: string | null = null;
  try {
    path = sessionStorage.getItem(REDIRECT_PATH_KEY);
    sessionStorage.removeItem(REDIRECT_PATH_KEY);
  } catch {
    return null;
  }
  return isSafePath(path) && belongsTo(realm, path) ? path : null;
}
