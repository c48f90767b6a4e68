import { LIVE_MSG } from '@contest/shared';
import { ApiError } from '../../../api';
import { i18n } from '../../../i18n';
import { isStale } from '../../../components/admin-kit';
import { refusalText } from '../../../components/admin-kit/refusal-text';

type LiveMsgKey = keyof typeof LIVE_MSG;
const KEY_OF = new Map<string, LiveMsgKey>(Object.entries(LIVE_MSG).map(([key, text]) => [text, key as LiveMsgKey]));

/**
 * A shared live-final text (LIVE_MSG) in the page's language: Chinese pages show it as the server
 * wrote it, English ones look it up in `liveAdmin:msg` (docs/decisions.md, "English").
 */
export function liveText(text: string): string {
  const key = KEY_OF.get(text);
  return key ? i18n.t(`liveAdmin:msg.${key}`) : text;
}

/** What a page shows for a failed live-final call: a LIVE_MSG refusal by its text, else the console's refusal text. */
export function liveErrorText(error: unknown): string | null {
  if (error instanceof ApiError && KEY_OF.has(error.message)) return liveText(error.message);
  return refusalText(error);
}

/** The refusal's stable reason key (`data.reason`, LIVE_REFUSALS), e.g. STALE. */
export function liveReasonOf(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const reason = (error.data as { reason?: unknown } | null)?.reason;
  return typeof reason === 'string' ? reason : null;
}

export { isStale };
