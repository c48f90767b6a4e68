import { randomBytes, randomUUID } from 'node:crypto';
import { open, rm } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import {
  EXPERT_DOWNLOAD_REASONS,
  EXPERT_FILE_MSG,
  SNIFF_BYTES,
  UPLOAD_ID_PATTERN,
  UPLOAD_MSG,
  UPLOAD_PIECE_SIZE,
  UPLOAD_RESTART_REASON,
  UPLOAD_RULES,
  contentMatchesExtension,
  extensionOfName,
  fileNameProblem,
  mimeOfExtension,
  pieceCountOf,
  uploadProblem,
  type AttachmentOrigin,
  type FileAccessUrl,
  type PieceUploadAnswer,
  type UploadedFile,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, forbidden, notFound } from '../../lib/errors.js';
import { isInlinePreviewable } from '../../lib/content-disposition.js';
import { presignDownload, type ByteRange, type Storage } from '../../lib/storage/storage.js';
import { recordOperation } from '../audit/operation-log.js';
import type { AuthContext } from '../auth/session.service.js';
import { isStrippable, stampPdf, stampTime, stripMetadata } from './blind-copy.js';
import { createAdmission, PIECE_WAIT_MS } from './admission.js';
import { ANONYMOUS, canReadAttachment, type AccessRules, type Reader } from './files.access.js';
import type { AttachmentRow, FilesRepository } from './files.repository.js';
import { CLAIM_HEARTBEAT_MS, type JoinClaim, type PieceSink, type PieceStore, type StorePlan, type UploadMeta } from './piece-store.js';
import type { LinkParams, LinkSigner } from './signed-link.js';

/** Whoever uploads: a signed-in account, with request details for the operation record. */
export interface Uploader {
  auth: AuthContext;
  ip?: string;
  userAgent?: string;
}

/** A request body already written to a temporary file by the route. */
export interface ReceivedFile {
  path: string;
  size: number;
  /** Set for single uploads, which hash while receiving. */
  sha256?: string;
  head?: Buffer;
}

export interface PieceInput {
  origin: AttachmentOrigin;
  id: string;
  name: string;
  chunks: number;
  chunk: number;
}

/**
 * A piece being written straight into its upload's data file (see beginPiece). `finish` checks
 * and records it; `release` (idempotent) ends the write when the request fails first.
 */
export interface PieceWrite {
  stream: Writable;
  finish(received: { size: number; head: Buffer }): Promise<PieceUploadAnswer>;
  release(): Promise<void>;
}

export const STREAM_PATH = '/api/attachment/stream/';

/**
 * How a reader gets a file: under which name, and whether the bytes are the stored ones
 * (`copy` null: ranges, ETag and store redirects apply) or a copy made for them (experts:
 * metadata stripped under blind review, a download stamped with their watermark).
 */
export interface Delivery {
  name: string;
  copy: { strip: boolean; stamp: string[] | null } | null;
}

/** What a signed-link request brings to prove whose session it is: its bearer token's session, the file-key cookie. */
export interface LinkProof {
  sessionId?: string;
  cookie?: string;
}

/** Media the expert pages play in the browser (<video src>), which counts as previewing. */
const isPlayable = (mimeType: string) => /^(video|audio)\//.test(mimeType);
// 16 random bytes, base64url: the public handle in links; unguessable, though access is checked anyway.
const UNIQUE_NO_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export interface FilesServiceDeps {
  db: Db;
  repo: FilesRepository;
  storage: Storage;
  pieces: PieceStore;
  links: LinkSigner;
  rules: AccessRules;
  limits?: UploadLimits;
  /** The admission's clock (ms; Date.now by default). */
  now?: (() => number) | undefined;
  /** More leftovers the daily sweep clears (direct uploads: direct-upload.service.ts). */
  sweeps?: Array<(maxAgeMs: number, now?: Date) => Promise<number>>;
}

