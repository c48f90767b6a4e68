import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@contest/shared';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { ok } from './envelope.js';

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
