import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RemindInput } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { PRELIM_QUERY_KEYS, remindPrelimDrafts } from './prelim-api';

/** Sends reminders to teams with materials in draft and reports `{reminded, skipped}` (skipped: reminded today already). */
export function useRemindPrelim(onDone?: () => void) {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const remind = async (body: RemindInput, which: string) => {
    setBusy(which);
    try {
      const result = await remindPrelimDrafts(body);
      void message.success(t('pages.prelim.drafts.remindResult', { reminded: result.reminded, skipped: result.skipped }));
      void queryClient.invalidateQueries({ queryKey: PRELIM_QUERY_KEYS.drafts });
      onDone?.();
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(null);
    }
  };
  return { remind, busy };
}
