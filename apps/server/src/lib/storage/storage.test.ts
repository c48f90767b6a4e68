import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver, { type S3rverEvent } from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskStorage } from './disk-storage.js';
import { createS3Storage, S3_PART_SIZE } from './s3-storage.js';
import type { Storage } from './storage.js';
import { generatedMeta, generatedStream, storageContract } from './storage.contract.js';

storageContract('disk', () => createDiskStorage(mkdtempSync(join(tmpdir(), 'storage-disk-'))));

let s3rver: S3rver;
let s3: Storage;
let port = 0;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
/** What s3rver reports storing: `ObjectCreated:Put` for a single PUT, `ObjectCreated:Post` for a completed multipart upload. */
const created: Array<{ name: string; key: string }> = [];

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const s3Config = () => ({
  endpoint: `http://127.0.0.1:${port}`,
  bucket: 'contest-test',
  region: 'us-east-1',
  forcePathStyle: true,
  keyPrefix: 'files/',
  ...credentials,
});

beforeAll(async () => {
  // s3rver stores and serves like S3 (multipart uploads, response-* overrides, presigned-link
  // expiry) but does not check V4 signatures: those are the SDK's, tested by AWS.
  s3rver = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: mkdtempSync(join(tmpdir(), 'storage-s3rver-')),
    silent: true,
    configureBuckets: [{ name: 'contest-test' }],
  });
  s3rver.on('event', (event: S3rverEvent) => {
    for (const record of event.Records) created.push({ name: record.eventName, key: record.s3.object.key });
  });
  ({ port } = await s3rver.run());
  s3 = createS3Storage(s3Config());
});

afterAll(async () => {
  await s3rver?.close();
});

storageContract('s3 (s3rver on loopback)', () => s3);

describe('s3 driver', () => {
  it('fails loudly on an unknown access key instead of reporting a missing object', async () => {
    const body = Buffer.from('secret');
    await s3.put('test/creds', Readable.from([body]), { size: body.length, sha256: sha(body), contentType: 'text/plain' });
    const wrong = createS3Storage({ ...s3Config(), accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' });
    await expect(wrong.get('test/creds')).rejects.toThrow(/S3 GET failed: 403 InvalidAccessKeyId/);
  });

  it('sends a large body as a multipart upload and a small one as a single PUT', async () => {
    const size = S3_PART_SIZE * 2 + 1;
    await s3.put('test/multipart/big', generatedStream('big', size), await generatedMeta('big', size));
    const small = Buffer.from('small file');
    await s3.put('test/multipart/small', Readable.from([small]), { size: small.length, sha256: sha(small), contentType: 'text/plain' });
    expect(created).toContainEqual({ name: 'ObjectCreated:Post', key: 'files/test/multipart/big' });
    expect(created).toContainEqual({ name: 'ObjectCreated:Put', key: 'files/test/multipart/small' });
  }, 60_000);

  it('refuses a body whose SHA-256 differs from the declared one, small or multipart, keeping nothing', async () => {
    const small = Buffer.from('twelve bytes');
    await expect(
      s3.put('test/badhash/small', Readable.from([small]), { size: small.length, sha256: sha(Buffer.from('other bytes!')), contentType: 'text/plain' }),
    ).rejects.toThrow(/SHA-256/);
    expect(await s3.head('test/badhash/small')).toBeNull();

    const size = S3_PART_SIZE * 2 + 5;
    const declared = await generatedMeta('declared', size);
    await expect(s3.put('test/badhash/big', generatedStream('sent', size), declared)).rejects.toThrow(/SHA-256/);
    expect(await s3.head('test/badhash/big')).toBeNull();
    expect(created.some((c) => c.key.startsWith('files/test/badhash/'))).toBe(false);
  }, 60_000);

  it('presigns a GET that a plain fetch follows, with the file name, type and ranges', async () => {
    const body = Buffer.from('%PDF-1.7 presigned body');
    await s3.put('test/presign/doc', Readable.from([body]), { size: body.length, sha256: sha(body), contentType: 'application/octet-stream' });
    const url = await s3.presignGet!('test/presign/doc', { filename: '项目 计划书.pdf', contentType: 'application/pdf', disposition: 'attachment', expiresInSeconds: 60 });
    expect(url).toMatch(/X-Amz-Signature=/);
    expect(url).toMatch(/X-Amz-Expires=60(&|$)/);

    const whole = await fetch(url!);
    expect(whole.status).toBe(200);
    expect(Buffer.from(await whole.arrayBuffer()).equals(body)).toBe(true);
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    expect(whole.headers.get('content-disposition')).toBe(
      `attachment; filename="__ ___.pdf"; filename*=UTF-8''%E9%A1%B9%E7%9B%AE%20%E8%AE%A1%E5%88%92%E4%B9%A6.pdf`,
    );

    const part = await fetch(url!, { headers: { range: 'bytes=1-3' } });
    expect(part.status).toBe(206);
    expect(await part.text()).toBe('PDF');
  });

  it('presigns for the configured lifetime by default', async () => {
    const short = createS3Storage({ ...s3Config(), presignExpiresSeconds: 45 });
    expect(await short.presignGet!('test/presign/doc')).toMatch(/X-Amz-Expires=45(&|$)/);
    expect(await s3.presignGet!('test/presign/doc')).toMatch(/X-Amz-Expires=300(&|$)/);
    await expect(s3.presignGet!('../escape')).rejects.toThrow(/invalid storage key/);
  });

  it('signs links for the public endpoint when the portal reaches the store on an internal one', async () => {
    const behindProxy = createS3Storage({ ...s3Config(), publicEndpoint: 'https://files.example.org/s3' });
    const url = new URL((await behindProxy.presignGet!('test/presign/doc'))!);
    expect(`${url.origin}${url.pathname}`).toBe('https://files.example.org/s3/contest-test/files/test/presign/doc');
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('host');
  });

  it('answers a presigned link to a missing object with 404 from the store', async () => {
    const res = await fetch((await s3.presignGet!('test/presign/none'))!);
    expect(res.status).toBe(404);
  });
});

describe('disk driver', () => {
  it('has no presigned links: downloads stream through the server', async () => {
    const disk = createDiskStorage(mkdtempSync(join(tmpdir(), 'storage-disk-')));
    const body = Buffer.from('x');
    await disk.put('test/one', Readable.from([body]), { size: 1, sha256: sha(body), contentType: 'text/plain' });
    expect(await disk.presignGet!('test/one', { filename: 'a.txt' })).toBeNull();
  });
});
