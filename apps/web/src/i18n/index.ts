/**
 * i18next setup. The preferences store owns the current locale; this module follows it
 * and keeps i18next, dayjs and <html lang> in step, so every way of changing the
 * language (switch, tests, another module) has the same effect.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@contest/shared';
import { getPreferences, setPreferences, subscribePreferences } from '../lib/preferences';
import { DEFAULT_NS, NAMESPACES, resources } from './resources';

export const i18n = i18next;

let unsubscribe: (() => void) | null = null;

function applyLocale(locale: Locale): void {
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
  // dayjs's own name for the Chinese locale happens to be the same tag as ours.
  dayjs.locale(locale);
  document.documentElement.lang = locale;
}

/** Initialises i18next once with the bundled resources (synchronously) and applies the locale. */
export function initI18n(): typeof i18n {
  const { locale } = getPreferences();
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      resources,
      lng: locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: LOCALES,
      // Keeps 'zh-cn' as is; i18next would otherwise look up 'zh-CN'.
      lowerCaseLng: true,
      ns: NAMESPACES,
      defaultNS: DEFAULT_NS,
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
  }
  applyLocale(locale);
  unsubscribe ??= subscribePreferences((prefs) => applyLocale(prefs.locale));
  return i18n;
}

/** Switches the language and remembers the choice. */
export function changeLocale(locale: Locale): void {
  setPreferences({ locale });
}

export function currentLocale(): Locale {
  return getPreferences().locale;
}
