import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RemindInput } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { TEAM_QUERY_KEYS, remindDrafts } from './team-api';

/** Sends reminders and reports `{reminded, skipped}` (skipped: reminded today already). */
export function useRemindDrafts(onDone?: () => void) {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const remind = async (body: RemindInput, which: string) => {
    setBusy(which);
    try {
      const result = await remindDrafts(body);
      const text = t('pages.qualificationDraft.reminded', { reminded: result.reminded, skipped: result.skipped });
      void message.success(result.sms && result.reminded > 0 ? `${text}${t('pages.qualificationDraft.withSms')}` : text);
      void queryClient.invalidateQueries({ queryKey: TEAM_QUERY_KEYS.drafts });
      onDone?.();
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(null);
    }
  };
  return { remind, busy };
}
