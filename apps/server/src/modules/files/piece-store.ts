import { randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES, UPLOAD_PIECE_SIZE, type AttachmentOrigin, type UploadedFile } from '@contest/shared';
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

/** Who holds a join: written into the claim file, so others can tell a dead holder from a slow one. */
export interface ClaimOwner {
  host: string;
  pid: number;
  /** Random per process start: a restarted server may get the same pid (pid 1 in a container). */
  instance: string;
}

/** The claim file's content. */
export interface ClaimRecord extends ClaimOwner {
  token: string;
  at: string;
}

/** A held join claim. */
export interface JoinClaim {
  token: string;
  /** Moves the claim's mtime: a claim not refreshed for `staleMs` is taken over. */
  beat(): Promise<void>;
  /** False once another process took the claim over (this holder looked dead or stalled). */
  holds(): Promise<boolean>;
  /** The join is over (stored or discarded): the claim no longer counts as running here. */
  release(): void;
}

export interface PieceStoreOptions {
  /** This process, as claims name it (tests pretend to be another process). */
  owner?: ClaimOwner;
  /** A claim whose mtime is older than this is stale whoever holds it (default 2 minutes). */
  staleMs?: number;
  /** Whether a process of this host is running (default: signal 0). */
  isAlive?: (pid: number) => boolean;
  now?: () => number;
  /** Running hashes kept in memory at most (default 1000); the least recently fed one goes first. */
  maxFolds?: number;
  /** Where the hashing runs (default: the process's hashing thread, range-hasher.ts). */
  hasher?: RangeHasher;
}

export const CLAIM_FILE = '.joining';
/** How often a join refreshes its claim; well under the stale bound. */
export const CLAIM_HEARTBEAT_MS = 15_000;
const CLAIM_STALE_MS = 120_000;
const META = 'meta.json';
const RESULT = 'result.json';
const PLAN = 'plan.json';
const DATA = 'data';
const TAKEOVER = '.takeover-';
const PIECE = /^(\d+)\.part$/;
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

/**
 * Pieces of chunked uploads on local disk, under DATA_DIR/uploads/<upload id>/:
 * `meta.json` (owner, origin, name, piece count), `data` (the file being assembled: each piece is
 * written straight into its own range, chunk x 5 MB, so there is no join copy), `<chunk>.part`
 * per piece in place (a marker holding the piece's size and a token naming that write, written
 * only once its bytes are all in `data`), `.joining` once one request has claimed the join (who
 * holds it: host, pid, process instance), `plan.json` once the join has chosen the stored file's
 * ids, and `result.json` after the file is stored. Markers, meta and claim are renames, links or mkdirs, which the file system
 * performs atomically, so concurrent requests for the same upload (also from other processes
 * sharing DATA_DIR) never count half a piece and exactly one of them joins.
 *
 * A claim outlives a killed process. It is stale, and taken over by the next request that
 * completes the set, when its holder is known dead (same host: no such pid, or this pid but
 * another process instance), or when it has not been refreshed for `staleMs` (a holder on
 * another host, or one that hangs). A takeover is itself claimed with a mkdir named after the
 * stale claim's token, so of several requests that find the same dead claim one takes it over.
 *
 * The file's SHA-256 is folded in as the pieces come (fold): a running hash per upload, in this
 * process's memory (on its hashing thread, range-hasher.ts), fed each piece once it and every
 * piece before it are marked, read back while the page cache still holds it. The join then reads
 * only what was not folded. Node cannot save a hash's state, so a restart, an upload whose pieces
 * reach several instances, or a piece sent again after it was folded (its marker's token changed)
 * simply leaves more for the join to read: the stored hash is always that of the whole file as it
 * is on disk.
 */
