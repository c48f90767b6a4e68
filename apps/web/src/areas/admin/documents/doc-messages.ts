import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, CONTENT_MSG, DOCUMENT_MSG } from '@contest/shared';

/** The shared (Chinese) texts these pages show, each with its key under `docsAdmin:msg`. */
const MESSAGES = {
  ...DOCUMENT_MSG,
  docCodeInvalid: CONTENT_MSG.docCodeInvalid,
  docCategoryInvalid: CONTENT_MSG.docCategoryInvalid,
  documentNotFound: CONTENT_MSG.documentNotFound,
  siteContentNotFound: CONTENT_MSG.siteContentNotFound,
  enabledInvalid: ADMIN_MSG.enabledInvalid,
} as const;
export type DocMessageKey = keyof typeof MESSAGES;

const KEY_OF = new Map<string, DocMessageKey>((Object.entries(MESSAGES) as [DocMessageKey, string][]).map(([key, text]) => [text, key]));

/**
 * The server and the shared schemas speak Chinese; in English a known text is swapped for its
 * translation (unknown ones pass as they are).
 */
export function useDocMessage(): (message: string) => string {
  const { t } = useTranslation('docsAdmin');
  return useCallback(
    (message: string) => {
      const key = KEY_OF.get(message);
      return key ? t(`msg.${key}`) : message;
    },
    [t],
  );
}
