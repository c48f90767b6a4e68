import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { SETTINGS_MSG } from '@contest/shared';
import { ApiError, isCancel, SessionReplacedError } from '../../api';
import { i18n } from '../../i18n';

/**
 * Server refusals in the page's language (docs/decisions.md, "English"): the server writes its
 * messages in Chinese, the spec's texts, and Chinese pages show them as sent. English pages look
 * the refusal up, most precise first: a known shared message by its text (大赛设置's checks), the
 * stable reason key of `data.reason` (STALE, LOCKED, HAS_SCORES...), then the error code for the
 * generic ones (FORBIDDEN, NOT_FOUND, RATE_LIMITED, INTERNAL); anything else shows as sent.
 */
type SettingsKey = keyof typeof SETTINGS_MSG;
const SETTINGS_KEY_OF = new Map<string, SettingsKey>((Object.entries(SETTINGS_MSG) as [SettingsKey, string][]).map(([key, text]) => [text, key]));

export interface Refusal {
  code: string;
  message: string;
  data: unknown;
}

const english = () => (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');

const known = (key: string): string | null => (i18n.exists(key, { ns: 'admin' }) ? String(i18n.t(key as never, { ns: 'admin' })) : null);

/** The translated text of a refusal on English pages; null when it has none (or the page is Chinese): show the server's. */
export function describeRefusal(refusal: Refusal): string | null {
  if (!english()) return null;
  const settingsKey = SETTINGS_KEY_OF.get(refusal.message);
  if (settingsKey) return known(`refusals.settings.${settingsKey}`);
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
