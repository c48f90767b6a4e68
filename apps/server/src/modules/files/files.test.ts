import { spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import { UPLOAD_MSG, UPLOAD_PIECE_SIZE, UPLOAD_RESTART_REASON, type PieceUploadAnswer, type UploadedFile } from '@contest/shared';
import { buildApp } from '../../app.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { fakeFile, filesUnder, multipart, newUploadId, piecesOf } from '../../../test/files-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { accounts, attachments, operationRecords, pieceUploads } from '../../db/schema.js';
import { createAuthRepository } from '../auth/auth.repository.js';
import { createPermissionService } from '../auth/permission.service.js';
import { createSessionService } from '../auth/session.service.js';
import { registerFiles, type FilesOptions } from './files.module.js';
import type { FilesService } from './files.service.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import { createPieceUploadState } from './files.repository.js';
import { createPieceStore, type ClaimRecord, type StorePlan } from './piece-store.js';

let t: TestApp;
let files: FilesService;
/** The one expert the fake review module assigns to every attachment. */
let assignedExpert: SignedIn;
let participant: SignedIn;

beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  const db = t.database.db;
  await t.app.register(
    async (api) => {
      ({ files } = await registerFiles(
        api,
        t.app.deps,
        { sessions: createSessionService(db), permissions: createPermissionService(createAuthRepository(db)) },
        {
          isExpertAssigned: async (expertId) => expertId === assignedExpert?.accountId,
          // Access only here: the files are no project's material, so served as to anyone. Blind
          // copies, neutral names and the download setting: review/blind-files.test.ts.
          expertFileView: async () => null,
        },
      ));
    },
    { prefix: '/api' },
  );
  assignedExpert = await signIn(t, { realm: 'EXPERT' });
  participant = await signIn(t, { realm: 'USER' });
});

afterAll(async () => {
  await t.close();
});

const uploadsDir = () => join(t.config.dataDir, 'uploads');
const storedFiles = () => filesUnder(join(t.config.dataDir, 'files'));
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * How sendPiece sends: the multipart form (the spec's), or the raw bytes with the fields in the
 * query string (the web uploader's). The chunked-upload suites run once with each.
 */
let pieceBody: 'multipart' | 'raw' = 'multipart';

function sendPiece(
  who: SignedIn | null,
  fields: { origin?: string; id: string; name: string; chunks: number | string; chunk: number | string },
  content: Buffer,
  options: { fileFirst?: boolean } = {},
) {
  if (pieceBody === 'raw') {
    const query = new URLSearchParams(Object.entries(fields).map(([k, v]): [string, string] => [k, String(v)])).toString();
    return t.app.inject({
      method: 'POST',
      url: `/api/attachment/piece/upload?${query}`,
      payload: content,
      headers: { 'content-type': 'application/octet-stream', ...who?.headers },
    });
  }
  const body = multipart(fields, { name: fields.name, content }, options);
  return t.app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...who?.headers } });
}

const BODIES = ['multipart', 'raw'] as const;

/** A body with no length known in advance (sent chunked). */
function streamOf(content: Buffer): PassThrough {
  const stream = new PassThrough();
  stream.end(content);
  return stream;
}

/** Uploads `content` in 5 MB pieces, all at once, as the web uploader does (up to 5 in flight). */
async function uploadInPieces(who: SignedIn, name: string, content: Buffer, origin = 'PRELIM', id = newUploadId()) {
  const pieces = piecesOf(content);
  const answers = await Promise.all(pieces.map((piece, chunk) => sendPiece(who, { origin, id, name, chunks: pieces.length, chunk }, piece)));
  return { id, answers };
}

function single(who: SignedIn | null, fields: Record<string, string>, content: Buffer) {
  const body = multipart(fields, { name: fields.name ?? 'x', content });
  return t.app.inject({ method: 'POST', url: '/api/attachment/upload/public', payload: body.payload, headers: { ...body.headers, ...who?.headers } });
}

