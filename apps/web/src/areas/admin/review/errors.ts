import { isStale } from '../../../components/admin-kit';
import { refusalText } from '../../../components/admin-kit/refusal-text';
import { ApiError } from '../../../api';

/** What a dialog shows for a failed write (the calls are silent: no toast besides), in the page's language. */
export function errorText(error: unknown): string | null {
  return refusalText(error);
}

/** The server's stable reason key of a refusal (`data.reason`), e.g. STALE. */
export function reasonOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const reason = (error.data as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : null;
}

export { isStale };
