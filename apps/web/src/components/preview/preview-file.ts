/** The preview dialog's file item (spec section 3 "Preview file item") and how its bytes are fetched. */
import { previewKindOf, type PreviewKind } from '@contest/shared';
import { api } from '../../lib/api';
import { fetchAccessUrl } from '../../lib/upload/upload-api';

export interface PreviewFile {
  /** The attachment id (GET /attachment/stream/{id}); '' when the file has none. */
  id: string;
  name: string;
  /** A link to fetch the file from (public files, or one the page already holds). */
  url?: string;
  uniqueNo?: string;
  /** The bytes themselves, when the page has them (e.g. a file not uploaded yet). */
  fileData?: Blob;
  /** A stored file path, turned into a link through /attachment/accessUrl. */
  filePath?: string;
  /** Overrides the detection by extension. */
  type?: PreviewKind;
  /** False marks a file the page knows cannot be shown. */
  canPreview?: boolean;
}

export interface FetchedPreview {
  blob: Blob;
  /** The server's file name (Content-Disposition), when it gave one. */
  name?: string | null;
}

/** The "api function" of a preview request: loads a file's bytes. */
export type PreviewFetcher = (file: PreviewFile, signal: AbortSignal) => Promise<FetchedPreview>;

/** Key of the dialog's blob cache. */
export function previewCacheKey(file: PreviewFile): string {
  return file.id || file.url || file.filePath || file.uniqueNo || file.name;
}

export function kindOfPreview(file: PreviewFile): PreviewKind {
  if (file.canPreview === false) return file.type === 'archive' ? 'archive' : 'unsupported';
  return file.type ?? previewKindOf(file.name);
}

async function fetchUrl(url: string, signal: AbortSignal): Promise<FetchedPreview> {
  const response = await fetch(url, { signal, credentials: 'include' });
  if (!response.ok) throw new Error(`Preview fetch failed: ${response.status}`);
  return { blob: await response.blob() };
}

/**
 * Default fetcher: the given bytes, else the link, else the attachment stream (through the
 * API client, so the current realm's token goes along), else the file path's access link.
 */
export const fetchPreviewFile: PreviewFetcher = async (file, signal) => {
  if (file.fileData) return { blob: file.fileData };
  if (file.url) return fetchUrl(file.url, signal);
  if (file.id) {
    const result = await api.get(`/attachment/stream/${encodeURIComponent(file.id)}`, {
      params: { preview: 1 },
      responseType: 'blob',
      signal,
    });
    if (!('blob' in result)) throw new Error('The stream answered no file');
    return { blob: result.blob, name: result.fileName };
  }
  if (file.filePath) {
    const url = await fetchAccessUrl(api, file.filePath);
    if (!url) throw new Error('No access link for the file');
    return fetchUrl(url, signal);
  }
  throw new Error('Nothing to fetch the file from');
};
