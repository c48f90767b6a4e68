import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { StaffInfo, StaffMenu } from '../../lib/session';
import { useStaffInfo } from '../../lib/session';
import { EXPERT_PATHS } from './paths';
import { EXPERT_ACCOUNT_KEY } from './use-agreement';

/** The 申报回避单位 entry of the expert menu; its page names this code as its active menu (routes.ts). */
export const ORGANISATIONS_MENU: StaffMenu = {
  code: 'expertOrganisations',
  name: '申报回避单位',
  nameEn: 'Declared organisations',
  path: EXPERT_PATHS.organisations,
  icon: 'SafetyCertificateOutlined',
  children: [],
};

/** Codes of the server's review entries (EXPERT_MENUS): the entry goes right after the last of them. */
const REVIEW_MENU_CODES = ['reviewManage', 'reviewAdminManage'];

/** The account's menus with the 申报回避单位 entry added (after the review entries) or taken out; the same object when nothing changes. */
export function withOrganisationsMenu(info: StaffInfo, show: boolean): StaffInfo {
  const present = info.menus.some((m) => m.code === ORGANISATIONS_MENU.code);
  if (present === show) return info;
  if (!show) return { ...info, menus: info.menus.filter((m) => m.code !== ORGANISATIONS_MENU.code) };
  let at = -1;
  info.menus.forEach((m, i) => {
    if (REVIEW_MENU_CODES.includes(m.code)) at = i;
  });
  const menus = [...info.menus];
  menus.splice(at < 0 ? menus.length : at + 1, 0, ORGANISATIONS_MENU);
  return { ...info, menus };
}

/**
 * The expert menu's 申报回避单位 entry (docs/rules/review.md, "Conflicts of interest"). The server's
 * expert menus are fixed in EXPERT_MENUS; the entry is added here, as 现场答辩 is (live/use-live-menu.ts),
 * once the agreement is accepted: the page's calls, like every review call, wait behind it.
 */
export function useOrganisationsMenu(): void {
  const queryClient = useQueryClient();
  const info = useStaffInfo('EXPERT');
  const show = info.data?.agree === true;
  // Again after each new read of the account (a refetch brings the server's menus back).
  useEffect(() => {
    if (!info.data) return;
    queryClient.setQueryData<StaffInfo>(EXPERT_ACCOUNT_KEY, (data) => (data ? withOrganisationsMenu(data, show) : data));
  }, [queryClient, info.data, show]);
}
