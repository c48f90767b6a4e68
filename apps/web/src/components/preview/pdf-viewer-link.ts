/**
 * The contract between the preview dialog and the PDF viewer page (/pdf/web/viewer.html, spec
 * section 2): the page takes the file's link as `?file=`, and tells its parent through
 * postMessage when the first page is drawn or the file could not be shown. Kept free of React
 * and pdf.js so both sides (and the tests) import it cheaply.
 */

export const PDF_VIEWER_PATH = '/pdf/web/viewer.html';

/** The viewer page showing `fileUrl` (a blob: link or a same-origin attachment link). */
export function pdfViewerUrl(fileUrl: string): string {
  return `${PDF_VIEWER_PATH}?file=${encodeURIComponent(fileUrl)}`;
}

/**
 * The link the viewer may open, or null. Only this origin's own links (http(s) on the page's
 * origin, or blob: links created by a page of this origin) are accepted, so the viewer cannot
 * be pointed at another site's file.
 */
export function resolveViewerFile(param: string | null, pageOrigin: string): string | null {
  if (!param) return null;
  const value = param.trim();
  if (/^blob:/i.test(value)) {
    // A blob link's origin is that of the document that made it: blob:<origin>/<uuid>.
    const inner = parseUrl(value.slice('blob:'.length));
    if (!inner || !isHttp(inner) || inner.origin !== pageOrigin) return null;
    return `blob:${inner.origin}${inner.pathname}`;
  }
  const url = parseUrl(value, pageOrigin);
  if (!url || !isHttp(url) || url.origin !== pageOrigin || url.username || url.password) return null;
  return url.href;
}

function parseUrl(value: string, base?: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}

const isHttp = (url: URL) => url.protocol === 'http:' || url.protocol === 'https:';

/** What the viewer page posts to its parent. */
export type PdfViewerMessage =
  | { source: 'contest-pdf-viewer'; type: 'rendered' }
  | { source: 'contest-pdf-viewer'; type: 'error' };

export function isPdfViewerMessage(data: unknown): data is PdfViewerMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { source, type } = data as { source?: unknown; type?: unknown };
  return source === 'contest-pdf-viewer' && (type === 'rendered' || type === 'error');
}
