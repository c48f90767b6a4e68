import type { AttachmentOrigin, DirectPartLink } from '@contest/shared';

/** Upload statuses (docs/uploader.md, "State machine of a picked file"); every `error_*` one is final until the user retries or dismisses. */
export const UPLOAD_STATUSES = [
  'waiting',
  'uploading',
  'ok',
  'error_upload',
  'error_cancel',
  'error_deleted',
  'error_exceedUploadMaxNum',
  'error_noSupportFile',
  'error_exceedFileSize',
] as const;
export type UploadStatus = (typeof UPLOAD_STATUSES)[number];

/** A file the server has stored: the final piece's answer. */
export interface StoredFile {
  /** Attachment id, for /attachment/stream/{id}; '' when the server named none. */
  id: string;
  filePath: string;
  fileName: string;
  fileSize: number;
}

/** What the uploader holds as its form value (uid, filePath, fileSize, fileName, plus the attachment id). */
export interface UploadValueItem {
  uid: string;
  filePath: string;
  fileSize: number;
  fileName: string;
  id?: string;
}

/** One row of the uploader's list that is not (yet) part of the value. */
export interface UploadEntry {
  uid: string;
  fileName: string;
  /** Lower-cased extension without the dot. */
  fileType: string;
  fileSize: number;
  status: UploadStatus;
  /** 0-99 while uploading; 100 only once the server has answered with the stored file. */
  percent: number;
  /** When the file was picked (ms since epoch). */
  uploadTimestamp: number;
  /** Kept so a failed or cancelled upload can be retried (and resumed). Absent for deleted value files. */
  file?: File;
}

export interface PieceRequest {
  origin: AttachmentOrigin;
  uploadId: string;
  /** Total piece count. */
  chunks: number;
  /** 0-based piece index. */
  chunk: number;
  name: string;
  blob: Blob;
}

export interface PieceCallOptions {
  signal: AbortSignal;
  /** Fraction (0..1) of this piece sent so far. */
  onProgress(fraction: number): void;
}

/**
 * The server takes no more pieces for now (HTTP 429, before it read the body): the same piece is
 * sent again after `retryAfterMs`. Not a failure of the upload.
 */
export class UploadBusyError extends Error {
  override readonly name = 'UploadBusyError';

  constructor(readonly retryAfterMs: number) {
    super('The server is busy with other uploads');
  }
}

/** The server's store cannot take direct uploads (disk): send pieces instead (docs/uploader.md, "Direct upload"). */
export class DirectUnavailableError extends Error {
  override readonly name = 'DirectUnavailableError';

  constructor() {
    super('Direct upload is not offered');
  }
}

/**
 * A part's PUT got no answer at all (a lost connection; or a store the page may not reach: CORS,
 * the Content-Security-Policy's connect-src, an address browsers cannot resolve): waited out as busy.
 */
export class StoreUnreachableError extends UploadBusyError {}

/** A part link's time ran out before the store read the part (403 after `expiresAt`): sign it again. */
export class PartLinkExpiredError extends Error {
  override readonly name = 'PartLinkExpiredError';

  constructor() {
    super('The part link expired');
  }
}

/** Completion found parts missing in the store: send the chunks not in `received`, then complete again. */
export class PartsMissingError extends Error {
  override readonly name = 'PartsMissingError';

  constructor(readonly received: number[]) {
    super('Parts are missing');
  }
}

export interface DirectStart {
  origin: AttachmentOrigin;
  name: string;
  size: number;
  /** Hex SHA-256 of the whole file. */
  sha256: string;
}

/** A direct upload's state on the server: the chunks the store holds, or the stored file once complete. */
export interface DirectState {
  id: string;
  received: number[];
  stored: StoredFile | null;
}

/**
 * Direct upload to the object store (docs/files.md, "Direct upload"). Calls the server refuses
 * as busy (429) reject with UploadBusyError, as a piece does.
 */
export interface DirectTransport {
  /** False once the server said it offers no direct upload (for the rest of the page load). */
  offered(): boolean;
  /**
   * Waits for this file's turn to hash and start; call the function returned once the start has
   * answered. While it is not known yet whether direct upload is offered, files go one at a time
   * (the first answer tells the rest, which then hash nothing in vain); after that, at once.
   */
  begin(): Promise<() => void>;
  /** Rejects with DirectUnavailableError when the store is the disk (and remembers it). */
  start(input: DirectStart, signal: AbortSignal): Promise<DirectState>;
  /** Signed links for parts, each bound to its base64 SHA-256. */
  sign(id: string, parts: { chunk: number; sha256: string }[], signal: AbortSignal): Promise<DirectPartLink[]>;
  /** The chunks the store holds (resume). */
  status(id: string, signal: AbortSignal): Promise<DirectState>;
  /**
   * PUTs a part's bytes to its link (the store, not the portal: no token). Rejects with
   * UploadBusyError on 429, 5xx or a network failure, PartLinkExpiredError on a link out of time.
   */
  putPart(link: DirectPartLink, blob: Blob, options: PieceCallOptions): Promise<void>;
  /** Rejects with PartsMissingError when the store lacks parts. */
  complete(id: string, name: string, size: number, signal: AbortSignal): Promise<StoredFile>;
}

/** The network side of the uploader; the real one goes through the app's API client. */
export interface UploadTransport {
  /**
   * Resolves the stored file when this piece completed the upload, else null. Rejects with
   * UploadBusyError when the server asks to send the piece again later.
   */
  uploadPiece(request: PieceRequest, options: PieceCallOptions): Promise<StoredFile | null>;
  /** Piece indexes the server already holds for an upload id (empty when it knows none). */
  receivedPieces(uploadId: string, signal: AbortSignal): Promise<number[]>;
  /** Present when the server may offer direct upload to its store; the queue then tries it first. */
  direct?: DirectTransport;
}
