import type { AccountLocale, Locale } from '@contest/shared';
import { realmOfPath } from '../api/realm';
import { api } from './api';
import { getPreferences } from './preferences';
import { getToken } from './session-store';

/**
 * The account's language follows the page's (docs/decisions.md, "English"): its SMS, e-mails and
 * in-site notices are sent in it. Sign-in and registration send it with their body; a switch
 * while signed in saves it with PUT /user/locale. Only a type comes from the shared package, so
 * the language switch of the first load brings no schema along.
 */
export const accountLocaleOf = (locale: Locale): AccountLocale => (locale === 'en' ? 'en' : 'zh-CN');

/** The page's language as an account language, for the sign-in and registration bodies. */
export const pageAccountLocale = (): AccountLocale => accountLocaleOf(getPreferences().locale);

/** Saves a language switch on the signed-in account of this page's realm; quiet, and nothing without a session. */
export function saveAccountLocale(locale: Locale): void {
  if (!getToken(realmOfPath(window.location.pathname))) return;
  void api.put('/user/locale', { locale: accountLocaleOf(locale) }, { silent: true }).catch(() => undefined);
}
