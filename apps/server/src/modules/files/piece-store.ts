import { createHash, randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat, truncate } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { Transform, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES, UPLOAD_PIECE_SIZE, type AttachmentOrigin, type UploadedFile } from '@contest/shared';
import type { Storage } from '../../lib/storage/storage.js';
import type { PieceUploadRow, PieceUploadState } from './files.repository.js';
import { processHasher, type RangeHasher } from './range-hasher.js';

/** What the first piece of an upload fixes; every later piece must agree. */
export interface UploadMeta {
  owner: string;
  origin: AttachmentOrigin;
  name: string;
  chunks: number;
}

export interface JoinedFile {
  path: string;
  size: number;
  sha256: string;
  /** Bytes the join read back to hash: those of the pieces not folded in as they came (see fold). */
  rehashedBytes: number;
}

/**
 * What a join decided before handing the file to storage: the ids of the row it is about to
 * write and the content it stores. A join redone after a crash reuses them, so it finds the
 * object or row the dead one may already have written instead of storing the file twice.
 */
export interface StorePlan {
  id: string;
  uniqueNo: string;
  storageKey: string;
  size: number;
  sha256: string;
}

/** Who holds a join: written into the upload's claim (piece_uploads.claim), so others can tell a dead holder from a slow one. */
export interface ClaimOwner {
  host: string;
  pid: number;
  /** Random per process start: a restarted server may get the same pid (pid 1 in a container). */
  instance: string;
}

/** The claim as the database holds it (piece_uploads.claim). */
export interface ClaimRecord extends ClaimOwner {
  token: string;
}

/** A held join claim. */
export interface JoinClaim {
  token: string;
  /** Refreshes the claim: a claim not refreshed for `staleMs` is taken over. */
  beat(): Promise<void>;
  /** False once another process took the claim over (this holder looked dead or stalled). */
  holds(): Promise<boolean>;
  /** The join is over (stored or discarded): the claim no longer counts as running here. */
  release(): void;
}

/** Where a piece's bytes go while it arrives: `mark` records it once all its bytes are in. */
export interface PieceSink {
  stream: Writable;
  mark(size: number): Promise<void>;
  /** Drops what this write left of its own (a temporary file); idempotent. */
  drop(): Promise<void>;
}

export interface PieceStoreOptions {
  /** This process, as claims name it (tests pretend to be another process). */
  owner?: ClaimOwner;
  /** A claim not refreshed for this long is stale whoever holds it (default 2 minutes). */
  staleMs?: number;
  /** Whether a process of this host is running (default: signal 0). */
  isAlive?: (pid: number) => boolean;
  now?: () => number;
  /** Running hashes kept in memory at most (default 1000); the least recently fed one goes first. */
  maxFolds?: number;
  /** Where the hashing runs (default: the process's hashing thread, range-hasher.ts). */
  hasher?: RangeHasher;
  /**
   * An S3 store: the pieces' bytes go there (one object per piece under the upload's bytesKey),
   * not to this instance's disk, so any instance completes any upload. Without it they go to
   * DATA_DIR/uploads (the disk store: one host).
   */
  store?: Storage;
}

/** How often a join refreshes its claim; well under the stale bound. */
export const CLAIM_HEARTBEAT_MS = 15_000;
const CLAIM_STALE_MS = 120_000;
const DATA = 'data';
const MAX_FOLDS = 1000;
const isCode = (err: unknown, code: string) => (err as NodeJS.ErrnoException).code === code;

const PROCESS_OWNER: ClaimOwner = { host: hostname(), pid: process.pid, instance: randomUUID() };
/** Tokens of the claims this process holds: a claim of this instance not among them is a leftover. */
const HELD = new Set<string>();

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to another user.
    return isCode(err, 'EPERM');
  }
}

/** A new storage prefix for an upload's pieces in an S3 store (keys are server-made, lower case). */
export const newBytesKey = (): string => `pieces/${randomUUID()}`;

