import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, CERTIFICATE_MSG, RESULTS_MSG, REVIEW_MSG, SETTINGS_MSG } from '@contest/shared';
import { ApiError, isCancel, SessionReplacedError } from '../../api';
import { i18n } from '../../i18n';

/**
 * Server refusals and success messages in the page's language (docs/decisions.md, "English"): the
 * server writes its messages in Chinese, the spec's texts, and Chinese pages show them as sent.
 * English pages look a refusal up, most precise first: a known shared message by its text
 * (大赛设置's checks, REVIEW_MSG, RESULTS_MSG, the console's success texts), the stable reason key
 * of `data.reason` (STALE, LOCKED, HAS_SCORES...), then the error code for the generic ones
 * (FORBIDDEN, NOT_FOUND, RATE_LIMITED, INTERNAL); anything else shows as sent. A success toast that
 * echoes the server's message (保存成功) goes through `serverText`.
 */
type SettingsKey = keyof typeof SETTINGS_MSG;

/** The console's success toasts of ADMIN_MSG (its refusals fall back on reason keys and codes). */
const ADMIN_SUCCESS = {
  saved: ADMIN_MSG.saved,
  created: ADMIN_MSG.created,
  deleted: ADMIN_MSG.deleted,
  enabled: ADMIN_MSG.enabled,
  disabled: ADMIN_MSG.disabled,
  passwordReset: ADMIN_MSG.passwordReset,
} as const;

/**
 * Shared tables known by text, with where their English lives; a text in two tables takes the
 * first. RESULTS_MSG reuses the results pages' own table (`results:msg`), loaded with those pages:
 * elsewhere its texts fall back on the reason key.
 */
const SHARED_TABLES: readonly (readonly [Readonly<Record<string, string>>, string])[] = [
  [SETTINGS_MSG, 'admin:refusals.settings'],
  [REVIEW_MSG, 'admin:refusals.review'],
  [RESULTS_MSG, 'results:msg'],
  [CERTIFICATE_MSG, 'certificates:msg'],
  [ADMIN_SUCCESS, 'admin:refusals.admin'],
];
const SHARED_KEY_OF = new Map<string, string>();
for (const [table, prefix] of SHARED_TABLES) {
  for (const [key, text] of Object.entries(table)) if (!SHARED_KEY_OF.has(text)) SHARED_KEY_OF.set(text, `${prefix}.${key}`);
}

export interface Refusal {
  code: string;
  message: string;
  data: unknown;
}

const english = () => (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');

const known = (key: string): string | null => (i18n.exists(key, { ns: 'admin' }) ? String(i18n.t(key as never, { ns: 'admin' })) : null);

/** The English of a known shared message (by its text) on English pages; null on Chinese pages, for other texts, or when its namespace is not loaded. */
export function sharedText(message: string | null | undefined): string | null {
  if (!message || !english()) return null;
  const key = SHARED_KEY_OF.get(message);
  return key ? known(key) : null;
}

/** A server's message in the page's language, e.g. a success toast's 保存成功: translated on English pages when known, else as sent. */
export function serverText(message: string): string {
  return sharedText(message) ?? message;
}

/** The translated text of a refusal on English pages; null when it has none (or the page is Chinese): show the server's. */
export function describeRefusal(refusal: Refusal): string | null {
  if (!english()) return null;
  const shared = sharedText(refusal.message);
  if (shared) return shared;
  const reason = (refusal.data as { reason?: unknown } | null)?.reason;
  return (typeof reason === 'string' && reason && known(`refusals.reason.${reason}`)) || known(`refusals.code.${refusal.code}`);
}

/** What a form or dialog shows for a failed call; null when the client already said all (cancel, forced logout). */
export function refusalText(error: unknown): string | null {
  if (isCancel(error) || error instanceof SessionReplacedError) return null;
  if (error instanceof ApiError) return describeRefusal(error) ?? (error.message || null);
  return error instanceof Error ? error.message || null : null;
}

/** SETTINGS_MSG in the page's language, for the 大赛设置 form's own checks (the same texts the server sends). */
export function useSettingsMessages(): Record<SettingsKey, string> {
  const { t, i18n: current } = useTranslation('admin');
  const lang = current.resolvedLanguage ?? current.language;
  return useMemo(
    () =>
      lang.startsWith('en')
        ? (Object.fromEntries((Object.keys(SETTINGS_MSG) as SettingsKey[]).map((key) => [key, t(`refusals.settings.${key}`)])) as Record<SettingsKey, string>)
        : SETTINGS_MSG,
    [lang, t],
  );
}
