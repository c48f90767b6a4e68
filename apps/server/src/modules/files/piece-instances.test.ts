import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_PIECE_SIZE, type PieceUploadAnswer, type UploadedFile } from '@contest/shared';
import { buildApp } from '../../app.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { fakeFile, filesUnder, multipart, newUploadId, piecesOf } from '../../../test/files-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { attachments, pieceUploads } from '../../db/schema.js';
import { createAuthRepository } from '../auth/auth.repository.js';
import { createPermissionService } from '../auth/permission.service.js';
import { createSessionService } from '../auth/session.service.js';
import { registerFiles } from './files.module.js';

/**
 * docs/files.md, "Several instances": the state of a chunked upload is in the database, not on an
 * instance's disk. Two apps in this process on one database, each with a DATA_DIR of its own.
 * With the S3 store (s3rver on loopback) the pieces' bytes are in the store too, so pieces sent
 * to A are resumed and completed on B, and racing requests on both record once. With the disk
 * store the bytes stay on their host, but what was received is still the database's answer.
 */

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** The files routes on a second app sharing `t`'s database (and Redis prefix), with its own DATA_DIR. */
async function secondInstance(t: TestApp): Promise<{ app: FastifyInstance; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'instance-b-'));
  const app = await buildApp({ ...t.config, dataDir }, { database: t.database, bare: true });
  const db = t.database.db;
  await app.register(
    async (api) => {
      await registerFiles(api, app.deps, { sessions: createSessionService(db), permissions: createPermissionService(createAuthRepository(db)) });
    },
    { prefix: '/api' },
  );
  await app.ready();
  return { app, dataDir };
}

async function withFiles(t: TestApp): Promise<void> {
  const db = t.database.db;
  await t.app.register(
    async (api) => {
      await registerFiles(api, t.app.deps, { sessions: createSessionService(db), permissions: createPermissionService(createAuthRepository(db)) });
    },
    { prefix: '/api' },
  );
  await t.app.ready();
}

type Fields = { id: string; name: string; chunks: number; chunk: number };
const send = (app: FastifyInstance, who: SignedIn, fields: Fields, content: Buffer, fileFirst = false) => {
  const body = multipart({ origin: 'PRELIM', ...fields }, { name: fields.name, content }, { fileFirst });
  return app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...who.headers } });
};
const status = async (app: FastifyInstance, who: SignedIn, id: string) =>
  (await app.inject({ method: 'GET', url: `/api/attachment/piece/status?id=${id}`, headers: who.headers })).json().data as PieceUploadAnswer;

