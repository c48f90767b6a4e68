import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { RESULTS_MSG } from '@contest/shared';

type MessageKey = keyof typeof RESULTS_MSG;

const KEY_OF = new Map<string, MessageKey>((Object.entries(RESULTS_MSG) as [MessageKey, string][]).map(([key, text]) => [text, key]));

/**
 * The server and the shared schemas speak Chinese (RESULTS_MSG); on English pages a known text is
 * swapped for its translation under `results:msg`, an unknown one passes as it is.
 */
export function useResultsMessage(): (message: string | null | undefined) => string {
  const { t } = useTranslation('results');
  return useCallback(
    (message: string | null | undefined) => {
      if (!message) return '';
      const key = KEY_OF.get(message);
      return key ? t(`msg.${key}`) : message;
    },
    [t],
  );
}

/** The text of a RESULTS_MSG key, in the page's language. */
export function useResultsText(): (key: MessageKey) => string {
  const { t } = useTranslation('results');
  return useCallback((key: MessageKey) => t(`msg.${key}`), [t]);
}
