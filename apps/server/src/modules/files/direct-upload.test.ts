import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIRECT_UPLOAD_REASONS, UPLOAD_MSG, UPLOAD_PIECE_SIZE, UPLOAD_RESTART_REASON, type DirectSignAnswer, type PieceUploadAnswer } from '@contest/shared';
import { FILES_SWEEP_JOB } from '../../app.js';
import { attachments, directUploads, jobs } from '../../db/schema.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { fakeFile, multipart, newUploadId, piecesOf } from '../../../test/files-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { startVerifyingS3, type VerifyingS3 } from '../../../test/verifying-s3.js';
import { DIRECT_OPEN_PER_ACCOUNT } from './direct-upload.service.js';

/**
 * Direct upload (docs/files.md, "Direct upload") against a store that verifies what a real one
 * does (test/verifying-s3.ts: SigV4 of the presigned part links, each part's SHA-256, ListParts).
 */
let s3: VerifyingS3;
let t: TestApp;
let disk: TestApp;
let A: SignedIn;
let B: SignedIn;

const MB = 1024 * 1024;
const hex = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const b64 = (b: Buffer) => createHash('sha256').update(b).digest('base64');

type Inject = (opts: { method: 'GET' | 'POST'; url: string; body?: unknown; who: SignedIn }) => Promise<{ status: number; json: () => any }>;

/** Calls through inject (default) or over a socket (the bytes test). */
let call: Inject = async ({ method, url, body, who }) => {
  const res = await t.app.inject({ method, url, headers: who.headers, ...(body === undefined ? {} : { payload: body as object }) });
  return { status: res.statusCode, json: () => res.json() };
};

async function start(who: SignedIn, content: Buffer, name = '计划书.pdf', origin = 'PRELIM') {
  return call({ method: 'POST', url: '/api/attachment/direct/start', body: { origin, name, size: content.length, sha256: hex(content) }, who });
}

async function startOk(who: SignedIn, content: Buffer, name?: string): Promise<string> {
  const res = await start(who, content, name);
  expect(res.status, JSON.stringify(res.json())).toBe(200);
  const answer = res.json().data as PieceUploadAnswer;
  expect(answer).toMatchObject({ complete: false, chunks: piecesOf(content).length, received: [], filePath: null });
  return answer.id;
}

function sign(who: SignedIn, id: string, parts: Array<{ chunk: number; part: Buffer }>) {
  return call({ method: 'POST', url: `/api/attachment/direct/${id}/parts`, body: { parts: parts.map((p) => ({ chunk: p.chunk, sha256: b64(p.part) })) }, who });
}

/** Signs and PUTs the given chunks of `content` straight to the store. */
async function sendParts(who: SignedIn, id: string, content: Buffer, chunks?: number[]): Promise<void> {
  const pieces = piecesOf(content);
  const wanted = chunks ?? pieces.map((_, i) => i);
  const res = await sign(who, id, wanted.map((chunk) => ({ chunk, part: pieces[chunk]! })));
  expect(res.status, JSON.stringify(res.json())).toBe(200);
  for (const link of (res.json().data as DirectSignAnswer).parts) {
    const put = await fetch(link.url, { method: 'PUT', headers: link.headers, body: pieces[link.chunk]! });
    expect(put.status, await put.text()).toBe(200);
  }
}

const complete = (who: SignedIn, id: string) => call({ method: 'POST', url: `/api/attachment/direct/${id}/complete`, who });
const status = (who: SignedIn, id: string) => call({ method: 'GET', url: `/api/attachment/direct/${id}`, who });

const attachmentCount = async (ownerId: string) =>
  (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(attachments).where(eq(attachments.ownerId, ownerId)))[0]!.n;
const rowOf = async (id: string) => (await t.database.db.select().from(directUploads).where(eq(directUploads.id, id)))[0];

/** Nothing of the upload is left in the store: no open multipart, no object. */
async function expectNothingStored(id: string) {
  const row = (await rowOf(id))!;
  expect(row.status).toBe('ABORTED');
  expect(s3.uploads.has(row.multipartId)).toBe(false);
  expect([...s3.objects.keys()].some((k) => k.endsWith(row.storageKey))).toBe(false);
}

