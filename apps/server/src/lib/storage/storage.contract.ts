import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Storage } from './storage.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const meta = (b: Buffer) => ({ size: b.length, sha256: sha(b), contentType: 'application/octet-stream' });

async function readAll(stream: Readable | null): Promise<Buffer> {
  if (!stream) throw new Error('no object');
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** SHA-256 and size of a stream, read as it comes (for bodies too large to hold in a test). */
async function digestOf(stream: Readable | null): Promise<{ sha256: string; size: number }> {
  if (!stream) throw new Error('no object');
  const hash = createHash('sha256');
  let size = 0;
  for await (const c of stream) {
    hash.update(c as Buffer);
    size += (c as Buffer).length;
  }
  return { sha256: hash.digest('hex'), size };
}

/**
 * `size` bytes made 64 KB at a time from a seed, so a large body is streamed, never held whole;
 * the same seed gives the same bytes again (for the expected hash).
 */
export function generatedStream(seed: string, size: number): Readable {
  // AES-CTR over zeros: fast, deterministic, incompressible bytes.
  const cipher = createCipheriv('aes-256-ctr', createHash('sha256').update(seed).digest(), Buffer.alloc(16));
  const zeros = Buffer.alloc(65536);
  return Readable.from(
    (function* () {
      for (let sent = 0; sent < size; sent += zeros.length) yield cipher.update(zeros.subarray(0, Math.min(zeros.length, size - sent)));
    })(),
  );
}

export async function generatedMeta(seed: string, size: number) {
  return { ...(await digestOf(generatedStream(seed, size))), contentType: 'video/mp4' };
}

/** In small pieces, so a driver that buffers the whole body still has to handle a real stream. */
const streamOf = (b: Buffer) => Readable.from(Array.from({ length: Math.ceil(b.length / 65536) }, (_, i) => b.subarray(i * 65536, (i + 1) * 65536)));

/**
 * What every storage driver promises, run against each one (disk, and S3 against a real
 * S3-compatible server on loopback), so the drivers cannot drift apart.
 */
export function storageContract(name: string, make: () => Storage) {
  describe(`storage contract: ${name}`, () => {
    const key = () => `test/${randomBytes(6).toString('hex')}/obj`;

    it('puts a stream and reads it back whole and by range', async () => {
      const storage = make();
      const body = randomBytes(300_000);
      const k = key();
      await storage.put(k, streamOf(body), meta(body));
      expect(await storage.head(k)).toEqual({ size: body.length });
      expect((await readAll(await storage.get(k))).equals(body)).toBe(true);
      expect((await readAll(await storage.get(k, { start: 10, end: 19 }))).equals(body.subarray(10, 20))).toBe(true);
      expect((await readAll(await storage.get(k, { start: body.length - 1, end: body.length - 1 })))[0]).toBe(body[body.length - 1]);
    });

    it('takes over a local file with putFile', async () => {
      const storage = make();
      const body = randomBytes(70_000);
      const path = join(mkdtempSync(join(tmpdir(), 'storage-contract-')), 'source');
      writeFileSync(path, body);
      const k = key();
      await storage.putFile(k, path, meta(body));
      expect(existsSync(path)).toBe(false);
      expect((await readAll(await storage.get(k))).equals(body)).toBe(true);
    });

    it('replaces an object put again under the same key', async () => {
      const storage = make();
      const k = key();
      const first = Buffer.from('first version');
      const second = Buffer.from('second');
      await storage.put(k, streamOf(first), meta(first));
      await storage.put(k, streamOf(second), meta(second));
      expect((await readAll(await storage.get(k))).toString()).toBe('second');
    });

    it('answers null for a missing object and deletes idempotently', async () => {
      const storage = make();
      const k = key();
      expect(await storage.get(k)).toBeNull();
      expect(await storage.head(k)).toBeNull();
      const body = Buffer.from('x');
      await storage.put(k, streamOf(body), meta(body));
      await storage.delete(k);
      await storage.delete(k);
      expect(await storage.head(k)).toBeNull();
      expect(await storage.get(k)).toBeNull();
    });

    it('refuses a body whose size or hash differs from what was declared, keeping nothing', async () => {
      const storage = make();
      const k = key();
      const body = Buffer.from('twelve bytes');
      await expect(storage.put(k, streamOf(body), { ...meta(body), size: body.length + 1 })).rejects.toThrow();
      expect(await storage.head(k)).toBeNull();
    });

    it('stores a body larger than two S3 parts from a stream (multipart on S3)', async () => {
      const storage = make();
      const k = key();
      // 8 MB parts: two whole parts and an odd-sized last one.
      const size = 2 * 8 * 1024 * 1024 + 123_457;
      const expected = await generatedMeta(k, size);
      await storage.put(k, generatedStream(k, size), expected);
      expect(await storage.head(k)).toEqual({ size });
      expect(await digestOf(await storage.get(k))).toEqual({ sha256: expected.sha256, size });
      const tail = await readAll(await storage.get(k, { start: size - 100, end: size - 1 }));
      expect(tail.length).toBe(100);
    }, 60_000);

    it('refuses keys that could leave the store', async () => {
      const storage = make();
      const body = Buffer.from('x');
      for (const bad of ['../escape', 'a/../../b', '/abs', 'A/Upper', 'dot.ted', '']) {
        await expect(storage.put(bad, streamOf(body), meta(body))).rejects.toThrow(/invalid storage key/);
      }
    });
  });
}
