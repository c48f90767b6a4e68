import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { RESULTS_MSG } from '@contest/shared';
import { messageTableHook } from '../../lib/message-table';

type MessageKey = keyof typeof RESULTS_MSG;

/**
 * The server and the shared schemas speak Chinese (RESULTS_MSG); on English pages a known text is
 * swapped for its translation under `results:msg`, an unknown one passes as it is.
 */
export const useResultsMessage = messageTableHook(RESULTS_MSG, 'results');

/** The text of a RESULTS_MSG key, in the page's language. */
export function useResultsText(): (key: MessageKey) => string {
  const { t } = useTranslation('results');
  return useCallback((key: MessageKey) => t(`msg.${key}`), [t]);
}