/**
 * Chunked uploads sent through the server (docs/files.md, "Chunked upload protocol"). Their state
 * is in the database (`piece_uploads`, files.repository.ts): what the first piece fixed (owner,
 * origin, name, piece count), each received piece's mark (its size and a token naming the write
 * that put it in place, set only once its bytes are all in), the join claim (who holds it: host,
 * pid, process instance, token; refreshed while it joins), the plan (the stored file's ids, chosen
 * before storing) and the stored file. Every change is one statement, so concurrent requests for
 * one upload, on any instance, never count half a piece and exactly one of them joins.
 *
 * The bytes: on the disk store, DATA_DIR/uploads/<upload id>/data (the file being assembled: each
 * piece is written straight into its own range, chunk x 5 MB, so there is no join copy); the disk
 * store is for one host. With an S3 store (`options.store`), each piece is an object of its own
 * under the upload's `bytesKey` (received into a temporary file first, to be sent with its
 * SHA-256), and the join gathers them into a temporary file it hashes and hands to storage; no
 * instance keeps anything of the upload between requests.
 *
 * A claim outlives a killed process. It is stale, and taken over by the next request that
 * completes the set, when its holder is known dead (same host: no such pid, or this pid but
 * another process instance), or when it has not been refreshed for `staleMs` (a holder on
 * another host, or one that hangs). A takeover replaces exactly the stale claim it read, so of
 * several requests that find the same dead claim one takes it over.
 *
 * The file's SHA-256 is folded in as the pieces come (fold, disk store only): a running hash per
 * upload, in this process's memory (on its hashing thread, range-hasher.ts), fed each piece once
 * it and every piece before it are marked, read back while the page cache still holds it. The join
 * then reads only what was not folded. Node cannot save a hash's state, so a restart, a piece sent
 * again after it was folded (its mark's token changed) simply leaves more for the join to read:
 * the stored hash is always that of the whole file as it is on disk.
 */
