import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashFile, partSha256 } from './file-hash';

const bytes = Uint8Array.from({ length: 11 }, (_, i) => (i * 37 + 5) % 256);
const hex = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');
const b64 = (b: Uint8Array) => createHash('sha256').update(b).digest('base64');

describe('file hashes of a direct upload', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('hashes the whole file part by part, and each part', async () => {
    const hashes = await hashFile(new Blob([bytes]), 4, new AbortController().signal);
    expect(hashes).toEqual({ sha256: hex(bytes), parts: [b64(bytes.slice(0, 4)), b64(bytes.slice(4, 8)), b64(bytes.slice(8))] });
    expect(await partSha256(new Blob([bytes.slice(4, 8)]))).toBe(b64(bytes.slice(4, 8)));
    // An empty file is one empty part.
    expect(await hashFile(new Blob([]), 4, new AbortController().signal)).toEqual({ sha256: hex(new Uint8Array()), parts: [b64(new Uint8Array())] });
  });

  it('hashes without WebCrypto (a page over plain http has no crypto.subtle)', async () => {
    vi.stubGlobal('crypto', { getRandomValues: crypto.getRandomValues.bind(crypto) });
    const hashes = await hashFile(new Blob([bytes]), 4, new AbortController().signal);
    expect(hashes.sha256).toBe(hex(bytes));
    expect(hashes.parts[2]).toBe(b64(bytes.slice(8)));
  });

  it('stops when the upload is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(hashFile(new Blob([bytes]), 4, controller.signal, () => new Error('gone'))).rejects.toThrow('gone');
  });
});
