import { inflateSync } from 'node:zlib';

/**
 * A one-page PDF whose text pdf.js (and the server) can read, with a correct xref table. A
 * footer (e.g. "Page 1 of 1") checks the page-number rule of the character count.
 */
export function pdfWithText(text: string, footer?: string): Buffer {
  const footerOp = footer ? `\nBT /F1 10 Tf 280 40 Td (${footer}) Tj ET` : '';
  const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET${footerOp}`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out);
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/**
 * A PDF's objects as text, compressed streams (object streams included) inflated, for checks
 * such as "this font is embedded" on a file whose dictionaries pdf-lib packed into streams.
 */
export function pdfObjectsText(bytes: Buffer): string {
  const raw = bytes.toString('latin1');
  const parts = [raw];
  for (const match of raw.matchAll(/stream\r?\n/g)) {
    const start = match.index + match[0].length;
    const end = raw.indexOf('endstream', start);
    if (end < 0) continue;
    try {
      parts.push(inflateSync(bytes.subarray(start, end)).toString('latin1'));
    } catch {
      // Not a Flate stream (or trailing bytes): its text stays as it is.
    }
  }
  return parts.join('\n');
}
