/** How downloads are named and which open in the browser: shared by the routes, services and drivers. */

/**
 * `attachment; filename="ascii fallback"; filename*=UTF-8''percent-encoded` (RFC 6266 / 5987):
 * every current browser reads the UTF-8 form, old ones get a readable ASCII name. Shared by the
 * download routes and the S3 driver's presigned links, so both name a file the same way.
 */
export function contentDisposition(type: 'inline' | 'attachment', name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\%]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Only these open in the browser with ?preview=1; anything else always downloads. */
export function isInlinePreviewable(mimeType: string): boolean {
  return mimeType === 'application/pdf' || /^image\/(jpeg|png|gif|webp|bmp)$/.test(mimeType);
}

/** The disposition a download is sent with: inline only when the caller asked for a preview and the type opens safely. */
export function downloadDisposition(preview: boolean, mimeType: string): 'inline' | 'attachment' {
  return preview && isInlinePreviewable(mimeType) ? 'inline' : 'attachment';
}
