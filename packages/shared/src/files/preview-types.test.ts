import { describe, expect, it } from 'vitest';
import {
  PREVIEW_IMAGE_EXTENSIONS,
  canPreview,
  fileExtensionOf,
  previewKindOf,
} from './preview-types.js';

describe('fileExtensionOf', () => {
  it.each([
    ['report.PDF', 'pdf'],
    ['a.b.c.JpEg', 'jpeg'],
    ['no-extension', ''],
    ['.env', ''],
    ['trailing.', ''],
    ['/files/2025/照片.PNG', 'png'],
    ['C:\\docs\\方案.docx', 'docx'],
    ['https://host/x/photo.webp?x-sig=1.2#frag', 'webp'],
    ['', ''],
  ])('%s -> %s', (name, ext) => {
    expect(fileExtensionOf(name)).toBe(ext);
  });
});

describe('previewKindOf', () => {
  it('recognises every image extension of the spec, in any case', () => {
    for (const ext of ['jpg', 'png', 'gif', 'jpeg', 'bmp', 'webp', 'svg', 'tiff', 'tif', 'jfif', 'pjpeg', 'pjp']) {
      expect(PREVIEW_IMAGE_EXTENSIONS).toContain(ext);
      expect(previewKindOf(`photo.${ext}`)).toBe('image');
      expect(previewKindOf(`PHOTO.${ext.toUpperCase()}`)).toBe('image');
    }
  });

  it('recognises PDFs case-insensitively', () => {
    expect(previewKindOf('方案.pdf')).toBe('pdf');
    expect(previewKindOf('方案.Pdf')).toBe('pdf');
  });

  it.each(['zip', 'rar', '7z', 'tar', 'gz', 'iso', 'dmg', 'apk', 'jar', 'ZIP', 'exe', 'msi'])(
    'treats .%s as an archive or installer',
    (ext) => {
      expect(previewKindOf(`bundle.${ext}`)).toBe('archive');
    },
  );

  it.each(['a.docx', 'a.xlsx', 'a.mp4', 'a.txt', 'README', 'pdf', 'jpg'])('%s is not previewable', (name) => {
    expect(previewKindOf(name)).toBe('unsupported');
  });

  it('canPreview is true only for images and PDFs', () => {
    expect(canPreview('a.png')).toBe(true);
    expect(canPreview('a.PDF')).toBe(true);
    expect(canPreview('a.zip')).toBe(false);
    expect(canPreview('a.doc')).toBe(false);
  });
});
