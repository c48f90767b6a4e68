import { TOKEN_KEYS, type Realm } from '@contest/shared';

/**
 * The session realm a page belongs to (docs/rules/screens.md, "Session and redirects"). It is decided by the page URL, not
 * by the API path, because admin and expert screens call some of the same endpoints.
 */
export function realmOfPath(pathname: string): Realm {
  if (pathname.includes('/admin')) return 'ADMIN';
  if (pathname.includes('/expert')) return 'EXPERT';
  return 'USER';
}

/** The localStorage key holding the realm's token. */
export function tokenKeyOf(realm: Realm): (typeof TOKEN_KEYS)[Realm] {
  return TOKEN_KEYS[realm];
}

/** Where an expired or replaced admin/expert session is sent; participants log in through a dialog on '/'. */
export function loginPathOf(realm: Realm): string {
  switch (realm) {
    case 'ADMIN':
      return '/admin/login';
    case 'EXPERT':
      return '/expert/login';
    case 'USER':
      return '/login';
  }
}

/**
 * Where a session whose password was set by someone else is sent (403 PASSWORD_CHANGE_REQUIRED,
 * or mustChangePassword in the login answer): /admin/change-password, /expert/change-password,
 * or the participant's /alert-password. Built from the login path: this file is on the home page.
 */
export const changePasswordPathOf = (realm: Realm): string =>
  realm === 'USER' ? '/alert-password' : loginPathOf(realm).replace('login', 'change-password');
