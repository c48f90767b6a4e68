import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { STAFF_ACCOUNT_QUERY_KEY, type StaffInfo } from '../../lib/session';

/** The expert's GET /admin/user/account in the cache (lib/session keys it by realm). */
export const EXPERT_ACCOUNT_KEY = [...STAFF_ACCOUNT_QUERY_KEY, 'EXPERT'] as const;

/**
 * What a page does with a 403 AGREEMENT_REQUIRED: the cached account says "not agreed" at once
 * (the review pages' gate then sends the expert to the agreement on the home page) and is asked
 * for again, so the menus lose the final-review entry too.
 */
export function useAgreementLost(): () => void {
  const queryClient = useQueryClient();
  return useCallback(() => {
    queryClient.setQueryData<StaffInfo>(EXPERT_ACCOUNT_KEY, (info) => (info ? { ...info, agree: false } : info));
    void queryClient.invalidateQueries({ queryKey: EXPERT_ACCOUNT_KEY });
  }, [queryClient]);
}