/** What uploads may hold of one instance at a time. */
export interface UploadLimits {
  /** Piece requests admitted at once (UPLOAD_MAX_PIECES_IN_FLIGHT); beyond, they wait in line. */
  piecesInFlight?: number;
  /** Piece requests that may wait, unread, for a place (UPLOAD_MAX_PIECES_WAITING); beyond, 429 before the body is read. */
  piecesWaiting?: number;
  /** The longest wait in that line before a 429 (default PIECE_WAIT_MS). */
  pieceWaitMs?: number;
  /** Event-loop delay (ms) above which fewer pieces are read at once (default 50; 0: never fewer). */
  lagTargetMs?: number;
  /** Joins run at once; the next ones wait their turn (default 4). */
  joins?: number;
}

export const DEFAULT_PIECES_IN_FLIGHT = 16;
export const DEFAULT_PIECES_WAITING = 4096;
/** A loop that keeps requests waiting longer than this (p99) reads fewer pieces at once. */
export const DEFAULT_LAG_TARGET_MS = 50;
const DEFAULT_JOINS = 4;

export function toUploadedFile(row: AttachmentRow): UploadedFile {
  return {
    uniqueNo: row.uniqueNo,
    name: row.originalName,
    extension: row.extension,
    size: row.size,
    mimeType: row.mimeType,
    isPublic: row.isPublic,
    filePath: `${STREAM_PATH}${row.uniqueNo}`,
  };
}

