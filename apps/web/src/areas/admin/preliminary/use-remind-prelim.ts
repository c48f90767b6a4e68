import { useTranslation } from 'react-i18next';
import { useDraftRemind } from '../components/use-draft-remind';
import { PRELIM_QUERY_KEYS, remindPrelimDrafts } from './prelim-api';

export const REMIND_PRELIM = ['preliminary-draft:remind'];

/** 初赛草稿's reminders (once per team per day). */
export function useRemindPrelim(onDone?: () => void) {
  const { t } = useTranslation('admin');
  return useDraftRemind(
    {
      send: remindPrelimDrafts,
      listKey: PRELIM_QUERY_KEYS.drafts,
      codes: REMIND_PRELIM,
      texts: {
        remind: t('pages.prelim.drafts.remind'),
        remindAll: t('pages.prelim.drafts.remindAll'),
        remindSelected: t('pages.prelim.drafts.remindSelected'),
        confirmAll: t('pages.prelim.drafts.remindAllConfirm'),
      },
    },
    onDone,
  );
}
