import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIRECT_PART_SIZE, type DirectSignAnswer, type PieceUploadAnswer } from '@contest/shared';
import { openDatabase, type Database } from '../src/db/client.js';
import { attachments, directUploads } from '../src/db/schema.js';
import { fakeFile, filesUnder, multipart, newUploadId, piecesOf } from './files-helpers.js';
import { deleteRedisPrefix, type TestApp } from './helpers.js';
import { SERVER_ROOT, buildServer, startInstance, stopInstance, testDatabaseTemplate, type Instance } from './instances.js';
import { signIn, type SignedIn } from './sign-in.js';
import { createPostgresDatabase, dropPostgresDatabase, withDatabaseName } from './test-database.js';
import { startVerifyingS3, type VerifyingS3 } from './verifying-s3.js';

/**
 * docs/files.md, "Direct upload", and docs/deploy.md, "Two instances (scaling)": instances are
 * disposable for direct uploads. Two real server processes (the production bundle, as
 * multi-instance.test.ts starts them) on one PostgreSQL database and one Redis prefix, each with a
 * DATA_DIR of its own (nothing shared on disk), storing in the verifying S3 store of
 * verifying-s3.ts (run here, in the test process: SigV4 of the part links, each part's SHA-256).
 * An upload started on one instance is signed on both, survives that instance's SIGKILL, and is
 * resumed and completed on the other; a completion racing on both records the file once.
 *
 * Only in the PostgreSQL pass with Redis (CI: DATABASE_URL=postgres://… REDIS_URL=redis://…).
 */

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;
const enabled = Boolean(DATABASE_URL?.startsWith('postgres') && REDIS_URL);

const hex = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const b64 = (b: Buffer) => createHash('sha256').update(b).digest('base64');

let database: Database | undefined;
let s3: VerifyingS3 | undefined;
let dbName: string | undefined;
const instances: Instance[] = [];
const dataDirs: string[] = [];
const dirs: string[] = [];
const prefix = `test:du:${randomBytes(6).toString('hex')}:`;
let who: SignedIn;

const A = 0;
const B = 1;

interface Answer {
  status: number;
  body: { status?: number; message?: string; data?: any };
}

