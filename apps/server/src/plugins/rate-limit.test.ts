import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { MSG } from '@contest/shared';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { ok } from './envelope.js';
import { registerRateLimit } from './rate-limit.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_PER_MINUTE: '3' });
  t.app.get('/api/_probe/ping', async () => ok('pong'));
});

afterAll(async () => {
  await t.close();
});

describe('global rate limit', () => {
  it('answers 429 in the envelope once an IP passes the ceiling', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await t.app.inject({ method: 'GET', url: '/api/_probe/ping', remoteAddress: '10.1.1.1' })).statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    const limited = await t.app.inject({ method: 'GET', url: '/api/_probe/ping', remoteAddress: '10.1.1.1' });
    expect(limited.json()).toEqual({ status: 429, code: 'RATE_LIMITED', message: MSG.tooManyRequests, data: null });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // With REDIS_URL the counters live in Redis, shared by every instance.
    if (t.app.deps.redis) {
      const keys = await t.app.deps.redis.keys(`${t.config.redisPrefix}rl:*`);
      expect(keys.length).toBeGreaterThan(0);
    }
  });

  it('counts each IP separately and never limits the health check', async () => {
    const other = await t.app.inject({ method: 'GET', url: '/api/_probe/ping', remoteAddress: '10.1.1.2' });
    expect(other.statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      const health = await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.1.1.1' });
      expect(health.statusCode).toBe(200);
    }
  });
});

/** Redis as far as the rate limit uses it: the lease command (INCRBY, PEXPIRE, PTTL), in memory, counting calls. */
function fakeRedis(opts: { failing?: boolean } = {}) {
  const keys = new Map<string, { value: number; expiresAt: number }>();
  const fake = {
    calls: 0,
    keys,
    defineCommand(name: string) {
      (fake as Record<string, unknown>)[name] = (key: string, windowMs: number, count: number, cb: (e: Error | null, r?: [number, number]) => void) => {
        fake.calls++;
        setImmediate(() => {
          if (opts.failing) return cb(new Error('connection lost'));
          const now = Date.now();
          let entry = keys.get(key);
          if (!entry || entry.expiresAt <= now) keys.set(key, (entry = { value: 0, expiresAt: Infinity }));
          entry.value += count;
          if (entry.value === count) entry.expiresAt = now + windowMs;
          cb(null, [entry.value, entry.expiresAt - now]);
        });
      };
    },
  };
  return fake;
}

async function limitedApp(redis: ReturnType<typeof fakeRedis>, perMinute: number) {
  const app = Fastify({ logger: false });
  await registerRateLimit(app, { perMinute, redis: redis as unknown as Redis, prefix: 't:' });
  app.get('/api/ping', async () => ok('pong'));
  app.post('/api/login', { config: { rateLimit: { max: 3, timeWindow: 60_000 } } }, async () => ok('in'));
  await app.ready();
  return app;
}

const ping = (app: FastifyInstance, ip = '10.9.9.9') => app.inject({ method: 'GET', url: '/api/ping', remoteAddress: ip });

describe('global rate limit with Redis (counts reserved in blocks)', () => {
  it('admits exactly the limit on one instance, in order, with far fewer Redis calls than requests', async () => {
    const redis = fakeRedis();
    const app = await limitedApp(redis, 300);
    const answers = await Promise.all(Array.from({ length: 320 }, () => ping(app)));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(300);
    expect(answers.filter((a) => a.statusCode === 429)).toHaveLength(20);
    // Every admitted request took its own position in the window: remaining counts down without gaps.
    const remaining = answers.filter((a) => a.statusCode === 200).map((a) => Number(a.headers['x-ratelimit-remaining']));
    expect([...remaining].sort((a, b) => b - a)).toEqual(Array.from({ length: 300 }, (_, i) => 299 - i));
    expect(redis.calls).toBeLessThan(100);
    expect(redis.keys.get('t:rl:10.9.9.9')?.value).toBeGreaterThanOrEqual(320);
    await app.close();
  });

  it('never admits more than the limit over several instances sharing Redis', async () => {
    const redis = fakeRedis();
    const apps = await Promise.all([limitedApp(redis, 200), limitedApp(redis, 200), limitedApp(redis, 200)]);
    const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => ping(apps[i % 3]!)));
    const admitted = answers.filter((a) => a.statusCode === 200).length;
    expect(admitted).toBeLessThanOrEqual(200);
    // Counts one instance reserved and did not use are lost to the others: a few, not many.
    expect(admitted).toBeGreaterThan(170);
    await Promise.all(apps.map((a) => a.close()));
  });

  it("counts each request of a route's own limit in Redis, and fails open when Redis fails", async () => {
    const redis = fakeRedis();
    const app = await limitedApp(redis, 1000);
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ method: 'POST', url: '/api/login', remoteAddress: '10.9.9.8' })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(redis.keys.get('t:rl:POST/api/login-10.9.9.8')?.value).toBe(4);
    await app.close();

    const down = await limitedApp(fakeRedis({ failing: true }), 1);
    expect((await Promise.all([ping(down), ping(down), ping(down)])).map((a) => a.statusCode)).toEqual([200, 200, 200]);
    await down.close();
  });
});
