import { DEFAULT_LOCALE, LOCALES, type Locale } from './enums.js';

/** Maps any language tag ("en-US", "zh_CN", "ZH-cn") to a portal locale, or null. */
export function normalizeLocale(tag: string | null | undefined): Locale | null {
  if (!tag) return null;
  const lower = tag.trim().toLowerCase().replace('_', '-');
  if ((LOCALES as readonly string[]).includes(lower)) return lower as Locale;
  if (lower === 'zh' || lower.startsWith('zh-')) return 'zh-cn';
  if (lower === 'en' || lower.startsWith('en-')) return 'en';
  return null;
}

/**
 * Language default (docs/rules/screens.md, "Language and preferences"): the `lang` query parameter, else the browser's
 * languages (zh-cn or en), else zh-cn. A stored choice is applied by the caller first.
 */
export function resolveLocale(input: {
  stored?: string | null;
  query?: string | null;
  browser?: readonly string[];
}): Locale {
  return (
    normalizeLocale(input.query) ??
    normalizeLocale(input.stored) ??
    (input.browser ?? []).map(normalizeLocale).find((l): l is Locale => l !== null) ??
    DEFAULT_LOCALE
  );
}
