import { fileExtensionOf } from '@contest/shared';
import type { UploadStatus } from './upload-types';

/** Parsed `accept`: extensions without the dot (lower case) and MIME patterns such as image/*. */
export interface AcceptRule {
  extensions: ReadonlySet<string>;
  mimeTypes: readonly string[];
}

/**
 * Reads the comma-separated accepted list (".pdf,.DOCX", "pdf, docx" and "image/*" alike).
 * Returns null when nothing is listed: every type is accepted (the spec's default).
 */
export function parseAccept(accept: string | readonly string[] | undefined): AcceptRule | null {
  const items = (typeof accept === 'string' ? accept.split(',') : (accept ?? []))
    .map((item) => item.trim().toLowerCase())
    .filter(Boolean);
  if (items.length === 0) return null;
  const extensions = new Set<string>();
  const mimeTypes: string[] = [];
  for (const item of items) {
    if (item.includes('/')) mimeTypes.push(item);
    else extensions.add(item.replace(/^\*?\./, ''));
  }
  return { extensions, mimeTypes };
}

/** The value for <input accept>, so the file picker offers the accepted files first. */
export function acceptAttribute(rule: AcceptRule | null): string | undefined {
  if (!rule) return undefined;
  return [...[...rule.extensions].map((ext) => `.${ext}`), ...rule.mimeTypes].join(',');
}

export function isAccepted(rule: AcceptRule | null, file: Pick<File, 'name' | 'type'>): boolean {
  if (!rule) return true;
  if (rule.extensions.has(fileExtensionOf(file.name))) return true;
  const type = file.type.toLowerCase();
  if (!type) return false;
  return rule.mimeTypes.some((pattern) =>
    pattern.endsWith('/*') ? type.startsWith(pattern.slice(0, -1)) : type === pattern,
  );
}

export interface FileLimits {
  accept: AcceptRule | null;
  /** Bytes; 0 or absent means unlimited. */
  maxSize?: number;
  /** Files in the value plus queued plus running; 0 or absent means unlimited. */
  maxCount?: number;
}

/**
 * Why a picked file is refused at once, in the spec's order (count, type, size), or null.
 * `occupied` counts the value's files and those queued or uploading.
 */
export function rejectionOf(
  file: Pick<File, 'name' | 'type' | 'size'>,
  limits: FileLimits,
  occupied: number,
): Extract<UploadStatus, `error_exceed${string}` | 'error_noSupportFile'> | null {
  if (limits.maxCount && occupied >= limits.maxCount) return 'error_exceedUploadMaxNum';
  if (!isAccepted(limits.accept, file)) return 'error_noSupportFile';
  if (limits.maxSize && file.size > limits.maxSize) return 'error_exceedFileSize';
  return null;
}
