import { createHash, randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, truncate, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { SNIFF_BYTES, UPLOAD_PIECE_SIZE, type AttachmentOrigin, type UploadedFile } from '@contest/shared';

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
 * per piece in place (a marker holding the piece's size, written only once its bytes are all in
 * `data`), `.joining` once one request has claimed the join (who holds it: host, pid, process
 * instance), `plan.json` once the join has chosen the stored file's ids, and `result.json` after
 * the file is stored. Markers, meta and claim are renames, links or mkdirs, which the file system
 * performs atomically, so concurrent requests for the same upload (also from other processes
 * sharing DATA_DIR) never count half a piece and exactly one of them joins.
 *
 * A claim outlives a killed process. It is stale, and taken over by the next request that
 * completes the set, when its holder is known dead (same host: no such pid, or this pid but
 * another process instance), or when it has not been refreshed for `staleMs` (a holder on
 * another host, or one that hangs). A takeover is itself claimed with a mkdir named after the
 * stale claim's token, so of several requests that find the same dead claim one takes it over.
 */
export function createPieceStore(root: string, options: PieceStoreOptions = {}) {
  const owner = options.owner ?? PROCESS_OWNER;
  const staleMs = options.staleMs ?? CLAIM_STALE_MS;
  const isAlive = options.isAlive ?? processAlive;
  const now = options.now ?? Date.now;
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
      const temp = join(dirOf(id), `mark.${randomUUID()}.tmp`);
      await writeFile(temp, String(size));
      await rename(temp, piecePath(id, chunk));
    },

    async unmarkPiece(id: string, chunk: number): Promise<void> {
      await rm(piecePath(id, chunk), { force: true });
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
      return Number(await readFile(piecePath(id, chunk), 'utf8'));
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
     * The assembled file of an upload whose pieces are all marked: cut to `size` (a last piece
     * sent again shorter leaves bytes beyond it) and hashed in one streamed read. The file stays
     * where it is; the storage driver takes it over.
     */
    async join(id: string, size: number): Promise<JoinedFile> {
      const path = dataPath(id);
      await truncate(path, size);
      const hash = createHash('sha256');
      let read = 0;
      for await (const buf of createReadStream(path, { highWaterMark: 1 << 20 })) {
        hash.update(buf as Buffer);
        read += (buf as Buffer).length;
      }
      return { path, size: read, sha256: hash.digest('hex') };
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
