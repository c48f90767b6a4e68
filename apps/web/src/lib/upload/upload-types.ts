import type { AttachmentOrigin } from '@contest/shared';

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

/** The network side of the uploader; the real one goes through the app's API client. */
export interface UploadTransport {
  /**
   * Resolves the stored file when this piece completed the upload, else null. Rejects with
   * UploadBusyError when the server asks to send the piece again later.
   */
  uploadPiece(request: PieceRequest, options: PieceCallOptions): Promise<StoredFile | null>;
  /** Piece indexes the server already holds for an upload id (empty when it knows none). */
  receivedPieces(uploadId: string, signal: AbortSignal): Promise<number[]>;
}
