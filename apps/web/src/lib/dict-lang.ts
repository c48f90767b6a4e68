import { DEFAULT_LOCALE, normalizeLocale, type Locale } from '@contest/shared';
import { i18n } from '../i18n';

/**
 * The page's language as the dictionary calls take it (`lang`): English pages get the items'
 * English names, falling back to Chinese. Sent always, Chinese too: without it the server would
 * follow the browser's Accept-Language rather than the page. Its own file so the home page's
 * news calls take it without the attachment helpers of components/contest (performance budget,
 * docs/performance.md).
 */
export function dictLang(language: string | undefined = i18n.resolvedLanguage ?? i18n.language): Locale {
  return normalizeLocale(language) ?? DEFAULT_LOCALE;
}
