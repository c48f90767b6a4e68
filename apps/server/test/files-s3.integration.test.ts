import { createHash } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_PIECE_SIZE } from '@contest/shared';
import { createTestApp, type TestApp } from './helpers.js';
import { fakeFile, filesUnder, multipart, newUploadId, piecesOf } from './files-helpers.js';
import { signIn } from './sign-in.js';

let s3rver: S3rver;
let s3Dir: string;
let t: TestApp;

beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), 'files-s3rver-'));
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3Dir, silent: true, configureBuckets: [{ name: 'contest-files' }] });
  const { port } = await s3rver.run();
  // The whole app, every module on, storing in an S3-compatible server on loopback.
  t = await createTestApp({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${port}`,
    S3_BUCKET: 'contest-files',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_KEY_PREFIX: 'portal/',
    FILE_LINK_SECRET: 'a-test-secret-of-at-least-32-characters',
  });
});

afterAll(async () => {
  await t?.close();
  await s3rver?.close();
});

describe('files on S3 in the full app', () => {
  it('uploads in pieces, stores in the bucket (not on disk) and serves ranges and signed links', async () => {
    const participant = await signIn(t, { realm: 'USER' });
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 4321);
    const id = newUploadId();
    const answers = await Promise.all(
      piecesOf(content).map((piece, chunk) => {
        const body = multipart({ origin: 'PRELIM', id, name: '项目计划书.pdf', chunks: 2, chunk }, { name: 'x', content: piece });
        return t.app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...participant.headers } });
      }),
    );
    const file = answers.map((a) => a.json().data).find((d) => d.complete);
    expect(file).toMatchObject({ name: '项目计划书.pdf', size: content.length });
    expect(filesUnder(join(t.config.dataDir, 'files'))).toEqual([]);
    expect(filesUnder(join(s3Dir, 'contest-files')).some((p) => p.includes('portal'))).toBe(true);

    const whole = await t.app.inject({ method: 'GET', url: file.filePath, headers: participant.headers });
    expect(whole.statusCode).toBe(200);
    expect(createHash('sha256').update(whole.rawPayload).digest('hex')).toBe(createHash('sha256').update(content).digest('hex'));
    const part = await t.app.inject({ method: 'GET', url: file.filePath, headers: { ...participant.headers, range: `bytes=${UPLOAD_PIECE_SIZE - 2}-${UPLOAD_PIECE_SIZE + 1}` } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(content.subarray(UPLOAD_PIECE_SIZE - 2, UPLOAD_PIECE_SIZE + 2))).toBe(true);

    const link = (await t.app.inject({ method: 'GET', url: `/api/attachment/accessUrl?filePath=${encodeURIComponent(file.filePath)}`, headers: participant.headers })).json().data;
    const viaLink = await t.app.inject({ method: 'GET', url: `${link.url}&preview=1` });
    expect(viaLink.statusCode).toBe(200);
    expect(viaLink.headers['content-disposition']).toMatch(/^inline;/);
  });
});
