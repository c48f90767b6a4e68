import { useTranslation } from 'react-i18next';
import { useDraftRemind } from '../components/use-draft-remind';
import { TEAM_QUERY_KEYS, remindDrafts } from './team-api';

export const REMIND_DRAFTS = ['qualification-draft:remind'];

/** 报名草稿's reminders (once per team per day). */
export function useRemindDrafts(onDone?: () => void) {
  const { t } = useTranslation('admin');
  return useDraftRemind(
    {
      send: remindDrafts,
      listKey: TEAM_QUERY_KEYS.drafts,
      codes: REMIND_DRAFTS,
      texts: {
        remind: t('pages.qualificationDraft.remind'),
        remindAll: t('pages.qualificationDraft.remindAll'),
        remindSelected: t('pages.qualificationDraft.remindSelected'),
        confirmAll: t('pages.qualificationDraft.confirmAll'),
      },
    },
    onDone,
  );
}
