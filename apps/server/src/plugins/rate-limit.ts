import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit, { type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { MSG } from '@contest/shared';
import { tooManyRequests } from '../lib/errors.js';

/** A session token as the server issues them (32 random bytes, base64url). */
const TOKEN_SHAPE = /^(?:Bearer\s+)?([A-Za-z0-9_-]{43})$/i;

/**
 * Who a request counts against. A route's own limit (login, SMS, captcha, exports...) counts per
 * address as it always did: a made-up token must not buy a fresh login count. The global API
 * limit counts a call by its session when it carries one (`s:` and a hash of the token, never
 * the token), else by its address (the key as before; an address never starts with `s:`).
 */
export function rateLimitKey(request: FastifyRequest): string {
  if ((request.routeOptions.config as { rateLimit?: unknown } | undefined)?.rateLimit) return request.ip;
  const header = request.headers.authorization;
  const token = typeof header === 'string' ? TOKEN_SHAPE.exec(header.trim())?.[1] : undefined;
  return token ? `s:${createHash('sha256').update(token).digest('base64url').slice(0, 22)}` : request.ip;
}

/** Only API calls count: the page shell, /assets/* and the other SPA files never do. */
function isCounted(url: string): boolean {
  return (url === '/api' || url.startsWith('/api/') || url.startsWith('/api?')) && !url.startsWith('/api/health');
}

/**
 * The global API limit (docs/security.md, "Limits behind one address"). Hundreds of participants
 * of a hospital or university share one address, so signed-in calls count per session (one live
 * session per account, so per account), `perAccountPerMinute` each, and only anonymous calls
 * count per address, against the generous `perMinute`. Static files and the page shell never
 * count: a blank page after ten page loads a minute from one address was the failure. Sensitive
 * routes add their own tighter limits, per address. With Redis the counters are shared by every instance.
 */
export async function registerRateLimit(
  app: FastifyInstance,
  opts: { perMinute: number; perAccountPerMinute?: number; redis: Redis | null; prefix: string },
): Promise<void> {
  const perAccount = opts.perAccountPerMinute ?? opts.perMinute;
  await app.register(rateLimit, {
    global: true,
    keyGenerator: rateLimitKey,
    // The route's own limit replaces this one where it has one.
    max: (_request, key) => (key.startsWith('s:') ? perAccount : opts.perMinute),
    timeWindow: 60_000,
    ...(opts.redis ? { store: leasedRedisStore(opts.redis, `${opts.prefix}rl:`) } : {}),
    // A Redis outage must not take the portal down: fail open and log.
    skipOnError: true,
    allowList: (request) => !isCounted(request.url),
    errorResponseBuilder: () => tooManyRequests(MSG.tooManyRequests),
  });
}

/** Counts reserved from Redis at once by the global limit: at most this many... */
export const LEASE_MAX = 50;
/** ...and at most this share of what the window has left, so a lease shrinks to 1 near the limit. */
const LEASE_SHARE = 10;
/** Leases kept in memory before expired ones are swept. */
const LEASES_SWEEP_AT = 10_000;

// INCRBY n (the window starts with the first count, as in @fastify/rate-limit's own Redis store):
// the new total and the milliseconds the window has left.
const LEASE_LUA = `
local current = redis.call('INCRBY', KEYS[1], ARGV[2])
if current == tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  return {current, tonumber(ARGV[1])}
end
return {current, redis.call('PTTL', KEYS[1])}`;

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** What the store needs of ioredis: the command defined from LEASE_LUA. */
export interface LeaseRedis {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
}
interface LeaseCommand {
  rateLimitLease(key: string, timeWindow: number, count: number, callback: (error: Error | null, result?: [number, number]) => void): void;
}

interface Lease {
  /** The position in the window's count the next request takes... */
  next: number;
  /** ...up to this one (the total Redis answered). */
  last: number;
  expiresAt: number;
}

/**
 * The counters in Redis, shared by every instance, without a Redis round trip on every request.
 * Route limits (login, SMS, exports...) count each request in Redis as @fastify/rate-limit's own
 * store does. The global per-IP ceiling instead reserves counts in blocks: INCRBY n hands this
 * instance the positions total-n+1..total of the window, which it gives to its next n requests
 * in order. Redis always holds at least what every instance let through, so all of them together
 * never admit more than the limit; one instance admits exactly what it did before (its requests
 * take positions 1, 2, 3... as they arrive). A block is at most LEASE_MAX and a tenth of what the
 * window has left, so near the limit each request asks Redis again; the only cost is that counts
 * reserved by one instance but not used by the end of the window are lost to the others (at most
 * a tenth of what was left each), an earlier 429 rather than a later one.
 */
export function leasedRedisStore(redis: LeaseRedis, prefix: string): FastifyRateLimitStoreCtor {
  redis.defineCommand('rateLimitLease', { numberOfKeys: 1, lua: LEASE_LUA });
  const command = redis as unknown as LeaseCommand;

  class LeasedStore implements FastifyRateLimitStore {
    private readonly leases = new Map<string, Lease>();
    /** Requests waiting while a lease for their key is asked for. */
    private readonly waiting = new Map<string, Array<(error: Error | null) => void>>();

    constructor(
      private readonly keyPrefix: string,
      private readonly leased: boolean,
    ) {}

    incr(key: string, callback: Callback, timeWindow: number, max: number): void {
      const now = Date.now();
      const lease = this.leases.get(key);
      if (lease && lease.next <= lease.last && now < lease.expiresAt) {
        callback(null, { current: lease.next++, ttl: lease.expiresAt - now });
        return;
      }
      const queue = this.waiting.get(key);
      if (queue) {
        queue.push((error) => (error ? callback(error) : this.incr(key, callback, timeWindow, max)));
        return;
      }
      const live = lease && now < lease.expiresAt;
      const count = this.leased && live ? Math.min(LEASE_MAX, Math.max(1, Math.floor((max - lease.last) / LEASE_SHARE))) : 1;
      if (this.leased) this.waiting.set(key, []);
      command.rateLimitLease(this.keyPrefix + key, timeWindow, count, (error, result) => {
        const queued = this.waiting.get(key) ?? [];
        this.waiting.delete(key);
        if (error || !result) {
          callback(error ?? new Error('no answer from Redis'));
          for (const next of queued) next(error ?? new Error('no answer from Redis'));
          return;
        }
        const [last, ttl] = result;
        const got: Lease = { next: last - count + 1, last, expiresAt: Date.now() + ttl };
        callback(null, { current: got.next++, ttl });
        if (this.leased) {
          if (this.leases.size >= LEASES_SWEEP_AT) this.sweep();
          this.leases.set(key, got);
        }
        for (const next of queued) next(null);
      });
    }

    private sweep(): void {
      const now = Date.now();
      for (const [key, lease] of this.leases) if (lease.expiresAt <= now) this.leases.delete(key);
    }

    /** A route's own limit: its own keys (as @fastify/rate-limit names them), every request counted in Redis. */
    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
      // The plugin passes the route's merged limit options, the route under `routeInfo` (not what its types say).
      const route = (routeOptions as unknown as { routeInfo?: { method?: string; url?: string } }).routeInfo ?? {};
      return new LeasedStore(`${this.keyPrefix}${route.method}${route.url}-`, false);
    }
  }

  return class GlobalStore extends LeasedStore {
    constructor() {
      super(prefix, true);
    }
  } as unknown as FastifyRateLimitStoreCtor;
}
