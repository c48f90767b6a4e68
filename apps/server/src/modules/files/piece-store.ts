import { createHash, randomUUID } from 'node:crypto';
import { constants, createReadStream } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
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

const META = 'meta.json';
const RESULT = 'result.json';
const DATA = 'data';
const CLAIM = '.joining';
const PIECE = /^(\d+)\.part$/;
const isCode = (err: unknown, code: string) => (err as NodeJS.ErrnoException).code === code;

/**
 * Pieces of chunked uploads on local disk, under DATA_DIR/uploads/<upload id>/:
 * `meta.json` (owner, origin, name, piece count), `data` (the file being assembled: each piece is
 * written straight into its own range, chunk x 5 MB, so there is no join copy), `<chunk>.part`
 * per piece in place (a marker holding the piece's size, written only once its bytes are all in
 * `data`), `.joining` once one request has claimed the join, and `result.json` after the file is
 * stored. Markers, meta and claim are renames, links or mkdirs, which the file system performs
 * atomically, so concurrent requests for the same upload (also from other processes sharing
 * DATA_DIR) never count half a piece and exactly one of them joins.
 */
export function createPieceStore(root: string) {
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

    /** True for exactly one caller per upload: the one that joins it. */
    async claimJoin(id: string): Promise<boolean> {
      try {
        await mkdir(join(dirOf(id), CLAIM));
        return true;
      } catch (err) {
        if (isCode(err, 'EEXIST')) return false;
        throw err;
      }
    },

    async isJoining(id: string): Promise<boolean> {
      try {
        await stat(join(dirOf(id), CLAIM));
        return true;
      } catch {
        return false;
      }
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
     * Records the stored file and drops the pieces. The folder stays (meta and result only) until
     * the sweep, so a piece re-sent after a lost answer gets the same file back, not a new upload.
     */
    async complete(id: string, file: UploadedFile): Promise<void> {
      const dir = dirOf(id);
      const temp = join(dir, `result.${randomUUID()}.tmp`);
      await writeFile(temp, JSON.stringify(file));
      await rename(temp, join(dir, RESULT));
      for (const name of await readdir(dir)) {
        if (PIECE.test(name) || name === DATA) await rm(join(dir, name), { force: true });
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
}
export type PieceStore = ReturnType<typeof createPieceStore>;
