/** HTTP details of file downloads, kept apart from the routes so they are tested directly. */

export type RangeRequest = { kind: 'whole' } | { kind: 'part'; start: number; end: number } | { kind: 'unsatisfiable' };

/**
 * One `bytes=` range of RFC 9110 (first-last, first-, -suffix). Several ranges, other units or
 * bad syntax are ignored (the whole file is sent), as the RFC allows; a well-formed range that
 * starts past the end is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (!header) return { kind: 'whole' };
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return { kind: 'whole' };
  const [, first, last] = match as unknown as [string, string, string];
  if (first === '' && last === '') return { kind: 'whole' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0) return { kind: 'unsatisfiable' };
    return { kind: 'part', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (last !== '' && Number(last) < start) return { kind: 'whole' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'part', start, end };
}

/** True when an If-None-Match header lists this ETag (or is `*`). */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === etag;
  });
}

// In lib so the S3 driver's presigned links and the documents service decide and name files
// exactly as the stream route does.
export { contentDisposition, downloadDisposition, isInlinePreviewable } from '../../lib/content-disposition.js';

/** The 302 to a presigned store link: the link expires within minutes, so nothing may keep it. */
export function presignedRedirectHeaders(location: string): Record<string, string> {
  return { location, 'cache-control': 'private, no-store' };
}
