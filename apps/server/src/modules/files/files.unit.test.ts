import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, renameSync, rmSync, utimesSync, writeFileSync, existsSync, mkdirSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentMatchesExtension, fileNameProblem, sniffContentFamily, UPLOAD_MSG, UPLOAD_PIECE_SIZE } from '@contest/shared';
import { ConfigError, loadConfig } from '../../config/config.js';
import { canReadAttachment, type AccessRules, type Reader } from './files.access.js';
import { contentDisposition, etagMatches, isInlinePreviewable, parseRange } from './files.http.js';
import { uniqueNoOf } from './files.service.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { pieceUploads } from '../../db/schema.js';
import { createPieceUploadState, type PieceUploadState } from './files.repository.js';
import { createPieceStore as createStoreOn, type ClaimRecord, type PieceStoreOptions } from './piece-store.js';
import { createLinkSigner } from './signed-link.js';

describe('parseRange', () => {
  it.each([
    [undefined, { kind: 'whole' }],
    ['bytes=0-99', { kind: 'part', start: 0, end: 99 }],
    ['bytes=900-', { kind: 'part', start: 900, end: 999 }],
    ['bytes=-100', { kind: 'part', start: 900, end: 999 }],
    ['bytes=-5000', { kind: 'part', start: 0, end: 999 }],
    ['bytes=990-5000', { kind: 'part', start: 990, end: 999 }],
    ['bytes=1000-', { kind: 'unsatisfiable' }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=5-1', { kind: 'whole' }],
    ['bytes=0-1,5-6', { kind: 'whole' }],
    ['items=0-1', { kind: 'whole' }],
    ['bytes=-', { kind: 'whole' }],
  ])('%s of 1000 bytes', (header, expected) => {
    expect(parseRange(header, 1000)).toEqual(expected);
  });
});

describe('download headers', () => {
  it('writes an ASCII fallback and the RFC 5987 UTF-8 name', () => {
    expect(contentDisposition('inline', '报名表.pdf')).toBe(`inline; filename="___.pdf"; filename*=UTF-8''%E6%8A%A5%E5%90%8D%E8%A1%A8.pdf`);
    expect(contentDisposition('attachment', "it's (1).pdf")).toBe(`attachment; filename="it's (1).pdf"; filename*=UTF-8''it%27s%20%281%29.pdf`);
  });

  it('matches ETags in If-None-Match lists, weak or not', () => {
    expect(etagMatches('"a", W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"b"')).toBe(true);
    expect(etagMatches('"a"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });

  it('previews images and PDFs only', () => {
    expect(isInlinePreviewable('application/pdf')).toBe(true);
    expect(isInlinePreviewable('image/png')).toBe(true);
    expect(isInlinePreviewable('image/svg+xml')).toBe(false);
    expect(isInlinePreviewable('text/html')).toBe(false);
    expect(isInlinePreviewable('video/mp4')).toBe(false);
  });

  it('reads uniqueNo from a filePath link or alone', () => {
    const no = 'abcdefghijklmnopqrstuv';
    expect(uniqueNoOf(no)).toBe(no);
    expect(uniqueNoOf(`/api/attachment/stream/${no}`)).toBe(no);
    expect(uniqueNoOf(`/api/attachment/stream/${no}?preview=1`)).toBe(no);
    expect(uniqueNoOf(`/api/other/${no}`)).toBeNull();
    expect(uniqueNoOf('short')).toBeNull();
  });
});

describe('content checks', () => {
  it('knows real content from its first bytes', () => {
    expect(sniffContentFamily(Buffer.from('%PDF-1.4'))).toBe('pdf');
    expect(sniffContentFamily(Buffer.concat([Buffer.alloc(100, 0x20), Buffer.from('%PDF-1.4')]))).toBe('pdf');
    expect(sniffContentFamily(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffContentFamily(Buffer.from('MZ\x90\x00'))).toBeNull();
    expect(sniffContentFamily(Buffer.from('\x7fELF'))).toBeNull();
    expect(sniffContentFamily(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(contentMatchesExtension('docx', Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(true);
    expect(contentMatchesExtension('pdf', Buffer.from([0x50, 0x4b, 0x03, 0x04]))).toBe(false);
    expect(contentMatchesExtension('exe', Buffer.from('MZ'))).toBe(false);
  });

  it('keeps ordinary names, including ones with # and spaces', () => {
    expect(fileNameProblem('方案 #1 (终稿).pdf')).toBeNull();
    expect(fileNameProblem(' ')).toBe(UPLOAD_MSG.badName);
  });
});

describe('signed links', () => {
  it('verify until they expire, for the account they name', () => {
    let now = new Date('2025-06-01T00:00:00Z');
    const signer = createLinkSigner(Buffer.from('k'.repeat(32)), 900, () => now);
    const { query, expiresAt } = signer.sign('abcdefghijklmnopqrstuv', 'acc-1');
    expect(expiresAt).toBe(now.getTime() + 900_000);
    const params = Object.fromEntries(new URLSearchParams(query));
    expect(signer.verify('abcdefghijklmnopqrstuv', params)).toEqual({ ok: true, accountId: 'acc-1', sessionId: null });
    expect(signer.verify('bbcdefghijklmnopqrstuv', params)).toEqual({ ok: false, reason: 'invalid' });
    expect(signer.verify('abcdefghijklmnopqrstuv', { ...params, acct: 'acc-2' })).toEqual({ ok: false, reason: 'invalid' });
    const other = createLinkSigner(Buffer.from('x'.repeat(32)), 900, () => now);
    expect(other.verify('abcdefghijklmnopqrstuv', params)).toEqual({ ok: false, reason: 'invalid' });
    now = new Date(now.getTime() + 900_000);
    expect(signer.verify('abcdefghijklmnopqrstuv', params)).toEqual({ ok: false, reason: 'expired' });
    const anonymous = Object.fromEntries(new URLSearchParams(signer.sign('abcdefghijklmnopqrstuv', null).query));
    expect(signer.verify('abcdefghijklmnopqrstuv', anonymous)).toEqual({ ok: true, accountId: null, sessionId: null });
  });

  it('bind a link to a session: the session is signed, so it cannot be dropped or swapped', () => {
    const now = new Date('2025-06-01T00:00:00Z');
    const signer = createLinkSigner(Buffer.from('k'.repeat(32)), 900, () => now);
    const sid = '0b8c2f6e-1d2a-4c3b-9a8e-7f6d5c4b3a21';
    const params = Object.fromEntries(new URLSearchParams(signer.sign('abcdefghijklmnopqrstuv', 'acc-1', sid).query));
    expect(params.sid).toBe(sid);
    expect(signer.verify('abcdefghijklmnopqrstuv', params)).toEqual({ ok: true, accountId: 'acc-1', sessionId: sid });
    const { sid: _dropped, ...unbound } = params;
    expect(signer.verify('abcdefghijklmnopqrstuv', unbound)).toEqual({ ok: false, reason: 'invalid' });
    expect(signer.verify('abcdefghijklmnopqrstuv', { ...params, sid: sid.replace('0b8c', '1b8c') })).toEqual({ ok: false, reason: 'invalid' });
    expect(signer.sessionKeyMatches(sid, signer.sessionKey(sid))).toBe(true);
    expect(signer.sessionKeyMatches(sid, signer.sessionKey(sid.replace('0b8c', '1b8c')))).toBe(false);
    expect(signer.sessionKeyMatches(sid, undefined)).toBe(false);
  });
});

describe('canReadAttachment matrix', () => {
  const file = { id: 'f1', ownerId: 'owner', isPublic: false };
  const rules = (adminHasButton: boolean, expertAssigned: boolean, documentFor: string | null = null): AccessRules => ({
    adminCan: async (_ctx, code) => adminHasButton && code === 'file:read',
    isExpertAssigned: async (expertId, attachmentId) => expertAssigned && expertId === 'expert' && attachmentId === 'f1',
    canReadDocumentFile: async (accountId, attachmentId) => accountId === documentFor && attachmentId === 'f1',
    expertFileView: async (_expertId, f) => ({ name: f.originalName, blind: true, download: 'none', watermark: [] }),
  });
  const user = (accountId: string): Reader => ({ kind: 'account', accountId, realm: 'USER', roleCode: 'USER' });
  const admin: Reader = { kind: 'account', accountId: 'admin', realm: 'ADMIN', roleCode: 'SYSTEM' };
  const expert: Reader = { kind: 'account', accountId: 'expert', realm: 'EXPERT', roleCode: 'EXPERT' };

  it.each([
    ['owner', user('owner'), rules(false, false), true],
    ['other participant', user('other'), rules(true, true), false],
    ['participant a document using the file is meant for', user('reader'), rules(false, false, 'reader'), true],
    ['participant a document is not meant for', user('other'), rules(true, true, 'reader'), false],
    ['admin is not let in by a document rule', admin, rules(false, false, 'admin'), false],
    ['admin with file:read', admin, rules(true, false), true],
    ['admin without file:read', admin, rules(false, true), false],
    ['assigned expert', expert, rules(false, true), true],
    ['expert not assigned', expert, rules(true, false), false],
    ['anonymous', { kind: 'anonymous' } as Reader, rules(true, true), false],
  ])('%s', async (_who, reader, r, expected) => {
    expect(await canReadAttachment(reader, file, r)).toBe(expected);
    expect(await canReadAttachment(reader, { ...file, isPublic: true }, r)).toBe(true);
  });
});

// The piece store keeps its state in the database (piece_uploads): one database for these tests,
// owners are real accounts.
let t: TestApp;
let state: PieceUploadState;
let a = '';
const owners: string[] = [];
beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  state = createPieceUploadState(t.database.db);
  for (let i = 0; i < 3; i++) owners.push((await signIn(t, { realm: 'USER' })).accountId);
  a = owners[0]!;
});
afterAll(async () => {
  await t?.close();
});
const createPieceStore = (root: string, options?: PieceStoreOptions) => createStoreOn(root, state, options);
const uid = () => `u-${randomBytes(8).toString('hex')}`;

describe('piece store', () => {
  const [u1, u2, u3, u4, u5, u7] = [uid(), uid(), uid(), uid(), uid(), uid()];
  it('lets exactly one of many concurrent callers claim the join', async () => {
    const store = createPieceStore(mkdtempSync(join(tmpdir(), 'pieces-')));
    await store.openUpload(u1, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 1 });
    const claims = await Promise.all(Array.from({ length: 20 }, () => store.claimJoin(u1)));
    expect(claims.filter(Boolean)).toHaveLength(1);
  });

  /** A pid that was just used and is gone (the process ran and exited). */
  const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid;
  const otherProcess = (pid: number) => ({ host: hostname(), pid, instance: `other-${pid}` });
  /** What a holder leaves behind when it is killed: its claim, last refreshed `ageMs` ago. */
  async function leaveClaim(_root: string, id: string, record: Partial<ClaimRecord>, ageMs = 0) {
    const claim = { host: hostname(), pid: 1, instance: 'gone', token: 'c0ffee00-0000-4000-8000-000000000000', ...record };
    await t.database.db.update(pieceUploads).set({ claim, claimedAt: new Date(Date.now() - ageMs) }).where(eq(pieceUploads.id, id));
  }

  it('takes over a claim whose holder died, in exactly one of many processes', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pieces-'));
    await createPieceStore(root).openUpload(u3, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 1 });
    const dead = deadPid();
    await leaveClaim(root, u3, { pid: dead });
    // Ten live processes sharing DATA_DIR, each with its own pid and instance.
    const stores = Array.from({ length: 10 }, (_, i) => createPieceStore(root, { owner: otherProcess(process.pid + 1000 + i), isAlive: (pid) => pid !== dead }));
    const claims = await Promise.all(stores.map((store) => store.claimJoin(u3)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    const winner = claims.find(Boolean)!;
    expect(await winner.holds()).toBe(true);
  });

  it('respects a live holder until its claim goes unrefreshed past the bound', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pieces-'));
    const holder = createPieceStore(root, { owner: otherProcess(process.pid + 1), isAlive: () => true });
    const other = createPieceStore(root, { owner: otherProcess(process.pid + 2), isAlive: () => true });
    await holder.openUpload(u4, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 1 });
    const held = await holder.claimJoin(u4);
    expect(held).not.toBeNull();
    expect(await other.claimJoin(u4)).toBeNull();
    // Three minutes without a heartbeat: the holder hangs (or runs on a host we cannot ask).
    await t.database.db.update(pieceUploads).set({ claimedAt: new Date(Date.now() - 3 * 60_000) }).where(eq(pieceUploads.id, u4));
    const taken = await other.claimJoin(u4);
    expect(taken).not.toBeNull();
    expect(await held!.holds()).toBe(false);
    expect(await taken!.holds()).toBe(true);
    // The new holder's heartbeat keeps others out.
    await taken!.beat();
    expect(await holder.claimJoin(u4)).toBeNull();
  });

  it('takes over the claim of an earlier life of this process (same pid, other instance)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pieces-'));
    const store = createPieceStore(root);
    await store.openUpload(u5, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 1 });
    await leaveClaim(root, u5, { pid: process.pid, instance: 'before-restart' });
    expect(await store.claimJoin(u5)).not.toBeNull();

  });

  it('keeps a claim of another host while it is refreshed', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pieces-'));
    const store = createPieceStore(root);
    await store.openUpload(u7, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 1 });
    await leaveClaim(root, u7, { host: 'another-host', pid: deadPid() }, 60_000);
    expect(await store.claimJoin(u7)).toBeNull();
    await leaveClaim(root, u7, { host: 'another-host', pid: deadPid() }, 3 * 60_000);
    expect(await store.claimJoin(u7)).not.toBeNull();
  });

  it('keeps the first meta when two first pieces race', async () => {
    const store = createPieceStore(mkdtempSync(join(tmpdir(), 'pieces-')));
    const metas = await Promise.all(
      owners.map((owner) => store.openUpload(u2, { owner, origin: 'OTHER', name: 'x.pdf', chunks: 1 })),
    );
    const winner = metas.find((m, i) => m.owner === owners[i])!;
    for (const m of metas) expect(m).toEqual(winner);
  });

  it('sweeps uploads and stray request bodies idle for a day, and nothing newer', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pieces-'));
    const store = createPieceStore(root);
    const [old, fresh] = [uid(), uid()];
    await store.openUpload(old, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 2 });
    await store.openUpload(fresh, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 2 });
    await put(store, old, 0);
    const stray = await store.incomingPath();
    writeFileSync(stray, 'partial');
    const dayAndABit = new Date(Date.now() - 25 * 3600_000);
    await t.database.db.update(pieceUploads).set({ updatedAt: dayAndABit }).where(eq(pieceUploads.id, old));
    utimesSync(stray, dayAndABit, dayAndABit);
    // Bytes no upload names (an earlier version's folder): old ones go, new ones stay.
    mkdirSync(join(root, 'orphan-old'));
    utimesSync(join(root, 'orphan-old'), dayAndABit, dayAndABit);
    mkdirSync(join(root, 'empty-new'));
    expect(await store.sweep(24 * 3600_000)).toBe(3);
    expect(await state.find(old)).toBeUndefined();
    expect(existsSync(join(root, old))).toBe(false);
    expect(existsSync(stray)).toBe(false);
    expect(existsSync(join(root, 'orphan-old'))).toBe(false);
    expect(await state.find(fresh)).toBeDefined();
    expect(existsSync(join(root, 'empty-new'))).toBe(true);
  });

  async function put(store: ReturnType<typeof createPieceStore>, id: string, chunk: number) {
    const sink = await store.pieceWriter(id, chunk);
    await pipeline(Readable.from([Buffer.alloc(UPLOAD_PIECE_SIZE, 1)]), sink.stream);
    await sink.mark(UPLOAD_PIECE_SIZE);
  }
});

