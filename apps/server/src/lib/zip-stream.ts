/**
 * Zip archives written as a stream, by yazl (docs/decisions.md, "Zip archives: yazl"): each
 * entry's bytes are opened only when its turn comes, so an archive of thousands of files holds one
 * file handle (or one store download) and a few kilobytes at a time; ZIP64 is written when an
 * archive passes 4 GB or 65,535 entries. Used for a round's certificates (docs/certificates.md,
 * "Downloads") and a participant's data export (docs/retention.md, "Export").
 */
import { PassThrough, type Readable } from 'node:stream';
import { ZipFile } from 'yazl';

export interface ZipEntry {
  /** Path inside the archive (UTF-8). */
  name: string;
  /** Bytes stored as they are (the default: PDFs, images and videos are compressed already) or deflated. */
  compress?: boolean;
  /** The entry's length when known: a body of another length fails the archive. */
  size?: number;
  open(): Promise<Readable>;
}

/** The archive as one stream; a failed or short entry ends it with an error (never a silently truncated file). */
export function zipStream(entries: Iterable<ZipEntry>, modified: Date): Readable {
  const zip = new ZipFile();
  const out = new PassThrough();
  zip.on('error', (err: Error) => out.destroy(err));
  zip.outputStream.on('error', (err: Error) => out.destroy(err));
  for (const entry of entries) {
    zip.addReadStreamLazy(entry.name, { mtime: modified, compress: entry.compress ?? false, ...(entry.size === undefined ? {} : { size: entry.size }) }, (done) => {
      entry.open().then(
        (body) => done(null, body),
        (err: unknown) => done(err instanceof Error ? err : new Error(String(err)), undefined as never),
      );
    });
  }
  zip.end();
  zip.outputStream.pipe(out);
  return out;
}
