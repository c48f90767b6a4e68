import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from './errors.js';
import { createPasswordPool, type PasswordPool } from './password.js';

const pools: PasswordPool[] = [];
const poolOf = (threads: number, maxWaiting: number) => {
  const pool = createPasswordPool({ threads, maxWaiting });
  pools.push(pool);
  return pool;
};
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.close()));
});


describe('password pool (docs/performance.md, "Sign-in bursts")', { timeout: 60_000 }, () => {
  it('hashes and verifies on its threads', async () => {
    const pool = poolOf(1, 4);
    const stored = await pool.hash('Secret@2025');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await pool.verify(stored, 'Secret@2025')).toBe(true);
    expect(await pool.verify(stored, 'Wrong@2025')).toBe(false);
    // A malformed stored hash is a failed match, not a crash.
    expect(await pool.verify('not-a-hash', 'Secret@2025')).toBe(false);
  });

  it('runs at most `threads` at once; admits sign-ins while the line is short, refuses them with 503 BUSY beyond', async () => {
    const pool = poolOf(1, 2);
    const stored = await pool.hash('Secret@2025');
    pool.admit();
    const calls = [pool.verify(stored, 'Secret@2025')];
    pool.admit();
    calls.push(pool.verify(stored, 'Secret@2025'));
    pool.admit();
    calls.push(pool.verify(stored, 'Secret@2025'));
    // One running, two waiting: the next sign-in is refused at the door.
    expect(pool.load()).toEqual({ running: 1, waiting: 2 });
    let err: unknown;
    try {
      pool.admit();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).status).toBe(503);
    expect((err as AppError).code).toBe('SERVICE_UNAVAILABLE');
    expect((err as AppError).message).toBe('当前使用人数较多，请稍后重试');
    expect((err as AppError).data).toEqual({ reason: 'BUSY', retryAfterSeconds: 2 });
    // What was admitted is never refused, even past the line (a registration's hash after its SMS code).
    calls.push(pool.verify(stored, 'Wrong@2025'));
    expect(await Promise.all(calls)).toEqual([true, true, true, false]);
    // The line drained: the next sign-in is admitted.
    expect(() => pool.admit()).not.toThrow();
  });

  it('runs bulk work after the sign-ins waiting', async () => {
    const pool = poolOf(1, 4);
    const seen: string[] = [];
    const first = pool.hash('Bulk@2000', { bulk: true }).then(() => seen.push('bulk0'));
    const second = pool.hash('Bulk@2001', { bulk: true }).then(() => seen.push('bulk1'));
    const signIn = pool.hash('User@2025').then(() => seen.push('signIn'));
    await Promise.all([first, second, signIn]);
    expect(seen).toEqual(['bulk0', 'signIn', 'bulk1']);
  });

  it('a line of 0 admits only while a thread is free', async () => {
    const pool = poolOf(1, 0);
    expect(() => pool.admit()).not.toThrow();
    const running = pool.hash('User@2025');
    expect(() => pool.admit()).toThrow(AppError);
    await running;
    expect(() => pool.admit()).not.toThrow();
  });

  it('once closed, refuses what it held and what comes after (a replaced pool never strands a caller)', async () => {
    const pool = poolOf(1, 4);
    const stored = await pool.hash('Secret@2025');
    const running = expect(pool.verify(stored, 'Secret@2025')).rejects.toMatchObject({ data: { reason: 'BUSY' } });
    const waiting = expect(pool.verify(stored, 'Secret@2025')).rejects.toMatchObject({ data: { reason: 'BUSY' } });
    await pool.close();
    await running;
    await waiting;
    await expect(pool.verify(stored, 'Secret@2025')).rejects.toMatchObject({ data: { reason: 'BUSY' } });
  });
});
