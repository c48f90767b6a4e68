import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, CONTENT_MSG, LIST_QUERY_MSG, NEWS_MSG } from '@contest/shared';

/** The shared (Chinese) texts these pages show, each with its key under `newsAdmin:msg`. */
const MESSAGES = {
  ...NEWS_MSG,
  newsCategoryInvalid: CONTENT_MSG.newsCategoryInvalid,
  newsNotFound: CONTENT_MSG.newsNotFound,
  sortInvalid: LIST_QUERY_MSG.sortInvalid,
  dateRangeInvalid: ADMIN_MSG.dateRangeInvalid,
} as const;
export type NewsMessageKey = keyof typeof MESSAGES;

const KEY_OF = new Map<string, NewsMessageKey>((Object.entries(MESSAGES) as [NewsMessageKey, string][]).map(([key, text]) => [text, key]));

/**
 * The server and the shared schemas speak Chinese; in English a known text is swapped for its
 * translation (an unknown one passes as it is).
 */
export function useNewsMessage(): (message: string) => string {
  const { t } = useTranslation('newsAdmin');
  return useCallback(
    (message: string) => {
      const key = KEY_OF.get(message);
      return key ? t(`msg.${key}`) : message;
    },
    [t],
  );
}
