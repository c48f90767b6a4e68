import { createHmac, timingSafeEqual } from 'node:crypto';

export interface LinkParams {
  expires?: string;
  acct?: string;
  sig?: string;
}

export type LinkCheck = { ok: true; accountId: string | null } | { ok: false; reason: 'invalid' | 'expired' };

// Links for a reader who is not signed in (public files) carry this instead of an account id.
const NOBODY = '-';

/**
 * Short-lived download links for places that cannot send an Authorization header (<img>, the
 * PDF viewer): an HMAC over the file's uniqueNo, the expiry and the account the link was issued
 * to. The stream route re-checks that account's access, so a link never outlives a revoked right
 * by more than its own lifetime of access checks.
 */
export function createLinkSigner(secret: Buffer, ttlSeconds: number, now: () => Date = () => new Date()) {
  const mac = (uniqueNo: string, expires: string, acct: string) =>
    createHmac('sha256', secret).update(`${uniqueNo}\n${expires}\n${acct}`).digest('base64url');

  return {
    ttlSeconds,

    /** Query string (without '?') and expiry in ms. */
    sign(uniqueNo: string, accountId: string | null): { query: string; expiresAt: number } {
      const expires = String(Math.floor(now().getTime() / 1000) + ttlSeconds);
      const acct = accountId ?? NOBODY;
      const query = new URLSearchParams({ expires, acct, sig: mac(uniqueNo, expires, acct) }).toString();
      return { query, expiresAt: Number(expires) * 1000 };
    },

    verify(uniqueNo: string, params: LinkParams): LinkCheck {
      const { expires, acct, sig } = params;
      if (!expires || !acct || !sig || !/^\d{1,12}$/.test(expires)) return { ok: false, reason: 'invalid' };
      const expected = Buffer.from(mac(uniqueNo, expires, acct));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return { ok: false, reason: 'invalid' };
      if (Number(expires) * 1000 <= now().getTime()) return { ok: false, reason: 'expired' };
      return { ok: true, accountId: acct === NOBODY ? null : acct };
    },
  };
}
export type LinkSigner = ReturnType<typeof createLinkSigner>;
