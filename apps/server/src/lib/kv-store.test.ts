import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { loadTestConfig } from '../config/test-config.js';
import { createTestDatabase } from '../../test/helpers.js';
import type { Database } from '../db/client.js';
import { createDbKvStore, createMemoryKvStore, createRedisKvStore, type KvStore } from './kv-store.js';

let clock = 1_000_000;
const dropDatabase: Array<() => Promise<void>> = [];
/** name, maker, and whether the store follows `clock` (the fake clock) */
const stores: Array<[string, () => Promise<KvStore>, boolean]> = [
  ['memory', async () => createMemoryKvStore(() => clock), true],
  [
    // The run's database: PGlite, or PostgreSQL when DATABASE_URL is set.
    process.env.DATABASE_URL?.startsWith('postgres') ? 'database (PostgreSQL)' : 'database (PGlite)',
    async () => {
      const { database, drop } = await createTestDatabase(loadTestConfig(), { migrated: true });
      dropDatabase.push(drop);
      return createDbKvStore(database.db, () => clock);
    },
    true,
  ],
];
let redis: Redis | null = null;
if (process.env.REDIS_URL) {
  redis = new Redis(process.env.REDIS_URL);
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  stores.push(['redis', async () => createRedisKvStore(redis!, prefix), false]);
}

/** One more database for the checks below (their clocks differ from the contract's). */
let extra: Promise<Database> | null = null;
const extraDatabase = () =>
  (extra ??= createTestDatabase(loadTestConfig(), { migrated: true }).then(({ database, drop }) => {
    dropDatabase.push(drop);
    return database;
  }));

afterAll(async () => {
  redis?.disconnect();
  for (const drop of dropDatabase) await drop();
});

describe.each(stores)('%s kv store', (_name, make, fakeClock) => {
  let kv: KvStore;
  beforeAll(async () => {
    kv = await make();
  });

  it('sets, gets and deletes', async () => {
    await kv.set('a', '1', 10_000);
    expect(await kv.get('a')).toBe('1');
    await kv.set('a', '2', 10_000);
    expect(await kv.get('a')).toBe('2');
    await kv.del('a');
    expect(await kv.get('a')).toBeNull();
    expect(await kv.take('a')).toBeNull();
    expect(await kv.ttl('a')).toBeLessThan(0);
  });

  it('take consumes the value once', async () => {
    await kv.set('once', 'v', 10_000);
    const [first, second] = await Promise.all([kv.take('once'), kv.take('once')]);
    expect([first, second].sort()).toEqual([null, 'v'].sort());
    expect(await kv.get('once')).toBeNull();
  });

  it('setIfAbsent only sets the first time', async () => {
    expect(await kv.setIfAbsent('lock', 'x', 10_000)).toBe(true);
    expect(await kv.setIfAbsent('lock', 'y', 10_000)).toBe(false);
    expect(await kv.get('lock')).toBe('x');
  });

  it('setIfAbsent lets exactly one of concurrent callers win', async () => {
    const wins = await Promise.all(Array.from({ length: 8 }, (_, i) => kv.setIfAbsent('race', String(i), 10_000)));
    expect(wins.filter(Boolean)).toHaveLength(1);
  });

  it('incr counts within the window that the first increment started', async () => {
    expect(await kv.incr('n', 10_000)).toBe(1);
    expect(await kv.incr('n', 10_000)).toBe(2);
    expect(await kv.ttl('n')).toBeGreaterThan(0);
    expect(await kv.ttl('n')).toBeLessThanOrEqual(10_000);
  });

  it('incr loses no increment under concurrency', async () => {
    const counts = await Promise.all(Array.from({ length: 10 }, () => kv.incr('many', 10_000)));
    expect(counts.sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it.runIf(fakeClock)('expires values after their TTL', async () => {
    await kv.set('short', 'v', 1000);
    await kv.incr('count', 1000);
    await kv.set('gone', 'v', 1000);
    clock += 999;
    expect(await kv.get('short')).toBe('v');
    expect(await kv.ttl('short')).toBe(1);
    clock += 1;
    expect(await kv.get('short')).toBeNull();
    expect(await kv.ttl('short')).toBeLessThan(0);
    expect(await kv.take('gone')).toBeNull();
    expect(await kv.incr('count', 1000)).toBe(1);
    expect(await kv.ttl('count')).toBe(1000);
    expect(await kv.setIfAbsent('short', 'w', 1000)).toBe(true);
    expect(await kv.get('short')).toBe('w');
  });
});

describe('database kv store in a transaction', () => {
  it('runs in the transaction: committed with it, rolled back with it (no wait on PGlite\'s one connection)', async () => {
    const database = await extraDatabase();
    const kv = createDbKvStore(database.db);
    await database.db.transaction(async (tx) => {
      expect(await kv.inTransaction!(tx).incr('slot', 10_000)).toBe(1);
    });
    expect(await kv.get('slot')).toBe('1');
    await expect(
      database.db.transaction(async (tx) => {
        await kv.inTransaction!(tx).incr('slot', 10_000);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await kv.get('slot')).toBe('1');
    expect(createMemoryKvStore().inTransaction).toBeUndefined();
  });
});

describe('database kv store sweep', () => {
  it('removes expired rows only', async () => {
    const database = await extraDatabase();
    // Long ago: rows written by the real clock above are all still live for it.
    let now = 5_000_000;
    const kv = createDbKvStore(database.db, () => now);
    await kv.set('old', 'v', 1000);
    await kv.set('young', 'v', 5000);
    now += 2000;
    expect(await kv.sweep()).toBe(1);
    expect(await kv.sweep()).toBe(0);
    expect(await kv.get('young')).toBe('v');
  });
});
