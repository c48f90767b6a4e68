/**
 * Texts of certificates and letters in the page's language (docs/certificates.md): the server and
 * the shared schemas write CERTIFICATE_MSG in Chinese; a known text is looked up by its key in the
 * certificates namespace, anything else shows as sent.
 */
import { CERTIFICATE_MSG } from '@contest/shared';
import { messageTableHook } from '../../lib/message-table';

export const useCertificateMessage = messageTableHook(CERTIFICATE_MSG, 'certificates');

/** The message of a refused call (an ApiError or a thrown Error), or ''. */
export function messageOf(error: unknown): string {
  if (!error || typeof error !== 'object') return '';
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message : '';
}

/** `/api/certificates/…` or `/certificates/…`: the client adds the API base itself. */
export const apiPathOf = (path: string) => path.replace(/^\/api(?=\/)/, '');