describe('two instances, one database, the S3 store, separate DATA_DIRs', () => {
  let s3rver: S3rver;
  let s3Dir = '';
  let a: TestApp;
  let b: { app: FastifyInstance; dataDir: string };
  let who: SignedIn;

  beforeAll(async () => {
    s3Dir = mkdtempSync(join(tmpdir(), 'pieces-s3rver-'));
    s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: s3Dir, silent: true, configureBuckets: [{ name: 'contest-files' }] });
    const { port } = await s3rver.run();
    a = await createTestApp(
      {
        STORAGE_DRIVER: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: 'contest-files',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
        S3_KEY_PREFIX: 'portal/',
      },
      { bare: true },
    );
    await withFiles(a);
    b = await secondInstance(a);
    who = await signIn(a, { realm: 'USER' });
  });

  afterAll(async () => {
    await b?.app.close();
    await a?.close();
    await s3rver?.close();
  });

  /** Nothing of any upload is kept on either instance's disk between requests. */
  const expectNothingOnDisk = () => {
    for (const dataDir of [a.config.dataDir, b.dataDir]) {
      expect(filesUnder(join(dataDir, 'uploads')).filter((p) => !p.includes('/.incoming/'))).toEqual([]);
      expect(filesUnder(join(dataDir, 'uploads', '.incoming'))).toEqual([]);
    }
  };
  /** The pieces' objects in the store (under pieces/), which completion deletes. */
  const pieceObjects = () => filesUnder(s3Dir).filter((p) => p.includes('/pieces/'));

  it('takes pieces on A, tells B which are there, and completes on B', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 4321);
    const parts = piecesOf(content);
    const id = newUploadId();
    const fields = (chunk: number) => ({ id, name: '跨实例.pdf', chunks: 3, chunk });
    // Piece 1's fields come after its bytes (received into a temporary file first).
    for (const chunk of [0, 1]) expect((await send(a.app, who, fields(chunk), parts[chunk]!, chunk === 1)).json().data).toMatchObject({ complete: false });
    expectNothingOnDisk();
    expect(pieceObjects().length).toBeGreaterThan(0);
    expect(await status(b.app, who, id)).toEqual({ complete: false, id, chunks: 3, received: [0, 1], filePath: null });

    const res = await send(b.app, who, fields(2), parts[2]!);
    expect(res.statusCode, res.body).toBe(200);
    const file = res.json().data as Extract<PieceUploadAnswer, { complete: true }>;
    expect(file).toMatchObject({ complete: true, id, chunks: 3, received: [0, 1, 2], size: content.length });
    const [row] = await a.database.db.select().from(attachments).where(eq(attachments.uniqueNo, file.uniqueNo));
    expect(row).toMatchObject({ sha256: sha256(content), size: content.length });
    const download = await a.app.inject({ method: 'GET', url: file.filePath, headers: who.headers });
    expect(sha256(download.rawPayload)).toBe(sha256(content));
    // Asked on A (which sent no last piece): the same stored file.
    expect(await status(a.app, who, id)).toMatchObject({ complete: true, uniqueNo: file.uniqueNo });
    expectNothingOnDisk();
    expect(pieceObjects()).toEqual([]);
  });

  it('records a piece sent to both at once once, and a completion racing on both once', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 777);
    const parts = piecesOf(content);
    const id = newUploadId();
    const fields = (chunk: number) => ({ id, name: '并发.pdf', chunks: 2, chunk });
    const twice = await Promise.all([send(a.app, who, fields(0), parts[0]!), send(b.app, who, fields(0), parts[0]!)]);
    for (const res of twice) expect(res.json().data).toMatchObject({ complete: false, received: [0] });
    expect((await status(b.app, who, id)).received).toEqual([0]);

    const last = await Promise.all([send(a.app, who, fields(1), parts[1]!), send(b.app, who, fields(1), parts[1]!)]);
    for (const res of last) expect(res.statusCode, res.body).toBe(200);
    const done = await status(a.app, who, id);
    expect(done).toMatchObject({ complete: true, size: content.length });
    const uniqueNo = (done as UploadedFile).uniqueNo;
    // The one that did not join answers either the same file or "not yet" (then status shows it).
    for (const res of last) {
      const answer = res.json().data as PieceUploadAnswer;
      if (answer.complete) expect(answer.uniqueNo).toBe(uniqueNo);
    }
    const rows = await a.database.db.select().from(attachments).where(eq(attachments.originalName, '并发.pdf'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sha256).toBe(sha256(content));
    const [state] = await a.database.db.select().from(pieceUploads).where(eq(pieceUploads.id, id));
    expect(state).toMatchObject({ pieces: {}, claim: null, result: { uniqueNo } });
    expectNothingOnDisk();
  });
});

describe('two instances, one database, the disk store', () => {
  let a: TestApp;
  let b: { app: FastifyInstance; dataDir: string };
  let who: SignedIn;

  beforeAll(async () => {
    a = await createTestApp({}, { bare: true });
    await withFiles(a);
    b = await secondInstance(a);
    who = await signIn(a, { realm: 'USER' });
  });

  afterAll(async () => {
    await b?.app.close();
    await a?.close();
  });

  it('answers the resume question from the database: B knows what A received, though the bytes are on A', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 10);
    const parts = piecesOf(content);
    const id = newUploadId();
    await send(a.app, who, { id, name: 'disk.pdf', chunks: 3, chunk: 1 }, parts[1]!);
    expect(existsSync(join(a.config.dataDir, 'uploads', id, 'data'))).toBe(true);
    expect(existsSync(join(b.dataDir, 'uploads', id))).toBe(false);
    expect(await status(b.app, who, id)).toEqual({ complete: false, id, chunks: 3, received: [1], filePath: null });
    // Only the bytes are on A's disk: no meta, marks or claim files next to them.
    expect(filesUnder(join(a.config.dataDir, 'uploads', id)).map((p) => p.split('/').pop())).toEqual(['data']);
  });
});
