import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LinkParams {
  expires?: string;
  acct?: string;
  sig?: string;
  /** Session the link is bound to (experts' links): only that session's caller may use it. */
  sid?: string;
}

export type LinkCheck = { ok: true; accountId: string | null; sessionId: string | null } | { ok: false; reason: 'invalid' | 'expired' };

/** The cookie that proves, on a tokenless request (<video src>, a download link), which session a browser holds. */
export const FILE_KEY_COOKIE = 'contest_file_key';

// Links for a reader who is not signed in (public files) carry this instead of an account id.
const NOBODY = '-';

/**
 * Short-lived download links for places that cannot send an Authorization header (<img>, the
 * PDF viewer): an HMAC over the file's uniqueNo, the expiry and the account the link was issued
 * to. The stream route re-checks that account's access, so a link never outlives a revoked right
 * by more than its own lifetime of access checks.
 */
export function createLinkSigner(secret: Buffer, ttlSeconds: number, now: () => Date = () => new Date()) {
  // An unbound link signs the three fields it always did; a bound one adds its session.
  const mac = (uniqueNo: string, expires: string, acct: string, sid?: string) =>
    createHmac('sha256', secret)
      .update(sid === undefined ? `${uniqueNo}\n${expires}\n${acct}` : `${uniqueNo}\n${expires}\n${acct}\n${sid}`)
      .digest('base64url');

  return {
    ttlSeconds,

    /** Query string (without '?') and expiry in ms; with `sessionId` the link works only for that session's caller. */
    sign(uniqueNo: string, accountId: string | null, sessionId?: string): { query: string; expiresAt: number } {
      const expires = String(Math.floor(now().getTime() / 1000) + ttlSeconds);
      const acct = accountId ?? NOBODY;
      const fields: Record<string, string> = { expires, acct };
      if (sessionId !== undefined) fields.sid = sessionId;
      const query = new URLSearchParams({ ...fields, sig: mac(uniqueNo, expires, acct, sessionId) }).toString();
      return { query, expiresAt: Number(expires) * 1000 };
    },

    /**
     * The value of FILE_KEY_COOKIE for a session: a keyed hash, so the cookie is not the session
     * token and cannot be made without the secret; a link bound to the session is honoured only
     * with it (or with that session's own bearer token).
     */
    sessionKey(sessionId: string): string {
      return createHmac('sha256', secret).update(`file-key\n${sessionId}`).digest('base64url');
    },

    /** True when `given` is the session's key (constant time). */
    sessionKeyMatches(sessionId: string, given: string | undefined): boolean {
      if (!given) return false;
      const expected = Buffer.from(this.sessionKey(sessionId));
      const got = Buffer.from(given);
      return expected.length === got.length && timingSafeEqual(expected, got);
    },

    verify(uniqueNo: string, params: LinkParams): LinkCheck {
      const { expires, acct, sig, sid } = params;
      if (!expires || !acct || !sig || !/^\d{1,12}$/.test(expires)) return { ok: false, reason: 'invalid' };
      if (sid !== undefined && !/^[0-9a-f-]{36}$/.test(sid)) return { ok: false, reason: 'invalid' };
      const expected = Buffer.from(mac(uniqueNo, expires, acct, sid));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
      if (Number(expires) * 1000 <= now().getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, accountId: acct === NOBODY ? null : acct, sessionId: sid ?? null };
    },
  };
}
export type LinkSigner = ReturnType<typeof createLinkSigner>;
