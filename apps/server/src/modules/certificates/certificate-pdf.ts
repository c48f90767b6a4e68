/**
 * One certificate or letter as a PDF (docs/certificates.md, "PDFs"): the template's page, its
 * background image stretched over the whole page, then each placed field. Text is set in Noto
 * Sans SC through lib/cjk-pdf.ts (pdfkit embeds only the glyphs used, so a page with a few dozen
 * characters carries a few kilobytes of font); the QR code is drawn as vector squares, so it
 * stays sharp at any zoom and costs no image.
 */
import PDFKit from 'pdfkit';
import QRCode from 'qrcode';
import {
  CERTIFICATE_PAGE_POINTS,
  type CertificateFieldKey,
  type CertificateOrientation,
  type CertificatePageSize,
} from '@contest/shared';
import { cjkFont } from '../../lib/cjk-pdf.js';
import type { CertificateFieldJson } from '../../db/schema/certificates.js';

/** What the fields print; empty strings print nothing. */
export interface CertificatePrintData {
  team: string;
  project: string;
  organisation: string;
  members: string;
  award: string;
  expertName: string;
  contest: string;
  round: string;
  date: string;
  serial: string;
  /** The verification page the QR code holds (PUBLIC_URL/verify/{serial}). */
  verifyUrl: string;
}

export interface CertificateLayout {
  pageSize: CertificatePageSize;
  orientation: CertificateOrientation;
  fields: readonly CertificateFieldJson[];
}

/** Lone surrogates (which no font can shape) become U+FFFD; everything else is printed as given. */
const wellFormed = (text: string) => text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

/** The page's width and height in points. */
export function pageSizeOf(layout: Pick<CertificateLayout, 'pageSize' | 'orientation'>): { width: number; height: number } {
  const { width, height } = CERTIFICATE_PAGE_POINTS[layout.pageSize];
  return layout.orientation === 'LANDSCAPE' ? { width: height, height: width } : { width, height };
}

const textOf = (key: CertificateFieldKey, field: CertificateFieldJson, data: CertificatePrintData): string => {
  switch (key) {
    case 'text':
      return field.text ?? '';
    case 'qr':
      return '';
    default:
      return data[key] ?? '';
  }
};

/**
 * The PDF's bytes. `background` is the image's bytes (PNG or JPEG; pdfkit reads both) or null.
 * Equal input gives equal output (fixed creation date), so a retried job writes the same file.
 */
export async function renderCertificatePdf(layout: CertificateLayout, background: Buffer | null, data: CertificatePrintData): Promise<Buffer> {
  const [regular, bold] = await Promise.all([cjkFont('regular'), layout.fields.some((f) => f.bold) ? cjkFont('bold') : Promise.resolve(null)]);
  const { width, height } = pageSizeOf(layout);
  return new Promise<Buffer>((resolve, reject) => {
    const doc = new PDFKit({
      autoFirstPage: false,
      compress: true,
      info: { Producer: 'contest-portal', CreationDate: new Date(0), Title: data.serial },
    });
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      doc.registerFont('cjk', regular);
      if (bold) doc.registerFont('cjk-bold', bold);
      doc.addPage({ size: [width, height], margin: 0 });
      if (background) doc.image(background, 0, 0, { width, height });
      for (const field of layout.fields) {
        const x = field.x * width;
        const y = field.y * height;
        const w = Math.max(1, field.width * width);
        if (field.key === 'qr') {
          drawQr(doc, data.verifyUrl, x, y, w);
          continue;
        }
        const text = wellFormed(textOf(field.key as CertificateFieldKey, field, data));
        if (!text) continue;
        doc
          .font(field.bold && bold ? 'cjk-bold' : 'cjk')
          .fontSize(field.fontSize)
          .fillColor(field.color)
          .text(text, x, y, { width: w, align: field.align, lineGap: field.fontSize * 0.2 });
      }
      doc.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

/** The QR code of `url` as a white square with dark modules (a quiet zone of 2 modules inside `side`). */
function drawQr(doc: PDFKit.PDFDocument, url: string, x: number, y: number, side: number): void {
  const qr = QRCode.create(url, { errorCorrectionLevel: 'M' });
  const { size, data } = qr.modules;
  const quiet = 2;
  const unit = side / (size + quiet * 2);
  doc.save();
  doc.rect(x, y, side, side).fill('#ffffff');
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (data[row * size + col]) doc.rect(x + (col + quiet) * unit, y + (row + quiet) * unit, unit + 0.01, unit + 0.01);
    }
  }
  doc.fill('#000000');
  doc.restore();
}