function expectRefused(res: { status: number; json: () => any }, code: number, message: string) {
  expect(res.status, JSON.stringify(res.json())).toBe(code);
  expect(res.json()).toMatchObject({ status: code, message });
}

beforeAll(async () => {
  s3 = await startVerifyingS3();
  t = await createTestApp({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: s3.endpoint,
    S3_BUCKET: s3.bucket,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    S3_KEY_PREFIX: 'portal/',
  });
  disk = await createTestApp();
  A = await signIn(t, { realm: 'USER' });
  B = await signIn(t, { realm: 'USER' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await disk?.close();
  await s3?.close();
});

describe('direct upload to the store', () => {
  it('start, signed parts PUT to the store, complete: the same answer as the piece path, the same bytes served', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 123_456);
    const id = await startOk(A, content);
    await sendParts(A, id, content);
    const res = await complete(A, id);
    expect(res.status, JSON.stringify(res.json())).toBe(200);
    const direct = res.json().data as PieceUploadAnswer & { uniqueNo: string };

    // The same file through pieces, for the answer's shape.
    const pieceId = newUploadId();
    const pieces = piecesOf(content);
    let last: any;
    for (const [chunk, piece] of pieces.entries()) {
      const body = multipart({ origin: 'PRELIM', id: pieceId, name: '计划书.pdf', chunks: pieces.length, chunk }, { name: 'x', content: piece });
      last = (await t.app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...A.headers } })).json();
    }
    const viaPieces = last.data as PieceUploadAnswer & { uniqueNo: string };
    expect(Object.keys(direct).sort()).toEqual(Object.keys(viaPieces).sort());
    const { id: _a, uniqueNo: _b, filePath: _c, ...same } = direct;
    const { id: _d, uniqueNo: _e, filePath: _f, ...expected } = viaPieces;
    expect(same).toEqual(expected);
    expect(direct).toMatchObject({ complete: true, id, chunks: 3, received: [0, 1, 2], size: content.length, mimeType: 'application/pdf', extension: 'pdf' });

    const streamed = await t.app.inject({ method: 'GET', url: direct.filePath!, headers: A.headers });
    expect(streamed.statusCode).toBe(200);
    expect(streamed.rawPayload.equals(content)).toBe(true);
    expect(streamed.headers.etag).toBe(`"${hex(content)}"`);
  });

  it('a part whose bytes differ from its signed checksum is refused by the store; a checksum re-signed since is refused at completion', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 1000);
    const [first, second] = piecesOf(content);
    const id = await startOk(A, content);
    const signed = (await sign(A, id, [{ chunk: 0, part: first! }])).json().data as DirectSignAnswer;
    const spoilt = Buffer.from(first!);
    spoilt[100] = spoilt[100]! ^ 0xff;
    const bad = await fetch(signed.parts[0]!.url, { method: 'PUT', headers: signed.parts[0]!.headers, body: spoilt });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('BadDigest');
    // Another checksum than the signed one breaks the signature.
    const forged = await fetch(signed.parts[0]!.url, { method: 'PUT', headers: { 'x-amz-checksum-sha256': b64(spoilt) }, body: spoilt });
    expect(forged.status).toBe(403);
    expect(await forged.text()).toContain('SignatureDoesNotMatch');
    // Nothing arrived: completion says which parts are missing and keeps the upload.
    const missing = await complete(A, id);
    expectRefused(missing, 400, UPLOAD_MSG.partsMissing);
    expect(missing.json().data).toMatchObject({ reason: DIRECT_UPLOAD_REASONS.partsMissing, received: [] });
    expect((await rowOf(id))!.status).toBe('OPEN');

    await sendParts(A, id, content);
    // Chunk 1 signed again for other bytes that never came: the stored part is not the declared one.
    await sign(A, id, [{ chunk: 1, part: Buffer.alloc(second!.length, 1) }]);
    const before = await attachmentCount(A.accountId);
    expectRefused(await complete(A, id), 400, UPLOAD_MSG.partChecksum);
    expect(await attachmentCount(A.accountId)).toBe(before);
    await expectNothingStored(id);
  });

  it('refuses at the start an extension or a size the origin does not take, with the piece path messages, before any store call', async () => {
    const uploadsBefore = s3.uploads.size;
    expectRefused(await start(A, fakeFile.exe(1000), 'tool.exe'), 400, UPLOAD_MSG.unsupportedType);
    expectRefused(await start(A, fakeFile.pdf(10), 'icon.svg'), 400, UPLOAD_MSG.unsupportedType);
    const tooLarge = await call({ method: 'POST', url: '/api/attachment/direct/start', body: { origin: 'FEEDBACK', name: 'a.pdf', size: 10 * MB + 1, sha256: hex(Buffer.alloc(1)) }, who: A });
    expectRefused(tooLarge, 400, UPLOAD_MSG.tooLarge);
    expectRefused(await start(A, Buffer.alloc(0), 'empty.pdf'), 400, UPLOAD_MSG.empty);
    expectRefused(await start(A, fakeFile.pdf(10), '../x.pdf'), 400, UPLOAD_MSG.badName);
    expect(s3.uploads.size).toBe(uploadsBefore);
  });

  it('refuses content that does not match the extension once complete: aborted, nothing recorded', async () => {
    const before = await attachmentCount(A.accountId);
    const content = fakeFile.exe(UPLOAD_PIECE_SIZE + 10);
    const id = await startOk(A, content, 'looks-like.pdf');
    await sendParts(A, id, content);
    expectRefused(await complete(A, id), 400, UPLOAD_MSG.contentMismatch);
    expect(await attachmentCount(A.accountId)).toBe(before);
    await expectNothingStored(id);
    // The upload is over: the client starts again.
    const again = await complete(A, id);
    expectRefused(again, 400, UPLOAD_MSG.uploadInterrupted);
    expect(again.json().data).toMatchObject({ reason: UPLOAD_RESTART_REASON });
  });

  it('refuses a part of the wrong size put in the store by other means: aborted, nothing recorded', async () => {
    const before = await attachmentCount(A.accountId);
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 10);
    const id = await startOk(A, content);
    await sendParts(A, id, content, [0]);
    const row = (await rowOf(id))!;
    const longer = Buffer.alloc(20, 7);
    await sign(A, id, [{ chunk: 1, part: longer }]);
    // Someone holding the store's keys (not a signed link, which binds the length).
    const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } });
    await client.send(new UploadPartCommand({ Bucket: s3.bucket, Key: `portal/${row.storageKey}`, UploadId: row.multipartId, PartNumber: 2, Body: longer, ChecksumSHA256: b64(longer) }));
    client.destroy();
    expectRefused(await complete(A, id), 400, UPLOAD_MSG.badPieceSize);
    expect(await attachmentCount(A.accountId)).toBe(before);
    await expectNothingStored(id);
  });
});

