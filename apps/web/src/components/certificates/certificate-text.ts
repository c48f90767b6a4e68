/**
 * Texts of certificates and letters in the page's language (docs/certificates.md): the server and
 * the shared schemas write CERTIFICATE_MSG in Chinese; a known text is looked up by its key in the
 * certificates namespace, anything else shows as sent.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { CERTIFICATE_MSG } from '@contest/shared';

type MessageKey = keyof typeof CERTIFICATE_MSG;
const KEY_OF = new Map<string, MessageKey>((Object.entries(CERTIFICATE_MSG) as [MessageKey, string][]).map(([key, text]) => [text, key]));

export function useCertificateMessage(): (message: string | null | undefined) => string {
  const { t } = useTranslation('certificates');
  return useCallback(
    (message: string | null | undefined) => {
      if (!message) return '';
      const key = KEY_OF.get(message);
      return key ? t(`msg.${key}`) : message;
    },
    [t],
  );
}

/** The message of a refused call (an ApiError or a thrown Error), or ''. */
export function messageOf(error: unknown): string {
  if (!error || typeof error !== 'object') return '';
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : '';
}

/** `/api/certificates/…` or `/certificates/…`: the client adds the API base itself. */
export const apiPathOf = (path: string) => path.replace(/^\/api(?=\/)/, '');
