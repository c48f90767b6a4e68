/**
 * The console's open tabs (docs/rules/screens.md, "Consoles"): records of path and title, at most
 * OPEN_TAB_LIMIT (the oldest dropped), kept in localStorage so a reload restores them, and
 * removed on logout. One list per realm: the admin and expert consoles are separate sessions.
 */
import { useSyncExternalStore } from 'react';
import { OPEN_TAB_LIMIT } from '@contest/shared';
import type { StaffRealm } from '../../lib/session';

export interface OpenTab {
  /** Path with query string, where the tab leads. */
  path: string;
  /** Translation key of the page title ('admin:titles.home'), translated when shown. */
  title: string;
  /**
   * What the page names itself once loaded (a scoring page: its project), shown after the title.
   * Never a translation key: it is data.
   */
  name?: string;
}

export const OPEN_TABS_STORAGE_KEYS: Record<StaffRealm, string> = {
  ADMIN: 'adminTabs',
  EXPERT: 'expertTabs',
};

/** Tabs are one per page: the same path with another query string replaces the old entry. */
export function tabKey(path: string): string {
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

/** Opens (or refreshes) a tab; a new tab goes last and the oldest ones make room for it. */
export function addTab(tabs: readonly OpenTab[], tab: OpenTab, limit = OPEN_TAB_LIMIT): OpenTab[] {
  const key = tabKey(tab.path);
  const index = tabs.findIndex((t) => tabKey(t.path) === key);
  if (index !== -1) {
    const current = tabs[index];
    if (current && current.path === tab.path && current.title === tab.title) return [...tabs];
    // Same page, another query string: it is still the same record, so it keeps its name.
    const next = current?.name !== undefined && tab.name === undefined && current.title === tab.title ? { ...tab, name: current.name } : tab;
    return tabs.map((t, i) => (i === index ? next : t));
  }
  const next = [...tabs, tab];
  return next.length > limit ? next.slice(next.length - limit) : next;
}

/**
 * Names the tab of `tab.path` (opening it when the layout has not yet): a page that loads what it
 * shows, e.g. a scoring page's project, tells its tab apart from the other tabs of the same page.
 */
export function nameTab(tabs: readonly OpenTab[], tab: OpenTab & { name: string }, limit = OPEN_TAB_LIMIT): OpenTab[] {
  const key = tabKey(tab.path);
  const index = tabs.findIndex((t) => tabKey(t.path) === key);
  if (index === -1) return addTab(tabs, tab, limit);
  const current = tabs[index];
  if (current?.name === tab.name) return [...tabs];
  return tabs.map((t, i) => (i === index ? { ...t, name: tab.name } : t));
}

export function removeTab(tabs: readonly OpenTab[], path: string): OpenTab[] {
  const key = tabKey(path);
  return tabs.filter((t) => tabKey(t.path) !== key);
}

/** Where to go after closing `path`: the tab to its right, else to its left, else nowhere. */
export function neighbourOf(tabs: readonly OpenTab[], path: string): OpenTab | null {
  const key = tabKey(path);
  const index = tabs.findIndex((t) => tabKey(t.path) === key);
  if (index === -1) return null;
  return tabs[index + 1] ?? tabs[index - 1] ?? null;
}

function isOpenTab(value: unknown): value is OpenTab {
  if (typeof value !== 'object' || value === null) return false;
  const { path, title, name } = value as Record<string, unknown>;
  return typeof path === 'string' && path.startsWith('/') && typeof title === 'string' && (name === undefined || typeof name === 'string');
}

/** Reads the stored list, tolerating anything a user or an old version left there. */
export function parseTabs(raw: string | null, limit = OPEN_TAB_LIMIT): OpenTab[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    if (!Array.isArray(value)) return [];
    return value.filter(isOpenTab).slice(-limit);
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------------------------------
// Store

const listeners = new Set<() => void>();
const cache = new Map<StaffRealm, { raw: string | null; tabs: OpenTab[] }>();

function readRaw(realm: StaffRealm): string | null {
  try {
    return localStorage.getItem(OPEN_TABS_STORAGE_KEYS[realm]);
  } catch {
    return null;
  }
}

export function getOpenTabs(realm: StaffRealm): OpenTab[] {
  const raw = readRaw(realm);
  const cached = cache.get(realm);
  // Same snapshot while storage is unchanged, as useSyncExternalStore requires.
  if (cached && cached.raw === raw) return cached.tabs;
  const tabs = parseTabs(raw);
  cache.set(realm, { raw, tabs });
  return tabs;
}

function save(realm: StaffRealm, tabs: OpenTab[]): void {
  try {
    localStorage.setItem(OPEN_TABS_STORAGE_KEYS[realm], JSON.stringify(tabs));
  } catch {
    // Private mode or full storage: the tabs still work until the next reload.
    cache.set(realm, { raw: readRaw(realm), tabs });
  }
  for (const listener of listeners) listener();
}

export function setOpenTabs(realm: StaffRealm, update: (tabs: OpenTab[]) => OpenTab[]): void {
  const prev = getOpenTabs(realm);
  const next = update(prev);
  if (next.length === prev.length && next.every((t, i) => t === prev[i])) return;
  save(realm, next);
}

/** Logout: the tabs belong to the session that ended. */
export function clearOpenTabs(realm: StaffRealm): void {
  try {
    localStorage.removeItem(OPEN_TABS_STORAGE_KEYS[realm]);
  } catch {
    // Nothing stored, nothing to remove.
  }
  cache.delete(realm);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useOpenTabs(realm: StaffRealm): OpenTab[] {
  return useSyncExternalStore(
    subscribe,
    () => getOpenTabs(realm),
    () => getOpenTabs(realm),
  );
}
