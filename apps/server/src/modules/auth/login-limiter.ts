import { createHash } from 'node:crypto';
import type { Realm } from '@contest/shared';
import type { KvStore } from '../../lib/kv-store.js';

const WINDOW_MS = 60_000;

export interface LoginLimiterDeps {
  kv: KvStore;
  /** Attempts a minute for one login name in one realm, from any address. */
  perAccountPerMinute: number;
  /** Attempts a minute from one client address, over all names: the contest setting, read per call. */
  perIpPerMinute: () => Promise<number>;
}

/**
 * Login limits by account and by address together (docs/rules/identity.md, "Login limits"). Per address only, a hospital
 * or campus where hundreds of teams share one address was shut out on deadline day; per name
 * only, one address could try every name. So each name has a tight limit of its own, and each
 * address a generous ceiling that operators can raise in the contest settings. Counters live in
 * the shared store (Redis when configured), so every instance counts the same attempts.
 */
export function createLoginLimiter({ kv, perAccountPerMinute, perIpPerMinute }: LoginLimiterDeps) {
  // The store sees a hash, not the name or phone typed in.
  const accountKey = (realm: Realm, identifier: string) =>
    `login:account:${realm}:${createHash('sha256').update(identifier.trim().toLowerCase()).digest('base64url').slice(0, 22)}`;

  return {
    perIpPerMinute,

    /**
     * Counts one attempt on the name; when the name is over its limit, the seconds until its
     * window ends (the caller answers 429), else null.
     */
    async hitAccount(realm: Realm, identifier: string): Promise<number | null> {
      const key = accountKey(realm, identifier);
      const count = await kv.incr(key, WINDOW_MS);
      if (count <= perAccountPerMinute) return null;
      const left = await kv.ttl(key);
      return Math.max(1, Math.ceil((left > 0 ? left : WINDOW_MS) / 1000));
    },
  };
}
export type LoginLimiter = ReturnType<typeof createLoginLimiter>;
