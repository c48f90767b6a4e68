import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { RemindExpertsBody, ReviewRound } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { REVIEW_QUERY_KEYS, remindExperts } from './review-api';
import { slugOf } from './round';

/**
 * 提醒 for the monitoring pages: sends, reports how many were reminded and skipped (done
 * already, reminded today, not in the round), refreshes monitoring. `busy` names the button that waits.
 */
export function useExpertRemind(round: ReviewRound) {
  const { t } = useTranslation('review');
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<string | null>(null);
  const slug = slugOf(round);

  const remind = async (body: Partial<RemindExpertsBody>, which: string): Promise<boolean> => {
    setBusy(which);
    try {
      const result = await remindExperts(slug, body);
      void message.success(t('monitor.reminded', { reminded: result.reminded, skipped: result.skipped }));
      void queryClient.invalidateQueries({ queryKey: [...REVIEW_QUERY_KEYS.round(slug), 'monitor'] });
      return true;
    } catch {
      // The client has shown the refusal.
      return false;
    } finally {
      setBusy(null);
    }
  };

  const remindAll = () =>
    modal.confirm({
      title: t('common.confirmTitle'),
      content: t('monitor.confirmAll'),
      okText: t('common.ok'),
      cancelText: t('common.cancel'),
      onOk: () => remind({ all: true }, 'all'),
    });

  return { remind, remindAll, busy };
}
