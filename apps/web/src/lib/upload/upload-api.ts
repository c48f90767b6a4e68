/**
 * The uploader's and preview's server calls (docs/files.md). Every
 * assumption about the answers' shapes sits in the parse* functions below, so a change on
 * the server side is a change here only.
 */
import { API_BASE, DIRECT_UPLOAD_REASONS, type DirectPartLink } from '@contest/shared';
import { ApiError, RequestCancelledError, isCancel, type CallConfig, type HttpClient } from '../../api';
import {
  DirectUnavailableError,
  PartLinkExpiredError,
  PartsMissingError,
  StoreUnreachableError,
  UploadBusyError,
  type DirectState,
  type DirectTransport,
  type PieceCallOptions,
  type StoredFile,
  type UploadTransport,
} from './upload-types';

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

export const DIRECT_START_PATH = '/attachment/direct/start';
/** Whether the server offers direct upload (`{offered}`), asked once per page load. */
export const DIRECT_OFFERED_PATH = '/attachment/direct';
export const directUploadPath = (id: string) => `/attachment/direct/${encodeURIComponent(id)}`;

/** `data.reason` of a refusal. */
function reasonOf(err: ApiError): unknown {
  return asRecord(err.data)?.reason;
}

/** The direct upload's state from a start or status answer (the piece path's answer shape). */
export function parseDirectState(data: unknown, fallbackName: string, fallbackSize: number): DirectState {
  const id = asRecord(data)?.id;
  return {
    id: typeof id === 'string' ? id : '',
    received: parseReceivedPieces(data),
    stored: parseStoredFile(data, fallbackName, fallbackSize),
  };
}

/** The signed links of a parts answer (`{ parts: [{ chunk, url, headers, expiresAt }] }`). */
export function parsePartLinks(data: unknown): DirectPartLink[] {
  const parts = asRecord(data)?.parts;
  if (!Array.isArray(parts)) return [];
  const links: DirectPartLink[] = [];
  for (const part of parts) {
    const record = asRecord(part);
    const chunk = Number(record?.chunk);
    const url = record?.url;
    if (!Number.isInteger(chunk) || typeof url !== 'string' || !url) continue;
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(asRecord(record!.headers) ?? {})) if (typeof value === 'string') headers[name] = value;
    const expiresAt = Number(record!.expiresAt);
    links.push({ chunk, url, headers, expiresAt: Number.isFinite(expiresAt) ? expiresAt : 0 });
  }
  return links;
}

/** Headers the browser sets itself (and refuses from a page); the link was signed for their values. */
const BROWSER_HEADERS = new Set(['host', 'content-length']);

/** Seconds of a store's Retry-After header, as milliseconds (absent or unreadable: the default wait). */
function retryAfterHeaderMs(value: string | null): number {
  const seconds = Number(value);
  return value && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : DEFAULT_BUSY_RETRY_MS;
}

/**
 * PUTs a part's bytes to its signed link with XMLHttpRequest (upload progress, as the piece path
 * has through axios). The link is the store's, not the portal's: no token, no cookies. A busy or
 * failing store (429, 5xx) or a lost connection is a wait and a retry (UploadBusyError), as a
 * refused piece is; a 403 once the link's time is up asks for a new link.
 */
export function putPartWithXhr(link: DirectPartLink, blob: Blob, { signal, onProgress }: PieceCallOptions, now: () => number = Date.now): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(new RequestCancelledError());
      return;
    }
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    const settle = (fn: () => void) => {
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    xhr.open('PUT', link.url);
    for (const [name, value] of Object.entries(link.headers)) {
      if (!BROWSER_HEADERS.has(name.toLowerCase())) xhr.setRequestHeader(name, value);
    }
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total) onProgress(event.loaded / event.total);
    };
    xhr.onload = () =>
      settle(() => {
        const { status } = xhr;
        if (status >= 200 && status < 300) resolve();
        else if (status === 429 || status >= 500) reject(new UploadBusyError(retryAfterHeaderMs(xhr.getResponseHeader('Retry-After'))));
        else if (status === 403 && (now() >= link.expiresAt || /expired/i.test(String(xhr.responseText)))) reject(new PartLinkExpiredError());
        else reject(new ApiError({ status, code: 'HTTP_ERROR', message: `The store refused part ${link.chunk} (${status})`, data: null }));
      });
    xhr.onerror = () => settle(() => reject(new StoreUnreachableError(DEFAULT_BUSY_RETRY_MS)));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => settle(() => reject(new RequestCancelledError()));
    signal.addEventListener('abort', onAbort, { once: true });
    xhr.send(blob);
  });
}