describe('direct upload: who, resuming, completing twice', () => {
  it('lets nobody but the owner sign, read or complete an upload (404), and checks the origin as the piece path does (403)', async () => {
    const content = fakeFile.pdf(1000);
    const id = await startOk(A, content);
    expect((await sign(B, id, [{ chunk: 0, part: content }])).status).toBe(404);
    expect((await status(B, id)).status).toBe(404);
    expect((await complete(B, id)).status).toBe(404);
    expect((await complete(B, '00000000-0000-4000-8000-000000000000')).status).toBe(404);
    const expert = await signIn(t, { realm: 'EXPERT' });
    expectRefused(await start(expert, content), 403, UPLOAD_MSG.originNotAllowed);
    const noButton = await signIn(t, { realm: 'ADMIN', buttons: [] });
    expectRefused(await start(noButton, fakeFile.png(100), 'cover.png', 'NEWS'), 403, UPLOAD_MSG.originNotAllowed);
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] });
    expect((await start(editor, fakeFile.png(100), 'cover.png', 'NEWS')).status).toBe(200);
    expectRefused(await start(A, fakeFile.png(100), 'cover.png', 'NEWS'), 403, UPLOAD_MSG.originNotAllowed);
    // The owner still completes it.
    await sendParts(A, id, content);
    expect((await complete(A, id)).status).toBe(200);
    const anon = await t.app.inject({ method: 'POST', url: `/api/attachment/direct/${id}/complete` });
    expect(anon.statusCode).toBe(401);
  });

  it('resumes: the status lists the parts already in the store, the rest are sent and the upload completes', async () => {
    const content = fakeFile.zip(3 * UPLOAD_PIECE_SIZE + 5);
    const id = await startOk(A, content, 'code.zip');
    await sendParts(A, id, content, [0, 2]);
    const res = await status(A, id);
    expect(res.status).toBe(200);
    expect(res.json().data).toEqual({ complete: false, id, chunks: 4, received: [0, 2], filePath: null });
    await sendParts(A, id, content, [1, 3]);
    const done = await complete(A, id);
    expect(done.status).toBe(200);
    expect((await status(A, id)).json().data).toEqual(done.json().data);
  });

  it('keeps at most DIRECT_OPEN_PER_ACCOUNT uploads open per account: another start retires the oldest (UPLOAD_RESTART), in the store too', async () => {
    const who = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    const content = fakeFile.pdf(1000);
    const othersId = await startOk(other, content);
    const ids: string[] = [];
    for (let i = 0; i < DIRECT_OPEN_PER_ACCOUNT; i++) ids.push(await startOk(who, content, `材料${i}.pdf`));
    expect((await rowOf(ids[0]!))!.status).toBe('OPEN');

    const newest = await startOk(who, content, '再一个.pdf');
    const oldest = (await rowOf(ids[0]!))!;
    expect(oldest.status).toBe('ABORTED');
    expect(s3.uploads.has(oldest.multipartId)).toBe(false);
    const refused = await status(who, ids[0]!);
    expect(refused.status).toBe(400);
    expect(refused.json().data).toMatchObject({ reason: UPLOAD_RESTART_REASON });
    // The others stay open and work; another account's upload is not touched.
    for (const id of [...ids.slice(1), newest]) expect((await rowOf(id))!.status).toBe('OPEN');
    expect((await rowOf(othersId))!.status).toBe('OPEN');
    await sendParts(who, newest, content);
    expect((await complete(who, newest)).status).toBe(200);
  });

  it('completing twice, or twice at once, records the file once and answers the same file', async () => {
    const before = await attachmentCount(A.accountId);
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 77);
    const id = await startOk(A, content);
    await sendParts(A, id, content);
    const [one, two] = await Promise.all([complete(A, id), complete(A, id)]);
    expect(one.status).toBe(200);
    expect(two.status).toBe(200);
    expect(two.json().data).toEqual(one.json().data);
    const three = await complete(A, id);
    expect(three.json().data).toEqual(one.json().data);
    expect(await attachmentCount(A.accountId)).toBe(before + 1);
    const rows = await t.database.db.select().from(attachments).where(and(eq(attachments.ownerId, A.accountId), eq(attachments.uniqueNo, one.json().data.uniqueNo)));
    expect(rows).toHaveLength(1);
  });

  it('a completion waiting on a slow store holds no database connection: page calls answer meanwhile', async () => {
    // docs/performance.md, "Direct uploads": completions holding a pooled connection across the
    // store's round trips left a rush's page calls waiting for the pool.
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 5);
    const id = await startOk(A, content);
    await sendParts(A, id, content);
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    let held = false;
    s3.delay = (req) => {
      if (req.method !== 'GET' && req.url?.includes('uploadId=') && !held) {
        held = true;
        return released;
      }
      return undefined;
    };
    try {
      const completing = complete(A, id);
      await vi.waitFor(() => expect(held).toBe(true), { timeout: 10_000 });
      // On the embedded database (one connection) a held transaction blocks this call outright.
      const page = await call({ method: 'GET', url: '/api/user/account', who: B });
      expect(page.status).toBe(200);
      if (t.config.databaseUrl) {
        const open = await t.database.db.execute<{ n: number }>(
          sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and state like 'idle in transaction%'`,
        );
        expect((open as unknown as { rows: Array<{ n: number }> }).rows[0]!.n).toBe(0);
      }
      release();
      expect((await completing).status).toBe(200);
    } finally {
      s3.delay = null;
      release();
    }
  });
});

describe('direct upload: the bytes, the sweep, the disk store', () => {
  it('carries almost none of a 50 MB file through the app (request bytes read by its sockets < 1%)', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const sockets: Socket[] = [];
    const onConnection = (socket: Socket) => sockets.push(socket);
    t.app.server.on('connection', onConnection);
    const injectCall = call;
    call = async ({ method, url, body, who }) => {
      const res = await fetch(`${address}${url}`, {
        method,
        headers: { ...who.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      return { status: res.status, json: () => JSON.parse(text) };
    };
    try {
      const content = fakeFile.zip(50 * MB);
      const id = await startOk(A, content, 'big.zip');
      await sendParts(A, id, content);
      const res = await complete(A, id);
      expect(res.status).toBe(200);
      expect(res.json().data.size).toBe(content.length);
      const read = sockets.reduce((sum, s) => sum + s.bytesRead, 0);
      expect(read).toBeGreaterThan(0);
      expect(read).toBeLessThan(content.length / 100);
    } finally {
      call = injectCall;
      t.app.server.off('connection', onConnection);
    }
  });

  it('the daily sweep aborts uploads left open for a day', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 1);
    const id = await startOk(A, content);
    await sendParts(A, id, content, [0]);
    const fresh = await startOk(A, content);
    const row = (await rowOf(id))!;
    expect(s3.uploads.has(row.multipartId)).toBe(true);
    await t.database.db.update(directUploads).set({ updatedAt: new Date(Date.now() - 25 * 3600_000) }).where(eq(directUploads.id, id));
    // The scheduled job, due now.
    await vi.waitFor(async () => expect((await t.database.db.select().from(jobs).where(and(eq(jobs.kind, FILES_SWEEP_JOB), eq(jobs.status, 'QUEUED')))).length).toBe(1));
    await t.database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(and(eq(jobs.kind, FILES_SWEEP_JOB), eq(jobs.status, 'QUEUED')));
    await t.app.deps.jobs.runDue();
    await vi.waitFor(async () => expect(await rowOf(id)).toBeUndefined());
    expect(s3.uploads.has(row.multipartId)).toBe(false);
    expect((await rowOf(fresh))?.status).toBe('OPEN');
    expect(s3.uploads.has((await rowOf(fresh))!.multipartId)).toBe(true);
  });

  it('says whether direct upload is offered: yes on the S3 store, no on the disk store (asked before hashing a file)', async () => {
    const onS3 = await t.app.inject({ method: 'GET', url: '/api/attachment/direct', headers: A.headers });
    expect(onS3.json()).toMatchObject({ status: 200, data: { offered: true } });
    const who = await signIn(disk, { realm: 'USER' });
    const onDisk = await disk.app.inject({ method: 'GET', url: '/api/attachment/direct', headers: who.headers });
    expect(onDisk.json()).toMatchObject({ status: 200, data: { offered: false } });
    expect((await disk.app.inject({ method: 'GET', url: '/api/attachment/direct' })).statusCode).toBe(401);
  });

  it('on the disk store the direct calls refuse with a reason the client falls back on; pieces still work', async () => {
    const who = await signIn(disk, { realm: 'USER' });
    const content = fakeFile.pdf(1000);
    const res = await disk.app.inject({ method: 'POST', url: '/api/attachment/direct/start', headers: who.headers, payload: { origin: 'PRELIM', name: 'a.pdf', size: 1000, sha256: hex(content) } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: UPLOAD_MSG.directUnavailable, data: { reason: DIRECT_UPLOAD_REASONS.unavailable } });
    const other = await disk.app.inject({ method: 'GET', url: '/api/attachment/direct/00000000-0000-4000-8000-000000000000', headers: who.headers });
    expect(other.json()).toMatchObject({ status: 400, data: { reason: DIRECT_UPLOAD_REASONS.unavailable } });
    const body = multipart({ origin: 'PRELIM', id: newUploadId(), name: 'a.pdf', chunks: 1, chunk: 0 }, { name: 'x', content });
    const piece = await disk.app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...who.headers } });
    expect(piece.statusCode).toBe(200);
    expect(piece.json().data.complete).toBe(true);
  });
});