async function uploaded(who: SignedIn, name: string, content: Buffer, origin = 'PRELIM'): Promise<UploadedFile> {
  const res = await single(who, { origin, name }, content);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as UploadedFile;
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe.each(BODIES)('chunked upload (%s bodies)', (body) => {
  beforeAll(() => {
    pieceBody = body;
  });
  afterAll(() => {
    pieceBody = 'multipart';
  });

  it('joins pieces sent in parallel into one stored file, exactly once, and leaves no pieces', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 123_457);
    const before = storedFiles().length;
    const { id, answers } = await uploadInPieces(participant, '初赛申报书 v2.pdf', content);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const complete = answers.map((a) => a.json().data as PieceUploadAnswer).filter((a) => a.complete);
    expect(complete.length).toBeGreaterThanOrEqual(1);
    const file = complete[0] as Extract<PieceUploadAnswer, { complete: true }>;
    expect(file).toMatchObject({ id, chunks: 3, received: [0, 1, 2], name: '初赛申报书 v2.pdf', extension: 'pdf', size: content.length, mimeType: 'application/pdf', isPublic: false });
    expect(file.filePath).toBe(`/api/attachment/stream/${file.uniqueNo}`);
    for (const other of complete) expect(other).toEqual(file);

    const rows = await t.database.db.select().from(attachments).where(eq(attachments.uniqueNo, file.uniqueNo));
    expect(rows).toMatchObject([{ ownerId: participant.accountId, origin: 'PRELIM', sha256: sha256(content), size: content.length }]);
    expect(storedFiles().length).toBe(before + 1);
    // The upload's state stays in the database (meta and result, for a re-sent piece); no bytes are left.
    const [state] = await t.database.db.select().from(pieceUploads).where(eq(pieceUploads.id, id));
    expect(state).toMatchObject({ pieces: {}, claim: null, plan: null, result: { uniqueNo: file.uniqueNo } });
    expect(existsSync(join(uploadsDir(), id))).toBe(false);

    const download = await get(file.filePath, participant.headers);
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256(content));
  });

  it('stores once even when every piece is sent twice at the same time', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 10);
    const id = newUploadId();
    const name = `twice-${body}.pdf`;
    const sends = [0, 1, 0, 1].map((chunk) => sendPiece(participant, { origin: 'PRELIM', id, name, chunks: 2, chunk }, piecesOf(content)[chunk]!));
    const answers = await Promise.all(sends);
    for (const a of answers) expect(a.statusCode, a.body).toBe(200);
    const rows = await t.database.db.select().from(attachments).where(eq(attachments.originalName, name));
    expect(rows).toHaveLength(1);
  });

  it('accepts fields after the file, and a piece sent again replaces the earlier copy', async () => {
    const id = newUploadId();
    const first = fakeFile.pdf(UPLOAD_PIECE_SIZE);
    const second = fakeFile.pdf(UPLOAD_PIECE_SIZE);
    const tail = Buffer.from('tail');
    expect((await sendPiece(participant, { origin: 'PRELIM', id, name: 'r.pdf', chunks: 2, chunk: 0 }, first, { fileFirst: true })).json().data).toMatchObject({ complete: false, received: [0] });
    expect((await sendPiece(participant, { origin: 'PRELIM', id, name: 'r.pdf', chunks: 2, chunk: 0 }, second)).json().data).toMatchObject({ complete: false, received: [0] });
    const done = (await sendPiece(participant, { origin: 'PRELIM', id, name: 'r.pdf', chunks: 2, chunk: 1 }, tail)).json().data as UploadedFile;
    const download = await get(done.filePath, participant.headers);
    expect(sha256(download.rawPayload)).toBe(sha256(Buffer.concat([second, tail])));
  });

  it('tells which pieces it holds, for resuming, and answers a re-sent piece of a finished upload with the same file', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 5);
    const pieces = piecesOf(content);
    const id = newUploadId();
    const name = `resume-${body}.pdf`;
    const status = () => get(`/api/attachment/piece/status?id=${id}`, participant.headers);
    expect((await status()).json().data).toEqual({ complete: false, id, chunks: 0, received: [], filePath: null });
    await sendPiece(participant, { origin: 'PRELIM', id, name: name, chunks: 3, chunk: 2 }, pieces[2]!);
    await sendPiece(participant, { origin: 'PRELIM', id, name: name, chunks: 3, chunk: 0 }, pieces[0]!);
    expect((await status()).json().data).toEqual({ complete: false, id, chunks: 3, received: [0, 2], filePath: null });
    const last = (await sendPiece(participant, { origin: 'PRELIM', id, name: name, chunks: 3, chunk: 1 }, pieces[1]!)).json().data;
    expect(last.complete).toBe(true);
    expect((await status()).json().data).toEqual(last);
    const again = await sendPiece(participant, { origin: 'PRELIM', id, name: name, chunks: 3, chunk: 1 }, pieces[1]!);
    expect(again.json().data).toEqual(last);
    expect(await t.database.db.select().from(attachments).where(eq(attachments.originalName, name))).toHaveLength(1);

    const stranger = await signIn(t, { realm: 'USER' });
    expect((await get(`/api/attachment/piece/status?id=${id}`, stranger.headers)).json()).toMatchObject({ status: 400, message: UPLOAD_MSG.foreignUploadId });
  });

  it.runIf(body === 'raw')('over real HTTP: raw pieces store the file, and a piece declaring too much gets its 413 on a kept connection', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    const count = () => connections++;
    t.app.server.on('connection', count);
    const send = (query: string, content: Buffer, length = content.length) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = httpRequest(
          `${address}/api/attachment/piece/upload?${query}`,
          { method: 'POST', agent, headers: { ...participant.headers, 'content-type': 'application/octet-stream', 'content-length': String(length) } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(content);
      });
    try {
      const id = newUploadId();
      const big = fakeFile.pdf(UPLOAD_PIECE_SIZE + 1);
      const refused = await send(`origin=PRELIM&id=${id}&name=${encodeURIComponent('原始 分片.pdf')}&chunks=2&chunk=0`, big);
      expect(refused.status).toBe(413);
      expect(JSON.parse(refused.body)).toMatchObject({ status: 413, message: UPLOAD_MSG.tooLarge });
      const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 77);
      const [first, second] = piecesOf(content);
      const query = (chunk: number) => `origin=PRELIM&id=${id}&name=${encodeURIComponent('原始 分片.pdf')}&chunks=2&chunk=${chunk}`;
      expect((await send(query(0), first!)).status).toBe(200);
      const done = JSON.parse((await send(query(1), second!)).body).data as UploadedFile;
      expect(done).toMatchObject({ name: '原始 分片.pdf', size: content.length });
      const rows = await t.database.db.select().from(attachments).where(eq(attachments.uniqueNo, done.uniqueNo));
      expect(rows[0]!.sha256).toBe(sha256(content));
      // One connection throughout: the refused body was read off the wire and the socket kept.
      expect(connections).toBe(1);
    } finally {
      t.app.server.off('connection', count);
      agent.destroy();
    }
  });
});

