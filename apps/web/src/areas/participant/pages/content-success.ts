import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTENT_MSG } from '@contest/shared';

/**
 * The success messages of 我的消息's calls in the page's language (docs/decisions.md, "English"):
 * the server answers with the spec's Chinese (CONTENT_MSG), which Chinese pages show as sent;
 * English pages look the text up by its message key, as refusals are looked up by reason key.
 * A text the table does not know shows as sent; an empty one gives the page's own word.
 */
type SuccessKey = 'inbox.allRead' | 'feedback.sent';

const KEY_OF = new Map<string, SuccessKey>([
  [CONTENT_MSG.allRead, 'inbox.allRead'],
  [CONTENT_MSG.feedbackSent, 'feedback.sent'],
]);

export function useContentSuccess(): (message: string | null | undefined, fallbackKey: SuccessKey) => string {
  const { t, i18n } = useTranslation('participant');
  const english = (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');
  return useCallback(
    (message: string | null | undefined, fallbackKey: SuccessKey): string => {
      if (!message) return t(fallbackKey);
      const key = english ? KEY_OF.get(message) : undefined;
      return key ? t(key) : message;
    },
    [t, english],
  );
}
