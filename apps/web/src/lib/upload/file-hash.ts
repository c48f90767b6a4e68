/**
 * SHA-256 of a file for direct upload (docs/uploader.md, "Direct upload"): the whole file's (hex,
 * declared at the start) and each part's (base64, signed into its link). WebCrypto hashes only
 * whole buffers, so the whole file goes through an incremental SHA-256 (@noble/hashes, loaded on
 * first use) one part at a time: a 500 MB video is never in memory at once. The parts' own hashes
 * are taken from the same read.
 */

function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function hexOf(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

const loadSha256 = async () => (await import('@noble/hashes/sha2')).sha256;

/**
 * SHA-256 of one buffer: WebCrypto's (native) where the page has it. `crypto.subtle` exists only
 * in secure contexts, and the portal may be reached over plain http on an intranet address.
 */
async function digest(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  if (globalThis.crypto?.subtle) return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return (await loadSha256())(bytes);
}

/** Base64 SHA-256 of a part's bytes (what `x-amz-checksum-sha256` carries). */
export async function partSha256(blob: Blob): Promise<string> {
  return base64Of(await digest(new Uint8Array(await blob.arrayBuffer())));
}

export interface FileHashes {
  /** Hex SHA-256 of the whole file. */
  sha256: string;
  /** Base64 SHA-256 of each part, by chunk. */
  parts: string[];
}

/** Reads the file once, part by part; rejects with `aborted()` when the signal aborts between parts. */
export async function hashFile(
  file: Blob,
  partSize: number,
  signal: AbortSignal,
  aborted: () => unknown = () => new Error('aborted'),
): Promise<FileHashes> {
  const whole = (await loadSha256()).create();
  const parts: string[] = [];
  const chunks = Math.max(1, Math.ceil(file.size / partSize));
  for (let chunk = 0; chunk < chunks; chunk++) {
    if (signal.aborted) throw aborted();
    const bytes = new Uint8Array(await file.slice(chunk * partSize, Math.min(file.size, (chunk + 1) * partSize)).arrayBuffer());
    whole.update(bytes);
    parts.push(base64Of(await digest(bytes)));
  }
  if (signal.aborted) throw aborted();
  return { sha256: hexOf(whole.digest()), parts };
}
