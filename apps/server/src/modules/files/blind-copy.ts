/**
 * What an expert receives of a file (docs/security.md, "Blind review"; docs/files.md, "Experts"):
 * a copy without the document's own metadata (PDF Info dictionary and XMP streams; Office
 * docProps core/app/custom and comment authors), and, for a PDF they download, their watermark
 * stamped on every page. Made in memory from the stored bytes on every expert read (decision in
 * docs/decisions.md, "Blind copies are made when read"); the stored original never changes.
 */
import JSZip from 'jszip';
import { PDFDict, PDFDocument, PDFName, PDFRawStream, PDFRef, degrees } from 'pdf-lib';
import { textBlockPdf } from '../../lib/cjk-pdf.js';

/** Kinds whose metadata is stripped; others (images, video, archives, old binary Office) go as stored. */
const OFFICE_ZIP = new Set(['docx', 'xlsx', 'pptx']);

export function isStrippable(extension: string): boolean {
  return extension === 'pdf' || OFFICE_ZIP.has(extension);
}

/** Thrown when a copy cannot be made (encrypted or broken file): the caller refuses, never sends the original. */
export class BlindCopyError extends Error {
  override name = 'BlindCopyError';
}

/** The PDF without its Info dictionary and without any XMP metadata stream (catalog, pages, images). */
export async function stripPdf(bytes: Uint8Array): Promise<Uint8Array> {
  let doc: PDFDocument;
  try {
    // updateMetadata false: pdf-lib would otherwise write its own Producer, Creator and dates.
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (err) {
    throw new BlindCopyError((err as Error).message);
  }
  const { context } = doc;
  const info = context.trailerInfo.Info;
  if (info instanceof PDFRef) context.delete(info);
  context.trailerInfo.Info = undefined;
  const metadata = PDFName.of('Metadata');
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dict = object instanceof PDFDict ? object : object instanceof PDFRawStream ? object.dict : null;
    if (!dict) continue;
    // XMP packets (Type /Metadata) go wherever they hang; so do the links to them.
    if (dict.get(PDFName.of('Type')) === metadata) {
      context.delete(ref);
      continue;
    }
    dict.delete(metadata);
    // Application private data (PieceInfo) may carry the author's name as well.
    dict.delete(PDFName.of('PieceInfo'));
  }
  return doc.save({ updateFieldAppearances: false });
}

const EMPTY_CORE =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" ' +
  'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" ' +
  'xmlns:dcmitype="http://purl.org/dc/dcmitype/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"></cp:coreProperties>';
const EMPTY_CUSTOM =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" ' +
  'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"></Properties>';
/** app.xml elements that name people or organisations. */
const APP_NAMED = ['Company', 'Manager', 'HyperlinkBase', 'Template'];

/**
 * The Office file without its document properties: core.xml (Title, Subject, Creator, Keywords,
 * LastModifiedBy, Description, Category...) and custom.xml emptied, Company/Manager dropped from
 * app.xml, and the authors of comments and tracked changes blanked.
 */
export async function stripOffice(bytes: Uint8Array): Promise<Uint8Array> {
  let zip: JSZip;
  try {
    zip = await JSZip.loadAsync(bytes);
  } catch (err) {
    throw new BlindCopyError((err as Error).message);
  }
  if (zip.file('docProps/core.xml')) zip.file('docProps/core.xml', EMPTY_CORE);
  if (zip.file('docProps/custom.xml')) zip.file('docProps/custom.xml', EMPTY_CUSTOM);
  const app = zip.file('docProps/app.xml');
  if (app) {
    let xml = await app.async('string');
    for (const tag of APP_NAMED) xml = xml.replace(new RegExp(`<${tag}(\\s[^>]*)?(/>|>[\\s\\S]*?</${tag}>)`, 'g'), '');
    zip.file('docProps/app.xml', xml);
  }
  const parts = zip.file(/^(word\/.*\.xml|ppt\/commentAuthors\.xml|xl\/comments\d*\.xml|word\/people\.xml)$/);
  for (const part of parts) {
    const xml = await part.async('string');
    const blanked = xml
      .replace(/\b(w:author|w:initials|w15:userId|w15:providerId)="[^"]*"/g, '$1=""')
      .replace(/(<p:cmAuthor\b[^>]*?\b(?:name|initials))="[^"]*"/g, '$1=""')
      .replace(/<author>[^<]*<\/author>/g, '<author></author>');
    if (blanked !== xml) zip.file(part.name, blanked);
  }
  return zip.generateAsync({ type: 'uint8array', compression: 'DEFLATE' });
}

/** The blind copy of a file of this extension (callers check isStrippable first). */
export function stripMetadata(bytes: Uint8Array, extension: string): Promise<Uint8Array> {
  return extension === 'pdf' ? stripPdf(bytes) : stripOffice(bytes);
}

/**
 * Every page of the PDF stamped with `lines` (expert code, masked name, time), diagonally and
 * tiled, faint, drawn over the content. The lines are set once in the CJK font
 * (lib/cjk-pdf.ts) and placed on every page as one shared drawing, so a long document grows
 * by a few kilobytes, not by a copy of the text per page.
 */
export async function stampPdf(bytes: Uint8Array, lines: readonly string[]): Promise<Uint8Array> {
  let doc: PDFDocument;
  try {
    doc = await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (err) {
    throw new BlindCopyError((err as Error).message);
  }
  const [block] = await doc.embedPdf(await textBlockPdf(lines, { size: 14, color: '#666666' }));
  for (const page of doc.getPages()) {
    const { x: left, y: bottom, width, height } = page.getCropBox();
    const stepX = block!.width + 80;
    const stepY = block!.height + 90;
    for (let y = bottom - height * 0.2; y < bottom + height; y += stepY) {
      for (let x = left - width * 0.2; x < left + width; x += stepX) {
        page.drawPage(block!, { x, y, opacity: 0.25, rotate: degrees(30) });
      }
    }
  }
  return doc.save({ updateFieldAppearances: false });
}

/** Beijing wall-clock minute of `at`, as the stamp shows it. */
export function stampTime(at: Date): string {
  return `${new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 16).replace('T', ' ')} UTC+8`;
}