describe.each(BODIES)('upload refusals leave nothing behind (%s bodies)', (body) => {
  beforeAll(() => {
    pieceBody = body;
  });
  afterAll(() => {
    pieceBody = 'multipart';
  });

  async function expectRefused(res: Awaited<ReturnType<typeof sendPiece>>, status: number, message: string, id?: string) {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ status, message });
    if (id) expect(existsSync(join(uploadsDir(), id))).toBe(false);
    expect(filesUnder(join(uploadsDir(), '.incoming'))).toEqual([]);
  }

  it.each([
    ['a path separator', 'dir/evil.pdf', UPLOAD_MSG.badName],
    ['a backslash', '..\\evil.pdf', UPLOAD_MSG.badName],
    ['only dots', '..', UPLOAD_MSG.badName],
    ['a control character', 'evil\u0000.pdf', UPLOAD_MSG.badName],
    ['a right-to-left override', 'report\u202Efdp.exe', UPLOAD_MSG.badName],
    ['10,000 characters', `${'名'.repeat(9996)}.pdf`, UPLOAD_MSG.nameTooLong],
    ['201 characters', `${'a'.repeat(197)}.pdf`, UPLOAD_MSG.nameTooLong],
  ])('refuses a name with %s', async (_what, name, message) => {
    const id = newUploadId();
    await expectRefused(await sendPiece(participant, { origin: 'PRELIM', id, name, chunks: 1, chunk: 0 }, fakeFile.pdf(100)), 400, message, id);
  });

  it.each([
    ['chunk equal to chunks', 2, 2],
    ['a negative chunk', 2, -1],
    ['zero chunks', 0, 0],
    ['a fractional chunk', 2, '0.5'],
    ['a non-number', 'two', 0],
  ])('refuses %s', async (_what, chunks, chunk) => {
    const id = newUploadId();
    await expectRefused(await sendPiece(participant, { origin: 'PRELIM', id, name: 'c.pdf', chunks, chunk }, fakeFile.pdf(100)), 400, UPLOAD_MSG.badChunk, id);
  });

  it('refuses a piece whose chunk count, name or origin differs from the first piece', async () => {
    const id = newUploadId();
    const piece = fakeFile.pdf(UPLOAD_PIECE_SIZE);
    expect((await sendPiece(participant, { origin: 'PRELIM', id, name: 'm.pdf', chunks: 3, chunk: 0 }, piece)).statusCode).toBe(200);
    for (const fields of [
      { origin: 'PRELIM', id, name: 'm.pdf', chunks: 4, chunk: 1 },
      { origin: 'PRELIM', id, name: 'other.pdf', chunks: 3, chunk: 1 },
      { origin: 'OTHER', id, name: 'm.pdf', chunks: 3, chunk: 1 },
    ]) {
      await expectRefused(await sendPiece(participant, fields, piece), 400, UPLOAD_MSG.chunkMismatch);
    }
    expect((await get(`/api/attachment/piece/status?id=${id}`, participant.headers)).json().data.received).toEqual([0]);
  });

  it('refuses a piece over 5 MB with 413', async () => {
    const id = newUploadId();
    const res = await sendPiece(participant, { origin: 'PRELIM', id, name: 'big.pdf', chunks: 2, chunk: 0 }, fakeFile.pdf(UPLOAD_PIECE_SIZE + 1));
    await expectRefused(res, 413, UPLOAD_MSG.tooLarge, id);
  });

  it('forgets a piece whose re-send fails (it is written in place, so its range may be spoilt), keeping the others', async () => {
    const id = newUploadId();
    const piece = fakeFile.pdf(UPLOAD_PIECE_SIZE);
    for (const chunk of [0, 1]) expect((await sendPiece(participant, { origin: 'PRELIM', id, name: 'again.pdf', chunks: 3, chunk }, piece)).statusCode).toBe(200);
    if (body === 'raw') {
      // A raw body declaring too much is refused before a byte is written: the earlier copy stays.
      const declared = await sendPiece(participant, { origin: 'PRELIM', id, name: 'again.pdf', chunks: 3, chunk: 1 }, fakeFile.pdf(UPLOAD_PIECE_SIZE + 1));
      expect(declared.json()).toMatchObject({ status: 413, message: UPLOAD_MSG.tooLarge });
      // One without a length (chunked) is refused as well, before it is read.
      const chunked = await t.app.inject({
        method: 'POST',
        url: `/api/attachment/piece/upload?origin=PRELIM&id=${id}&name=again.pdf&chunks=3&chunk=1`,
        payload: streamOf(fakeFile.pdf(UPLOAD_PIECE_SIZE + 1)),
        headers: { 'content-type': 'application/octet-stream', ...participant.headers },
      });
      expect(chunked.json()).toMatchObject({ status: 400, message: UPLOAD_MSG.pieceLengthRequired });
      expect((await get(`/api/attachment/piece/status?id=${id}`, participant.headers)).json().data.received).toEqual([0, 1]);
    } else {
      // A form's part shows its excess only while it is written into the piece's range: the piece is forgotten.
      const res = await sendPiece(participant, { origin: 'PRELIM', id, name: 'again.pdf', chunks: 3, chunk: 1 }, fakeFile.pdf(UPLOAD_PIECE_SIZE + 1));
      expect(res.statusCode).toBe(413);
      expect((await get(`/api/attachment/piece/status?id=${id}`, participant.headers)).json().data.received).toEqual([0]);
    }
    const tail = Buffer.from('tail');
    await sendPiece(participant, { origin: 'PRELIM', id, name: 'again.pdf', chunks: 3, chunk: 1 }, piece);
    const done = (await sendPiece(participant, { origin: 'PRELIM', id, name: 'again.pdf', chunks: 3, chunk: 2 }, tail)).json().data as UploadedFile;
    expect(sha256((await get(done.filePath, participant.headers)).rawPayload)).toBe(sha256(Buffer.concat([piece, piece, tail])));
  });

  it('refuses a non-final piece shorter than 5 MB', async () => {
    const id = newUploadId();
    await expectRefused(await sendPiece(participant, { origin: 'PRELIM', id, name: 's.pdf', chunks: 2, chunk: 0 }, fakeFile.pdf(1000)), 400, UPLOAD_MSG.badPieceSize, id);
  });

  it('refuses a PDF that is really an executable, dropping the pieces already received', async () => {
    const before = storedFiles().length;
    const id = newUploadId();
    const exe = fakeFile.exe(UPLOAD_PIECE_SIZE + 100);
    const [first, second] = piecesOf(exe);
    expect((await sendPiece(participant, { origin: 'PRELIM', id, name: 'tail-first.pdf', chunks: 2, chunk: 1 }, second!)).statusCode).toBe(200);
    await expectRefused(await sendPiece(participant, { origin: 'PRELIM', id, name: 'tail-first.pdf', chunks: 2, chunk: 0 }, first!), 400, UPLOAD_MSG.contentMismatch, id);
    const single = await sendPiece(participant, { origin: 'PRELIM', id: newUploadId(), name: 'setup.pdf', chunks: 1, chunk: 0 }, fakeFile.exe(5000));
    await expectRefused(single, 400, UPLOAD_MSG.contentMismatch);
    expect(storedFiles().length).toBe(before);
    expect(await t.database.db.select().from(attachments).where(eq(attachments.originalName, 'setup.pdf'))).toHaveLength(0);
  });

  it('refuses a zero-byte file, an extension the origin does not take, and a file over the origin limit', async () => {
    await expectRefused(await sendPiece(participant, { origin: 'PRELIM', id: newUploadId(), name: 'empty.pdf', chunks: 1, chunk: 0 }, Buffer.alloc(0)), 400, UPLOAD_MSG.empty);
    await expectRefused(await sendPiece(participant, { origin: 'TEAM', id: newUploadId(), name: 'letter.docx', chunks: 1, chunk: 0 }, fakeFile.zip(100)), 400, UPLOAD_MSG.unsupportedType);
    await expectRefused(await sendPiece(participant, { origin: 'PRELIM', id: newUploadId(), name: 'noext', chunks: 1, chunk: 0 }, fakeFile.pdf(100)), 400, UPLOAD_MSG.unsupportedType);
    // FEEDBACK takes 10 MB: three pieces can never fit.
    await expectRefused(await sendPiece(participant, { origin: 'FEEDBACK', id: newUploadId(), name: 'f.pdf', chunks: 3, chunk: 0 }, fakeFile.pdf(UPLOAD_PIECE_SIZE)), 400, UPLOAD_MSG.tooLarge);
    // Exactly the limit is fine.
    const { answers } = await uploadInPieces(participant, 'limit.pdf', fakeFile.pdf(10 * 1024 * 1024), 'FEEDBACK');
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
  });

  it("refuses an upload id that another account started, leaving that account's pieces alone", async () => {
    const id = newUploadId();
    const piece = fakeFile.pdf(UPLOAD_PIECE_SIZE);
    expect((await sendPiece(participant, { origin: 'PRELIM', id, name: 'mine.pdf', chunks: 2, chunk: 0 }, piece)).statusCode).toBe(200);
    const intruder = await signIn(t, { realm: 'USER' });
    await expectRefused(await sendPiece(intruder, { origin: 'PRELIM', id, name: 'mine.pdf', chunks: 2, chunk: 1 }, Buffer.from('x')), 400, UPLOAD_MSG.foreignUploadId);
    expect((await get(`/api/attachment/piece/status?id=${id}`, participant.headers)).json().data.received).toEqual([0]);
  });

  it('refuses a raw piece without its fields, or declaring more than 5 MB, before reading it', async () => {
    const raw = (query: string, headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: `/api/attachment/piece/upload${query}`,
        payload: fakeFile.pdf(100),
        headers: { 'content-type': 'application/octet-stream', ...participant.headers, ...headers },
      });
    await expectRefused(await raw(''), 400, UPLOAD_MSG.badUploadId);
    await expectRefused(await raw(`?id=${newUploadId()}&name=a.pdf&chunks=1`), 400, UPLOAD_MSG.badChunk);
    const id = newUploadId();
    await expectRefused(await raw(`?id=${id}&name=a.pdf&chunks=2&chunk=0`, { 'content-length': String(UPLOAD_PIECE_SIZE + 1) }), 413, UPLOAD_MSG.tooLarge, id);
    // Anonymous: 401 before anything, as for a form.
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/attachment/piece/upload?id=${id}`, payload: Buffer.from('x'), headers: { 'content-type': 'application/octet-stream' } });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a malformed upload id and a request without a file', async () => {
    await expectRefused(await sendPiece(participant, { origin: 'PRELIM', id: '../../etc', name: 'a.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(10)), 400, UPLOAD_MSG.badUploadId);
    const body = multipart({ origin: 'PRELIM', id: newUploadId(), name: 'a.pdf', chunks: 1, chunk: 0 });
    const res = await t.app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...participant.headers } });
    await expectRefused(res, 400, UPLOAD_MSG.missingFile);
  });

  it('sweeps an upload that never completes once it is a day old', async () => {
    const id = newUploadId();
    await sendPiece(participant, { origin: 'PRELIM', id, name: 'abandoned.pdf', chunks: 2, chunk: 0 }, fakeFile.pdf(UPLOAD_PIECE_SIZE));
    expect(await files.sweep(24 * 3600_000)).toBe(0);
    expect(existsSync(join(uploadsDir(), id))).toBe(true);
    expect(await files.sweep(24 * 3600_000, new Date(Date.now() + 25 * 3600_000))).toBeGreaterThanOrEqual(1);
    expect(existsSync(join(uploadsDir(), id))).toBe(false);
  });
});

describe('an upload whose join was cut off (process killed mid-join)', () => {
  /** A pid that was just used and is gone. */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;
  const LAST_NAME = 'crash.pdf';

  /** What a killed joiner leaves: its claim naming it, last refreshed `ageMs` ago. */
  async function leaveClaim(id: string, record: Partial<ClaimRecord>, ageMs = 0) {
    const claim: ClaimRecord = { host: hostname(), pid: deadPid(), instance: randomUUID(), token: randomUUID(), ...record };
    await t.database.db.update(pieceUploads).set({ claim, claimedAt: new Date(Date.now() - ageMs) }).where(eq(pieceUploads.id, id));
  }

  /** Every piece but the last sent; the last one is what the client sends again on retry. */
  async function allButLast(content: Buffer) {
    const id = newUploadId();
    const parts = piecesOf(content);
    for (let chunk = 0; chunk < parts.length - 1; chunk++) {
      const res = await sendPiece(participant, { origin: 'PRELIM', id, name: LAST_NAME, chunks: parts.length, chunk }, parts[chunk]!);
      expect(res.json().data.complete).toBe(false);
    }
    const last = () => sendPiece(participant, { origin: 'PRELIM', id, name: LAST_NAME, chunks: parts.length, chunk: parts.length - 1 }, parts.at(-1)!);
    return { id, parts, last };
  }

  /** Also the last piece in place, as the killed request had written it before claiming the join. */
  async function allPieces(content: Buffer) {
    const upload = await allButLast(content);
    const store = createPieceStore(uploadsDir(), createPieceUploadState(t.database.db));
    const body = join(tmpdir(), `piece-${randomUUID()}`);
    writeFileSync(body, upload.parts.at(-1)!);
    await store.putPiece(upload.id, upload.parts.length - 1, body, upload.parts.at(-1)!.length);
    return { ...upload, store };
  }

  async function expectStored(res: Awaited<ReturnType<typeof sendPiece>>, content: Buffer): Promise<UploadedFile> {
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json().data as PieceUploadAnswer;
    expect(answer.complete).toBe(true);
    const file = answer as Extract<PieceUploadAnswer, { complete: true }>;
    const download = await get(file.filePath, participant.headers);
    expect(sha256(download.rawPayload)).toBe(sha256(content));
    return file;
  }

  const rowsOf = (uniqueNo: string) => t.database.db.select().from(attachments).where(eq(attachments.uniqueNo, uniqueNo));

  it('finishes once the client sends the last piece again, when the joiner is dead', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 77);
    const { id, last } = await allButLast(content);
    await leaveClaim(id, {});
    const file = await expectStored(await last(), content);
    expect(await rowsOf(file.uniqueNo)).toHaveLength(1);
    // Sent once more (a lost answer): the same file.
    expect((await last()).json().data).toMatchObject({ complete: true, uniqueNo: file.uniqueNo });
  });

  it('takes over the claim of its own earlier life (same pid after a container restart)', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 5);
    const { id, last } = await allButLast(content);
    await leaveClaim(id, { pid: process.pid, instance: 'before-the-restart' });
    await expectStored(await last(), content);
  });

  it('waits for a live joiner, and takes over one that stopped refreshing its claim', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 5);
    const { id, last } = await allButLast(content);
    // Another host: its process cannot be asked, only its heartbeat (the claim's mtime) seen.
    await leaveClaim(id, { host: 'other-instance' }, 10_000);
    expect((await last()).json().data).toMatchObject({ complete: false });
    await leaveClaim(id, { host: 'other-instance' }, 10 * 60_000);
    await expectStored(await last(), content);
  });

  /** The plan a killed joiner wrote, and (optionally) the object it stored and the row it wrote. */
  async function killedAfterPlan(content: Buffer, reached: 'plan' | 'stored' | 'recorded') {
    const upload = await allPieces(content);
    const joined = await upload.store.join(upload.id, content.length);
    const plan: StorePlan = { id: randomUUID(), uniqueNo: randomBytes(16).toString('base64url'), storageKey: `2025/01/${randomUUID()}`, size: joined.size, sha256: joined.sha256 };
    await upload.store.writePlan(upload.id, plan);
    if (reached !== 'plan') {
      await createStorage(t.config.files.storage).putFile(plan.storageKey, joined.path, { size: plan.size, sha256: plan.sha256, contentType: 'application/pdf' });
    }
    if (reached === 'recorded') {
      await t.database.db.insert(attachments).values({
        id: plan.id, uniqueNo: plan.uniqueNo, ownerId: participant.accountId, origin: 'PRELIM', originalName: LAST_NAME, extension: 'pdf',
        mimeType: 'application/pdf', size: plan.size, sha256: plan.sha256, storageKey: plan.storageKey, isPublic: false,
      });
    }
    await leaveClaim(upload.id, {});
    return { ...upload, plan };
  }

  it.each(['plan', 'stored', 'recorded'] as const)('finishes with the killed joiner\'s ids when it got as far as: %s', async (reached) => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 999);
    const before = storedFiles().length;
    const { last, plan } = await killedAfterPlan(content, reached);
    const file = await expectStored(await last(), content);
    expect(file.uniqueNo).toBe(plan.uniqueNo);
    expect(await rowsOf(plan.uniqueNo)).toHaveLength(1);
    expect(storedFiles().length).toBe(before + 1);
  });

  it('tells the client to start over when what the joiner left cannot be finished, and then takes the file anew', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 999);
    const { id, parts, last, plan } = await killedAfterPlan(content, 'stored');
    // Its file moved to storage and lost there: nothing to finish from (the pieces went with it).
    await createStorage(t.config.files.storage).delete(plan.storageKey);
    const res = await last();
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ message: UPLOAD_MSG.uploadInterrupted, data: { reason: UPLOAD_RESTART_REASON } });
    expect(existsSync(join(uploadsDir(), id))).toBe(false);
    expect((await get(`/api/attachment/piece/status?id=${id}`, participant.headers)).json().data).toMatchObject({ chunks: 0, received: [] });
    // Sent again whole (the uploader does so), the upload completes.
    for (let chunk = 0; chunk < parts.length - 1; chunk++) await sendPiece(participant, { origin: 'PRELIM', id, name: LAST_NAME, chunks: parts.length, chunk }, parts[chunk]!);
    await expectStored(await last(), content);
  });
});

describe('who may upload which origin', () => {
  it('asks for a session (401) and refuses experts and participants on admin origins (403)', async () => {
    const fields = (origin: string) => ({ origin, id: newUploadId(), name: 'p.png', chunks: 1, chunk: 0 });
    expect((await sendPiece(null, fields('OTHER'), fakeFile.png(100))).statusCode).toBe(401);
    expect((await sendPiece(assignedExpert, fields('OTHER'), fakeFile.png(100))).json()).toMatchObject({ status: 403, message: UPLOAD_MSG.originNotAllowed });
    expect((await sendPiece(participant, fields('NEWS'), fakeFile.png(100))).statusCode).toBe(403);
    expect((await sendPiece(participant, fields('MOON'), fakeFile.png(100))).json()).toMatchObject({ status: 400, message: UPLOAD_MSG.badOrigin });
  });

  it('lets admins upload news images only with news:edit, recording the operation', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] });
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['doc:edit'] });
    expect((await single(other, { origin: 'NEWS', name: 'cover.png' }, fakeFile.png(300))).statusCode).toBe(403);
    expect((await single(editor, { origin: 'OTHER', name: 'cover.png' }, fakeFile.png(300))).statusCode).toBe(403);
    const file = await uploaded(editor, 'cover.png', fakeFile.png(300), 'NEWS');
    expect(file.isPublic).toBe(true);
    const records = await t.database.db.select().from(operationRecords).where(eq(operationRecords.accountId, editor.accountId));
    expect(records).toMatchObject([{ action: 'file:upload', targetType: 'attachment', targetId: file.uniqueNo }]);
    expect(await t.database.db.select().from(operationRecords).where(eq(operationRecords.accountId, other.accountId))).toHaveLength(0);
  });
});

describe('single upload', () => {
  it('stores a small file, taking the name from the field or the file part', async () => {
    const content = fakeFile.png(4000);
    const file = await uploaded(participant, '截图 1.png', content, 'FEEDBACK');
    expect(file).toMatchObject({ name: '截图 1.png', size: 4000, mimeType: 'image/png', extension: 'png' });
    const body = multipart({ origin: 'OTHER' }, { name: 'ignored', content: fakeFile.pdf(50) });
    const fromPart = await t.app.inject({
      method: 'POST',
      url: '/api/attachment/upload/public',
      payload: Buffer.from(body.payload.toString('latin1').replace('filename="blob"', 'filename="part.pdf"'), 'latin1'),
      headers: { ...body.headers, ...participant.headers },
    });
    expect(fromPart.json().data).toMatchObject({ name: 'part.pdf', size: 50 });
  });

  it('refuses what the chunked upload refuses, and bodies over 20 MB with 413', async () => {
    const before = storedFiles().length;
    expect((await single(participant, { origin: 'OTHER', name: 'fake.png' }, fakeFile.exe(500))).json().message).toBe(UPLOAD_MSG.contentMismatch);
    expect((await single(participant, { origin: 'FEEDBACK', name: 'f.png' }, fakeFile.png(10 * 1024 * 1024 + 1))).json().message).toBe(UPLOAD_MSG.tooLarge);
    expect((await single(participant, { origin: 'OTHER', name: 'huge.zip' }, fakeFile.zip(20 * 1024 * 1024 + 1))).statusCode).toBe(413);
    expect((await single(participant, { origin: 'OTHER', name: 'a/b.png' }, fakeFile.png(10))).json().message).toBe(UPLOAD_MSG.badName);
    expect(storedFiles().length).toBe(before);
    expect(filesUnder(join(uploadsDir(), '.incoming'))).toEqual([]);
  });
});

describe('download', () => {
  let pdf: UploadedFile;
  let docx: UploadedFile;
  const content = fakeFile.pdf(10_000);

  beforeAll(async () => {
    pdf = await uploaded(participant, '评审 "说明" 100%.pdf', content);
    docx = await uploaded(participant, 'plan.docx', fakeFile.zip(2000));
  });

  it('streams the whole file with its UTF-8 name, type, ETag and nosniff', async () => {
    const res = await get(pdf.filePath, participant.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({
      'content-type': 'application/pdf',
      'content-length': '10000',
      etag: `"${sha256(content)}"`,
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
      'content-disposition': `attachment; filename="__ ____ 100_.pdf"; filename*=UTF-8''%E8%AF%84%E5%AE%A1%20%22%E8%AF%B4%E6%98%8E%22%20100%25.pdf`,
    });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.rawPayload.equals(content)).toBe(true);
  });

  it('serves byte ranges (206), refuses ranges past the end (416) and revalidates (304)', async () => {
    const part = await get(pdf.filePath, { ...participant.headers, range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 100-199/10000');
    expect(part.rawPayload.equals(content.subarray(100, 200))).toBe(true);
    const suffix = await get(pdf.filePath, { ...participant.headers, range: 'bytes=-10' });
    expect(suffix.rawPayload.equals(content.subarray(-10))).toBe(true);
    const open = await get(pdf.filePath, { ...participant.headers, range: 'bytes=9990-' });
    expect(open.headers['content-length']).toBe('10');
    const beyond = await get(pdf.filePath, { ...participant.headers, range: 'bytes=10000-' });
    expect(beyond.statusCode).toBe(416);
    expect(beyond.headers['content-range']).toBe('bytes */10000');
    const cached = await get(pdf.filePath, { ...participant.headers, 'if-none-match': `"${sha256(content)}"` });
    expect(cached.statusCode).toBe(304);
    expect(cached.rawPayload.length).toBe(0);
    const stale = await get(pdf.filePath, { ...participant.headers, range: 'bytes=0-9', 'if-range': '"other"' });
    expect(stale.statusCode).toBe(200);
  });

  it('opens only images and PDFs inline with preview=1', async () => {
    expect((await get(`${pdf.filePath}?preview=1`, participant.headers)).headers['content-disposition']).toMatch(/^inline;/);
    expect((await get(`${docx.filePath}?preview=1`, participant.headers)).headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('streams on disk even when asked for a redirect (no store links there)', async () => {
    const res = await get(`${pdf.filePath}?redirect=1`, participant.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.rawPayload.equals(content)).toBe(true);
  });

  it('gives a short-lived signed link that works without the Authorization header', async () => {
    const res = await get(`/api/attachment/accessUrl?filePath=${encodeURIComponent(pdf.filePath)}`, participant.headers);
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json().data;
    expect(link).toMatchObject({ uniqueNo: pdf.uniqueNo, name: pdf.name, size: 10_000, mimeType: 'application/pdf' });
    expect(link.expiresAt).toBeGreaterThan(Date.now() + 60_000);
    expect(link.expiresAt).toBeLessThanOrEqual(Date.now() + 900_000 + 1000);
    const viaLink = await get(`${link.url}&preview=1`);
    expect(viaLink.statusCode).toBe(200);
    expect(viaLink.rawPayload.equals(content)).toBe(true);

    const tampered = [
      link.url.replace(/sig=[^&]+/, 'sig=AAAA'),
      link.url.replace(/expires=(\d+)/, (_m: string, e: string) => `expires=${Number(e) + 1000}`),
      link.url.replace(/acct=[^&]+/, `acct=${assignedExpert.accountId}`),
      link.url.replace(pdf.uniqueNo, docx.uniqueNo),
    ];
    for (const url of tampered) expect((await get(url)).json(), url).toMatchObject({ status: 403, message: UPLOAD_MSG.linkExpired });
    // Same file by uniqueNo alone; unknown or unreadable files are 404.
    expect((await get(`/api/attachment/accessUrl?filePath=${pdf.uniqueNo}`, participant.headers)).statusCode).toBe(200);
    expect((await get(`/api/attachment/accessUrl?filePath=${pdf.uniqueNo}`)).statusCode).toBe(404);
    expect((await get('/api/attachment/accessUrl?filePath=/etc/passwd', participant.headers)).statusCode).toBe(404);

    // A link dies with the account's right to read.
    await t.database.db.update(accounts).set({ enabled: false }).where(eq(accounts.id, participant.accountId));
    try {
      expect((await get(link.url)).statusCode).toBe(403);
    } finally {
      await t.database.db.update(accounts).set({ enabled: true }).where(eq(accounts.id, participant.accountId));
    }
  });
});

describe('access rules (one matrix, every reader)', () => {
  it('lets the owner, admins with file:read, assigned experts read; everyone else gets 404', async () => {
    const owner = await signIn(t, { realm: 'USER' });
    const file = await uploaded(owner, 'secret.pdf', fakeFile.pdf(100), 'TEAM');
    const news = await uploaded(await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' }), 'n.png', fakeFile.png(100), 'NEWS');
    const readers: Array<[string, Record<string, string>, number]> = [
      ['owner', owner.headers, 200],
      ['another participant', (await signIn(t, { realm: 'USER' })).headers, 404],
      ['admin with file:read', (await signIn(t, { realm: 'ADMIN', buttons: ['file:read'] })).headers, 200],
      ['super admin', (await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' })).headers, 200],
      ['admin without file:read', (await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] })).headers, 404],
      ['assigned expert', assignedExpert.headers, 200],
      ['expert not assigned', (await signIn(t, { realm: 'EXPERT' })).headers, 404],
      ['anonymous', {}, 404],
    ];
    const missing = `/api/attachment/stream/${'A'.repeat(22)}`;
    for (const [who, headers, status] of readers) {
      expect((await get(file.filePath, headers)).statusCode, who).toBe(status);
      // Public content: everyone, signed in or not.
      expect((await get(news.filePath, headers)).statusCode, `${who} on news`).toBe(200);
      // A missing file answers exactly like a forbidden one.
      const absent = await get(missing, headers);
      expect(absent.statusCode, `${who} on missing`).toBe(404);
      if (status === 404) expect((await get(file.filePath, headers)).body).toBe(absent.body);
    }
    expect((await get(file.filePath, { authorization: 'Bearer expired-or-forged' })).statusCode).toBe(401);
  });
});

describe('speed test', () => {
  it('serves the asked number of bytes, uncached, to signed-in callers only', async () => {
    const res = await get('/api/attachment/speed?size=300000', participant.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'content-length': '300000', 'cache-control': 'no-store', 'content-type': 'application/octet-stream' });
    expect(res.rawPayload.length).toBe(300_000);
    expect((await get('/api/attachment/speed', participant.headers)).rawPayload.length).toBe(5 * 1024 * 1024);
    expect((await get('/api/attachment/speed?size=20971521', participant.headers)).statusCode).toBe(400);
    expect((await get('/api/attachment/speed?size=1000')).statusCode).toBe(401);
  });
});

/** The files module on a fresh app over `database` and `config` (a second instance, or one with other settings). */
async function filesApp(config: TestApp['config'], database: TestApp['database']) {
  const app = await buildApp(config, { database, bare: true });
  const db = database.db;
  await app.register(
    async (api) => {
      await registerFiles(api, app.deps, { sessions: createSessionService(db), permissions: createPermissionService(createAuthRepository(db)) });
    },
    { prefix: '/api' },
  );
  await app.ready();
  return app;
}

describe('the sha256 of a chunked upload (hashed as the pieces come)', () => {
  const rowOf = async (uniqueNo: string) => (await t.database.db.select().from(attachments).where(eq(attachments.uniqueNo, uniqueNo)))[0]!;

  it.each([
    ['in order', [0, 1, 2]],
    ['out of order', [2, 0, 1]],
  ])('is the whole file\'s for pieces sent %s', async (_how, order) => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 4321);
    const parts = piecesOf(content);
    const id = newUploadId();
    let answer: PieceUploadAnswer | null = null;
    for (const chunk of order) {
      const res = await sendPiece(participant, { origin: 'PRELIM', id, name: 'ordered.pdf', chunks: 3, chunk }, parts[chunk]!);
      expect(res.statusCode, res.body).toBe(200);
      answer = res.json().data as PieceUploadAnswer;
    }
    expect(answer!.complete).toBe(true);
    const row = await rowOf((answer as UploadedFile).uniqueNo);
    expect(row).toMatchObject({ sha256: sha256(content), size: content.length });
  });

  it('is the whole file\'s when the server restarts mid-upload (a new instance over the same data dir finishes it)', async () => {
    const content = fakeFile.pdf(2 * UPLOAD_PIECE_SIZE + 99);
    const parts = piecesOf(content);
    const id = newUploadId();
    for (const chunk of [0, 1]) expect((await sendPiece(participant, { origin: 'PRELIM', id, name: 'restart.pdf', chunks: 3, chunk }, parts[chunk]!)).statusCode).toBe(200);
    const restarted = await filesApp(t.config, t.database);
    try {
      const body = multipart({ origin: 'PRELIM', id, name: 'restart.pdf', chunks: 3, chunk: 2 }, { name: 'restart.pdf', content: parts[2]! });
      const res = await restarted.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...participant.headers } });
      expect(res.statusCode, res.body).toBe(200);
      const file = res.json().data as UploadedFile;
      expect(await rowOf(file.uniqueNo)).toMatchObject({ sha256: sha256(content), size: content.length });
      expect(sha256((await get(file.filePath, participant.headers)).rawPayload)).toBe(sha256(content));
    } finally {
      await restarted.close();
    }
  });
});

/**
 * A test app with the files routes only, under `env`. `files` is its service: the tests wait on
 * `pieceWouldWait()` (whether the line has room) instead of sleeping until a piece is in line.
 */
async function filesTestApp(env: Record<string, string>, options: FilesOptions = {}): Promise<TestApp & { files: FilesService }> {
  const app = await createTestApp(env, { bare: true });
  const db = app.database.db;
  let files: FilesService | undefined;
  await app.app.register(
    async (api) => {
      ({ files } = await registerFiles(api, app.app.deps, { sessions: createSessionService(db), permissions: createPermissionService(createAuthRepository(db)) }, options));
    },
    { prefix: '/api' },
  );
  await app.app.ready();
  return Object.assign(app, { files: files! });
}

type PieceFields = { id: string; name: string; chunks: number; chunk: number };
const piece = (fields: PieceFields, content: Buffer) => multipart({ origin: 'PRELIM', ...fields }, { name: fields.name, content });

/** A piece whose body stops halfway until `finish` is called: it holds its turn meanwhile. */
async function slowPieceOn(target: TestApp, who: SignedIn, fields: PieceFields, content: Buffer) {
  const body = piece(fields, content);
  const stream = new PassThrough();
  const answer = target.app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: stream, headers: { ...body.headers, ...who.headers } });
  const half = body.payload.length >> 1;
  stream.write(body.payload.subarray(0, half));
  // Its fields are in and its bytes are landing in the upload's data file.
  await vi.waitFor(() => expect(existsSync(join(target.config.dataDir, 'uploads', fields.id, 'data'))).toBe(true), { timeout: 5000 });
  return {
    finish: () => {
      stream.end(body.payload.subarray(half));
      return answer;
    },
  };
}

describe('pieces in flight are limited per instance (UPLOAD_MAX_PIECES_IN_FLIGHT)', () => {
  let busy: TestApp & { files: FilesService };
  let uploader: SignedIn;
  // The admission's clock runs `skew` ms ahead of the real one: a test moves it on instead of waiting.
  let skew = 0;
  const url = '/api/attachment/piece/upload';
  const busyUploads = () => join(busy.config.dataDir, 'uploads');

  beforeAll(async () => {
    // No line here: every piece beyond the one place is refused at once (the line has its own suite below).
    busy = await filesTestApp({ UPLOAD_MAX_PIECES_IN_FLIGHT: '1', UPLOAD_MAX_PIECES_WAITING: '0' }, { now: () => Date.now() + skew });
    uploader = await signIn(busy, { realm: 'USER' });
  });

  afterAll(async () => {
    await busy.close();
  });

  const slowPiece = (fields: PieceFields, content: Buffer) => slowPieceOn(busy, uploader, fields, content);

  it('answers 429 with Retry-After beyond the limit, keeps nothing of the refused piece, and takes it when sent again', async () => {
    const content = fakeFile.pdf(UPLOAD_PIECE_SIZE + 777);
    const [first, second] = piecesOf(content);
    const id = newUploadId();
    const held = await slowPiece({ id, name: 'busy.pdf', chunks: 2, chunk: 0 }, first!);

    const otherId = newUploadId();
    const refusedBody = piece({ id: otherId, name: 'other.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const refused = await busy.app.inject({ method: 'POST', url, payload: refusedBody.payload, headers: { ...refusedBody.headers, ...uploader.headers } });
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    expect(refused.json()).toEqual({ status: 429, code: 'RATE_LIMITED', message: UPLOAD_MSG.busy, data: { retryAfter } });
    expect(existsSync(join(busyUploads(), otherId))).toBe(false);
    expect(filesUnder(join(busyUploads(), '.incoming'))).toEqual([]);
    // Refused before the session is looked up: no database work for a piece that waits its turn.
    const anonymous = await busy.app.inject({ method: 'POST', url, payload: refusedBody.payload, headers: refusedBody.headers });
    expect(anonymous.statusCode).toBe(429);
    // The same piece of the held upload is refused too, and its range is left as it is.
    const again = piece({ id, name: 'busy.pdf', chunks: 2, chunk: 1 }, second!);
    expect((await busy.app.inject({ method: 'POST', url, payload: again.payload, headers: { ...again.headers, ...uploader.headers } })).statusCode).toBe(429);

    const heldAnswer = await held.finish();
    expect(heldAnswer.statusCode, heldAnswer.body).toBe(200);
    expect(heldAnswer.json().data).toMatchObject({ complete: false, received: [0] });

    // Its turn is over: the piece sent again (after Retry-After) is taken and completes the file.
    const retried = await busy.app.inject({ method: 'POST', url, payload: again.payload, headers: { ...again.headers, ...uploader.headers } });
    expect(retried.statusCode, retried.body).toBe(200);
    const file = retried.json().data as Extract<PieceUploadAnswer, { complete: true }>;
    expect(file.complete).toBe(true);
    const [row] = await busy.database.db.select().from(attachments).where(eq(attachments.uniqueNo, file.uniqueNo));
    expect(row).toMatchObject({ sha256: sha256(content), size: content.length });
  });

  it('frees the turn of a piece refused after admission (bad fields) and of a request cut off mid-body', async () => {
    const bad = piece({ id: '../x', name: 'a.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(100));
    expect((await busy.app.inject({ method: 'POST', url, payload: bad.payload, headers: { ...bad.headers, ...uploader.headers } })).statusCode).toBe(400);
    expect((await busy.app.inject({ method: 'POST', url, payload: bad.payload, headers: bad.headers })).statusCode).toBe(401);
    const cut = piece({ id: newUploadId(), name: 'cut.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(100_000));
    const stream = new PassThrough();
    const answer = busy.app.inject({ method: 'POST', url, payload: stream, headers: { ...cut.headers, ...uploader.headers } });
    stream.write(cut.payload.subarray(0, 50_000));
    stream.destroy(new Error('client went away'));
    await answer.catch(() => null);
    const ok = piece({ id: newUploadId(), name: 'fine.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const res = await busy.app.inject({ method: 'POST', url, payload: ok.payload, headers: { ...ok.headers, ...uploader.headers } });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('over real HTTP: the 429 reaches the client whole and the keep-alive connection serves the next call', async () => {
    const address = await busy.app.listen({ port: 0, host: '127.0.0.1' });
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    let connections = 0;
    busy.app.server.on('connection', () => connections++);
    const call = (method: string, path: string, headers: Record<string, string>, body?: Buffer) =>
      new Promise<{ status: number; body: string; headers: Record<string, unknown> }>((resolve, reject) => {
        const req = httpRequest(`${address}${path}`, { method, agent, headers: body ? { ...headers, 'content-length': String(body.length) } : headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString('utf8'), headers: res.headers }));
          res.on('error', reject);
        });
        req.on('error', reject);
        req.end(body);
      });
    try {
      const held = await slowPiece({ id: newUploadId(), name: 'hold.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
      const full = piece({ id: newUploadId(), name: 'whole.pdf', chunks: 2, chunk: 0 }, fakeFile.pdf(UPLOAD_PIECE_SIZE));
      const refused = await call('POST', url, { ...full.headers, ...uploader.headers }, full.payload);
      expect(refused.status).toBe(429);
      expect(refused.headers['retry-after']).toMatch(/^[1-3]$/);
      expect(JSON.parse(refused.body)).toMatchObject({ status: 429, message: UPLOAD_MSG.busy });
      const next = await call('GET', `/api/attachment/piece/status?id=${newUploadId()}`, uploader.headers);
      expect(next.status).toBe(200);
      // One connection for both: the refused body was read off the wire and the socket kept.
      expect(connections).toBe(1);
      expect((await held.finish()).statusCode).toBe(200);
    } finally {
      agent.destroy();
    }
  });

  it('asks refused pieces to wait longer when pieces take long and refusals pile up', async () => {
    // A piece that holds its turn for 3 s raises the instance's average piece time (a moving
    // average weighing the newest piece 0.2: 3 s lifts it to >= 0.6 s). The admission's clock is
    // moved on by 3 s while the piece holds its turn (filesTestApp's `now`), not waited for.
    const slow = await slowPiece({ id: newUploadId(), name: 'slow.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    skew += 3000;
    expect((await slow.finish()).statusCode).toBe(200);
    const held = await slowPiece({ id: newUploadId(), name: 'held.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const waits: number[] = [];
    for (let i = 0; i < 10; i++) {
      const body = piece({ id: newUploadId(), name: 'crowd.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
      const refused = await busy.app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...uploader.headers } });
      expect(refused.statusCode).toBe(429);
      const retryAfter = Number(refused.headers['retry-after']);
      expect(refused.json().data).toEqual({ retryAfter });
      waits.push(retryAfter);
    }
    // Average >= 0.6 s and >= 10 refusals of a limit of 1: at least 0.6 x 11 s, beyond the old fixed 1-3 s.
    expect(waits.at(-1)).toBeGreaterThanOrEqual(7);
    expect(Math.max(...waits)).toBeLessThanOrEqual(60);
    expect((await held.finish()).statusCode).toBe(200);
  });
});

describe('pieces beyond the limit wait in line, unread (UPLOAD_MAX_PIECES_WAITING)', () => {
  let lined: TestApp & { files: FilesService };
  let uploader: SignedIn;
  const url = '/api/attachment/piece/upload';

  beforeAll(async () => {
    lined = await filesTestApp({ UPLOAD_MAX_PIECES_IN_FLIGHT: '1', UPLOAD_MAX_PIECES_WAITING: '1' });
    uploader = await signIn(lined, { realm: 'USER' });
  });
  afterAll(async () => {
    await lined.close();
  });

  it('a piece waits for the place, is read once it is free, and the line takes no one anonymous or beyond its length', async () => {
    const held = await slowPieceOn(lined, uploader, { id: newUploadId(), name: 'held.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const waitingId = newUploadId();
    const waitingBody = piece({ id: waitingId, name: 'waiting.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(2000));
    let settled = false;
    const waiting = lined.app
      .inject({ method: 'POST', url, payload: waitingBody.payload, headers: { ...waitingBody.headers, ...uploader.headers } })
      .finally(() => (settled = true));
    // In line: the line (of 1) has no more room.
    await vi.waitFor(() => expect(lined.files.pieceWouldWait()).toBe(false), { timeout: 5000 });
    // In line, unread: nothing of it on disk, no answer yet.
    expect(settled).toBe(false);
    expect(existsSync(join(lined.config.dataDir, 'uploads', waitingId))).toBe(false);
    // The line (1) is full: the next is refused at once with Retry-After.
    const third = piece({ id: newUploadId(), name: 'third.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const refused = await lined.app.inject({ method: 'POST', url, payload: third.payload, headers: { ...third.headers, ...uploader.headers } });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    // Still unread after a whole request went through meanwhile.
    expect(settled).toBe(false);
    expect(existsSync(join(lined.config.dataDir, 'uploads', waitingId))).toBe(false);
    expect((await held.finish()).statusCode).toBe(200);
    const answer = await waiting;
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().data).toMatchObject({ complete: true, name: 'waiting.pdf', size: 2000 });
  });

  it('checks the session before a piece waits: an anonymous one gets 401, not a place in line', async () => {
    const held = await slowPieceOn(lined, uploader, { id: newUploadId(), name: 'held2.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const body = piece({ id: newUploadId(), name: 'anon.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const anonymous = await lined.app.inject({ method: 'POST', url, payload: body.payload, headers: body.headers });
    expect(anonymous.statusCode).toBe(401);
    expect((await held.finish()).statusCode).toBe(200);
  });

  it('a client that leaves while waiting gives up its place in line', async () => {
    const address = await lined.app.listen({ port: 0, host: '127.0.0.1' });
    const held = await slowPieceOn(lined, uploader, { id: newUploadId(), name: 'held3.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const body = piece({ id: newUploadId(), name: 'leaver.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const req = httpRequest(`${address}${url}`, { method: 'POST', headers: { ...body.headers, ...uploader.headers, 'content-length': String(body.payload.length) } });
    req.on('error', () => {});
    req.write(body.payload.subarray(0, 100));
    // Waiting in line (the only place is held), then gone.
    await vi.waitFor(() => expect(lined.files.pieceWouldWait()).toBe(false), { timeout: 5000 });
    req.destroy();
    // Its place in line is free again: the next piece waits there instead of being refused.
    await vi.waitFor(() => expect(lined.files.pieceWouldWait()).toBe(true), { timeout: 5000 });
    const next = piece({ id: newUploadId(), name: 'next.pdf', chunks: 1, chunk: 0 }, fakeFile.pdf(1000));
    const nextAnswer = lined.app.inject({ method: 'POST', url, payload: next.payload, headers: { ...next.headers, ...uploader.headers } });
    await vi.waitFor(() => expect(lined.files.pieceWouldWait()).toBe(false), { timeout: 5000 });
    expect((await held.finish()).statusCode).toBe(200);
    expect((await nextAnswer).statusCode).toBe(200);
  });
});