export function createPieceStore(root: string, state: PieceUploadState, options: PieceStoreOptions = {}) {
  const owner = options.owner ?? PROCESS_OWNER;
  const staleMs = options.staleMs ?? CLAIM_STALE_MS;
  const isAlive = options.isAlive ?? processAlive;
  const now = options.now ?? Date.now;
  const maxFolds = options.maxFolds ?? MAX_FOLDS;
  const hasher = options.hasher ?? processHasher();
  const store = options.store;
  /** Running hashes by upload id, least recently fed first. */
  const folds = new Map<string, Fold>();
  const incoming = join(root, '.incoming');
  const dirOf = (id: string) => join(root, id);
  const dataPath = (id: string) => join(dirOf(id), DATA);
  const pieceKey = (row: Pick<PieceUploadRow, 'bytesKey'>, chunk: number) => `${row.bytesKey}/${chunk}`;
  const temp = async () => {
    await mkdir(incoming, { recursive: true });
    return join(incoming, `${randomUUID()}.tmp`);
  };
  const row = async (id: string) => {
    const found = await state.find(id);
    if (!found) throw Object.assign(new Error(`upload ${id} is gone`), { code: 'ENOENT' });
    return found;
  };

  return {
    root,
    /** Whether the pieces' bytes go to the store (S3) rather than this host's disk. */
    inStore: store !== undefined,

    /** A fresh path for a request body being received, before its fields are known. */
    incomingPath: temp,

    /** The upload's meta, or null when no piece of it exists. */
    async meta(id: string): Promise<UploadMeta | null> {
      const found = await state.find(id);
      return found ? metaOf(found) : null;
    },

    /** Creates the upload's meta, or returns the one a concurrent or earlier piece created. */
    async openUpload(id: string, wanted: UploadMeta): Promise<UploadMeta> {
      const existing = await state.find(id);
      if (existing) return metaOf(existing);
      const opened = await state.open({ id, ownerId: wanted.owner, origin: wanted.origin, name: wanted.name, chunks: wanted.chunks, bytesKey: newBytesKey() });
      return metaOf(opened);
    },

    /**
     * Where piece `chunk`'s bytes go while they arrive. Callers write at most UPLOAD_PIECE_SIZE
     * bytes. Disk: straight into the piece's range of the upload's data file (created when
     * absent), so a piece never reaches its neighbour's range and one sent again overwrites its
     * own. S3: a temporary file, sent to the store as the piece's object when marked.
     */
    async pieceWriter(id: string, chunk: number): Promise<PieceSink> {
      if (store) {
        const path = await temp();
        const hash = createHash('sha256');
        const file = createWriteStream(path, { highWaterMark: 1 << 20 });
        const tee = new Transform({
          transform(piece: Buffer, _enc, done) {
            hash.update(piece);
            done(null, piece);
          },
        });
        tee.pipe(file);
        const written = new Promise<void>((resolve, reject) => {
          file.on('close', resolve);
          file.on('error', reject);
          tee.on('error', reject);
        });
        written.catch(() => {});
        const drop = () => rm(path, { force: true });
        return {
          stream: tee,
          mark: async (size) => {
            await written;
            const found = await row(id);
            // putFile takes the temporary file over.
            await store.putFile(pieceKey(found, chunk), path, { size, sha256: hash.digest('hex'), contentType: 'application/octet-stream' });
            await state.setPiece(id, chunk, { size, token: randomUUID() });
          },
          drop,
        };
      }
      await mkdir(dirOf(id), { recursive: true });
      const handle = await open(dataPath(id), constants.O_WRONLY | constants.O_CREAT);
      return {
        stream: handle.createWriteStream({ start: chunk * UPLOAD_PIECE_SIZE, highWaterMark: 1 << 20 }),
        mark: (size) => this.markPiece(id, chunk, size),
        drop: async () => {},
      };
    },

    /** Records that piece `chunk` (`size` bytes) is wholly in place. */
    async markPiece(id: string, chunk: number, size: number): Promise<void> {
      // Sent again after it was folded: the running hash holds the old bytes, start it over.
      const fold = folds.get(id);
      if (fold && chunk < fold.next) dropFold(id);
      await state.setPiece(id, chunk, { size, token: randomUUID() });
    },

    async unmarkPiece(id: string, chunk: number): Promise<void> {
      const fold = folds.get(id);
      if (fold && chunk < fold.next) dropFold(id);
      await state.unsetPiece(id, chunk);
    },

    /**
     * Feeds the upload's running hash every marked piece that continues its prefix (the one a
     * caller just marked, and those marked before it that waited for it). Shared by concurrent
     * callers; never fails: a piece it cannot read is left to the join. Disk store only.
     */
    fold(id: string): Promise<void> {
      if (store) return Promise.resolve();
      let fold = folds.get(id);
      if (fold) {
        // Most recently fed last, so eviction takes idle uploads first.
        folds.delete(id);
        folds.set(id, fold);
      } else {
        fold = { key: `${id}/${randomUUID()}`, file: null, next: 0, bytes: 0, tokens: [], running: null, again: false, dead: false };
        folds.set(id, fold);
        for (const [oldest] of folds) {
          if (folds.size <= maxFolds) break;
          dropFold(oldest);
        }
      }
      if (fold.running) {
        // The running pass may have looked for this piece before it was marked: look once more.
        fold.again = true;
        return fold.running;
      }
      const current = fold;
      current.running = (async () => {
        try {
          do {
            current.again = false;
            while (!current.dead && (await foldNext(id, current)));
          } while (current.again && !current.dead);
        } catch {
          if (folds.get(id) === current) dropFold(id);
        } finally {
          current.running = null;
        }
      })();
      return current.running;
    },

    /** Copies a piece received into a temporary file (fields sent after the file) into place. */
    async putPiece(id: string, chunk: number, receivedPath: string, size: number): Promise<void> {
      const sink = await this.pieceWriter(id, chunk);
      try {
        await pipeline(createReadStream(receivedPath, { highWaterMark: 1 << 20 }), sink.stream);
        await sink.mark(size);
      } finally {
        await sink.drop();
      }
    },

    async received(id: string): Promise<number[]> {
      const found = await state.find(id);
      return found ? chunksOf(found) : [];
    },

    async pieceSize(id: string, chunk: number): Promise<number> {
      const mark = (await row(id)).pieces[String(chunk)];
      if (!mark) throw Object.assign(new Error(`piece ${chunk} of upload ${id} is gone`), { code: 'ENOENT' });
      return mark.size;
    },

    /** The first bytes of a piece, for content sniffing. */
    async head(id: string, chunk: number): Promise<Buffer> {
      if (store) {
        const body = await store.get(pieceKey(await row(id), chunk), { start: 0, end: SNIFF_BYTES - 1 });
        if (!body) throw Object.assign(new Error(`piece ${chunk} of upload ${id} is gone`), { code: 'ENOENT' });
        const parts: Buffer[] = [];
        for await (const part of body) parts.push(part as Buffer);
        return Buffer.concat(parts).subarray(0, SNIFF_BYTES);
      }
      const handle = await open(dataPath(id), 'r');
      try {
        const buf = Buffer.alloc(SNIFF_BYTES);
        const { bytesRead } = await handle.read(buf, 0, SNIFF_BYTES, chunk * UPLOAD_PIECE_SIZE);
        return buf.subarray(0, bytesRead);
      } finally {
        await handle.close();
      }
    },

    /**
     * The join claim, for exactly one caller per upload at a time: null when a live holder has
     * it. A stale claim (see above) is taken over and the caller gets it.
     */
    async claimJoin(id: string): Promise<JoinClaim | null> {
      const token = randomUUID();
      const record: ClaimRecord = { ...owner, token };
      const held: JoinClaim = {
        token,
        beat: () => state.beat(id, token, new Date(now())),
        holds: async () => (await state.find(id))?.claim?.token === token,
        release: () => {
          HELD.delete(token);
        },
      };
      for (let attempt = 0; attempt < 2; attempt++) {
        // Registered first: a claim of this instance not in HELD counts as a leftover.
        HELD.add(token);
        if (await state.claim(id, record, new Date(now()), null)) return held;
        HELD.delete(token);
        const current = await state.find(id);
        if (!current || current.result) return null;
        if (!current.claim) continue; // released meanwhile
        if (!isStale(current.claim, current.claimedAt)) return null;
        // One winner per stale claim: the update names the token it replaces.
        HELD.add(token);
        if (await state.claim(id, record, new Date(now()), current.claim.token)) return held;
        HELD.delete(token);
        return null;
      }
      return null;
    },

    /** The ids a join chose before storing, or null when no join got that far. */
    async plan(id: string): Promise<StorePlan | null> {
      return (await state.find(id))?.plan ?? null;
    },

    async writePlan(id: string, plan: StorePlan): Promise<void> {
      await state.setPlan(id, plan);
    },

    /** Whether the upload's bytes are there (on disk, a store may have taken the data file over). */
    async hasData(id: string): Promise<boolean> {
      if (store) {
        const found = await state.find(id);
        return found ? (await store.head(pieceKey(found, 0))) !== null : false;
      }
      return (await stat(dataPath(id)).catch(() => null)) !== null;
    },

    /**
     * The assembled file of an upload whose pieces are all marked (and none being written), `size`
     * bytes, hashed. S3: the pieces are read from the store into a temporary file, hashed on the
     * way. Disk: the data file is cut to `size` (a last piece sent again shorter leaves bytes
     * beyond it); the running hash goes on from what was folded, provided every folded piece is
     * still the write it read (same mark token) in the same data file, and no join has planned
     * before (that one may have handed the file to storage, and a later write made a new one
     * under the old marks); otherwise, or with no running hash here, the whole file is read. The
     * file stays where it is; the storage driver takes it over.
     */
    async join(id: string, size: number): Promise<JoinedFile> {
      if (store) return gather(await row(id));
      const path = dataPath(id);
      await truncate(path, size);
      const fold = folds.get(id);
      if (fold?.running) await fold.running;
      const found = await stat(path, { bigint: true });
      const file = `${found.dev}:${found.ino}`;
      const trusted =
        fold && !fold.dead && folds.get(id) === fold && fold.bytes <= size && fold.file === file && !(await this.plan(id)) && (await stillFolded(id, fold));
      if (trusted) {
        // Taken out of the map (no eviction or drop while the join finishes it), not dropped.
        folds.delete(id);
        try {
          const rest = await hasher.feed(fold.key, path, fold.bytes, size - fold.bytes);
          // The join holds the upload, so the file cannot change under it; checked all the same.
          if (rest.file === file) return { path, size: fold.bytes + rest.fed, sha256: await hasher.digest(fold.key), rehashedBytes: rest.fed };
        } catch {
          // The running hash is gone (its thread was replaced): read the whole file below.
        }
        fold.dead = true;
        hasher.drop(fold.key);
      } else {
        dropFold(id);
      }
      const key = `${id}/join-${randomUUID()}`;
      try {
        const whole = await hasher.feed(key, path, 0, size);
        if (whole.file !== file) throw new Error(`the data file of upload ${id} changed during its join`);
        return { path, size: whole.fed, sha256: await hasher.digest(key), rehashedBytes: whole.fed };
      } finally {
        hasher.drop(key);
      }
    },

    async result(id: string): Promise<UploadedFile | null> {
      return ((await state.find(id))?.result as UploadedFile | null | undefined) ?? null;
    },

    /**
     * Records the stored file and drops the pieces, plan and claim. The row stays (meta and
     * result only) until the sweep, so a piece re-sent after a lost answer gets the same file
     * back, not a new upload.
     */
    async complete(id: string, file: UploadedFile): Promise<void> {
      dropFold(id);
      const found = await state.find(id);
      await state.setResult(id, { ...file });
      if (found) await dropBytes(found);
    },

    /** Forgets an upload entirely: pieces, meta, claim. */
    async discard(id: string): Promise<void> {
      dropFold(id);
      const found = await state.find(id);
      await state.remove(id);
      if (found) await dropBytes(found);
      else await rm(dirOf(id), { recursive: true, force: true });
    },

    /**
     * Removes uploads untouched for `maxAgeMs` (never completed, or completed long ago) with
     * their bytes, byte folders no upload names any more, and request bodies orphaned by a crash.
     * Returns how many entries went.
     */
    async sweep(maxAgeMs: number, at: Date = new Date()): Promise<number> {
      const cutoff = at.getTime() - maxAgeMs;
      let removed = 0;
      for (const stale of await state.removeStale(new Date(cutoff))) {
        dropFold(stale.id);
        await dropBytes(stale).catch(() => {});
        removed++;
      }
      const entries = await readdir(root, { withFileTypes: true }).catch((err) => {
        if (isCode(err, 'ENOENT')) return [];
        throw err;
      });
      for (const entry of entries) {
        const path = join(root, entry.name);
        if (entry.name === '.incoming') {
          for (const name of await readdir(path).catch(() => [] as string[])) {
            const file = join(path, name);
            const s = await stat(file).catch(() => null);
            if (s && s.mtimeMs < cutoff) {
              await rm(file, { force: true });
              removed++;
            }
          }
          continue;
        }
        if (!entry.isDirectory()) continue;
        // A folder of bytes whose upload is gone (or of an earlier version, which kept its state there).
        const s = await stat(path).catch(() => null);
        if (s && s.mtimeMs < cutoff && !(await state.find(entry.name))) {
          await rm(path, { recursive: true, force: true });
          removed++;
        }
      }
      return removed;
    },
  };

  /** The pieces' bytes of an upload: its data folder, and in an S3 store its piece objects. */
  async function dropBytes(upload: PieceUploadRow): Promise<void> {
    await rm(dirOf(upload.id), { recursive: true, force: true });
    if (store) {
      for (let chunk = 0; chunk < upload.chunks; chunk++) await store.delete(pieceKey(upload, chunk));
    }
  }

  /** S3: the pieces read in order from the store into one temporary file, hashed as they come. */
  async function gather(upload: PieceUploadRow): Promise<JoinedFile> {
    const path = await temp();
    const hash = createHash('sha256');
    let total = 0;
    const out = createWriteStream(path, { highWaterMark: 1 << 20 });
    try {
      for (let chunk = 0; chunk < upload.chunks; chunk++) {
        const body = await store!.get(pieceKey(upload, chunk));
        if (!body) throw Object.assign(new Error(`piece ${chunk} of upload ${upload.id} is gone`), { code: 'ENOENT' });
        for await (const part of body) {
          const buf = part as Buffer;
          hash.update(buf);
          total += buf.length;
          if (!out.write(buf)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
        }
      }
      await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
    } catch (err) {
      out.destroy();
      await rm(path, { force: true });
      throw err;
    }
    // A size other than the marks' is refused by the caller (the file is then discarded).
    return { path, size: total, sha256: hash.digest('hex'), rehashedBytes: total };
  }

  function dropFold(id: string): void {
    const fold = folds.get(id);
    if (!fold) return;
    // A pass under way stops after its current piece; its half-fed hash goes with it.
    fold.dead = true;
    folds.delete(id);
    hasher.drop(fold.key);
  }

  /** Folds piece `fold.next` when it is marked; false when it is not (yet) or could not be read whole. */
  async function foldNext(id: string, fold: Fold): Promise<boolean> {
    const chunk = fold.next;
    // The token is read before the bytes: a write of this piece racing the read changes it.
    const mark = (await state.find(id))?.pieces[String(chunk)];
    if (!mark || fold.dead) return false;
    const start = chunk * UPLOAD_PIECE_SIZE;
    if (start !== fold.bytes) return false;
    // Read and hashed on the hashing thread; a failure (file gone, thread replaced) leaves it to the join.
    const { fed: read, file } = await hasher.feed(fold.key, dataPath(id), start, mark.size);
    // Dropped meanwhile (sent again, discarded, joined): the fed hash is thrown away.
    if (fold.dead) return false;
    // The data file, not just its name: one moved away by a store and made anew by a later
    // write no longer holds the folded bytes, whatever the marks say.
    fold.file ??= file;
    if (fold.file !== file || read !== mark.size) {
      dropFold(id);
      return false;
    }
    fold.tokens.push(mark.token);
    fold.bytes += read;
    fold.next++;
    return true;
  }

  /** Whether every folded piece is still the write that was folded (its mark not replaced). */
  async function stillFolded(id: string, fold: Fold): Promise<boolean> {
    const marks = (await state.find(id))?.pieces ?? {};
    for (let chunk = 0; chunk < fold.next; chunk++) if (marks[String(chunk)]?.token !== fold.tokens[chunk]) return false;
    return true;
  }

  function isStale(claim: ClaimRecord, claimedAt: Date | null): boolean {
    if (!claimedAt || now() - claimedAt.getTime() > staleMs) return true;
    if (claim.host !== owner.host) return false;
    // This very process: stale unless it is still joining (a claim it failed to clear).
    if (claim.instance === owner.instance) return !HELD.has(claim.token);
    // Our pid but another instance: a previous life of this server (a container restarts as pid 1).
    if (claim.pid === owner.pid) return true;
    return !isAlive(claim.pid);
  }
}

function metaOf(row: PieceUploadRow): UploadMeta {
  return { owner: row.ownerId, origin: row.origin, name: row.name, chunks: row.chunks };
}

function chunksOf(row: PieceUploadRow): number[] {
  return Object.keys(row.pieces)
    .map(Number)
    .sort((a, b) => a - b);
}
export type PieceStore = ReturnType<typeof createPieceStore>;

/** An upload's running SHA-256 over its first `next` pieces (`bytes` bytes). */
interface Fold {
  /** Its running hash on the hasher (unique per fold: a dropped fold's late feed never reaches a new one). */
  key: string;
  /** Device and inode of the data file the pieces were read from (set by the first piece). */
  file: string | null;
  next: number;
  bytes: number;
  /** Marker token of each folded piece, checked again at the join. */
  tokens: string[];
  /** The pass feeding it, shared by every caller meanwhile. */
  running: Promise<void> | null;
  /** A piece was marked while the pass ran: it looks again before it ends. */
  again: boolean;
  /** Dropped: whatever the pass holds is thrown away. */
  dead: boolean;
}