/** A JSON call to one instance's own port, as the participant. */
async function call(on: number, method: 'GET' | 'POST', path: string, json?: unknown): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${instances[on]!.port}${path}`, {
    method,
    headers: { ...who.headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

function ok(answer: Answer): any {
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
}

const start = async (on: number, content: Buffer, name: string): Promise<string> =>
  (ok(await call(on, 'POST', '/api/attachment/direct/start', { origin: 'PRELIM', name, size: content.length, sha256: hex(content) })) as PieceUploadAnswer).id;
const status = (on: number, id: string) => call(on, 'GET', `/api/attachment/direct/${id}`);
const complete = (on: number, id: string) => call(on, 'POST', `/api/attachment/direct/${id}/complete`);

/** Signs `chunks` on instance `on` and PUTs their bytes straight to the store with the links. */
async function sendParts(on: number, id: string, content: Buffer, chunks: number[]): Promise<void> {
  const parts = piecesOf(content);
  const signed = ok(await call(on, 'POST', `/api/attachment/direct/${id}/parts`, { parts: chunks.map((chunk) => ({ chunk, sha256: b64(parts[chunk]!) })) })) as DirectSignAnswer;
  expect(signed.parts.map((p) => p.chunk)).toEqual(chunks);
  for (const link of signed.parts) {
    expect(link.url.startsWith(s3!.endpoint)).toBe(true);
    const put = await fetch(link.url, { method: 'PUT', headers: link.headers, body: parts[link.chunk]! });
    expect(put.status, await put.text()).toBe(200);
  }
}

const attachmentRows = (name: string) =>
  database!.db.select({ uniqueNo: attachments.uniqueNo, size: attachments.size, sha256: attachments.sha256, storageKey: attachments.storageKey }).from(attachments).where(and(eq(attachments.ownerId, who.accountId), eq(attachments.originalName, name)));
const directRow = async (id: string) => (await database!.db.select().from(directUploads).where(eq(directUploads.id, id)))[0]!;

/** Nothing of the direct path on either instance's disk: no upload pieces, no stored files. */
function expectNothingOnDisk(): void {
  for (const dir of dataDirs) {
    expect(filesUnder(join(dir, 'uploads')), dir).toEqual([]);
    expect(filesUnder(join(dir, 'files')), dir).toEqual([]);
  }
}

let killedAnswer: (PieceUploadAnswer & { complete: true }) | undefined;
let killedContent: Buffer | undefined;

describe.skipIf(!enabled)('direct uploads on two instances with their own DATA_DIRs (PostgreSQL, Redis, verifying S3)', () => {
  beforeAll(async () => {
    const adminUrl = DATABASE_URL!;
    const { postgres } = testDatabaseTemplate();
    dbName = await createPostgresDatabase(adminUrl, postgres?.url === adminUrl ? postgres.template : undefined);
    const url = withDatabaseName(adminUrl, dbName);
    for (const name of ['a', 'b']) dataDirs.push(mkdtempSync(join(tmpdir(), `contest-direct-${name}-`)));
    dirs.push(...dataDirs);
    const buildCache = join(SERVER_ROOT, 'node_modules', '.cache');
    mkdirSync(buildCache, { recursive: true });
    const bundleDir = mkdtempSync(join(buildCache, 'direct-upload-instances-'));
    dirs.push(bundleDir);
    const serverJs = await buildServer(bundleDir);
    database = await openDatabase({ databaseUrl: url, dataDir: dataDirs[0]! });
    s3 = await startVerifyingS3({ bucket: 'contest-direct' });

    const env = {
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      LOG_LEVEL: 'warn',
      DATABASE_URL: url,
      REDIS_URL: REDIS_URL!,
      REDIS_PREFIX: prefix,
      SEED_ADMIN_PASSWORD: 'Admin@2025',
      SMS_PROVIDER: 'log',
      STORAGE_DRIVER: 's3',
      S3_ENDPOINT: s3.endpoint,
      S3_BUCKET: s3.bucket,
      S3_REGION: 'us-east-1',
      S3_FORCE_PATH_STYLE: 'true',
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_KEY_PREFIX: 'portal/',
      FILE_LINK_SECRET: 'direct-upload-instances-secret-of-32-chars-or-more',
    };
    const started = await Promise.allSettled(dataDirs.map((dataDir) => startInstance(serverJs, { ...env, DATA_DIR: dataDir })));
    for (const s of started) if (s.status === 'fulfilled') instances.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    // A participant with a live session (sessions are rows: both instances know it).
    who = await signIn({ database } as unknown as TestApp, { realm: 'USER' });
  }, 90_000);

  afterAll(async () => {
    const steps: Array<() => Promise<unknown>> = [
      () => Promise.all(instances.map((i) => stopInstance(i))),
      async () => database?.close(),
      async () => dbName && dropPostgresDatabase(DATABASE_URL!, dbName),
      async () => deleteRedisPrefix(REDIS_URL!, prefix),
      async () => s3?.close(),
      async () => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })),
    ];
    for (const step of steps) await step().catch((err: unknown) => console.error('direct-upload-instances cleanup:', err));
  }, 60_000);

  it('a completion racing on both instances records the file once; both answer the same file', async () => {
    const content = fakeFile.pdf(DIRECT_PART_SIZE + 777_777);
    const name = '并发直传.pdf';
    const id = await start(B, content, name);
    await sendParts(A, id, content, [0]);
    await sendParts(B, id, content, [1]);
    const [onA, onB] = await Promise.all([complete(A, id), complete(B, id)]);
    const [fileA, fileB] = [ok(onA), ok(onB)];
    expect(fileA).toEqual(fileB);
    expect(fileA).toMatchObject({ complete: true, id, chunks: 2, received: [0, 1], name, size: content.length });
    const rows = await attachmentRows(name);
    expect(rows).toEqual([{ uniqueNo: fileA.uniqueNo, size: content.length, sha256: hex(content), storageKey: expect.any(String) }]);
    expect(s3!.objects.get(`portal/${rows[0]!.storageKey}`)?.equals(content)).toBe(true);
    expectNothingOnDisk();
  });

  it('survives the SIGKILL of the instance that started it: resumed, signed and completed on the other, recorded once', async () => {
    const content = fakeFile.pdf(2 * DIRECT_PART_SIZE + 1_234_567);
    killedContent = content;
    expect(piecesOf(content)).toHaveLength(3);
    const name = '实例消失.pdf';
    const id = await start(A, content, name);
    // Part links from either instance: the upload's state is the row and the store's parts.
    await sendParts(B, id, content, [0]);
    await sendParts(A, id, content, [1]);
    expect(ok(await status(A, id))).toEqual({ complete: false, id, chunks: 3, received: [0, 1], filePath: null });

    // A dies mid-upload, with no chance to clean up.
    const a = instances[A]!;
    a.child.kill('SIGKILL');
    await a.exited;
    expect(a.child.signalCode).toBe('SIGKILL');
    await expect(fetch(`http://127.0.0.1:${a.port}/api/health`)).rejects.toThrow();

    // B resumes: the parts already in the store, then the rest.
    expect(ok(await status(B, id))).toEqual({ complete: false, id, chunks: 3, received: [0, 1], filePath: null });
    await sendParts(B, id, content, [2]);
    expect(ok(await status(B, id))).toEqual({ complete: false, id, chunks: 3, received: [0, 1, 2], filePath: null });
    const file = ok(await complete(B, id)) as PieceUploadAnswer & { complete: true };
    killedAnswer = file;
    expect(file).toMatchObject({ complete: true, id, chunks: 3, received: [0, 1, 2], name, extension: 'pdf', mimeType: 'application/pdf', size: content.length });

    const rows = await attachmentRows(name);
    expect(rows).toEqual([{ uniqueNo: file.uniqueNo, size: content.length, sha256: hex(content), storageKey: expect.any(String) }]);
    expect((await directRow(id)).status).toBe('DONE');
    expect(s3!.objects.get(`portal/${rows[0]!.storageKey}`)?.equals(content)).toBe(true);
    expect(s3!.uploads.has((await directRow(id)).multipartId)).toBe(false);
    const download = await fetch(`http://127.0.0.1:${instances[B]!.port}${file.filePath}`, { headers: who.headers });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);

    // Completing again (a lost answer) and the status: the same file, still recorded once.
    expect(ok(await complete(B, id))).toEqual(file);
    expect(ok(await status(B, id))).toEqual(file);
    expect(await attachmentRows(name)).toHaveLength(1);
    expectNothingOnDisk();
  });

  it('answers as the piece path does: the same fields for the same file sent in pieces to the surviving instance', async () => {
    expect(killedAnswer && killedContent).toBeTruthy();
    const content = killedContent!;
    const pieces = piecesOf(content);
    const pieceId = newUploadId();
    let last: any;
    for (const [chunk, piece] of pieces.entries()) {
      const body = multipart({ origin: 'PRELIM', id: pieceId, name: killedAnswer!.name, chunks: pieces.length, chunk }, { name: 'blob', content: piece });
      const res = await fetch(`http://127.0.0.1:${instances[B]!.port}/api/attachment/piece/upload`, { method: 'POST', headers: { ...body.headers, ...who.headers }, body: body.payload });
      expect(res.status).toBe(200);
      last = ((await res.json()) as Answer['body']).data;
    }
    expect(Object.keys(killedAnswer!).sort()).toEqual(Object.keys(last as object).sort());
    const { id: _a, uniqueNo: _b, filePath: _c, ...direct } = killedAnswer!;
    const { id: _d, uniqueNo: _e, filePath: _f, ...viaPieces } = last as PieceUploadAnswer & { complete: true };
    expect(direct).toEqual(viaPieces);
  });
});
