// Preview type detection by extension (docs/rules/screens.md, "File preview"), used by the preview dialog.

/** Extensions the dialog shows as images (the preview's list, plus avif). */
export const PREVIEW_IMAGE_EXTENSIONS = [
  'jpg',
  'png',
  'gif',
  'jpeg',
  'bmp',
  'webp',
  'svg',
  'tiff',
  'tif',
  'jfif',
  'pjpeg',
  'pjp',
  'avif',
] as const;

export const PREVIEW_PDF_EXTENSIONS = ['pdf'] as const;

/**
 * Archives and installers: answered with 压缩文件暂不支持预览 rather than the generic
 * "type not supported", since users expect to open them and deserve the specific reason.
 */
export const PREVIEW_ARCHIVE_EXTENSIONS = [
  'zip',
  'rar',
  '7z',
  'tar',
  'gz',
  'tgz',
  'bz2',
  'tbz2',
  'xz',
  'txz',
  'lz',
  'lzma',
  'z',
  'zst',
  'cab',
  'arj',
  'iso',
  'img',
  'dmg',
  'pkg',
  'apk',
  'aab',
  'ipa',
  'xapk',
  'jar',
  'war',
  'ear',
  'exe',
  'msi',
  'deb',
  'rpm',
] as const;

export type PreviewKind = 'image' | 'pdf' | 'archive' | 'unsupported';

/**
 * The lower-cased extension of a file name or path, without the dot; '' when there is none.
 * A leading dot alone (".env") is a hidden file's name, not an extension.
 */
export function fileExtensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // Query strings and fragments appear when the name is a URL.
  const clean = base.replace(/[?#].*$/, '');
  const dot = clean.lastIndexOf('.');
  if (dot <= 0 || dot === clean.length - 1) return '';
  return clean.slice(dot + 1).toLowerCase();
}

const IMAGE_SET = new Set<string>(PREVIEW_IMAGE_EXTENSIONS);
const PDF_SET = new Set<string>(PREVIEW_PDF_EXTENSIONS);
const ARCHIVE_SET = new Set<string>(PREVIEW_ARCHIVE_EXTENSIONS);

/** What the preview dialog can do with a file, judged by its name's extension (case-insensitive). */
export function previewKindOf(fileName: string): PreviewKind {
  const ext = fileExtensionOf(fileName);
  if (IMAGE_SET.has(ext)) return 'image';
  if (PDF_SET.has(ext)) return 'pdf';
  if (ARCHIVE_SET.has(ext)) return 'archive';
  return 'unsupported';
}

export function canPreview(fileName: string): boolean {
  const kind = previewKindOf(fileName);
  return kind === 'image' || kind === 'pdf';
}