describe('piece store: the running hash (folded as pieces come)', () => {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
  /** 2 whole pieces and a short last one, as the uploader cuts a file. */
  const content = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(2 * UPLOAD_PIECE_SIZE + 12_345 - 9)]);
  const pieceOf = (chunk: number) => content.subarray(chunk * UPLOAD_PIECE_SIZE, (chunk + 1) * UPLOAD_PIECE_SIZE);

  async function setup(root = mkdtempSync(join(tmpdir(), 'pieces-'))) {
    const store = createPieceStore(root);
    const id = uid();
    await store.openUpload(id, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 3 });
    return { root, store, id };
  }

  /** As the service takes a piece: written into its range, marked, folded. */
  async function put(store: ReturnType<typeof createPieceStore>, id: string, chunk: number, bytes = pieceOf(chunk), fold = true) {
    const sink = await store.pieceWriter(id, chunk);
    await pipeline(Readable.from([bytes]), sink.stream);
    await sink.mark(bytes.length);
    if (fold) await store.fold(id);
  }

  it('pieces in order: the join reads nothing back and stores the hash of the whole file', async () => {
    const { store, id } = await setup();
    for (const chunk of [0, 1, 2]) await put(store, id, chunk);
    const joined = await store.join(id, content.length);
    expect(joined).toMatchObject({ size: content.length, sha256: sha(content), rehashedBytes: 0 });
  });

  it('pieces out of order: each waits for the ones before it, and the hash is still the whole file\'s', async () => {
    const { store, id } = await setup();
    for (const chunk of [2, 0, 1]) await put(store, id, chunk);
    expect(await store.join(id, content.length)).toMatchObject({ sha256: sha(content), rehashedBytes: 0 });
  });

  it('pieces folded concurrently still go in order', async () => {
    const { store, id } = await setup();
    await Promise.all([2, 1, 0].map((chunk) => put(store, id, chunk)));
    expect((await store.join(id, content.length)).sha256).toBe(sha(content));
  });

  it('after a restart (a new store over the same folder) the join hashes what the lost hash held', async () => {
    const { root, store, id } = await setup();
    await put(store, id, 0);
    await put(store, id, 1);
    const restarted = createPieceStore(root);
    await put(restarted, id, 2, pieceOf(2), false);
    const joined = await restarted.join(id, content.length);
    expect(joined).toMatchObject({ size: content.length, sha256: sha(content), rehashedBytes: content.length });
  });

  it('a piece sent again with other bytes after it was folded: the hash is of the bytes now on disk', async () => {
    const { store, id } = await setup();
    for (const chunk of [0, 1]) await put(store, id, chunk);
    const other = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(UPLOAD_PIECE_SIZE - 9)]);
    await put(store, id, 0, other);
    await put(store, id, 2);
    const expected = Buffer.concat([other, pieceOf(1), pieceOf(2)]);
    expect((await store.join(id, expected.length)).sha256).toBe(sha(expected));
  });

  it('a piece rewritten by another instance (its mark token changed) is read back at the join', async () => {
    const { root, store, id } = await setup();
    for (const chunk of [0, 1, 2]) await put(store, id, chunk);
    const other = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(UPLOAD_PIECE_SIZE - 9)]);
    await put(createPieceStore(root), id, 1, other, false);
    const expected = Buffer.concat([pieceOf(0), other, pieceOf(2)]);
    const joined = await store.join(id, expected.length);
    expect(joined).toMatchObject({ sha256: sha(expected), rehashedBytes: expected.length });
  });

  it('a data file replaced under the same markers (moved away, then written anew) is not trusted', async () => {
    const { root, store, id } = await setup();
    await put(store, id, 0);
    await put(store, id, 1);
    // A store took the file over; a later write of the last piece makes a new, sparse one.
    renameSync(join(root, id, 'data'), join(root, 'moved'));
    await put(store, id, 2);
    const expected = Buffer.concat([Buffer.alloc(2 * UPLOAD_PIECE_SIZE), pieceOf(2)]);
    expect((await store.join(id, expected.length)).sha256).toBe(sha(expected));
  });

  it('does not trust the running hash once a join has planned (its file may have gone to storage and come back empty)', async () => {
    const { root, store, id } = await setup();
    for (const chunk of [0, 1, 2]) await put(store, id, chunk);
    await store.writePlan(id, { id: 'p', uniqueNo: 'u', storageKey: 'k', size: content.length, sha256: sha(content) });
    // Taken over by a store, then lost there (its inode free for the next file); the last piece comes again.
    rmSync(join(root, id, 'data'));
    await put(store, id, 2);
    const expected = Buffer.concat([Buffer.alloc(2 * UPLOAD_PIECE_SIZE), pieceOf(2)]);
    expect(await store.join(id, expected.length)).toMatchObject({ sha256: sha(expected), rehashedBytes: expected.length });
  });

  it('keeps at most maxFolds running hashes, dropping the idlest (its join reads the file back)', async () => {
    const root = mkdtempSync(join(tmpdir(), 'pieces-'));
    const store = createPieceStore(root, { maxFolds: 1 });
    for (const id of ['first', 'second']) {
      await store.openUpload(id, { owner: a, origin: 'OTHER', name: 'x.pdf', chunks: 1 });
      await put(store, id, 0, pieceOf(2));
    }
    expect(await store.join('first', pieceOf(2).length)).toMatchObject({ sha256: sha(pieceOf(2)), rehashedBytes: pieceOf(2).length });
    expect(await store.join('second', pieceOf(2).length)).toMatchObject({ sha256: sha(pieceOf(2)), rehashedBytes: 0 });
  });
});

