import { useRemind } from '../components/use-remind';
import { PRELIM_QUERY_KEYS, remindPrelimDrafts } from './prelim-api';

/** 初赛草稿's reminders (once per team per day). */
export const useRemindPrelim = (onDone?: () => void) => useRemind(remindPrelimDrafts, PRELIM_QUERY_KEYS.drafts, onDone);
