import type { BlobResult } from '../api';

function clickLink(href: string, download: string): void {
  const link = document.createElement('a');
  link.href = href;
  link.download = download;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
}

/** Hands a downloaded file to the browser under its server-given name. */
export function saveBlob({ blob, fileName }: BlobResult, fallbackName: string): void {
  const url = URL.createObjectURL(blob);
  clickLink(url, fileName ?? fallbackName);
  // Revoked on the next tick: some browsers start the download only after the click returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/**
 * Lets the browser download a link itself (a signed link with redirect=1): the bytes go from the
 * store (or Node's stream) straight to disk, never through the API client or memory. The
 * download attribute is left empty so the name is the server's Content-Disposition (the stream
 * route's and the presigned link's alike); for the cross-origin store link the browser ignores
 * the attribute and Content-Disposition: attachment alone keeps the page where it is.
 */
export function saveLink(url: string): void {
  clickLink(url, '');
}
