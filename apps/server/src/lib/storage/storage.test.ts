import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDiskStorage } from './disk-storage.js';
import { createS3Storage } from './s3-storage.js';
import { signS3Request } from './s3-signer.js';
import type { Storage } from './storage.js';
import { storageContract } from './storage.contract.js';

storageContract('disk', () => createDiskStorage(mkdtempSync(join(tmpdir(), 'storage-disk-'))));

let s3rver: S3rver;
let s3: Storage;
let port = 0;
const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

beforeAll(async () => {
  // s3rver stores and serves like S3 but does not verify V4 signatures: the signer is proven
  // against the AWS documentation's worked examples below.
  s3rver = new S3rver({
    port: 0,
    address: '127.0.0.1',
    directory: mkdtempSync(join(tmpdir(), 'storage-s3rver-')),
    silent: true,
    configureBuckets: [{ name: 'contest-test' }],
  });
  ({ port } = await s3rver.run());
  s3 = createS3Storage({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'contest-test',
    region: 'us-east-1',
    forcePathStyle: true,
    keyPrefix: 'files/',
    ...credentials,
  });
});

afterAll(async () => {
  await s3rver?.close();
});

storageContract('s3 (s3rver on loopback)', () => s3);

describe('s3 driver', () => {
  it('fails loudly on an unknown access key instead of reporting a missing object', async () => {
    const body = Buffer.from('secret');
    await s3.put('test/creds', Readable.from([body]), { size: body.length, sha256: createHash('sha256').update(body).digest('hex'), contentType: 'text/plain' });
    const wrong = createS3Storage({ endpoint: `http://127.0.0.1:${port}`, bucket: 'contest-test', region: 'us-east-1', forcePathStyle: true, keyPrefix: 'files/', accessKeyId: 'NOT-A-KEY', secretAccessKey: 'wrong' });
    await expect(wrong.get('test/creds')).rejects.toThrow(/S3 GET failed: 403/);
  });

  it('signs the documented AWS example PUT with its payload hash', () => {
    const headers = signS3Request(
      { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' },
      {
        method: 'PUT',
        path: '/test%24file.text',
        headers: { host: 'examplebucket.s3.amazonaws.com', date: 'Fri, 24 May 2013 00:00:00 GMT', 'x-amz-storage-class': 'REDUCED_REDUNDANCY' },
        payloadHash: createHash('sha256').update('Welcome to Amazon S3.').digest('hex'),
        now: new Date('2013-05-24T00:00:00Z'),
      },
    );
    expect(headers.authorization).toMatch(/Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd$/);
  });

  it('signs the documented AWS example request', () => {
    // From the AWS Signature V4 S3 documentation ("GET Object" example).
    const headers = signS3Request(
      { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', region: 'us-east-1' },
      {
        method: 'GET',
        path: '/test.txt',
        headers: { host: 'examplebucket.s3.amazonaws.com', range: 'bytes=0-9' },
        payloadHash: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        now: new Date('2013-05-24T00:00:00Z'),
      },
    );
    expect(headers.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });
});
