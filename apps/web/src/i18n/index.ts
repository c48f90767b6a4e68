/**
 * i18next setup. The preferences store owns the current locale; this module follows it
 * and keeps i18next, dayjs (once an area has loaded it) and <html lang> in step, so every way of
 * changing the language (switch, tests, another module) has the same effect.
 *
 * Only the public site's Chinese texts (common, site) ship with the first load. English and the
 * other namespaces are separate chunks: an area's route fetches its namespaces (withNamespaces),
 * a switch to English fetches every namespace wanted so far, and main.tsx waits for
 * whenI18nReady() so an English visitor's first paint is English already.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LOCALES, type Locale } from '@contest/shared';
import { getPreferences, setPreferences, subscribePreferences } from '../lib/preferences';
import { applyContestName } from './contest-name';
import { DEFAULT_NS, EAGER_NAMESPACES, NAMESPACES, type Namespace } from './namespaces';
import zhCommon from './locales/zh-cn/common.json';
import zhSite from './locales/zh-cn/site.json';

export const i18n = i18next;

type Bundle = Record<string, unknown>;

/** Texts at hand, per language and namespace; i18next receives each one once. */
const bundles: Record<Locale, Partial<Record<Namespace, Bundle>>> = {
  'zh-cn': { common: zhCommon, site: zhSite },
  en: {},
};

/** Loaders of the other files, keyed './locales/<lang>/<ns>.json'; each its own chunk. */
const lazyFiles = import.meta.glob<Bundle>(
  ['./locales/*/*.json', '!./locales/zh-cn/common.json', '!./locales/zh-cn/site.json'],
  { import: 'default' },
);

/** Namespaces the app has asked for so far: a language switch fetches them in the new language. */
const wanted = new Set<Namespace>(EAGER_NAMESPACES);
const pending = new Map<string, Promise<void>>();
let unsubscribe: (() => void) | null = null;

type SetDayjsLocale = (locale: Locale) => void;
/** Set once ./dayjs-locale has loaded; the language then reaches dayjs synchronously. */
let setDayjsLocale: SetDayjsLocale | null = null;
let dayjsJob: Promise<void> | null = null;

/** dayjs's locale, for the areas that format dates: fetched once, then kept in step. */
function loadDayjsLocale(): Promise<void> {
  dayjsJob ??= import('./dayjs-locale').then(
    (module) => registerDayjs(module.setDayjsLocale),
    (error: unknown) => {
      dayjsJob = null;
      throw error;
    },
  );
  return dayjsJob;
}

/** Hands over dayjs (tests do it up front); it follows the language from then on. */
export function registerDayjs(set: SetDayjsLocale): void {
  setDayjsLocale = set;
  set(i18n.isInitialized && (LOCALES as readonly string[]).includes(i18n.language) ? (i18n.language as Locale) : getPreferences().locale);
}

function addBundle(locale: Locale, ns: Namespace, bundle: Bundle): void {
  if (bundles[locale][ns]) return;
  bundles[locale][ns] = bundle;
  if (i18n.isInitialized) i18n.addResourceBundle(locale, ns, bundle, true, true);
}

function missing(locale: Locale, namespaces: Iterable<Namespace>): Namespace[] {
  return [...namespaces].filter((ns) => !bundles[locale][ns]);
}

function fetchBundle(locale: Locale, ns: Namespace): Promise<void> {
  const key = `./locales/${locale}/${ns}.json`;
  let job = pending.get(key);
  if (!job) {
    const load = lazyFiles[key];
    if (!load) return Promise.reject(new Error(`no translation file ${key}`));
    job = load().then(
      (bundle) => addBundle(locale, ns, bundle),
      (error: unknown) => {
        // Let a later navigation try again (a flaky network, a redeploy).
        pending.delete(key);
        throw error;
      },
    );
    pending.set(key, job);
  }
  return job;
}

async function fetchBundles(locale: Locale, namespaces: Iterable<Namespace>): Promise<void> {
  await Promise.all(missing(locale, namespaces).map((ns) => fetchBundle(locale, ns)));
}

/**
 * Makes the namespaces available in the current language (and keeps them on later switches).
 * Resolves at once when they are already there.
 */
export async function loadNamespaces(...namespaces: Namespace[]): Promise<void> {
  for (const ns of namespaces) wanted.add(ns);
  const locales = new Set<Locale>([getPreferences().locale]);
  if (i18n.isInitialized && (LOCALES as readonly string[]).includes(i18n.language)) locales.add(i18n.language as Locale);
  await Promise.all([...locales].map((locale) => fetchBundles(locale, namespaces)));
}

/**
 * Wraps an area route's `lazy` loader so the route also waits for its texts and for dayjs's
 * locale: react-router renders the route only when all are there, so no page flashes raw keys.
 */
export function withNamespaces<T>(namespaces: Namespace[], lazy: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([lazy(), loadNamespaces(...namespaces), loadDayjsLocale()]))[0];
}

/** Adds texts up front (tests register every namespace, so components render without routes). */
export function registerResources(resources: Partial<Record<Locale, Partial<Record<Namespace, Bundle>>>>): void {
  for (const locale of LOCALES) {
    for (const [ns, bundle] of Object.entries(resources[locale] ?? {})) {
      if (bundle) addBundle(locale, ns as Namespace, bundle);
    }
  }
}

function commitLocale(locale: Locale): void {
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
  setDayjsLocale?.(locale);
  document.documentElement.lang = locale;
}

let ready: Promise<void> = Promise.resolve();

function applyLocale(locale: Locale): void {
  const absent = missing(locale, wanted);
  // Synchronous when the texts are here (Chinese on the public site, anything seen before).
  if (!absent.length) {
    ready = Promise.resolve();
    return commitLocale(locale);
  }
  const commitIfStillChosen = () => {
    if (getPreferences().locale === locale) commitLocale(locale);
  };
  // On failure the language changes anyway: absent keys fall back to Chinese.
  ready = fetchBundles(locale, absent).then(commitIfStillChosen, commitIfStillChosen);
}

/** Resolves once the current language's texts are loaded (or failed to load); never rejects. */
export function whenI18nReady(): Promise<void> {
  return ready;
}

/** Initialises i18next once with the bundled resources (synchronously) and applies the locale. */
export function initI18n(): typeof i18n {
  const { locale } = getPreferences();
  if (!i18n.isInitialized) {
    void i18n.use(initReactI18next).init({
      // Copies: i18next keeps (and extends) the objects it is given.
      resources: { 'zh-cn': { ...bundles['zh-cn'] }, en: { ...bundles.en } },
      // Starts in a language whose texts are here; applyLocale() below moves on once they arrive.
      lng: missing(locale, wanted).length ? DEFAULT_LOCALE : locale,
      fallbackLng: DEFAULT_LOCALE,
      supportedLngs: LOCALES,
      // Keeps 'zh-cn' as is; i18next would otherwise look up 'zh-CN'.
      lowerCaseLng: true,
      ns: NAMESPACES,
      defaultNS: DEFAULT_NS,
      // Namespaces arrive later through loadNamespaces(); no i18next backend is involved, so
      // useTranslation() never suspends on them.
      partialBundledLanguages: true,
      interpolation: { escapeValue: false },
      initAsync: false,
      returnNull: false,
    });
    applyContestName();
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
