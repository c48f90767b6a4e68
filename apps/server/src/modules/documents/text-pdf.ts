/**
 * A small PDF writer for generated templates (the seeded commitment letter): A4 pages of
 * wrapped Chinese and Latin text. It uses the Adobe-GB1 font STSong-Light by reference, one of
 * the CJK fonts every PDF reader (pdf.js included, through its bundled CMaps) supplies itself, so
 * nothing is embedded and the file stays a few kilobytes. Text is encoded UniGB-UCS2-H (UTF-16BE
 * of the BMP), which also keeps the text extractable for the character count.
 */

/** One paragraph (line breaks inside it become spaces). */
export interface TextBlock {
  text: string;
  size?: number;
  align?: 'left' | 'center' | 'right';
  /** Blank space above the block, in points. */
  spaceBefore?: number;
  /** First-line indent, in characters (Chinese paragraphs indent two). */
  indent?: number;
}

const PAGE_W = 595.28;
const PAGE_H = 841.89;
const MARGIN = 72;
const LINE_FACTOR = 1.8;

/** Width in ems: the font's ASCII glyphs are half width (W [1 95 500]), everything else full. */
const charWidth = (c: string) => (c.charCodeAt(0) < 0x80 ? 0.5 : 1);

/** One paragraph into lines that fit the page width; the first line leaves room for the indent. */
function wrap(text: string, size: number, indent: number): string[] {
  const max = (PAGE_W - 2 * MARGIN) / size;
  const lines: string[] = [];
  let line = '';
  let width = indent;
  for (const c of text.replace(/\s*\n\s*/g, ' ')) {
    const w = charWidth(c);
    if (width + w > max && line) {
      lines.push(line);
      line = '';
      width = 0;
    }
    line += c;
    width += w;
  }
  lines.push(line);
  return lines;
}

function hexOf(text: string): string {
  let hex = '';
  for (const c of text) {
    const code = c.codePointAt(0)!;
    hex += (code > 0xffff ? 0x3000 : code).toString(16).padStart(4, '0'); // outside the BMP: a full-width space
  }
  return `<${hex.toUpperCase()}>`;
}

/** Lays out the blocks top to bottom, starting a new page when one is full. */
function layout(blocks: TextBlock[]): string[] {
  const pages: string[] = [];
  let ops: string[] = [];
  let y = PAGE_H - MARGIN;
  const newPage = () => {
    pages.push(ops.join('\n'));
    ops = [];
    y = PAGE_H - MARGIN;
  };
  for (const block of blocks) {
    const size = block.size ?? 12;
    const indent = block.indent ?? 0;
    y -= block.spaceBefore ?? 0;
    wrap(block.text, size, indent).forEach((line, i) => {
      const lead = size * LINE_FACTOR;
      if (y - lead < MARGIN) newPage();
      y -= lead;
      const width = [...line].reduce((sum, c) => sum + charWidth(c), 0) * size;
      const x =
        block.align === 'center' ? (PAGE_W - width) / 2 : block.align === 'right' ? PAGE_W - MARGIN - width : MARGIN + (i === 0 ? indent * size : 0);
      if (line) ops.push(`BT /F1 ${size} Tf ${x.toFixed(2)} ${y.toFixed(2)} Td ${hexOf(line)} Tj ET`);
    });
  }
  pages.push(ops.join('\n'));
  return pages;
}

export function textPdf(blocks: TextBlock[], info: { title: string }): Buffer {
  const pages = layout(blocks);
  const objects: string[] = [];
  const add = (body: string) => objects.push(body) as number; // returns the new object number
  const catalog = add('');
  const pagesObj = add('');
  const cidFont = add(
    '<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor ' +
      `${objects.length + 2} 0 R /DW 1000 /W [1 95 500] >>`,
  );
  const font = add(`<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [${cidFont} 0 R] >>`);
  add('<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>');
  const kids: number[] = [];
  for (const content of pages) {
    const stream = add(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`);
    kids.push(
      add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${PAGE_W} ${PAGE_H}] /Resources << /Font << /F1 ${font} 0 R >> >> /Contents ${stream} 0 R >>`),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const infoObj = add(`<< /Title ${hexOfTitle(info.title)} /Producer (contest-portal) >>`);

  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${infoObj} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** Document-info strings take UTF-16BE with a byte-order mark. */
function hexOfTitle(text: string): string {
  return `<FEFF${hexOf(text).slice(1, -1)}>`;
}
