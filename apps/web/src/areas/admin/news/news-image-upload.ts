/**
 * Uploads one picture of a news article (the editor's image button, a paste or a drop) through
 * the portal's uploader engine (lib/upload: the same pieces, checks and transport as every
 * other upload) with origin NEWS, whose files the server stores public.
 */
import { UPLOAD_RULES } from '@contest/shared';
import { api } from '../../../lib/api';
import { UploadQueue, createUploadTransport, parseAccept, type StoredFile, type UploadStatus, type UploadTransport } from '../../../lib/upload';

/** Pictures a browser shows inline; the server also takes bmp for NEWS, but no editor needs it. */
export const NEWS_IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp'] as const;
export const NEWS_IMAGE_ACCEPT = NEWS_IMAGE_EXTENSIONS.map((ext) => `.${ext}`).join(',');
export const NEWS_IMAGE_MAX_BYTES = UPLOAD_RULES.NEWS.maxBytes;

const rule = parseAccept(NEWS_IMAGE_ACCEPT);

/** A refused or failed upload: `status` says why (the uploader's statuses, translated by the files texts). */
export type ImageUploadFailure = Extract<UploadStatus, `error_${string}`>;

export class ImageUploadError extends Error {
  constructor(readonly status: ImageUploadFailure) {
    super(status);
  }
}

let sharedTransport: UploadTransport | null = null;

/** True for the files a paste or drop should upload (pictures only; other files are not inserted). */
export function isNewsImage(file: File): boolean {
  return file.type.startsWith('image/') || NEWS_IMAGE_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(`.${ext}`));
}

/**
 * The image's address in the article: the public stream path with `preview=1`, so it shows
 * inline (the sanitiser keeps exactly these paths).
 */
export const imageSrcOf = (stored: StoredFile) => `${stored.filePath}${stored.filePath.includes('?') ? '&' : '?'}preview=1`;

const EXTENSION_OF_TYPE: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp' };

/**
 * A pasted screenshot may come without a usable name; the server reads the type from the name's
 * extension (and checks it against the content), so such a file is named after its type.
 */
export function withImageName(file: File): File {
  if (NEWS_IMAGE_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(`.${ext}`))) return file;
  const ext = EXTENSION_OF_TYPE[file.type];
  return ext ? new File([file], `${file.name.replace(/\.[^.]*$/, '') || 'image'}.${ext}`, { type: file.type }) : file;
}

/** Resolves the stored file, or rejects with ImageUploadError (type, size or network). */
export function uploadNewsImage(picked: File, transport?: UploadTransport): Promise<StoredFile> {
  sharedTransport ??= createUploadTransport(api);
  const file = withImageName(picked);
  return new Promise<StoredFile>((resolve, reject) => {
    const queue = new UploadQueue({
      transport: transport ?? sharedTransport!,
      origin: 'NEWS',
      accept: rule,
      maxSize: NEWS_IMAGE_MAX_BYTES,
      valueCount: () => 0,
      // A pasted screenshot is uploaded once; there is nothing to resume.
      resume: null,
      onUploaded: (_entry, stored) => {
        queue.destroy();
        resolve(stored);
      },
    });
    queue.subscribe(() => {
      const failed = queue.entries().find((e) => e.status.startsWith('error_'));
      if (!failed) return;
      queue.destroy();
      reject(new ImageUploadError(failed.status as ImageUploadFailure));
    });
    queue.add([file]);
  });
}
