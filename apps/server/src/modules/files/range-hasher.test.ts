import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThreadHasher } from './range-hasher.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('range hasher (SHA-256 of file ranges on a worker thread)', () => {
  let dir: string;
  let path: string;
  const content = randomBytes(3 * 1024 * 1024 + 123);
  const hasher = createThreadHasher();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'range-hasher-'));
    path = join(dir, 'data');
    await writeFile(path, content);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('continues a hash range by range and digests the whole', async () => {
    const first = await hasher.feed('a', path, 0, 1_000_000);
    expect(first.fed).toBe(1_000_000);
    expect(first.file).toMatch(/^\d+:\d+$/);
    // Asked for more than is left: fed to the end of the file.
    const rest = await hasher.feed('a', path, 1_000_000, content.length);
    expect(rest).toEqual({ fed: content.length - 1_000_000, file: first.file });
    expect(await hasher.digest('a')).toBe(sha(content));
  });

  it('keeps hashes apart by key', async () => {
    await hasher.feed('x', path, 0, 10);
    await hasher.feed('y', path, 0, 20);
    await hasher.feed('x', path, 10, 10);
    expect(await hasher.digest('x')).toBe(sha(content.subarray(0, 20)));
    expect(await hasher.digest('y')).toBe(sha(content.subarray(0, 20)));
  });

  it('refuses a range that does not continue the hash, and a hash it does not hold', async () => {
    await hasher.feed('gap', path, 0, 100);
    await expect(hasher.feed('gap', path, 200, 100)).rejects.toThrow(/stands at 100, not 200/);
    // A key it never saw starts at 0 only: a caller that lost its hash cannot resume it silently.
    await expect(hasher.feed('unknown', path, 100, 100)).rejects.toThrow(/stands at 0, not 100/);
    await expect(hasher.digest('never')).rejects.toThrow(/no hash never/);
  });

  it('forgets a dropped hash, and one whose file could not be read', async () => {
    await hasher.feed('d', path, 0, 100);
    hasher.drop('d');
    await expect(hasher.feed('d', path, 100, 100)).rejects.toThrow(/stands at 0/);
    await hasher.feed('m', path, 0, 100);
    await expect(hasher.feed('m', join(dir, 'missing'), 100, 100)).rejects.toThrow(/ENOENT/);
    await expect(hasher.digest('m')).rejects.toThrow(/no hash m/);
  });

  it('runs off the calling thread: the event loop keeps turning while a large range is hashed', async () => {
    const big = join(dir, 'big');
    await writeFile(big, Buffer.alloc(64 * 1024 * 1024, 7));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    await hasher.feed('big', big, 0, 64 * 1024 * 1024);
    const ms = performance.now() - started;
    clearInterval(timer);
    await hasher.digest('big');
    // Hashed on this thread the 64 MB would hold the loop for the whole time (no tick at all).
    expect(ticks).toBeGreaterThan(Math.min(5, ms / 10));
  });
});
