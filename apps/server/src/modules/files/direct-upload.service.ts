import { randomUUID } from 'node:crypto';
import {
  DIRECT_PART_SIZE,
  DIRECT_UPLOAD_REASONS,
  SNIFF_BYTES,
  UPLOAD_MSG,
  UPLOAD_RESTART_REASON,
  contentMatchesExtension,
  extensionOfName,
  mimeOfExtension,
  pieceCountOf,
  uploadProblem,
  type DirectSignAnswer,
  type DirectSignInput,
  type DirectStartInput,
  type PieceUploadAnswer,
  type UploadedFile,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { badRequest, notFound, type AppError } from '../../lib/errors.js';
import type { MultipartStore, Storage, StoredPart } from '../../lib/storage/storage.js';
import type { AuthContext } from '../auth/session.service.js';
import type { AccessRules } from './files.access.js';
import type { DirectUploadRow, FilesRepository } from './files.repository.js';
import type { StorePlan } from './piece-store.js';
import {
  assertMayUpload,
  checkName,
  completeAnswer,
  newStorageKey,
  newUniqueNo,
  pendingAnswer,
  recordAttachment,
  toUploadedFile,
  type Uploader,
} from './files.service.js';

export interface DirectUploadDeps {
  db: Db;
  repo: FilesRepository;
  storage: Storage;
  rules: Pick<AccessRules, 'adminCan'>;
}

/** Open direct uploads aborted by one sweep run at most (the next run takes the rest). */
const SWEEP_BATCH = 500;

/**
 * Open uploads one account keeps at most (a submission has a dozen files at most): starting
 * another retires the oldest, so neither the store nor the table grows with an account's starts
 * between two sweeps (docs/files.md, "Direct upload"). A retired upload answers UPLOAD_RESTART.
 */
export const DIRECT_OPEN_PER_ACCOUNT = 20;

const interrupted = () => badRequest(UPLOAD_MSG.uploadInterrupted, { reason: UPLOAD_RESTART_REASON });

/** The length part `chunk` (0-based) of a `size`-byte file must have. */
const partSizeOf = (size: number, chunks: number, chunk: number) => (chunk < chunks - 1 ? DIRECT_PART_SIZE : size - (chunks - 1) * DIRECT_PART_SIZE);

async function readAll(body: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/**
 * Uploads the browser sends straight to the object store (docs/files.md, "Direct upload"): the
 * server starts an S3 multipart upload, signs part links (each part's SHA-256 signed in), and on
 * completion checks what the store holds against what was declared, with the same rules as the
 * piece path (origin, size, extension, sniffed content), before recording the attachment. The
 * state is a `direct_uploads` row, so any instance signs, resumes or completes any upload.
 */
export function createDirectUploads(deps: DirectUploadDeps) {
  const { db, repo, storage, rules } = deps;

  /** The store's multipart calls, or 400 with the reason the client falls back on (disk: pieces). */
  function multipart(): MultipartStore {
    if (!storage.multipart) throw badRequest(UPLOAD_MSG.directUnavailable, { reason: DIRECT_UPLOAD_REASONS.unavailable });
    return storage.multipart;
  }

  /** The caller's own upload; anybody else's (or none) is 404, the same answer. */
  async function ownUpload(auth: AuthContext, id: string): Promise<DirectUploadRow> {
    const row = await repo.findDirect(id);
    if (!row || row.ownerId !== auth.accountId) throw notFound();
    return row;
  }

  /** One store completion per upload at a time on this instance (a double press shares the first's). */
  const inFlight = new Map<string, Promise<Checked>>();
  function completing(id: string, run: () => Promise<Checked>): Promise<Checked> {
    let pending = inFlight.get(id);
    if (!pending) {
      pending = run().finally(() => inFlight.delete(id));
      inFlight.set(id, pending);
    }
    return pending;
  }

  async function fileOf(uniqueNo: string | null, tx: Db = db): Promise<UploadedFile> {
    const row = uniqueNo ? await repo.findByUniqueNo(uniqueNo, tx) : undefined;
    if (!row) throw interrupted();
    return toUploadedFile(row);
  }

  /** Chunks (0-based) the store holds at their right length. */
  const receivedOf = (row: DirectUploadRow, parts: StoredPart[]) =>
    parts.filter((p) => p.partNumber >= 1 && p.partNumber <= row.chunks && p.size === partSizeOf(row.size, row.chunks, p.partNumber - 1)).map((p) => p.partNumber - 1);

  type Checked = { ok: true; plan: StorePlan } | { ok: false; error: AppError };

  /**
   * Checks the store's parts against the row, completes the multipart upload and sniffs the
   * object's first bytes. A refusal leaves nothing in the store (the upload aborted, or the
   * completed object deleted). Missing parts are no refusal: 400 PARTS_MISSING, the upload stays.
   */
  async function checkAndComplete(row: DirectUploadRow, store: MultipartStore): Promise<Checked> {
    // Whatever stage the store is at (parts, or the completed object), nothing of it stays.
    const refuse = async (message: string): Promise<Checked> => {
      await store.abort(row.storageKey, row.multipartId);
      await storage.delete(row.storageKey);
      return { ok: false, error: badRequest(message) };
    };
    const problem = uploadProblem(row.origin, row.name, row.size);
    if (problem) return refuse(problem);
    const parts = await store.listParts(row.storageKey, row.multipartId);
    if (parts === null) {
      // Completed by an earlier attempt that did not get to record it (a crash, a failed insert).
      const head = await storage.head(row.storageKey);
      if (!head) return { ok: false, error: interrupted() };
    } else {
      const byNumber = new Map(parts.map((p) => [p.partNumber, p]));
      const missing = [...Array(row.chunks).keys()].filter((chunk) => !byNumber.has(chunk + 1));
      if (missing.length) {
        throw badRequest(UPLOAD_MSG.partsMissing, { reason: DIRECT_UPLOAD_REASONS.partsMissing, received: receivedOf(row, parts), chunks: row.chunks });
      }
      if (parts.some((p) => p.partNumber > row.chunks)) return refuse(UPLOAD_MSG.badPieceSize);
      for (let chunk = 0; chunk < row.chunks; chunk++) {
        const part = byNumber.get(chunk + 1)!;
        if (part.size !== partSizeOf(row.size, row.chunks, chunk)) return refuse(UPLOAD_MSG.badPieceSize);
        if (!part.sha256 || part.sha256 !== row.partSha256[String(chunk)]) return refuse(UPLOAD_MSG.partChecksum);
      }
      await store.complete(row.storageKey, row.multipartId, parts).catch(async (err: unknown) => {
        // A completion of the same upload on another instance may have got there first: the
        // upload is gone and its object is whole. Anything else is the store's failure.
        if ((await store.listParts(row.storageKey, row.multipartId)) === null && (await storage.head(row.storageKey))?.size === row.size) return;
        throw err;
      });
    }
    const head = await storage.head(row.storageKey);
    if (head?.size !== row.size) return refuse(UPLOAD_MSG.uploadFailed);
    // The same sniffing as the piece path's first piece, on a ranged read of the object.
    const body = await storage.get(row.storageKey, { start: 0, end: Math.min(SNIFF_BYTES, row.size) - 1 });
    const first = body ? await readAll(body) : Buffer.alloc(0);
    if (!contentMatchesExtension(extensionOfName(row.name), first)) return refuse(UPLOAD_MSG.contentMismatch);
    return { ok: true, plan: { id: randomUUID(), uniqueNo: newUniqueNo(), storageKey: row.storageKey, size: row.size, sha256: row.sha256 } };
  }

  return {
    /** True with a store that takes multipart uploads (S3); the client asks before hashing a file for it. */
    offered: (): boolean => Boolean(storage.multipart),

    /** Starts an upload of a declared file: the same refusals as a piece path upload, before a byte is sent. */
    async start(uploader: Uploader, input: DirectStartInput): Promise<PieceUploadAnswer> {
      await assertMayUpload(rules, uploader.auth, input.origin);
      const store = multipart();
      checkName(input.name);
      const problem = uploadProblem(input.origin, input.name, input.size);
      if (problem) throw badRequest(problem);
      const { storageKey } = newStorageKey();
      const multipartId = await store.create(storageKey, mimeOfExtension(extensionOfName(input.name)));
      const chunks = pieceCountOf(input.size);
      let row: DirectUploadRow;
      try {
        row = await repo.insertDirect({
          ownerId: uploader.auth.accountId,
          origin: input.origin,
          name: input.name,
          size: input.size,
          chunks,
          sha256: input.sha256.toLowerCase(),
          partSha256: {},
          storageKey,
          multipartId,
        });
      } catch (err) {
        // No row, no sweep: the store's upload goes now.
        await store.abort(storageKey, multipartId).catch(() => {});
        throw err;
      }
      for (const old of await repo.openDirectBeyond(uploader.auth.accountId, DIRECT_OPEN_PER_ACCOUNT)) {
        // The store's part goes best-effort: one it keeps is the sweep's (and the bucket's lifecycle rule's).
        if (await repo.abortDirectIfOpen(old.id)) await store.abort(old.storageKey, old.multipartId).catch(() => {});
      }
      return pendingAnswer(row.id, chunks, []);
    },

    /** Links for parts of the caller's open upload, each bound to its length and SHA-256. */
    async sign(auth: AuthContext, id: string, input: DirectSignInput): Promise<DirectSignAnswer> {
      const store = multipart();
      const row = await ownUpload(auth, id);
      if (row.status === 'ABORTED') throw interrupted();
      if (row.status === 'DONE') throw badRequest(UPLOAD_MSG.chunkMismatch);
      if (input.parts.some((p) => p.chunk >= row.chunks)) throw badRequest(UPLOAD_MSG.badChunk, { field: 'chunk' });
      await repo.signDirectParts(id, Object.fromEntries(input.parts.map((p) => [String(p.chunk), p.sha256])));
      const parts = await Promise.all(
        input.parts.map(async (p) => ({
          chunk: p.chunk,
          ...(await store.presignPart(row.storageKey, row.multipartId, p.chunk + 1, { sha256: p.sha256, size: partSizeOf(row.size, row.chunks, p.chunk) })),
        })),
      );
      return { parts };
    },

    /** For resuming: the chunks the store holds (ListParts), or the stored file once completed. */
    async status(auth: AuthContext, id: string): Promise<PieceUploadAnswer> {
      const store = multipart();
      const row = await ownUpload(auth, id);
      if (row.status === 'DONE') return completeAnswer(row.id, row.chunks, await fileOf(row.uniqueNo));
      if (row.status === 'ABORTED') throw interrupted();
      const parts = await store.listParts(row.storageKey, row.multipartId);
      if (parts === null) return pendingAnswer(row.id, row.chunks, (await storage.head(row.storageKey)) ? [...Array(row.chunks).keys()] : []);
      return pendingAnswer(row.id, row.chunks, receivedOf(row, parts));
    },

    /**
     * Completes the caller's upload: checks, completes and records it once. The store's work (list
     * the parts, complete, read the head and first bytes: several round trips) runs with no
     * database connection held: under a deadline rush completions holding a pooled connection
     * across it left the page calls waiting for the pool (docs/performance.md, "Direct uploads").
     * Then one short transaction locks the row and records the file once: a concurrent or repeated
     * completion answers the same file; a refused one leaves the row ABORTED and nothing stored.
     */
    async complete(uploader: Uploader, id: string): Promise<PieceUploadAnswer> {
      const store = multipart();
      const row = await ownUpload(uploader.auth, id);
      if (row.status === 'DONE') return completeAnswer(id, row.chunks, await fileOf(row.uniqueNo));
      if (row.status === 'ABORTED') throw interrupted();
      // The uploader may have lost the right since the start (a staff button taken away).
      await assertMayUpload(rules, uploader.auth, row.origin);
      const checked = await completing(id, () => checkAndComplete(row, store));
      const outcome = await db.transaction(async (tx): Promise<{ file: UploadedFile; chunks: number } | { error: AppError }> => {
        const locked = await repo.lockDirect(tx, id);
        if (!locked || locked.ownerId !== uploader.auth.accountId) throw notFound();
        if (locked.status === 'DONE') return { file: await fileOf(locked.uniqueNo, tx), chunks: locked.chunks };
        if (locked.status === 'ABORTED') throw interrupted();
        if (!checked.ok) {
          await repo.updateDirect(tx, id, { status: 'ABORTED' });
          return { error: checked.error };
        }
        const inserted = await recordAttachment(tx, repo, uploader, locked.origin, locked.name, checked.plan);
        await repo.updateDirect(tx, id, { status: 'DONE', uniqueNo: inserted.uniqueNo });
        return { file: toUploadedFile(inserted), chunks: locked.chunks };
      });
      if ('error' in outcome) throw outcome.error;
      return completeAnswer(id, outcome.chunks, outcome.file);
    },

    /**
     * The daily sweep's part: open uploads untouched for `maxAgeMs` are aborted in the store and
     * forgotten; finished ones that old are forgotten. Returns the uploads aborted.
     */
    async sweep(maxAgeMs: number, now: Date = new Date()): Promise<number> {
      const before = new Date(now.getTime() - maxAgeMs);
      let aborted = 0;
      const store = storage.multipart;
      if (store) {
        for (const row of await repo.staleOpenDirect(before, SWEEP_BATCH)) {
          // A store that fails now is tried again by the next run (the row stays).
          const gone = await store.abort(row.storageKey, row.multipartId).then(
            () => true,
            () => false,
          );
          if (!gone) continue;
          // An open row has no attachment: an object under its key is a completion that was never recorded.
          await storage.delete(row.storageKey);
          await repo.deleteDirect(row.id);
          aborted++;
        }
      }
      await repo.deleteFinishedDirect(before);
      return aborted;
    },
  };
}
export type DirectUploads = ReturnType<typeof createDirectUploads>;
