import { useEffect } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { StaffInfo, StaffMenu } from '../../../lib/session';
import { useStaffInfo } from '../../../lib/session';
import { EXPERT_PATHS } from '../paths';
import { EXPERT_ACCOUNT_KEY } from '../use-agreement';
import { MY_LETTERS_QUERY_KEY, fetchMyLetters } from './letters-api';

/** The 我的聘书与感谢信 entry of the expert menu; its page names this code as its active menu (routes.ts). */
export const LETTERS_MENU: StaffMenu = {
  code: 'expertLetters',
  name: '我的聘书与感谢信',
  nameEn: 'My letters',
  path: EXPERT_PATHS.letters,
  icon: 'ProfileOutlined',
  children: [],
};

/** The account's menus with the letters entry added (last) or taken out; the same object when nothing changes. */
export function withLettersMenu(info: StaffInfo, show: boolean): StaffInfo {
  const present = info.menus.some((m) => m.code === LETTERS_MENU.code);
  if (present === show) return info;
  return { ...info, menus: show ? [...info.menus, LETTERS_MENU] : info.menus.filter((m) => m.code !== LETTERS_MENU.code) };
}

/**
 * The expert menu's letters entry (docs/certificates.md, "Web pages"): shown once the expert holds a
 * letter. The server's expert menus are the same for every expert and know nothing of letters, so
 * the console adds the entry from the expert's own list (the one the page reads: one request for
 * both), as it does for 现场答辩 (live/use-live-menu.ts).
 */
export function useLettersMenu(): void {
  const queryClient = useQueryClient();
  const info = useStaffInfo('EXPERT');
  const letters = useQuery({ queryKey: MY_LETTERS_QUERY_KEY, queryFn: fetchMyLetters, enabled: info.data !== undefined, retry: false });
  const show = (letters.data?.length ?? 0) > 0;
  useEffect(() => {
    if (!info.data) return;
    queryClient.setQueryData<StaffInfo>(EXPERT_ACCOUNT_KEY, (data) => (data ? withLettersMenu(data, show) : data));
  }, [queryClient, info.data, show]);
}
