/**
 * Browser-side user preferences (docs/rules/screens.md, "Language and preferences"): language, theme, theme colour and
 * navigation visibility, kept in localStorage. One tiny external store so React
 * (usePreferences) and non-React code (i18n, the HTTP client) read the same values.
 */
import { useSyncExternalStore } from 'react';
import { normalizeLocale, resolveLocale, type Locale } from '@contest/shared';

export type ThemeMode = 'light' | 'dark';

export interface Preferences {
  locale: Locale;
  theme: ThemeMode;
  /** Primary colour, #rrggbb. */
  themeColor: string;
  /** Whether the side navigation of the logged-in areas is shown. */
  navVisible: boolean;
}

export const DEFAULT_THEME_COLOR = '#1765c1';

/** localStorage keys; plain names so e2e tests and support staff can set them by hand. */
export const PREFERENCE_STORAGE_KEYS = {
  locale: 'lang',
  theme: 'theme',
  themeColor: 'themeColor',
  navVisible: 'navVisible',
} as const satisfies Record<keyof Preferences, string>;

/** What the initial load reads; injectable so tests need not touch window.location. */
export interface PreferenceEnv {
  search: string;
  storage: Storage | null;
  languages: readonly string[];
}

type Listener = (prefs: Preferences) => void;

let current: Preferences | null = null;
let storage: Storage | null = null;
const listeners = new Set<Listener>();

function browserEnv(): PreferenceEnv {
  let localStore: Storage | null = null;
  try {
    localStore = window.localStorage;
  } catch {
    // Storage can throw when cookies are blocked; the portal still works without persistence.
  }
  return {
    search: window.location.search,
    storage: localStore,
    languages: navigator.languages?.length ? navigator.languages : [navigator.language],
  };
}

function read(store: Storage | null, key: string): string | null {
  try {
    return store?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(store: Storage | null, key: string, value: string): void {
  try {
    store?.setItem(key, value);
  } catch {
    // Quota or privacy mode: the preference still applies for this page view.
  }
}

function parseTheme(value: string | null): ThemeMode | null {
  return value === 'light' || value === 'dark' ? value : null;
}

function parseColor(value: string | null): string | null {
  return value && /^#[0-9a-f]{6}$/i.test(value) ? value.toLowerCase() : null;
}

function parseBool(value: string | null): boolean | null {
  return value === 'true' ? true : value === 'false' ? false : null;
}

/** Pure read of the initial preferences; `localeFromQuery` tells whether ?lang= decided. */
export function readPreferences(env: PreferenceEnv): {
  prefs: Preferences;
  localeFromQuery: boolean;
} {
  const query = new URLSearchParams(env.search).get('lang');
  const locale = resolveLocale({
    query,
    stored: read(env.storage, PREFERENCE_STORAGE_KEYS.locale),
    browser: env.languages,
  });
  return {
    prefs: {
      locale,
      theme: parseTheme(read(env.storage, PREFERENCE_STORAGE_KEYS.theme)) ?? 'light',
      themeColor:
        parseColor(read(env.storage, PREFERENCE_STORAGE_KEYS.themeColor)) ?? DEFAULT_THEME_COLOR,
      navVisible: parseBool(read(env.storage, PREFERENCE_STORAGE_KEYS.navVisible)) ?? true,
    },
    localeFromQuery: normalizeLocale(query) !== null,
  };
}

/**
 * (Re)loads the store. A valid ?lang= is persisted: otherwise following any link (which
 * drops the query) would fall back to the browser language mid-visit.
 */
export function initPreferences(env: PreferenceEnv = browserEnv()): Preferences {
  storage = env.storage;
  const { prefs, localeFromQuery } = readPreferences(env);
  if (localeFromQuery) write(storage, PREFERENCE_STORAGE_KEYS.locale, prefs.locale);
  current = prefs;
  emit();
  return prefs;
}

export function getPreferences(): Preferences {
  return current ?? initPreferences();
}

/** Applies and persists a change; invalid values are ignored rather than stored. */
export function setPreferences(patch: Partial<Preferences>): void {
  const prev = getPreferences();
  const next: Preferences = {
    locale: normalizeLocale(patch.locale) ?? prev.locale,
    theme: parseTheme(patch.theme ?? null) ?? prev.theme,
    themeColor: parseColor(patch.themeColor ?? null) ?? prev.themeColor,
    navVisible: patch.navVisible ?? prev.navVisible,
  };
  let changed = false;
  for (const key of Object.keys(PREFERENCE_STORAGE_KEYS) as (keyof Preferences)[]) {
    if (!(key in patch)) continue;
    // Persist even an unchanged value: an explicit choice must outlive a ?lang= visit.
    write(storage, PREFERENCE_STORAGE_KEYS[key], String(next[key]));
    if (next[key] !== prev[key]) changed = true;
  }
  if (!changed) return;
  current = next;
  emit();
}

export function subscribePreferences(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function emit(): void {
  const prefs = current;
  if (!prefs) return;
  for (const listener of listeners) listener(prefs);
}

export function usePreferences(): Preferences {
  return useSyncExternalStore(subscribePreferences, getPreferences, getPreferences);
}

export function usePreference<K extends keyof Preferences>(
  key: K,
): [Preferences[K], (value: Preferences[K]) => void] {
  const value = usePreferences()[key];
  return [value, (next) => setPreferences({ [key]: next } as Partial<Preferences>)];
}
