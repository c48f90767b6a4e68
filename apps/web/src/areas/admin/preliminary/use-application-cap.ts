import { useQuery } from '@tanstack/react-query';
import { menuCodes } from '../../../components/admin-kit/console-menu';
import { useStaffInfo } from '../../../lib/session';
import { SETTINGS_QUERY_KEY, fetchSettings } from '../admin-api';

/**
 * The application cap (`prelim.maxApplicationChars`) for list rows, which carry the counted
 * characters but not the cap (details carry both). Read from the contest settings when the account
 * may open them (menu systemSettings); `undefined` (unknown: the count shows alone) otherwise.
 */
export function useApplicationCap(): number | null | undefined {
  const info = useStaffInfo('ADMIN');
  const allowed = info.data ? menuCodes(info.data.menus).has('systemSettings') : false;
  const settings = useQuery({ queryKey: SETTINGS_QUERY_KEY, queryFn: fetchSettings, enabled: allowed, staleTime: 60_000 });
  return allowed && settings.data ? settings.data.prelim.maxApplicationChars : undefined;
}
