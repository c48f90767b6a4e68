import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, CONTENT_MSG, FEEDBACK_MSG } from '@contest/shared';

/** The shared (Chinese) texts this page shows, each with its key under `admin:feedback.msg`. */
const MESSAGES = {
  replied: CONTENT_MSG.replied,
  replyRequired: CONTENT_MSG.replyRequired,
  replyTooLong: CONTENT_MSG.replyTooLong,
  feedbackNotFound: CONTENT_MSG.feedbackNotFound,
  feedbackStatusInvalid: CONTENT_MSG.feedbackStatusInvalid,
  feedbackClosed: FEEDBACK_MSG.feedbackClosed,
  feedbackAlreadyClosed: FEEDBACK_MSG.feedbackAlreadyClosed,
  feedbackReplyStale: FEEDBACK_MSG.feedbackReplyStale,
  feedbackClosedOk: FEEDBACK_MSG.feedbackClosedOk,
  dateRangeInvalid: ADMIN_MSG.dateRangeInvalid,
} as const;
type MessageKey = keyof typeof MESSAGES;

const KEY_OF = new Map<string, MessageKey>((Object.entries(MESSAGES) as [MessageKey, string][]).map(([key, text]) => [text, key]));

/**
 * The server and the shared schema speak Chinese; in English a known text is swapped for its
 * translation (an unknown one passes as it is).
 */
export function useFeedbackMessage(): (message: string) => string {
  const { t } = useTranslation('admin');
  return useCallback(
    (message: string) => {
      const key = KEY_OF.get(message);
      return key ? t(`feedback.msg.${key}`) : message;
    },
    [t],
  );
}

export const FEEDBACK_TEXT = MESSAGES;
