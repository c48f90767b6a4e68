/**
 * What the speed-test page reads besides the probes: the materials ceilings and saved files
 * (the materials form's own query, shared through its cache key) and the contest schedule,
 * for the materials deadline.
 */
import { useQuery } from '@tanstack/react-query';
import type { ContestPublic } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';
import { CONTEST_QUERY_KEYS, fetchMyPrelim } from '../team/contest-api';

// The home page's schedule reads the same call under the same key (areas/site/site-api.ts).
const CONTEST_PUBLIC_KEY = ['contest', 'public'] as const;

/** Silent: without the schedule the page only leaves out the deadline warning. */
export const fetchContestSchedule = () => dataOf(api.get<ContestPublic>('/contest/public', { silent: true }));

export function useMaterialsLimits() {
  return useQuery({ queryKey: CONTEST_QUERY_KEYS.prelim, queryFn: fetchMyPrelim });
}

export function useContestSchedule() {
  return useQuery({ queryKey: CONTEST_PUBLIC_KEY, queryFn: fetchContestSchedule, retry: false });
}
