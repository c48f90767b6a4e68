import { createWriteStream } from 'node:fs';
import { copyFile, mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { assertStorageKey, type ByteRange, type PutMeta, type Storage } from './storage.js';

const isMissing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Files under one directory (DATA_DIR/files by default), one file per key. Writes go to a
 * temporary name in the target folder and are renamed into place, so a reader never sees half a file.
 */
export function createDiskStorage(root: string): Storage {
  const pathOf = (key: string) => {
    assertStorageKey(key);
    return join(root, ...key.split('/'));
  };
  const tempBeside = (target: string) => `${target}.${randomUUID()}.tmp`;

  async function checkSize(path: string, meta: PutMeta): Promise<void> {
    const { size } = await stat(path);
    if (size !== meta.size) throw new Error(`stored ${size} bytes, expected ${meta.size}`);
  }

  return {
    kind: 'disk',

    async put(key, body: Readable, meta) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      const temp = tempBeside(target);
      try {
        await pipeline(body, createWriteStream(temp, { flags: 'wx' }));
        await checkSize(temp, meta);
        await rename(temp, target);
      } catch (err) {
        await rm(temp, { force: true });
        throw err;
      }
    },

    async putFile(key, path, meta) {
      const target = pathOf(key);
      await mkdir(dirname(target), { recursive: true });
      await checkSize(path, meta);
      try {
        await rename(path, target);
      } catch (err) {
        // Another file system (DATA_DIR/files mounted elsewhere): copy, then drop the source.
        if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
        const temp = tempBeside(target);
        try {
          await copyFile(path, temp);
          await rename(temp, target);
        } catch (copyErr) {
          await rm(temp, { force: true });
          throw copyErr;
        }
        await unlink(path).catch(() => {});
      }
    },

    async get(key, range?: ByteRange) {
      // Opened before returning so a missing file is a null here, not an error mid-response.
      let handle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
      return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
    },

    async head(key) {
      try {
        const s = await stat(pathOf(key));
        return s.isFile() ? { size: s.size } : null;
      } catch (err) {
        if (isMissing(err)) return null;
        throw err;
      }
    },

    async delete(key) {
      await rm(pathOf(key), { force: true });
    },

    // Files on disk have no URL of their own: downloads stream through the server.
    async presignGet(key) {
      assertStorageKey(key);
      return null;
    },
  };
}
