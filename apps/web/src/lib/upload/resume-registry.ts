import type { AttachmentOrigin } from '@contest/shared';
import { createUploadId } from './upload-id';

/** localStorage key of the unfinished uploads' ids. */
export const RESUME_STORAGE_KEY = 'uploadResume';

/**
 * The server drops leftover pieces after a day (docs/files.md); an older id would only
 * earn a status call answering "nothing received", so it is forgotten a little earlier.
 */
export const RESUME_TTL_MS = 23 * 60 * 60 * 1000;

interface ResumeRecord {
  id: string;
  at: number;
  /** A direct upload's id (made by the server), not a piece upload's. */
  direct?: boolean;
}

export interface ResumeTicket {
  uploadId: string;
  /** True when the id was handed out before: the server may already hold some pieces. */
  resumed: boolean;
}

/** An unfinished direct upload of a file (docs/uploader.md, "Direct upload"). */
export interface DirectResume {
  /** The server's id of the direct upload. */
  id: string;
}

/** Identifies "the same file" across retries and page reloads without reading its content. */
export function fileFingerprint(origin: AttachmentOrigin, file: File): string {
  return [origin, file.name, file.size, file.lastModified].join('|');
}

/**
 * Remembers the upload id given to each unfinished file, so that retrying it (or picking it
 * again after a reload) reuses the id and the server's pieces. Kept in localStorage; a
 * storage that refuses writes (private mode, quota) only loses the resume, never the upload.
 */
export class ResumeRegistry {
  constructor(
    private readonly storage: Pick<Storage, 'getItem' | 'setItem'> | null,
    private readonly now: () => number = Date.now,
    private readonly newId: () => string = createUploadId,
  ) {}

  private read(): Record<string, ResumeRecord> {
    try {
      const raw = this.storage?.getItem(RESUME_STORAGE_KEY);
      const parsed: unknown = raw ? JSON.parse(raw) : {};
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, ResumeRecord>) : {};
    } catch {
      return {};
    }
  }

  private write(records: Record<string, ResumeRecord>): void {
    try {
      this.storage?.setItem(RESUME_STORAGE_KEY, JSON.stringify(records));
    } catch {
      // Resume is a convenience; the upload goes on without it.
    }
  }

  /** The records still fresh (older ones are dropped). */
  private fresh(): Record<string, ResumeRecord> {
    const now = this.now();
    const records = this.read();
    for (const [key, record] of Object.entries(records)) {
      if (now - record.at > RESUME_TTL_MS) delete records[key];
    }
    return records;
  }

  /** The id to upload `fingerprint` under in pieces: the remembered one while fresh, else a new one. */
  take(fingerprint: string): ResumeTicket {
    const now = this.now();
    const records = this.fresh();
    // A direct upload's id means nothing to the piece path.
    if (records[fingerprint]?.direct) delete records[fingerprint];
    const known = records[fingerprint];
    const uploadId = known?.id ?? this.newId();
    // The timestamp is that of the first attempt: the server's clock for leftovers starts then.
    records[fingerprint] = { id: uploadId, at: known?.at ?? now };
    this.write(records);
    return { uploadId, resumed: known !== undefined };
  }

  /** The remembered direct upload of `fingerprint`, null when none is (or a piece upload is). */
  direct(fingerprint: string): DirectResume | null {
    const record = this.fresh()[fingerprint];
    return record?.direct ? { id: record.id } : null;
  }

  /** True when a piece upload of `fingerprint` is remembered: the server holds its pieces. */
  hasPieces(fingerprint: string): boolean {
    const record = this.fresh()[fingerprint];
    return record !== undefined && !record.direct;
  }

  /** Remembers the direct upload the server started for `fingerprint`. */
  rememberDirect(fingerprint: string, id: string): void {
    const records = this.fresh();
    records[fingerprint] = { id, at: this.now(), direct: true };
    this.write(records);
  }

  /** Forgets a file once the server has stored it. */
  finish(fingerprint: string): void {
    const records = this.read();
    if (!(fingerprint in records)) return;
    delete records[fingerprint];
    this.write(records);
  }
}
