/**
 * Downloading a stored attachment (GET /attachment/stream/{id}) under the server's file name.
 * Small files come through the API client as a blob, as they always did; large ones are handed
 * to the browser as a signed link with redirect=1, so a 500 MB video neither passes through the
 * API client nor sits whole in memory (on S3 the store serves it through a presigned link).
 */
import { api } from './api';
import { saveBlob, saveLink } from './save-blob';
import { attachmentStreamPath, fetchRedirectLink } from './upload/upload-api';

/**
 * Above this a download goes through a signed link. Below it the blob path stays: it is how
 * every download worked, a failure shows in the page (the client's toast) rather than in the
 * browser's download list, and a few MB in memory cost nothing.
 */
export const LINK_DOWNLOAD_MIN_BYTES = 20 * 1024 * 1024;

export interface DownloadableAttachment {
  uniqueNo: string;
  name: string;
  /** Bytes, when known; an unknown size downloads as a blob, as before. */
  size?: number | null;
}

export function downloadsByLink(file: Pick<DownloadableAttachment, 'size'>): boolean {
  return typeof file.size === 'number' && file.size > LINK_DOWNLOAD_MIN_BYTES;
}

/**
 * The shared client sends the token of the page's realm (the URL decides), both for the blob and
 * for the accessUrl call, where the server checks the reader's access before signing the link.
 */
export async function downloadAttachmentFile(file: DownloadableAttachment): Promise<void> {
  if (downloadsByLink(file)) {
    const link = await fetchRedirectLink(api, attachmentStreamPath(file.uniqueNo));
    saveLink(link.url);
    return;
  }
  const result = await api.get(`/attachment/stream/${encodeURIComponent(file.uniqueNo)}`, { responseType: 'blob' });
  if ('blob' in result) saveBlob(result, file.name);
}
