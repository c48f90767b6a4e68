/**
 * The viewer page's i18next: only the `files` namespace, so the page does not carry the whole
 * portal's texts. The language is the portal's (same origin, same stored preference, ?lang= too).
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES } from '@contest/shared';
import { getPreferences } from '../lib/preferences';
import zhFiles from '../i18n/locales/zh-cn/files.json';
import enFiles from '../i18n/locales/en/files.json';

export function initViewerI18n(): typeof i18next {
  const { locale } = getPreferences();
  if (!i18next.isInitialized) {
    void i18next.use(initReactI18next).init({
      resources: { 'zh-cn': { files: zhFiles }, en: { files: enFiles } },
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: LOCALES,
      lowerCaseLng: true,
      ns: ['files'],
      defaultNS: 'files',
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  }
  document.documentElement.lang = locale;
  return i18next;
}
