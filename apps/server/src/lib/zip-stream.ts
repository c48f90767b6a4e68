/**
 * A zip archive written as a stream (docs/certificates.md, "Downloads"): entries stored as they
 * are (PDFs are compressed already), each opened only when its turn comes, so an archive of
 * thousands of files holds one file handle and a few kilobytes of memory at a time. Sizes and
 * CRC-32s are known up front (the caller stored them), so every header is final when written.
 * No ZIP64: the caller refuses archives of 4 GB or more, or more than 65,535 entries.
 */
import { Readable } from 'node:stream';

export interface ZipEntry {
  /** Path inside the archive (UTF-8). */
  name: string;
  size: number;
  crc32: number;
  open(): Promise<Readable>;
}

const LIMIT = 0xffffffff;
export const ZIP_MAX_ENTRIES = 0xffff;

/** Whether the entries fit a plain (non-ZIP64) archive. */
export function zipFits(entries: readonly Pick<ZipEntry, 'name' | 'size'>[]): boolean {
  if (entries.length > ZIP_MAX_ENTRIES) return false;
  let total = 22;
  for (const e of entries) total += 30 + 46 + 2 * Buffer.byteLength(e.name) + e.size;
  return total < LIMIT;
}

function dosTime(d: Date): { time: number; date: number } {
  return {
    time: (d.getUTCHours() << 11) | (d.getUTCMinutes() << 5) | Math.floor(d.getUTCSeconds() / 2),
    date: ((Math.max(1980, d.getUTCFullYear()) - 1980) << 9) | ((d.getUTCMonth() + 1) << 5) | d.getUTCDate(),
  };
}

/** The archive. A file whose bytes differ in length from its `size` ends the stream with an error. */
export function zipStream(entries: readonly ZipEntry[], modified: Date): Readable {
  if (!zipFits(entries)) throw new Error('zip: too large for a plain archive');
  const { time, date } = dosTime(modified);
  async function* generate(): AsyncGenerator<Buffer> {
    const central: Buffer[] = [];
    let offset = 0;
    for (const entry of entries) {
      const name = Buffer.from(entry.name, 'utf8');
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(0x0800, 6); // names in UTF-8
      local.writeUInt16LE(0, 8); // stored
      local.writeUInt16LE(time, 10);
      local.writeUInt16LE(date, 12);
      local.writeUInt32LE(entry.crc32 >>> 0, 14);
      local.writeUInt32LE(entry.size, 18);
      local.writeUInt32LE(entry.size, 22);
      local.writeUInt16LE(name.length, 26);
      local.writeUInt16LE(0, 28);
      yield Buffer.concat([local, name]);
      let written = 0;
      const body = await entry.open();
      for await (const chunk of body) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        written += buf.length;
        yield buf;
      }
      if (written !== entry.size) throw new Error(`zip: ${entry.name} has ${written} bytes, expected ${entry.size}`);
      const header = Buffer.alloc(46);
      header.writeUInt32LE(0x02014b50, 0);
      header.writeUInt16LE(20, 4);
      header.writeUInt16LE(20, 6);
      header.writeUInt16LE(0x0800, 8);
      header.writeUInt16LE(0, 10);
      header.writeUInt16LE(time, 12);
      header.writeUInt16LE(date, 14);
      header.writeUInt32LE(entry.crc32 >>> 0, 16);
      header.writeUInt32LE(entry.size, 20);
      header.writeUInt32LE(entry.size, 24);
      header.writeUInt16LE(name.length, 28);
      header.writeUInt32LE(offset, 42);
      central.push(header, name);
      offset += 30 + name.length + entry.size;
    }
    const directory = Buffer.concat(central);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(entries.length, 8);
    end.writeUInt16LE(entries.length, 10);
    end.writeUInt32LE(directory.length, 12);
    end.writeUInt32LE(offset, 16);
    yield Buffer.concat([directory, end]);
  }
  return Readable.from(generate(), { objectMode: false });
}