/** Accepts `<uniqueNo>` or a filePath link (`/api/attachment/stream/<uniqueNo>[?...]`). */
export function uniqueNoOf(filePath: string): string | null {
  const bare = filePath.trim().replace(/[?#].*$/, '');
  const uniqueNo = bare.includes('/') ? bare.slice(bare.lastIndexOf('/') + 1) : bare;
  if (bare.includes('/') && !bare.endsWith(`/attachment/stream/${uniqueNo}`)) return null;
  return UNIQUE_NO_PATTERN.test(uniqueNo) ? uniqueNo : null;
}

/** 403 unless the caller's realm (and, for staff, button) may upload `origin` (docs/files.md, "Who may upload which origin"). */
export async function assertMayUpload(rules: Pick<AccessRules, 'adminCan'>, auth: AuthContext, origin: AttachmentOrigin): Promise<void> {
  const rule = UPLOAD_RULES[origin];
  if (auth.realm !== rule.uploader) throw forbidden(UPLOAD_MSG.originNotAllowed);
  if (rule.button && !(await rules.adminCan(auth, rule.button))) throw forbidden(UPLOAD_MSG.originNotAllowed);
}

/** 400 with the name's problem (empty, a path, controls, too long), else nothing. */
export function checkName(name: string): void {
  const problem = fileNameProblem(name);
  if (problem) throw badRequest(problem, { field: 'name' });
}

/** A new storage key, `yyyy/mm/<uuid>` (docs/files.md, "Storage"), with the uuid it ends in. */
export function newStorageKey(): { id: string; storageKey: string } {
  const id = randomUUID();
  const at = new Date();
  return { id, storageKey: `${at.getUTCFullYear()}/${String(at.getUTCMonth() + 1).padStart(2, '0')}/${id}` };
}

/** A new public handle: 16 random bytes, base64url (22 characters). */
export const newUniqueNo = (): string => randomBytes(16).toString('base64url');

/** Fresh ids for a file about to be stored. */
export function newPlan(file: { size: number; sha256: string }): StorePlan {
  return { ...newStorageKey(), uniqueNo: newUniqueNo(), size: file.size, sha256: file.sha256 };
}

/**
 * The row of an object already in storage (and, for staff, the operation record), in the
 * caller's transaction: every upload path records its file here.
 */
export async function recordAttachment(tx: Db, repo: FilesRepository, uploader: Uploader, origin: AttachmentOrigin, name: string, plan: StorePlan): Promise<AttachmentRow> {
  const extension = extensionOfName(name);
  const inserted = await repo.insert(tx, {
    id: plan.id,
    uniqueNo: plan.uniqueNo,
    ownerId: uploader.auth.accountId,
    origin,
    originalName: name,
    extension,
    mimeType: mimeOfExtension(extension),
    size: plan.size,
    sha256: plan.sha256,
    storageKey: plan.storageKey,
    isPublic: UPLOAD_RULES[origin].isPublic,
  });
  if (uploader.auth.realm !== 'USER') {
    await recordOperation(tx, uploader, {
      action: 'file:upload',
      targetType: 'attachment',
      targetId: inserted.uniqueNo,
      summary: `上传附件 ${name}（${origin}，${plan.size} 字节）`,
    });
  }
  return inserted;
}

/** The answer of a finished chunked (or direct) upload: the stored file with every piece received. */
export const completeAnswer = (id: string, chunks: number, file: UploadedFile): PieceUploadAnswer => ({
  complete: true,
  id,
  chunks,
  received: Array.from({ length: chunks }, (_, i) => i),
  ...file,
});

/** The answer while pieces are missing. */
export const pendingAnswer = (id: string, chunks: number, received: number[]): PieceUploadAnswer => ({ complete: false, id, chunks, received, filePath: null });

export function createFilesService(deps: FilesServiceDeps) {
  const { db, repo, storage, pieces, links, rules } = deps;
  const maxPieces = deps.limits?.piecesInFlight ?? DEFAULT_PIECES_IN_FLIGHT;
  // Retry-After of a refused piece comes from the instance's own piece durations and refusals.
  const admission = createAdmission({
    limit: maxPieces,
    maxWaiting: deps.limits?.piecesWaiting ?? DEFAULT_PIECES_WAITING,
    maxWaitMs: deps.limits?.pieceWaitMs ?? PIECE_WAIT_MS,
    lagTargetMs: deps.limits?.lagTargetMs ?? DEFAULT_LAG_TARGET_MS,
    now: deps.now,
  });
  // Joins hash what was not folded and hand the file to storage (for S3, the whole file again):
  // a few at a time, so a burst of finishing uploads does not take every disk and socket at once.
  const joinSlots = createSlots(deps.limits?.joins ?? DEFAULT_JOINS);
  // Joins running in this process, so concurrent final pieces wait for the one join.
  const joins = new Map<string, Promise<PieceUploadAnswer>>();
  // Pieces being written into each upload's data file; a join waits until none are, and no new
  // write starts once the join is set, so the file is not changed under the hash.
  const writers = new Map<string, number>();
  const idle = new Map<string, Array<() => void>>();
  const startWrite = (id: string) => writers.set(id, (writers.get(id) ?? 0) + 1);
  const endWrite = (id: string) => {
    const left = (writers.get(id) ?? 1) - 1;
    if (left > 0) {
      writers.set(id, left);
      return;
    }
    writers.delete(id);
    for (const wake of idle.get(id) ?? []) wake();
    idle.delete(id);
  };
  const writesDone = (id: string) =>
    writers.has(id) ? new Promise<void>((resolve) => idle.set(id, [...(idle.get(id) ?? []), resolve])) : Promise.resolve();

  const mayUpload = (auth: AuthContext, origin: AttachmentOrigin) => assertMayUpload(rules, auth, origin);

  /** Stores a complete, checked local file and records it; nothing remains if any step fails. */
  async function store(uploader: Uploader, origin: AttachmentOrigin, name: string, path: string, plan: StorePlan): Promise<UploadedFile> {
    await storage.putFile(plan.storageKey, path, { size: plan.size, sha256: plan.sha256, contentType: mimeOfExtension(extensionOfName(name)) });
    return record(uploader, origin, name, plan);
  }

  /** The row (and, for staff, the operation record) of an object already in storage. */
  async function record(uploader: Uploader, origin: AttachmentOrigin, name: string, plan: StorePlan): Promise<UploadedFile> {
    try {
      const row = await db.transaction((tx) => recordAttachment(tx, repo, uploader, origin, name, plan));
      return toUploadedFile(row);
    } catch (err) {
      await storage.delete(plan.storageKey).catch(() => {});
      throw err;
    }
  }

  const pending = pendingAnswer;
  const done = completeAnswer;

  /** The checks a piece passes before any of its bytes are kept. */
  async function checkPieceFields(uploader: Uploader, input: PieceInput): Promise<void> {
    const { origin, id, name, chunks, chunk } = input;
    if (!UPLOAD_ID_PATTERN.test(id)) throw badRequest(UPLOAD_MSG.badUploadId, { field: 'id' });
    await mayUpload(uploader.auth, origin);
    checkName(name);
    const maxChunks = pieceCountOf(UPLOAD_RULES[origin].maxBytes);
    if (chunks < 1 || chunk < 0 || chunk >= chunks) throw badRequest(UPLOAD_MSG.badChunk, { field: 'chunk' });
    // Checked before a byte is kept: a file this many pieces long can never fit.
    const extensionProblem = uploadProblem(origin, name, 1);
    if (extensionProblem) throw badRequest(extensionProblem);
    if (chunks > maxChunks) throw badRequest(UPLOAD_MSG.tooLarge);
  }

  function checkPieceSize({ chunks, chunk }: PieceInput, size: number): void {
    const last = chunk === chunks - 1;
    if (size === 0 && chunks === 1) throw badRequest(UPLOAD_MSG.empty);
    if (last ? size < 1 || size > UPLOAD_PIECE_SIZE : size !== UPLOAD_PIECE_SIZE) throw badRequest(UPLOAD_MSG.badPieceSize);
  }

  /** The upload's meta (created by its first piece); the piece must be the owner's and agree with it. */
  async function openUpload(uploader: Uploader, { origin, id, name, chunks }: PieceInput): Promise<UploadMeta> {
    const meta = await pieces.openUpload(id, { owner: uploader.auth.accountId, origin, name, chunks });
    if (meta.owner !== uploader.auth.accountId) throw badRequest(UPLOAD_MSG.foreignUploadId, { field: 'id' });
    if (meta.origin !== origin || meta.name !== name || meta.chunks !== chunks) throw badRequest(UPLOAD_MSG.chunkMismatch);
    return meta;
  }

  /** After a piece is in: the pieces still missing, or the join (shared by every request that completes the set). */
  async function afterPiece(uploader: Uploader, id: string, meta: UploadMeta): Promise<PieceUploadAnswer> {
    const received = await pieces.received(id);
    if (received.length < meta.chunks) return pending(id, meta.chunks, received);
    let join = joins.get(id);
    if (!join) {
      // Set before any await, so every request of this process finishing the set shares one join.
      join = joinAndStore(uploader, id, meta);
      joins.set(id, join);
      const forget = () => joins.delete(id);
      join.then(forget, forget);
    }
    return join;
  }

  /**
   * Claims, checks, joins and stores an upload whose pieces are all in; at most once per upload.
   * A claim left by a process that died mid-join is taken over (piece-store.ts) and the join is
   * finished from what that process left: its plan (the ids it chose) tells whether the row or
   * the stored object already exist; otherwise the join is redone from the pieces.
   */
  async function joinAndStore(uploader: Uploader, id: string, meta: UploadMeta): Promise<PieceUploadAnswer> {
    // Queued before claiming: a claim is only taken by a join that runs (and so keeps it fresh).
    const leave = await joinSlots.enter();
    try {
      return await claimedJoin(uploader, id, meta);
    } finally {
      leave();
    }
  }

  async function claimedJoin(uploader: Uploader, id: string, meta: UploadMeta): Promise<PieceUploadAnswer> {
    const claim = await pieces.claimJoin(id);
    if (!claim) {
      // Another request or instance holds the join: report progress; status calls show the end.
      const file = await pieces.result(id);
      return file ? done(id, meta.chunks, file) : pending(id, meta.chunks, await pieces.received(id));
    }
    // The claim's claimed_at is its heartbeat: a join slower than the stale bound is not taken over.
    const heartbeat = setInterval(() => void claim.beat().catch(() => {}), CLAIM_HEARTBEAT_MS);
    heartbeat.unref();
    try {
      await writesDone(id);
      const file = await finishJoin(uploader, id, meta, claim);
      if (!file) return pending(id, meta.chunks, await pieces.received(id));
      return done(id, meta.chunks, file);
    } catch (err) {
      await pieces.discard(id);
      // A file or piece the join needs is gone (a crash after storage took the file over): the
      // client cannot resume this upload, only send the file again.
      if (!(err instanceof AppError) && (err as NodeJS.ErrnoException).code === 'ENOENT') throw interrupted();
      throw err;
    } finally {
      clearInterval(heartbeat);
      claim.release();
    }
  }

  const interrupted = () => badRequest(UPLOAD_MSG.uploadInterrupted, { reason: UPLOAD_RESTART_REASON });

  /** The stored file, or null when another process took the claim over meanwhile (it finishes). */
  async function finishJoin(uploader: Uploader, id: string, meta: UploadMeta, claim: JoinClaim): Promise<UploadedFile | null> {
    const plan = await pieces.plan(id);
    if (plan) {
      const row = await repo.findByUniqueNo(plan.uniqueNo);
      if (row) {
        const file = toUploadedFile(row);
        await pieces.complete(id, file);
        return file;
      }
      // Stored but not recorded: the object is the checked, joined file (the store put it there).
      if ((await storage.head(plan.storageKey))?.size === plan.size) {
        const file = await record(uploader, meta.origin, meta.name, plan);
        await pieces.complete(id, file);
        return file;
      }
      if (!(await pieces.hasData(id))) throw interrupted();
    }
    let total = 0;
    for (let chunk = 0; chunk < meta.chunks; chunk++) total += await pieces.pieceSize(id, chunk);
    // With a plan the first join has checked these already; its hash decides below.
    if (!plan) {
      const problem = uploadProblem(meta.origin, meta.name, total);
      if (problem) throw badRequest(problem);
      if (!contentMatchesExtension(extensionOfName(meta.name), await pieces.head(id, 0))) throw badRequest(UPLOAD_MSG.contentMismatch);
    }
    const joined = await pieces.join(id, total);
    try {
      if (joined.size !== total) throw badRequest(UPLOAD_MSG.uploadFailed);
      // A redone join must find the bytes the first one planned to store (pieces sent again since are the same file).
      if (plan && (plan.sha256 !== joined.sha256 || plan.size !== joined.size)) throw interrupted();
      const chosen = plan ?? newPlan(joined);
      if (!plan) await pieces.writePlan(id, chosen);
      // A holder that stalled past the stale bound has been replaced: leave the work to the new one.
      if (!(await claim.holds())) return null;
      const file = await store(uploader, meta.origin, meta.name, joined.path, chosen);
      await pieces.complete(id, file);
      return file;
    } finally {
      // S3: the joined file is a temporary copy of the pieces (storage took it over if it got that far).
      if (pieces.inStore) await rm(joined.path, { force: true });
    }
  }

  async function readerFor(accountId: string | null, sessionId: string | null = null): Promise<Reader> {
    if (accountId === null) return ANONYMOUS;
    const account = await repo.linkAccount(accountId);
    if (!account || !account.enabled) throw forbidden(UPLOAD_MSG.linkExpired);
    return { kind: 'account', accountId: account.accountId, realm: account.realm, roleCode: account.roleCode, ...(sessionId ? { sessionId } : {}) };
  }

  async function readAll(row: AttachmentRow): Promise<Uint8Array> {
    const body = await storage.get(row.storageKey);
    if (!body) throw notFound();
    const chunks: Buffer[] = [];
    for await (const chunk of body) chunks.push(chunk as Buffer);
    return new Uint8Array(Buffer.concat(chunks));
  }

  return {
    /**
     * Admits one piece request (called before its body is read), returning what ends its turn
     * (idempotent). Beyond the instance's limit the request waits in line, unread; when the line
     * is full or the wait too long: 429 with `data.retryAfter` seconds (admission.ts: about when a
     * place should be free), so a crowd of uploads waits its turn instead of holding the server's
     * memory, disk and event loop. `signal` aborts the wait (the client left).
     */
    /** The event loop's recent delay (p99, ms; files.module samples it): the pieces read at once follow it. */
    observeEventLoopLag(lagMs: number): void {
      admission.adjust(lagMs);
    },

    /** Whether a piece arriving now would wait in line (not taken at once, not refused at once). */
    pieceWouldWait(): boolean {
      return admission.wouldWait();
    },

    async admitPiece(signal?: AbortSignal): Promise<() => void> {
      const turn = await admission.enter(signal);
      if (!turn.admitted) throw new AppError('RATE_LIMITED', UPLOAD_MSG.busy, { retryAfter: Math.max(1, turn.retryAfter) });
      return turn.leave;
    },

    /**
     * One piece of a chunked upload (0-based `chunk` of `chunks`). Pieces arrive in any order and
     * in parallel; the request that brings the last one joins, checks and stores the file.
     */
    async acceptPiece(uploader: Uploader, input: PieceInput, body: ReceivedFile): Promise<PieceUploadAnswer> {
      const { id, chunks, chunk } = input;
      let meta: UploadMeta;
      try {
        await checkPieceFields(uploader, input);
        checkPieceSize(input, body.size);
        meta = await openUpload(uploader, input);
        const stored = await pieces.result(id);
        if (stored) return done(id, chunks, stored);
        const running = joins.get(id);
        if (running) return await running;
        if (chunk === 0 && !contentMatchesExtension(extensionOfName(input.name), await headOf(body))) {
          // The file can never pass: drop what came before too.
          await pieces.discard(id);
          throw badRequest(UPLOAD_MSG.contentMismatch);
        }
        startWrite(id);
        try {
          await pieces.putPiece(id, chunk, body.path, body.size);
          await pieces.fold(id);
        } finally {
          endWrite(id);
        }
      } finally {
        await rm(body.path, { force: true });
      }
      return afterPiece(uploader, id, meta);
    },

    /**
     * The usual way a piece arrives (its fields before its bytes): checks what can be checked
     * before the bytes, then hands out a stream into the piece's range of the data file, so the
     * bytes are written to disk once. Null when the upload is already stored or being joined:
     * the route then takes the body into a temporary file and acceptPiece answers.
     */
    async beginPiece(uploader: Uploader, input: PieceInput): Promise<PieceWrite | null> {
      const { id, chunks, chunk } = input;
      await checkPieceFields(uploader, input);
      const meta = await openUpload(uploader, input);
      if (await pieces.result(id)) return null;
      // Checked again after the last await and counted at once: a join set from here on waits for this write.
      if (joins.has(id)) return null;
      startWrite(id);
      let released = false;
      let sink: PieceSink | undefined;
      const release = async (failed: boolean) => {
        if (released) return;
        released = true;
        // A failed write may have overwritten the piece's range: it counts as not received.
        if (failed) await pieces.unmarkPiece(id, chunk).catch(() => {});
        await sink?.drop().catch(() => {});
        endWrite(id);
        // A refused first piece leaves nothing behind, as long as no other piece is on its way.
        if (failed && !writers.has(id) && !joins.has(id) && (await pieces.received(id)).length === 0) await pieces.discard(id);
      };
      try {
        sink = await pieces.pieceWriter(id, chunk);
      } catch (err) {
        await release(true);
        throw err;
      }
      const { stream } = sink;
      const written = sink;
      return {
        stream,
        release: () => release(true),
        async finish({ size, head }) {
          try {
            checkPieceSize(input, size);
            if (chunk === 0 && !contentMatchesExtension(extensionOfName(input.name), head)) {
              released = true;
              endWrite(id);
              await written.drop();
              await pieces.discard(id);
              throw badRequest(UPLOAD_MSG.contentMismatch);
            }
            await written.mark(size);
          } catch (err) {
            await release(true);
            throw err;
          }
          // Still counted as a write: a join waits until the piece is folded into the running hash.
          await pieces.fold(id);
          await release(false);
          return afterPiece(uploader, id, { ...meta, chunks });
        },
      };
    },

    /** For resuming: which pieces of the caller's upload the server holds, or the stored file. */
    async pieceStatus(auth: AuthContext, id: string): Promise<PieceUploadAnswer> {
      if (!UPLOAD_ID_PATTERN.test(id)) throw badRequest(UPLOAD_MSG.badUploadId, { field: 'id' });
      const meta = await pieces.meta(id);
      if (!meta) return pending(id, 0, []);
      if (meta.owner !== auth.accountId) throw badRequest(UPLOAD_MSG.foreignUploadId, { field: 'id' });
      const file = await pieces.result(id);
      if (file) return done(id, meta.chunks, file);
      return pending(id, meta.chunks, await pieces.received(id));
    },

    /** A whole small file in one request, with the same checks as a joined upload. */
    async uploadSingle(uploader: Uploader, input: { origin: AttachmentOrigin; name: string }, body: ReceivedFile): Promise<UploadedFile> {
      try {
        await mayUpload(uploader.auth, input.origin);
        checkName(input.name);
        const problem = uploadProblem(input.origin, input.name, body.size);
        if (problem) throw badRequest(problem);
        if (!contentMatchesExtension(extensionOfName(input.name), body.head ?? (await headOf(body)))) {
          throw badRequest(UPLOAD_MSG.contentMismatch);
        }
        return await store(uploader, input.origin, input.name, body.path, newPlan({ size: body.size, sha256: body.sha256! }));
      } finally {
        await rm(body.path, { force: true });
      }
    },

    /** The attachment if `reader` may read it; 404 otherwise, whether or not it exists. */
    async findReadable(reader: Reader, uniqueNo: string): Promise<AttachmentRow> {
      if (!UNIQUE_NO_PATTERN.test(uniqueNo)) throw notFound();
      const row = await repo.findByUniqueNo(uniqueNo);
      if (!row || !(await canReadAttachment(reader, row, rules))) throw notFound();
      return row;
    },

    /**
     * Reader named by a signed link (403 when the link is forged or expired). A link bound to a
     * session (experts') also needs that session live and the caller to prove it is that session:
     * its own bearer token, or the file-key cookie its browser got with the link. Another
     * account's token, another browser's cookie or none at all: 403.
     */
    async readerFromLink(uniqueNo: string, params: LinkParams, proof: LinkProof = {}): Promise<Reader> {
      const check = links.verify(uniqueNo, params);
      if (!check.ok) throw forbidden(UPLOAD_MSG.linkExpired);
      if (check.sessionId !== null) {
        const holder = proof.sessionId !== undefined ? proof.sessionId === check.sessionId : links.sessionKeyMatches(check.sessionId, proof.cookie);
        if (!holder || check.accountId === null || !(await repo.sessionLive(check.sessionId, check.accountId, new Date()))) {
          throw forbidden(UPLOAD_MSG.linkExpired);
        }
      }
      return readerFor(check.accountId, check.sessionId);
    },

    /**
     * A signed link for the file. An expert's is bound to their session (readerFromLink) and
     * names the file as the expert sees it (neutral under blind review); `sessionKey` is then the
     * cookie value the route hands the browser along with it.
     */
    async accessUrl(reader: Reader, filePath: string): Promise<FileAccessUrl & { sessionKey?: string }> {
      const uniqueNo = uniqueNoOf(filePath);
      if (!uniqueNo) throw notFound();
      const row = await this.findReadable(reader, uniqueNo);
      const expert = reader.kind === 'account' && reader.realm === 'EXPERT';
      const bind = expert && reader.sessionId !== undefined ? reader.sessionId : undefined;
      const name = expert && !row.isPublic ? ((await rules.expertFileView(reader.accountId, row))?.name ?? row.originalName) : row.originalName;
      const { query, expiresAt } = links.sign(uniqueNo, reader.kind === 'account' ? reader.accountId : null, bind);
      return {
        url: `${STREAM_PATH}${uniqueNo}?${query}`,
        expiresAt,
        uniqueNo,
        name,
        size: row.size,
        mimeType: row.mimeType,
        ...(bind ? { sessionKey: links.sessionKey(bind) } : {}),
      };
    },

    /**
     * How `reader` gets the file (docs/security.md, "Blind review"). Anyone but an expert: the
     * stored bytes under their own name. An expert: the name the review module gives (neutral
     * under blind review); a preview (PDF, image, played media) as the blind copy when blind; a
     * download only as 专家下载材料 allows (403 with the reason otherwise), a PDF stamped with
     * the expert's watermark and the time.
     */
    async delivery(reader: Reader, row: AttachmentRow, preview: boolean, at: Date = new Date()): Promise<Delivery> {
      if (reader.kind !== 'account' || reader.realm !== 'EXPERT' || row.isPublic) return { name: row.originalName, copy: null };
      const view = await rules.expertFileView(reader.accountId, row);
      if (!view) return { name: row.originalName, copy: null };
      const isPdf = row.extension === 'pdf';
      const previewing = preview && (isInlinePreviewable(row.mimeType) || isPlayable(row.mimeType));
      if (!previewing) {
        if (view.download === 'none') throw forbidden(EXPERT_FILE_MSG.downloadOff, { reason: EXPERT_DOWNLOAD_REASONS.off });
        if (view.download === 'pdf' && !isPdf) throw forbidden(EXPERT_FILE_MSG.downloadKind, { reason: EXPERT_DOWNLOAD_REASONS.kind });
      }
      const strip = view.blind && isStrippable(row.extension);
      const stamp = !previewing && isPdf ? [...view.watermark, stampTime(at)] : null;
      return { name: view.name, copy: strip || stamp ? { strip, stamp } : null };
    },

    /** The copy a Delivery asks for, made in memory from the stored bytes (never the original when it cannot be made). */
    async renderCopy(row: AttachmentRow, copy: NonNullable<Delivery['copy']>): Promise<Uint8Array> {
      let bytes = await readAll(row);
      try {
        if (copy.strip) bytes = await stripMetadata(bytes, row.extension);
        if (copy.stamp) bytes = await stampPdf(bytes, copy.stamp);
      } catch {
        // Whatever broke the copy (unreadable, encrypted, or a file pdf-lib or the zip reader
        // half-parse and then choke on), the stored bytes are never the fallback.
        throw badRequest(EXPERT_FILE_MSG.blindCopyFailed, { reason: 'BLIND_COPY_FAILED' });
      }
      return bytes;
    },

    /** The stored bytes; null when the object is missing from storage (logged by the caller). */
    open(row: AttachmentRow, range?: ByteRange): Promise<Readable | null> {
      return storage.get(row.storageKey, range);
    },

    /**
     * A short-lived link straight to the stored object (S3), naming the file as the stream route
     * does; null when the store has none (disk). Only for a reader findReadable has let through.
     */
    async presignedUrl(row: AttachmentRow, disposition: 'inline' | 'attachment', name: string = row.originalName): Promise<string | null> {
      return presignDownload(storage, { ...row, originalName: name }, disposition);
    },

    /** Removes pieces of uploads idle for `maxAgeMs`, and the other leftovers of `deps.sweeps`. */
    async sweep(maxAgeMs: number, now?: Date): Promise<number> {
      let removed = await pieces.sweep(maxAgeMs, now);
      for (const sweep of deps.sweeps ?? []) removed += await sweep(maxAgeMs, now);
      return removed;
    },
  };

  async function headOf(body: ReceivedFile): Promise<Buffer> {
    if (body.head) return body.head;
    const handle = await open(body.path, 'r');
    try {
      const buf = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }
}
export type FilesService = ReturnType<typeof createFilesService>;

/** At most `size` holders at once; the others wait in arrival order. */
function createSlots(size: number) {
  let taken = 0;
  const waiting: Array<() => void> = [];
  const leave = () => {
    const next = waiting.shift();
    // Handed straight to the next in line, so a late arrival cannot overtake it.
    if (next) next();
    else taken--;
  };
  return {
    async enter(): Promise<() => void> {
      if (taken < size) taken++;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      let left = false;
      return () => {
        if (left) return;
        left = true;
        leave();
      };
    },
  };
}
