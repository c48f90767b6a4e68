import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { UPLOAD_PIECE_SIZE } from '@contest/shared';
import { expect } from 'vitest';

/** A multipart/form-data body for inject(), fields and one file in the given order. */
export function multipart(
  fields: Record<string, string | number>,
  file?: { name: string; content: Buffer },
  options: { fileFirst?: boolean } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----contest${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  const field = (name: string, value: string | number) =>
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  const filePart = () => {
    if (!file) return;
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      file.content,
      Buffer.from('\r\n'),
    );
  };
  if (options.fileFirst) filePart();
  for (const [k, v] of Object.entries(fields)) field(k, v);
  if (!options.fileFirst) filePart();
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** File contents whose first bytes say what they are, padded with random bytes to `size`. */
export const fakeFile = {
  pdf: (size: number) => withMagic(Buffer.from('%PDF-1.7\n'), size),
  png: (size: number) => withMagic(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), size),
  exe: (size: number) => withMagic(Buffer.from('MZ\x90\x00'), size),
  zip: (size: number) => withMagic(Buffer.from([0x50, 0x4b, 0x03, 0x04]), size),
};

function withMagic(magic: Buffer, size: number): Buffer {
  return Buffer.concat([magic, randomBytes(Math.max(0, size - magic.length))]).subarray(0, size);
}

/** 5 MB slices, as the web uploader cuts them. */
export function piecesOf(content: Buffer): Buffer[] {
  const out: Buffer[] = [];
  for (let at = 0; at < Math.max(content.length, 1); at += UPLOAD_PIECE_SIZE) out.push(content.subarray(at, at + UPLOAD_PIECE_SIZE));
  return out;
}

export const newUploadId = () => randomUUID();

/** Every regular file under `dir` (recursively), for "nothing left behind" checks. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

type Get = (url: string, headers?: Record<string, string>) => Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>;

/**
 * Each hidden document (who asks, its id, their headers) answers `?redirect=1&preview=1` exactly as
 * without it: the same 404 and body, and no Location, so a redirect never reveals a document.
 */
export async function expectHiddenDocumentsIgnoreRedirect(get: Get, cases: Array<[string, string, Record<string, string>]>): Promise<void> {
  for (const [who, id, headers] of cases) {
    const plain = await get(`/api/documents/${id}/file`, headers);
    const redirected = await get(`/api/documents/${id}/file?redirect=1&preview=1`, headers);
    expect(redirected.statusCode, who).toBe(404);
    expect(redirected.headers.location, who).toBeUndefined();
    expect(redirected.body, who).toBe(plain.body);
  }
}
