import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * What a person reads off a certificate PDF (docs/certificates.md): its text, through pdf.js with
 * the CJK CMaps (the fonts are embedded subsets), and its QR code, the first page drawn by pdf.js
 * on a @napi-rs/canvas and read with jsQR, as the server's own tests do.
 */
const require = createRequire(import.meta.url);
const PDFJS_DIR = dirname(require.resolve('pdfjs-dist/package.json'));
const OPTIONS = {
  cMapUrl: `${join(PDFJS_DIR, 'cmaps')}/`,
  cMapPacked: true,
  standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
  isEvalSupported: false,
  verbosity: 0,
};

async function open(bytes: Buffer) {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  return getDocument({ data: new Uint8Array(bytes), ...OPTIONS }).promise;
}

/** The text of every page, items joined without spaces (CJK runs come out one glyph group at a time). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const doc = await open(bytes);
  const parts: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    for (const item of content.items) if ('str' in item) parts.push(item.str);
  }
  await doc.destroy();
  return parts.join('');
}

/** The QR code's text on the first page, or null when none can be read. */
export async function pdfQr(bytes: Buffer): Promise<string | null> {
  // pdf.js draws glyphs with the Path2D of its own copy of @napi-rs/canvas: the canvas must come from that copy too.
  const { createCanvas } = createRequire(join(PDFJS_DIR, 'package.json'))('@napi-rs/canvas') as typeof import('@napi-rs/canvas');
  const { default: jsQR } = await import('jsqr');
  const doc = await open(bytes);
  const page = await doc.getPage(1);
  const viewport = page.getViewport({ scale: 2 });
  const canvas = createCanvas(Math.ceil(viewport.width), Math.ceil(viewport.height));
  const ctx = canvas.getContext('2d');
  await page.render({ canvasContext: ctx as never, canvas: canvas as never, viewport }).promise;
  const image = ctx.getImageData(0, 0, canvas.width, canvas.height);
  await doc.destroy();
  return jsQR(new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength), image.width, image.height)?.data ?? null;
}
