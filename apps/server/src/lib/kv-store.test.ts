import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { createMemoryKvStore, createRedisKvStore, type KvStore } from './kv-store.js';

let clock = 1_000_000;
const stores: Array<[string, () => KvStore, boolean]> = [['memory', () => createMemoryKvStore(() => clock), true]];
let redis: Redis | null = null;
if (process.env.REDIS_URL) {
  redis = new Redis(process.env.REDIS_URL);
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  stores.push(['redis', () => createRedisKvStore(redis!, prefix), false]);
}

afterAll(() => {
  redis?.disconnect();
});

describe.each(stores)('%s kv store', (_name, make, fakeClock) => {
  const kv = make();

  it('sets, gets and deletes', async () => {
    await kv.set('a', '1', 10_000);
    expect(await kv.get('a')).toBe('1');
    await kv.del('a');
    expect(await kv.get('a')).toBeNull();
  });

  it('take consumes the value once', async () => {
    await kv.set('once', 'v', 10_000);
    const [first, second] = await Promise.all([kv.take('once'), kv.take('once')]);
    expect([first, second].sort()).toEqual([null, 'v'].sort());
  });

  it('setIfAbsent only sets the first time', async () => {
    expect(await kv.setIfAbsent('lock', 'x', 10_000)).toBe(true);
    expect(await kv.setIfAbsent('lock', 'y', 10_000)).toBe(false);
    expect(await kv.get('lock')).toBe('x');
  });

  it('incr counts within the window that the first increment started', async () => {
    expect(await kv.incr('n', 10_000)).toBe(1);
    expect(await kv.incr('n', 10_000)).toBe(2);
    expect(await kv.ttl('n')).toBeGreaterThan(0);
    expect(await kv.ttl('n')).toBeLessThanOrEqual(10_000);
  });

  it.runIf(fakeClock)('expires values after their TTL', async () => {
    await kv.set('short', 'v', 1000);
    await kv.incr('count', 1000);
    clock += 999;
    expect(await kv.get('short')).toBe('v');
    clock += 1;
    expect(await kv.get('short')).toBeNull();
    expect(await kv.incr('count', 1000)).toBe(1);
  });
});
