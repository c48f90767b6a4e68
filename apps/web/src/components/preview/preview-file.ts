/**
 * The preview dialog's file item, how its bytes are fetched
 * (images, PDFs) and how a video or audio file gets a link the browser streams from instead.
 */
import { fileExtensionOf, previewKindOf, type PreviewKind } from '@contest/shared';
import { api } from '../../lib/api';
import { attachmentStreamPath, fetchAccessUrl, fetchRedirectLink } from '../../lib/upload/upload-api';

/**
 * What the dialog shows: the shared kinds, plus media the browser plays itself ("images/videos
 * in preview", docs/rules/screens.md, "File preview"). Media is never fetched into a blob: a 500 MB video would pass
 * through the API client and sit whole in memory.
 */
export type PreviewDialogKind = PreviewKind | 'video' | 'audio';

// What <video>/<audio> in current browsers play; mp4 is the one video type uploads accept.
const VIDEO_EXTENSIONS = new Set(['mp4', 'm4v', 'webm', 'ogv', 'mov']);
const AUDIO_EXTENSIONS = new Set(['mp3', 'wav', 'ogg', 'oga', 'm4a', 'aac', 'flac']);

export function isMediaKind(kind: PreviewDialogKind): kind is 'video' | 'audio' {
  return kind === 'video' || kind === 'audio';
}

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
  type?: PreviewDialogKind;
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

export interface PreviewLink {
  /** What <video>/<audio> loads: a signed link with redirect=1, or the page's own link. */
  url: string;
  name?: string | null;
}

/** Gives a media file's link; the browser streams from it (ranges), nothing is fetched here. */
export type PreviewLinker = (file: PreviewFile, signal: AbortSignal) => Promise<PreviewLink>;

/** Key of the dialog's blob cache. */
export function previewCacheKey(file: PreviewFile): string {
  return file.id || file.url || file.filePath || file.uniqueNo || file.name;
}

export function kindOfPreview(file: PreviewFile): PreviewDialogKind {
  if (file.canPreview === false) return file.type === 'archive' ? 'archive' : 'unsupported';
  if (file.type) return file.type;
  const ext = fileExtensionOf(file.name);
  if (VIDEO_EXTENSIONS.has(ext)) return 'video';
  if (AUDIO_EXTENSIONS.has(ext)) return 'audio';
  return previewKindOf(file.name);
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
    const url = await fetchAccessUrl(api, file.filePath, { signal });
    if (!url) throw new Error('No access link for the file');
    return fetchUrl(url, signal);
  }
  throw new Error('Nothing to fetch the file from');
};

/**
 * Default linker: the page's own link as it is, else a fresh signed link (GET /attachment/accessUrl,
 * sent with the realm's token, which the server checks) for the attachment id or the file path,
 * with redirect=1: on S3 the server answers 302 to a short-lived presigned link and the store
 * serves the bytes; on disk the same link streams from Node with Range support. Either way the
 * browser streams; the link needs no token, so <video src> can load it.
 */
export const linkPreviewFile: PreviewLinker = async (file, signal) => {
  if (file.url) return { url: file.url };
  const filePath = file.id ? attachmentStreamPath(file.id) : file.filePath;
  if (!filePath) throw new Error('Nothing to link the file from');
  return fetchRedirectLink(api, filePath, { signal });
};
