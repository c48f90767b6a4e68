import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { zipStream } from './zip-stream.js';

const body = (text: string) => async () => Readable.from([Buffer.from(text)]);

describe('zipStream', () => {
  it('writes each entry as given, stored or deflated, opening each only when its turn comes', async () => {
    const opened: string[] = [];
    const entry = (name: string, text: string, compress?: boolean) => ({
      name,
      size: Buffer.byteLength(text),
      compress,
      open: async () => {
        opened.push(name);
        return Readable.from([Buffer.from(text)]);
      },
    });
    const big = 'x'.repeat(2 * 1024 * 1024);
    const stream = zipStream([entry('证书/一等奖.pdf', `%PDF-1.7 一${big}`), entry('big.bin', big), entry('my-data.json', '{"a":1}', true)], new Date('2026-11-29T08:00:00Z'));
    // Nobody reads yet: backpressure stops the archive before the last entry is opened.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(opened).not.toContain('my-data.json');
    const archive = await JSZip.loadAsync(await buffer(stream));
    expect(await archive.file('证书/一等奖.pdf')!.async('string')).toBe(`%PDF-1.7 一${big}`);
    expect(await archive.file('my-data.json')!.async('string')).toBe('{"a":1}');
    expect(opened).toEqual(['证书/一等奖.pdf', 'big.bin', 'my-data.json']);
  });

  it('fails the archive, never truncates it silently, when an entry cannot be read or is shorter than declared', async () => {
    const missing = zipStream([{ name: 'a.pdf', open: () => Promise.reject(new Error('stored PDF missing')) }], new Date());
    await expect(buffer(missing)).rejects.toThrow('stored PDF missing');
    const short = zipStream([{ name: 'b.pdf', size: 100, open: body('only a few bytes') }], new Date());
    await expect(buffer(short)).rejects.toThrow();
  });
});
