import { useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ContestPublic } from '@contest/shared';
import { contestNameIn, contestNames, rememberContestName, subscribeContestName } from '../i18n/contest-name';
import { api } from './api';

/**
 * GET /contest/public: the name and phase windows; remembers the name for every text on the way
 * (i18n/contest-name.ts). Silent: every page asks it, and without it the built-in names and the
 * home page's "dates to be announced" stand.
 */
export async function fetchContestPublic(): Promise<ContestPublic> {
  const data = (await api.get<ContestPublic>('/contest/public', { silent: true })).data;
  rememberContestName(data);
  return data;
}

/** One query for the whole app: the home page's schedule reads the same answer. */
export const CONTEST_PUBLIC_QUERY = { queryKey: ['contest', 'public'], queryFn: fetchContestPublic, retry: false } as const;

/** Loads the name once per app (RootLayout); 大赛设置 refreshes it by invalidating ['contest']. */
export function useLoadContestName(): void {
  useQuery(CONTEST_PUBLIC_QUERY);
}

/** The contest name of 大赛设置 in the page's language; re-renders when it arrives or changes. */
export function useContestName(): string {
  useSyncExternalStore(subscribeContestName, contestNames);
  const { i18n } = useTranslation();
  return contestNameIn(i18n.resolvedLanguage ?? i18n.language);
}
