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
}

export interface ResumeTicket {
  uploadId: string;
  /** True when the id was handed out before: the server may already hold some pieces. */
  resumed: boolean;
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

  /** The id to upload `fingerprint` under: the remembered one while fresh, else a new one. */
  take(fingerprint: string): ResumeTicket {
    const now = this.now();
    const records = this.read();
    for (const [key, record] of Object.entries(records)) {
      if (now - record.at > RESUME_TTL_MS) delete records[key];
    }
    const known = records[fingerprint];
    const uploadId = known?.id ?? this.newId();
    // The timestamp is that of the first attempt: the server's clock for leftovers starts then.
    records[fingerprint] = { id: uploadId, at: known?.at ?? now };
    this.write(records);
    return { uploadId, resumed: known !== undefined };
  }

  /** Forgets a file once the server has stored it. */
  finish(fingerprint: string): void {
    const records = this.read();
    if (!(fingerprint in records)) return;
    delete records[fingerprint];
    this.write(records);
  }
}
