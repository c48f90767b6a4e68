import type { Redis } from 'ioredis';
import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { kvStore } from '../db/schema/lib.js';

/**
 * Short-lived shared state (captcha nonces, SMS resend windows, counters). Redis when REDIS_URL
 * is set; otherwise the database (`kv_store`), so a restart does not reset the 60 s waits and
 * daily caps and every instance on the same database sees the same values. The memory store is
 * for unit tests that pass it explicitly. Values are strings; TTLs are in milliseconds.
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
  /**
   * The store as seen from inside a database transaction `tx`: the database store then runs its
   * statements in `tx` (they commit or roll back with it; on PGlite, a statement on `db` while a
   * transaction is open would wait for it forever). Stores outside the database return themselves.
   */
  inTransaction?(tx: Db): KvStore;
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

/**
 * The store on the `kv_store` table (no Redis). Every call is one statement, atomic on its own:
 * setIfAbsent and incr are INSERT ... ON CONFLICT DO UPDATE (the conflicting row is locked, so
 * concurrent callers serialise on it), take is DELETE ... RETURNING. An expired row counts as
 * absent everywhere; `sweep` (run by the kv.sweep job) removes such rows. Times come from `now`
 * (the app's clock) rather than the database's, so tests can move them.
 */
export function createDbKvStore(db: Db, now: () => number = Date.now): KvStore & { sweep(): Promise<number> } {
  const self = dbKvStore(db, now);
  return { ...self, inTransaction: (tx) => dbKvStore(tx, now) };
}

function dbKvStore(db: Db, now: () => number): KvStore & { sweep(): Promise<number> } {
  const at = () => new Date(now());
  const until = (ttlMs: number) => new Date(now() + Math.max(1, Math.round(ttlMs)));
  const live = (key: string) => and(eq(kvStore.key, key), gt(kvStore.expiresAt, at()));
  return {
    async get(key) {
      const [row] = await db
        .select({ value: kvStore.value })
        .from(kvStore)
        .where(live(key));
      return row?.value ?? null;
    },
    async set(key, value, ttlMs) {
      const expiresAt = until(ttlMs);
      await db.insert(kvStore).values({ key, value, expiresAt }).onConflictDoUpdate({ target: kvStore.key, set: { value, expiresAt } });
    },
    async setIfAbsent(key, value, ttlMs) {
      const expiresAt = until(ttlMs);
      // Inserted, or replaced a row that had expired: this caller set it. A live row: no row back.
      const rows = await db
        .insert(kvStore)
        .values({ key, value, expiresAt })
        .onConflictDoUpdate({ target: kvStore.key, set: { value, expiresAt }, setWhere: lte(kvStore.expiresAt, at()) })
        .returning({ key: kvStore.key });
      return rows.length > 0;
    },
    async take(key) {
      // Expired rows are left to the sweep; a live one goes to exactly one of concurrent callers.
      const [row] = await db
        .delete(kvStore)
        .where(live(key))
        .returning({ value: kvStore.value });
      return row?.value ?? null;
    },
    async del(key) {
      await db.delete(kvStore).where(eq(kvStore.key, key));
    },
    async incr(key, ttlMs) {
      const t = sql`${at().toISOString()}::timestamptz`;
      const expiresAt = until(ttlMs);
      // An expired counter starts again at 1 with a new window, as a missing one does.
      const [row] = await db
        .insert(kvStore)
        .values({ key, value: '1', expiresAt })
        .onConflictDoUpdate({
          target: kvStore.key,
          set: {
            value: sql`case when ${kvStore.expiresAt} <= ${t} then '1' else (${kvStore.value}::bigint + 1)::text end`,
            expiresAt: sql`case when ${kvStore.expiresAt} <= ${t} then excluded.expires_at else ${kvStore.expiresAt} end`,
          },
        })
        .returning({ value: kvStore.value });
      return Number(row!.value);
    },
    async ttl(key) {
      const [row] = await db
        .select({ expiresAt: kvStore.expiresAt })
        .from(kvStore)
        .where(live(key));
      return row ? row.expiresAt.getTime() - now() : -1;
    },
    async sweep() {
      const rows = await db.delete(kvStore).where(lte(kvStore.expiresAt, at())).returning({ key: kvStore.key });
      return rows.length;
    },
  };
}
