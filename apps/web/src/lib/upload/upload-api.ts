/**
 * The uploader's and preview's server calls (docs/files.md). Every
 * assumption about the answers' shapes sits in the parse* functions below, so a change on
 * the server side is a change here only.
 */
import { API_BASE } from '@contest/shared';
import { ApiError, type HttpClient } from '../../api';
import { UploadBusyError, type StoredFile, type UploadTransport } from './upload-types';

export const PIECE_UPLOAD_PATH = '/attachment/piece/upload';
/** A piece's raw body type; the server reads the fields from the query string then. */
export const PIECE_CONTENT_TYPE = 'application/octet-stream';
export const PIECE_STATUS_PATH = '/attachment/piece/status';
/** Wait before sending a refused piece again when the server named none. */
export const DEFAULT_BUSY_RETRY_MS = 2000;

function asRecord(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : null;
}

/** The stored file in a piece answer's data, or null while pieces are still missing. */
export function parseStoredFile(data: unknown, fallbackName: string, fallbackSize: number): StoredFile | null {
  const record = asRecord(data);
  const filePath = record?.filePath;
  if (typeof filePath !== 'string' || filePath === '') return null;
  if (record!.complete === false) return null;
  // The server names a stored file by uniqueNo (its `id` is the upload id); older shapes use id.
  const id = record!.uniqueNo ?? record!.fileId ?? record!.attachmentId ?? record!.id;
  const name = record!.name ?? record!.fileName;
  const size = Number(record!.size ?? record!.fileSize);
  return {
    id: typeof id === 'string' || typeof id === 'number' ? String(id) : '',
    filePath,
    fileName: typeof name === 'string' && name ? name : fallbackName,
    fileSize: Number.isFinite(size) && size >= 0 ? size : fallbackSize,
  };
}

/** Piece indexes from the status answer: `{ received: [...] }`, or a bare array. */
export function parseReceivedPieces(data: unknown): number[] {
  const list = Array.isArray(data) ? data : asRecord(data)?.received;
  if (!Array.isArray(list)) return [];
  return list.map(Number).filter((n) => Number.isInteger(n) && n >= 0);
}

/** How long a 429 piece answer asks to wait: its `data.retryAfter` seconds (as its Retry-After header says). */
export function parseRetryAfterMs(data: unknown): number {
  const seconds = Number(asRecord(data)?.retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_BUSY_RETRY_MS;
}

/** The link from GET /attachment/accessUrl: a bare string or `{ url }`. */
export function parseAccessUrl(data: unknown): string | null {
  if (typeof data === 'string' && data) return data;
  const url = asRecord(data)?.url;
  return typeof url === 'string' && url ? url : null;
}

const sendAsIs = [(data: unknown) => data];

export function createUploadTransport(client: HttpClient): UploadTransport {
  return {
    async uploadPiece(request, { signal, onProgress }) {
      // Raw body, fields in the query: the server streams the bytes straight to the piece's file
      // without parsing multipart, which cost about a third of the upload throughput.
      const params = {
        origin: request.origin,
        chunks: String(request.chunks),
        chunk: String(request.chunk),
        id: request.uploadId,
        name: request.name,
      };
      let answer;
      try {
        answer = await client.post<unknown>(PIECE_UPLOAD_PATH, request.blob, {
          params,
          headers: { 'Content-Type': PIECE_CONTENT_TYPE },
          // The bytes go out as they are (XHR sends a Blob with upload progress). Axios would pass
          // a Blob it recognised anyway, but it knows one only by its toString tag, which not
          // every implementation carries (happy-dom's lacks it), and JSON-encodes what it misses.
          transformRequest: sendAsIs,
          signal,
          // A 429 means "your turn comes later": the queue waits and sends the piece again, no toast.
          quietStatuses: [429],
          onUploadProgress: (event) => {
            if (event.total) onProgress(event.loaded / event.total);
          },
        });
      } catch (err) {
        if (err instanceof ApiError && err.status === 429) throw new UploadBusyError(parseRetryAfterMs(err.data));
        throw err;
      }
      return parseStoredFile(answer.data, request.name, request.blob.size);
    },

    async receivedPieces(uploadId, signal) {
      // Silent: a failed check only means uploading every piece again, not worth a toast.
      const answer = await client.get<unknown>(PIECE_STATUS_PATH, { params: { id: uploadId }, signal, silent: true });
      return parseReceivedPieces(answer.data);
    },
  };
}

/** A short-lived link for a stored file path (GET /attachment/accessUrl). */
export async function fetchAccessUrl(client: HttpClient, filePath: string, opts: { signal?: AbortSignal } = {}): Promise<string | null> {
  return (await fetchAccessLink(client, filePath, opts))?.url ?? null;
}

export interface AccessLink {
  /** The signed stream link (`/api/attachment/stream/<uniqueNo>?expires&acct&sig`): works without a token. */
  url: string;
  /** The stored file's name, when the answer carries it. */
  name: string | null;
}

/** The link and the file's name from GET /attachment/accessUrl (`{ url, name }`, or a bare string). */
export function parseAccessLink(data: unknown): AccessLink | null {
  const url = parseAccessUrl(data);
  if (!url) return null;
  const name = asRecord(data)?.name;
  return { url, name: typeof name === 'string' && name ? name : null };
}

export async function fetchAccessLink(client: HttpClient, filePath: string, opts: { signal?: AbortSignal } = {}): Promise<AccessLink | null> {
  const answer = await client.get<unknown>('/attachment/accessUrl', { params: { filePath }, signal: opts.signal });
  return parseAccessLink(answer.data);
}

/**
 * The file path /attachment/accessUrl takes for an attachment id (its uniqueNo): the stream
 * route's own path, as stored files' filePath reads.
 */
export function attachmentStreamPath(id: string): string {
  return `${API_BASE}/attachment/stream/${encodeURIComponent(id)}`;
}

/**
 * A signed link for the browser itself to load (<video src>, <a href download>), not for fetch:
 * redirect=1 lets the server answer 302 to a presigned store link (S3), so the bytes never pass
 * through Node; on disk the same link streams from Node, ranges included. fetch() must not use
 * it: a cross-origin redirect would need CORS on the bucket.
 */
export function withRedirect(url: string): string {
  if (/[?&]redirect=/.test(url)) return url;
  const hash = url.indexOf('#');
  const [base, fragment] = hash < 0 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}redirect=1${fragment}`;
}

/** A fresh signed link with redirect=1 for a stored file path; rejects when the server gives none. */
export async function fetchRedirectLink(client: HttpClient, filePath: string, opts: { signal?: AbortSignal } = {}): Promise<AccessLink> {
  const link = await fetchAccessLink(client, filePath, opts);
  if (!link) throw new Error('No access link for the file');
  return { ...link, url: withRedirect(link.url) };
}
