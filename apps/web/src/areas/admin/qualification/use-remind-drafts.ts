import { useRemind } from '../components/use-remind';
import { TEAM_QUERY_KEYS, remindDrafts } from './team-api';

/** 报名草稿's reminders (once per team per day). */
export const useRemindDrafts = (onDone?: () => void) => useRemind(remindDrafts, TEAM_QUERY_KEYS.drafts, onDone);
