import type { Readable } from 'node:stream';

/** Inclusive byte range, as in an HTTP Range header. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface PutMeta {
  size: number;
  /** Hex SHA-256 of the content: the S3 driver signs it, so the store verifies the bytes it got. */
  sha256: string;
  contentType: string;
}

/** What a presigned GET link makes the store answer with. */
export interface PresignGetOptions {
  /** Sent as Content-Disposition (RFC 6266 / 5987 `filename*`), as the stream route sends it. */
  filename?: string;
  /** 'attachment' (save) unless 'inline' (open in the browser); used only with `filename`. */
  disposition?: 'inline' | 'attachment';
  /** Sent as Content-Type instead of the type stored with the object. */
  contentType?: string;
  /** Lifetime of the link; the driver's configured default when omitted. */
  expiresInSeconds?: number;
}

/**
 * Where file contents live. Keys are server-made (`yyyy/mm/<uuid>`), never from user input;
 * contents are immutable once put. Every method streams: no file is ever held whole in memory.
 */
export interface Storage {
  readonly kind: 'disk' | 's3';
  /** Stores a stream of exactly `meta.size` bytes under `key` (replacing any object there). */
  put(key: string, body: Readable, meta: PutMeta): Promise<void>;
  /**
   * Stores a local file and takes it over: the caller must not use `path` afterwards (the disk
   * driver moves it into place instead of copying).
   */
  putFile(key: string, path: string, meta: PutMeta): Promise<void>;
  /** The content, or the inclusive `range` of it; null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  /** Size of the object, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** Removes the object; removing a missing one is not an error. */
  delete(key: string): Promise<void>;
  /**
   * A short-lived URL that fetches the object straight from the store (Range works on it), or
   * null when the driver has no such thing (disk): the caller then streams through `get`. It does
   * not check that the object exists; access checks are the caller's, before asking.
   */
  presignGet?(key: string, options?: PresignGetOptions): Promise<string | null>;
  /** Multipart uploads the browser sends straight to the store (S3 only; docs/files.md, "Direct upload"). */
  readonly multipart?: MultipartStore;
}

/** A part the store holds of a multipart upload. */
export interface StoredPart {
  partNumber: number;
  size: number;
  etag: string;
  /** Base64 SHA-256 the store verified the part against, when it was sent with one. */
  sha256: string | null;
}

/** A presigned part link: the browser PUTs the part to `url` with exactly `headers`. */
export interface PartLink {
  url: string;
  headers: Record<string, string>;
  expiresAt: number;
}

/**
 * S3 multipart uploads, driven by the server while the bytes go from the browser to the store.
 * Keys are storage keys (assertStorageKey); `uploadId` is the store's.
 */
export interface MultipartStore {
  create(key: string, contentType: string): Promise<string>;
  /** A link for one part whose SHA-256 (base64) and length are signed into it: the store refuses other bytes. */
  presignPart(key: string, uploadId: string, partNumber: number, part: { sha256: string; size: number }): Promise<PartLink>;
  /** Every part the store holds, by part number; null when the upload is gone (completed or aborted). */
  listParts(key: string, uploadId: string): Promise<StoredPart[] | null>;
  complete(key: string, uploadId: string, parts: StoredPart[]): Promise<void>;
  /** Drops the upload and its parts; an upload already gone is not an error. */
  abort(key: string, uploadId: string): Promise<void>;
}

/** What a download link needs of a stored file's row (attachments: the key, the name and type to send). */
export interface StoredDownload {
  storageKey: string;
  originalName: string;
  mimeType: string;
}

/**
 * The presigned link every download route redirects to (?redirect=1): named and typed as the
 * stream sends the file, so a store-served download looks the same as a streamed one; null when
 * the store has none (disk), and the caller streams. Access checks are the caller's, before.
 */
export async function presignDownload(storage: Storage, file: StoredDownload, disposition: 'inline' | 'attachment'): Promise<string | null> {
  if (!storage.presignGet) return null;
  return storage.presignGet(file.storageKey, { filename: file.originalName, contentType: file.mimeType, disposition });
}

/** Object keys the drivers accept: lower-case path segments, no dots, so never a traversal. */
export const STORAGE_KEY_PATTERN = /^[a-z0-9_-]+(\/[a-z0-9_-]+)*$/;

export function assertStorageKey(key: string): void {
  if (!STORAGE_KEY_PATTERN.test(key) || key.length > 512) throw new Error(`invalid storage key: ${key}`);
}
