import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_MSG, CONTEST_MSG, REVIEW_MSG } from '@contest/shared';

/** The shared (Chinese) texts this page shows, each with its key under `experts:msg`. */
const MESSAGES = {
  expertNameRequired: REVIEW_MSG.expertNameRequired,
  expertNameTooLong: REVIEW_MSG.expertNameTooLong,
  expertCodeInvalid: REVIEW_MSG.expertCodeInvalid,
  expertCodeTaken: REVIEW_MSG.expertCodeTaken,
  expertPhoneRequired: REVIEW_MSG.expertPhoneRequired,
  expertPhoneInvalid: REVIEW_MSG.expertPhoneInvalid,
  expertPhoneTaken: REVIEW_MSG.expertPhoneTaken,
  expertOrgRequired: REVIEW_MSG.expertOrgRequired,
  expertOrgTooLong: REVIEW_MSG.expertOrgTooLong,
  expertTitleTooLong: REVIEW_MSG.expertTitleTooLong,
  expertTracksRequired: REVIEW_MSG.expertTracksRequired,
  expertTrackInvalid: REVIEW_MSG.expertTrackInvalid,
  expertDeclaredTooMany: REVIEW_MSG.expertDeclaredTooMany,
  expertCreated: REVIEW_MSG.expertCreated,
  expertSaved: REVIEW_MSG.expertSaved,
  importFileRequired: REVIEW_MSG.importFileRequired,
  importFileInvalid: REVIEW_MSG.importFileInvalid,
  importEmpty: REVIEW_MSG.importEmpty,
  importTooMany: REVIEW_MSG.importTooMany,
  importHasErrors: REVIEW_MSG.importHasErrors,
  creditCodeLength: CONTEST_MSG.creditCodeLength,
  creditCodeInvalid: CONTEST_MSG.creditCodeInvalid,
  piiMaskedValue: ADMIN_MSG.piiMaskedValue,
} as const;
type MessageKey = keyof typeof MESSAGES;

const KEY_OF = new Map<string, MessageKey>((Object.entries(MESSAGES) as [MessageKey, string][]).map(([key, text]) => [text, key]));

/**
 * The server and the shared schemas speak Chinese; in English a known text is swapped for its
 * translation (unknown ones, e.g. a row reason of the import report, pass as they are).
 */
export function useExpertMessage(): (message: string) => string {
  const { t } = useTranslation('experts');
  return useCallback((message: string) => {
    const key = KEY_OF.get(message);
    return key ? t(`msg.${key}`) : message;
  }, [t]);
}
