import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RemindInput, RemindResult } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';

/**
 * The drafts pages' 提醒: sends, reports `{reminded, skipped}` (skipped: reminded today already;
 * "and by SMS" when SMS notices are on), refreshes the list. `busy` names the button that waits.
 */
export function useRemind(send: (body: RemindInput) => Promise<RemindResult>, listKey: readonly unknown[], onDone?: () => void) {
  const { t } = useTranslation('admin');
  const { message } = useFeedback();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const remind = async (body: RemindInput, which: string) => {
    setBusy(which);
    try {
      const result = await send(body);
      const text = t('pages.qualificationDraft.reminded', { reminded: result.reminded, skipped: result.skipped });
      void message.success(result.sms && result.reminded > 0 ? `${text}${t('pages.qualificationDraft.withSms')}` : text);
      void queryClient.invalidateQueries({ queryKey: listKey });
      onDone?.();
    } catch {
      // The client has shown the refusal.
    } finally {
      setBusy(null);
    }
  };
  return { remind, busy };
}
