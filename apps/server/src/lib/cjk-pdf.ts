/**
 * Chinese text in PDFs the server makes (docs/decisions.md, "A CJK font for PDFs"): Noto Sans SC
 * from an npm package, drawn by pdfkit, whose font engine embeds only the glyphs used (a stamp
 * of a name and a time costs a few kilobytes). pdf-lib, which edits existing PDFs, places the
 * result as a reusable page (embedPdf + drawPage); its own subsetting drops glyphs of this font.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import PDFKit from 'pdfkit';

const require = createRequire(import.meta.url);

/** The regular and bold weights of Noto Sans SC (TrueType outlines, the whole of GB 18030's common set). */
export const CJK_FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-sc/700Bold/NotoSansSC_700Bold.ttf',
} as const;
export type CjkWeight = keyof typeof CJK_FONT_FILES;

const loaded = new Map<CjkWeight, Promise<Buffer>>();

/** The font's bytes, read once per process (about 10 MB per weight, kept for the next PDF). */
export function cjkFont(weight: CjkWeight = 'regular'): Promise<Buffer> {
  let bytes = loaded.get(weight);
  if (!bytes) {
    bytes = readFile(require.resolve(CJK_FONT_FILES[weight]));
    // A failed read is not cached: the next call tries again.
    bytes.catch(() => loaded.delete(weight));
    loaded.set(weight, bytes);
  }
  return bytes;
}

export interface TextBlockOptions {
  /** Font size in points. */
  size: number;
  /** Line height as a multiple of the size. */
  leading?: number;
  /** Fill colour, CSS hex. */
  color?: string;
  weight?: CjkWeight;
}

/**
 * A one-page PDF exactly as large as `lines` set left-aligned in the CJK font, no margins and no
 * document information. Characters the font lacks are drawn as its empty box, never dropped.
 */
export async function textBlockPdf(lines: readonly string[], options: TextBlockOptions): Promise<Uint8Array> {
  const { size, leading = 1.4, color = '#000000', weight = 'regular' } = options;
  const font = await cjkFont(weight);
  return new Promise((resolve, reject) => {
    // A fixed CreationDate keeps equal input equal output; the Producer names no person.
    const doc = new PDFKit({ autoFirstPage: false, compress: true, info: { Producer: 'contest-portal', CreationDate: new Date(0) } });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
    doc.registerFont('cjk', font);
    doc.font('cjk').fontSize(size);
    const lineHeight = size * leading;
    const width = Math.max(1, ...lines.map((line) => Math.ceil(doc.widthOfString(line)) + 2));
    doc.addPage({ size: [width, Math.max(1, Math.ceil(lineHeight * lines.length))], margin: 0 });
    lines.forEach((line, i) => doc.fillColor(color).text(line, 0, i * lineHeight + (lineHeight - size) / 2, { lineBreak: false }));
    doc.end();
  });
}
