import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffInfo, StaffMenu } from '../../../lib/session';
import { useStaffInfo } from '../../../lib/session';
import { EXPERT_PATHS } from '../paths';
import { EXPERT_ACCOUNT_KEY } from '../use-agreement';
import { LIVE_JUDGE_KEYS, fetchJudgeSessions } from './live-api';

/** The 现场答辩 entry of the expert menu; its pages name this code as their active menu (routes.ts). */
export const LIVE_MENU: StaffMenu = {
  code: 'expertLive',
  name: '现场答辩',
  nameEn: 'Live final',
  path: EXPERT_PATHS.live,
  icon: 'SolutionOutlined',
  children: [],
};

/** The account's menus with the 现场答辩 entry added (last) or taken out; the same object when nothing changes. */
export function withLiveMenu(info: StaffInfo, show: boolean): StaffInfo {
  const present = info.menus.some((m) => m.code === LIVE_MENU.code);
  if (present === show) return info;
  return { ...info, menus: show ? [...info.menus, LIVE_MENU] : info.menus.filter((m) => m.code !== LIVE_MENU.code) };
}

/**
 * The expert menu's 现场答辩 entry (docs/live-final.md, "Judges"): shown when the expert judges at
 * least one session. The server's menus are the same for every expert (the agreement aside) and
 * know nothing of live sessions, so the console adds the entry from the expert's session list
 * (the list the home page's card reads too: one request for both). Asked only once the agreement
 * is accepted: the live pages wait behind it like the review pages.
 */
export function useLiveMenu(): void {
  const queryClient = useQueryClient();
  const info = useStaffInfo('EXPERT');
  const agreed = info.data?.agree === true;
  const sessions = useQuery({ queryKey: LIVE_JUDGE_KEYS.sessions, queryFn: fetchJudgeSessions, enabled: agreed, retry: false });
  const show = agreed && (sessions.data?.length ?? 0) > 0;
  // Again after each new read of the account (a refetch brings the server's menus back).
  useEffect(() => {
    if (!info.data) return;
    queryClient.setQueryData<StaffInfo>(EXPERT_ACCOUNT_KEY, (data) => (data ? withLiveMenu(data, show) : data));
  }, [queryClient, info.data, show]);
}