export interface UploadTransportOptions {
  /** Try direct upload to the store first (docs/uploader.md, "Direct upload"); default: pieces only. */
  direct?: boolean;
  /**
   * Shows a refusal the transport asked the client to keep quiet (the direct calls whose
   * fallback answers must not toast); absent, nothing is shown.
   */
  notify?(message: string): void;
  /** Replaces the store PUT (tests). */
  putPart?: DirectTransport['putPart'];
}

function createDirectTransport(client: HttpClient, options: UploadTransportOptions): DirectTransport {
  // Learnt from the first start the server refuses so (disk store); kept for the page load.
  let offered = true;
  // A start was taken: direct upload is offered, files need not wait for each other's answer.
  let confirmed = false;
  let gate: Promise<void> = Promise.resolve();
  // Whether any PUT of this page load got an answer from the store.
  let storeReached = false;
  // The server's answer to "is direct upload offered?", asked before the first file is hashed for
  // it: on a disk store (the default install) no file is read twice for nothing. A failed ask
  // decides nothing (the start answers instead) and is asked again next time.
  let asked: Promise<void> | null = null;
  const askOffered = () =>
    (asked ??= client.get<unknown>(DIRECT_OFFERED_PATH, { silent: true }).then(
      (res) => {
        if ((res.data as { offered?: unknown } | null)?.offered === false) offered = false;
      },
      () => {
        asked = null;
      },
    ));
  const put = options.putPart ?? ((link: DirectPartLink, blob: Blob, callOptions: PieceCallOptions) => putPartWithXhr(link, blob, callOptions));

  /**
   * A direct call with the client's toasts held back, so that the answers the uploader acts on
   * (no direct upload, parts missing) stay silent; any other refusal is shown as the client
   * would have shown it. 429 is a wait, as for pieces.
   */
  async function call(
    run: (config: CallConfig) => Promise<{ data: unknown }>,
    signal: AbortSignal,
    { handle = () => null, quiet = false }: { handle?: (err: ApiError) => Error | null; quiet?: boolean } = {},
  ): Promise<unknown> {
    try {
      return (await run({ signal, silent: true })).data;
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      if (err.status === 429) throw new UploadBusyError(parseRetryAfterMs(err.data));
      // Every direct call answers so on a disk store (a server moved off S3 while an upload waited).
      if (reasonOf(err) === DIRECT_UPLOAD_REASONS.unavailable) {
        offered = false;
        throw new DirectUnavailableError();
      }
      const handled = handle(err);
      if (handled) throw handled;
      // HTTP failures were shown by the client already; 401 and 409 lead to the login instead.
      if (!quiet && err.code !== 'HTTP_ERROR' && err.status !== 401 && err.status !== 409) options.notify?.(err.message);
      throw err;
    }
  }

  return {
    offered: () => offered,

    async begin() {
      if (confirmed || !offered) return () => {};
      const previous = gate;
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      await previous;
      if (!confirmed) await askOffered();
      return release;
    },

    async start(input, signal) {
      const data = await call((config) => client.post<unknown>(DIRECT_START_PATH, input, config), signal);
      confirmed = true;
      return parseDirectState(data, input.name, input.size);
    },

    async sign(id, parts, signal) {
      const data = await call((config) => client.post<unknown>(`${directUploadPath(id)}/parts`, { parts }, config), signal);
      return parsePartLinks(data);
    },

    async status(id, signal) {
      // Quiet: the queue starts over or sends every part again, nothing to tell the user.
      const data = await call((config) => client.get<unknown>(directUploadPath(id), config), signal, { quiet: true });
      return parseDirectState(data, '', 0);
    },

    async putPart(link, blob, callOptions) {
      try {
        await put(link, blob, callOptions);
      } catch (err) {
        // A store never reached from this page is taken as out of its reach (a bucket without CORS
        // for the portal, a CSP without the store, an internal address), not as a network blip:
        // pieces for this file and the next ones, rather than 15 minutes of retries.
        if (err instanceof StoreUnreachableError && !storeReached && !callOptions.signal.aborted) {
          offered = false;
          throw new DirectUnavailableError();
        }
        if (!(err instanceof StoreUnreachableError) && !isCancel(err)) storeReached = true;
        throw err;
      }
      storeReached = true;
    },

    async complete(id, name, size, signal) {
      const data = await call((config) => client.post<unknown>(`${directUploadPath(id)}/complete`, {}, config), signal, {
        handle: (err) => (reasonOf(err) === DIRECT_UPLOAD_REASONS.partsMissing ? new PartsMissingError(parseReceivedPieces(err.data)) : null),
      });
      const stored = parseStoredFile(data, name, size);
      if (!stored) throw new Error('The upload was completed but no stored file came back');
      return stored;
    },
  };
}

export function createUploadTransport(client: HttpClient, options: UploadTransportOptions = {}): UploadTransport {
  return {
    ...(options.direct ? { direct: createDirectTransport(client, options) } : {}),
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