describe('UPLOAD_MAX_PIECES_IN_FLIGHT', () => {
  it('defaults to 16 and takes 1 to 1000', () => {
    expect(loadConfig({}).files.maxPiecesInFlight).toBe(16);
    expect(loadConfig({ UPLOAD_MAX_PIECES_IN_FLIGHT: '1' }).files.maxPiecesInFlight).toBe(1);
    for (const bad of ['0', '1001', '2.5', 'many']) {
      expect(() => loadConfig({ UPLOAD_MAX_PIECES_IN_FLIGHT: bad })).toThrow(
        new ConfigError(`Invalid configuration: UPLOAD_MAX_PIECES_IN_FLIGHT must be an integer from 1 to 1000 (got "${bad}")`),
      );
    }
  });
});

describe('UPLOAD_MAX_PIECES_WAITING', () => {
  it('defaults to 4096 and takes 0 (refuse at once) to 10000', () => {
    expect(loadConfig({}).files.maxPiecesWaiting).toBe(4096);
    expect(loadConfig({ UPLOAD_MAX_PIECES_WAITING: '0' }).files.maxPiecesWaiting).toBe(0);
    for (const bad of ['-1', '10001', '2.5', 'many']) {
      expect(() => loadConfig({ UPLOAD_MAX_PIECES_WAITING: bad })).toThrow(
        new ConfigError(`Invalid configuration: UPLOAD_MAX_PIECES_WAITING must be an integer from 0 to 10000 (got "${bad}")`),
      );
    }
  });
});