export function createPieceStore(root: string, options: PieceStoreOptions = {}) {
  const owner = options.owner ?? PROCESS_OWNER;
  const staleMs = options.staleMs ?? CLAIM_STALE_MS;
  const isAlive = options.isAlive ?? processAlive;
  const now = options.now ?? Date.now;
  const maxFolds = options.maxFolds ?? MAX_FOLDS;
  const hasher = options.hasher ?? processHasher();
  /** Running hashes by upload id, least recently fed first. */
  const folds = new Map<string, Fold>();
  const incoming = join(root, '.incoming');
  const dirOf = (id: string) => join(root, id);
  const piecePath = (id: string, chunk: number) => join(dirOf(id), `${chunk}.part`);
  const dataPath = (id: string) => join(dirOf(id), DATA);

  return {
    root,

    /** A fresh path for a request body being received, before its fields are known. */
    async incomingPath(): Promise<string> {
      await mkdir(incoming, { recursive: true });
      return join(incoming, `${randomUUID()}.tmp`);
    },

    /** The upload's meta, or null when no piece of it exists. */
    async meta(id: string): Promise<UploadMeta | null> {
      try {
        return JSON.parse(await readFile(join(dirOf(id), META), 'utf8')) as UploadMeta;
      } catch (err) {
        if (isCode(err, 'ENOENT')) return null;
        throw err;
      }
    },

    /**
     * Creates the upload's meta, or returns the one a concurrent or earlier piece created. The
     * link() of a complete temp file is what makes "create if absent" atomic.
     */
    async openUpload(id: string, wanted: UploadMeta): Promise<UploadMeta> {
      // Every piece but the first finds it: one read instead of the five steps of creating it.
      const existing = await this.meta(id);
      if (existing) return existing;
      const dir = dirOf(id);
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `meta.${randomUUID()}.tmp`);
      await writeFile(temp, JSON.stringify(wanted));
      try {
        await link(temp, join(dir, META));
        return wanted;
      } catch (err) {
        if (!isCode(err, 'EEXIST')) throw err;
        return (await this.meta(id))!;
      } finally {
        await rm(temp, { force: true });
      }
    },

    /**
     * A stream writing piece `chunk` into its range of the upload's data file (created when
     * absent). Callers write at most UPLOAD_PIECE_SIZE bytes, so a piece never reaches its
     * neighbour's range; a piece sent again overwrites its own range.
     */
    async pieceWriter(id: string, chunk: number): Promise<Writable> {
      const handle = await open(dataPath(id), constants.O_WRONLY | constants.O_CREAT);
      return handle.createWriteStream({ start: chunk * UPLOAD_PIECE_SIZE, highWaterMark: 1 << 20 });
    },

    /** Records that piece `chunk` (`size` bytes) is wholly in the data file. */
    async markPiece(id: string, chunk: number, size: number): Promise<void> {
      const token = randomUUID();
      const temp = join(dirOf(id), `mark.${token}.tmp`);
      await writeFile(temp, `${size} ${token}`);
      // Sent again after it was folded: the running hash holds the old bytes, start it over.
      const fold = folds.get(id);
      if (fold && chunk < fold.next) dropFold(id);
      await rename(temp, piecePath(id, chunk));
    },

    async unmarkPiece(id: string, chunk: number): Promise<void> {
      const fold = folds.get(id);
      if (fold && chunk < fold.next) dropFold(id);
      await rm(piecePath(id, chunk), { force: true });
    },

    /**
     * Feeds the upload's running hash every marked piece that continues its prefix (the one a
     * caller just marked, and those marked before it that waited for it). Shared by concurrent
     * callers; never fails: a piece it cannot read is left to the join.
     */
    fold(id: string): Promise<void> {
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
      const state = fold;
      state.running = (async () => {
        try {
          do {
            state.again = false;
            while (!state.dead && (await foldNext(id, state)));
          } while (state.again && !state.dead);
        } catch {
          if (folds.get(id) === state) dropFold(id);
        } finally {
          state.running = null;
        }
      })();
      return state.running;
    },

    /** Copies a piece received into a temporary file (fields sent after the file) into place. */
    async putPiece(id: string, chunk: number, receivedPath: string, size: number): Promise<void> {
      await pipeline(createReadStream(receivedPath, { highWaterMark: 1 << 20 }), await this.pieceWriter(id, chunk));
      await this.markPiece(id, chunk, size);
    },

    async received(id: string): Promise<number[]> {
      let names: string[];
      try {
        names = await readdir(dirOf(id));
      } catch (err) {
        if (isCode(err, 'ENOENT')) return [];
        throw err;
      }
      return names
        .map((n) => PIECE.exec(n)?.[1])
        .filter((n): n is string => n !== undefined)
        .map(Number)
        .sort((a, b) => a - b);
    },

    async pieceSize(id: string, chunk: number): Promise<number> {
      return parseMark(await readFile(piecePath(id, chunk), 'utf8')).size;
    },

    /** The first bytes of a piece, for content sniffing. */
    async head(id: string, chunk: number): Promise<Buffer> {
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
      const dir = dirOf(id);
      const claimPath = join(dir, CLAIM_FILE);
      const token = randomUUID();
      const record: ClaimRecord = { ...owner, token, at: new Date(now()).toISOString() };
      const temp = join(dir, `claim.${token}.tmp`);
      await writeFile(temp, JSON.stringify(record));
      const held: JoinClaim = {
        token,
        beat: async () => {
          const t = new Date(now());
          await utimes(claimPath, t, t);
        },
        holds: async () => (await readClaim(claimPath))?.record?.token === token,
        release: () => {
          HELD.delete(token);
        },
      };
      try {
        for (let attempt = 0; attempt < 2; attempt++) {
          try {
            // link() of a complete file: the claim appears whole or not at all.
            await link(temp, claimPath);
            HELD.add(token);
            return held;
          } catch (err) {
            if (!isCode(err, 'EEXIST')) throw err;
          }
          const current = await readClaim(claimPath);
          if (!current) continue; // released meanwhile
          if (!isStale(current)) return null;
          // One winner per stale claim; the loser sees the winner's fresh claim next time.
          try {
            await mkdir(join(dir, `${TAKEOVER}${current.key}`));
          } catch (err) {
            if (isCode(err, 'EEXIST')) return null;
            throw err;
          }
          await rm(claimPath, { recursive: true, force: true });
        }
        return null;
      } finally {
        await rm(temp, { force: true });
      }
    },

    /** The ids a join chose before storing, or null when no join got that far. */
    async plan(id: string): Promise<StorePlan | null> {
      try {
        return JSON.parse(await readFile(join(dirOf(id), PLAN), 'utf8')) as StorePlan;
      } catch (err) {
        if (isCode(err, 'ENOENT')) return null;
        throw err;
      }
    },

    async writePlan(id: string, plan: StorePlan): Promise<void> {
      const temp = join(dirOf(id), `plan.${randomUUID()}.tmp`);
      await writeFile(temp, JSON.stringify(plan));
      await rename(temp, join(dirOf(id), PLAN));
    },

    /** Whether the upload's assembled file is there (a store may have taken it over). */
    async hasData(id: string): Promise<boolean> {
      return (await stat(dataPath(id)).catch(() => null)) !== null;
    },

    /**
     * The assembled file of an upload whose pieces are all marked (and none being written): cut
     * to `size` (a last piece sent again shorter leaves bytes beyond it) and hashed. The running
     * hash goes on from what was folded, provided every folded piece is still the write it read
     * (same marker token) in the same data file, and no join has planned before (that one may
     * have handed the file to storage, and a later write made a new one under the old markers);
     * otherwise, or with no running hash here, the whole file is read. The file stays where it
     * is; the storage driver takes it over.
     */
    async join(id: string, size: number): Promise<JoinedFile> {
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
      try {
        return JSON.parse(await readFile(join(dirOf(id), RESULT), 'utf8')) as UploadedFile;
      } catch (err) {
        if (isCode(err, 'ENOENT')) return null;
        throw err;
      }
    },

    /**
     * Records the stored file and drops the pieces, plan and claim. The folder stays (meta and result only) until
     * the sweep, so a piece re-sent after a lost answer gets the same file back, not a new upload.
     */
    async complete(id: string, file: UploadedFile): Promise<void> {
      dropFold(id);
      const dir = dirOf(id);
      const temp = join(dir, `result.${randomUUID()}.tmp`);
      await writeFile(temp, JSON.stringify(file));
      await rename(temp, join(dir, RESULT));
      for (const name of await readdir(dir)) {
        if (PIECE.test(name) || name === DATA || name === PLAN || name === CLAIM_FILE || name.startsWith(TAKEOVER)) {
          await rm(join(dir, name), { recursive: true, force: true });
        }
      }
    },

    /** Forgets an upload entirely: pieces, meta, claim. */
    async discard(id: string): Promise<void> {
      dropFold(id);
      await rm(dirOf(id), { recursive: true, force: true });
    },

    /**
     * Removes uploads untouched for `maxAgeMs` (never completed, or completed long ago) and
     * request bodies orphaned by a crash. Returns how many entries went.
     */
    async sweep(maxAgeMs: number, now: Date = new Date()): Promise<number> {
      const cutoff = now.getTime() - maxAgeMs;
      let removed = 0;
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
        // A folder's mtime moves whenever a piece is added or replaced, so it is the last activity.
        const s = await stat(path).catch(() => null);
        if (s && s.mtimeMs < cutoff) {
          await rm(path, { recursive: true, force: true });
          removed++;
        }
      }
      return removed;
    },
  };

  function dropFold(id: string): void {
    const fold = folds.get(id);
    if (!fold) return;
    // A pass under way stops after its current piece; its half-fed hash goes with it.
    fold.dead = true;
    folds.delete(id);
    hasher.drop(fold.key);
  }

  async function readMark(id: string, chunk: number): Promise<Mark | null> {
    try {
      return parseMark(await readFile(piecePath(id, chunk), 'utf8'));
    } catch (err) {
      if (isCode(err, 'ENOENT')) return null;
      throw err;
    }
  }

  /** Folds piece `fold.next` when it is marked; false when it is not (yet) or could not be read whole. */
  async function foldNext(id: string, fold: Fold): Promise<boolean> {
    const chunk = fold.next;
    // The token is read before the bytes: a write of this piece racing the read changes it.
    const mark = await readMark(id, chunk);
    // A marker of an older version names no write: the join hashes from here.
    if (!mark || !mark.token || fold.dead) return false;
    const start = chunk * UPLOAD_PIECE_SIZE;
    if (start !== fold.bytes) return false;
    // Read and hashed on the hashing thread; a failure (file gone, thread replaced) leaves it to the join.
    const { fed: read, file } = await hasher.feed(fold.key, dataPath(id), start, mark.size);
    // Dropped meanwhile (sent again, discarded, joined): the fed hash is thrown away.
    if (fold.dead) return false;
    // The data file, not just its name: one moved away by a store and made anew by a later
    // write no longer holds the folded bytes, whatever the markers say.
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

  /** Whether every folded piece is still the write that was folded (its marker not replaced). */
  async function stillFolded(id: string, fold: Fold): Promise<boolean> {
    // A few dozen small reads at a time: a 500 MB file has 100 markers.
    for (let from = 0; from < fold.next; from += 32) {
      const chunks = Array.from({ length: Math.min(32, fold.next - from) }, (_, i) => from + i);
      const marks = await Promise.all(chunks.map((chunk) => readMark(id, chunk)));
      if (marks.some((mark, i) => mark?.token !== fold.tokens[chunks[i]!])) return false;
    }
    return true;
  }

  /**
   * The claim at `path` with the key its takeover is claimed under; null when there is none. A
   * claim that cannot be read (a directory left by an older version, a half-written file) has
   * no holder to ask and goes stale by age only.
   */
  async function readClaim(path: string): Promise<{ record: ClaimRecord | null; mtimeMs: number; key: string } | null> {
    const s = await stat(path).catch(() => null);
    if (!s) return null;
    let record: ClaimRecord | null = null;
    if (s.isFile()) {
      try {
        record = JSON.parse(await readFile(path, 'utf8')) as ClaimRecord;
      } catch {
        record = null;
      }
    }
    const key = record?.token && /^[A-Za-z0-9-]{1,64}$/.test(record.token) ? record.token : `unknown-${Math.floor(s.mtimeMs)}`;
    return { record, mtimeMs: s.mtimeMs, key };
  }

  function isStale(claim: { record: ClaimRecord | null; mtimeMs: number }): boolean {
    if (now() - claim.mtimeMs > staleMs) return true;
    const r = claim.record;
    if (!r || r.host !== owner.host) return false;
    // This very process: stale unless it is still joining (a claim it failed to clear).
    if (r.instance === owner.instance) return !HELD.has(r.token);
    // Our pid but another instance: a previous life of this server (a container restarts as pid 1).
    if (r.pid === owner.pid) return true;
    return !isAlive(r.pid);
  }
}
export type PieceStore = ReturnType<typeof createPieceStore>;

/** A piece's marker: its size and the token of the write that put it in place. */
interface Mark {
  size: number;
  /** '' for markers of older versions, which held the size only. */
  token: string;
}

function parseMark(text: string): Mark {
  const [size, token = ''] = text.trim().split(' ');
  return { size: Number(size), token };
}

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
