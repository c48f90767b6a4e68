import type { Redis } from 'ioredis';

/**
 * Short-lived shared state (captcha nonces, SMS resend windows, counters). In memory for a
 * single instance; Redis when REDIS_URL is set, so every instance behind a load balancer sees
 * the same values. Values are strings; TTLs are in milliseconds.
 */
export interface KvStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /** Sets only when absent; true when this call set it (a lock or a once-only mark). */
  setIfAbsent(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Reads and deletes in one step, so two callers can never both consume the value. */
  take(key: string): Promise<string | null>;
  del(key: string): Promise<void>;
  /** Increments a counter, starting its TTL at the first increment; returns the new count. */
  incr(key: string, ttlMs: number): Promise<number>;
  ttl(key: string): Promise<number>;
}

export function createMemoryKvStore(now: () => number = Date.now): KvStore {
  const entries = new Map<string, { value: string; expiresAt: number }>();
  const live = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  };
  // Expired entries are dropped lazily on access and by this sweep, so memory stays bounded.
  const sweep = setInterval(() => {
    const t = now();
    for (const [key, entry] of entries) if (entry.expiresAt <= t) entries.delete(key);
  }, 60_000);
  sweep.unref();
  return {
    get: async (key) => live(key)?.value ?? null,
    set: async (key, value, ttlMs) => {
      entries.set(key, { value, expiresAt: now() + ttlMs });
    },
    setIfAbsent: async (key, value, ttlMs) => {
      if (live(key)) return false;
      entries.set(key, { value, expiresAt: now() + ttlMs });
      return true;
    },
    take: async (key) => {
      const entry = live(key);
      entries.delete(key);
      return entry?.value ?? null;
    },
    del: async (key) => {
      entries.delete(key);
    },
    incr: async (key, ttlMs) => {
      const entry = live(key);
      const next = (entry ? Number(entry.value) : 0) + 1;
      entries.set(key, { value: String(next), expiresAt: entry?.expiresAt ?? now() + ttlMs });
      return next;
    },
    ttl: async (key) => {
      const entry = live(key);
      return entry ? entry.expiresAt - now() : -1;
    },
  };
}

export function createRedisKvStore(redis: Redis, prefix: string): KvStore {
  const k = (key: string) => `${prefix}kv:${key}`;
  return {
    get: (key) => redis.get(k(key)),
    set: async (key, value, ttlMs) => {
      await redis.set(k(key), value, 'PX', Math.max(1, Math.round(ttlMs)));
    },
    setIfAbsent: async (key, value, ttlMs) =>
      (await redis.set(k(key), value, 'PX', Math.max(1, Math.round(ttlMs)), 'NX')) === 'OK',
    take: (key) => redis.getdel(k(key)),
    del: async (key) => {
      await redis.del(k(key));
    },
    incr: async (key, ttlMs) => {
      const [[, count]] = (await redis
        .multi()
        .incr(k(key))
        .pexpire(k(key), Math.max(1, Math.round(ttlMs)), 'NX')
        .exec()) as [[Error | null, number], [Error | null, number]];
      return count;
    },
    ttl: (key) => redis.pttl(k(key)),
  };
}
