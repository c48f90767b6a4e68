/** Real PDF and docx files for the blind-review tests (docs/security.md, "Blind review"), and readers to check them. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import JSZip from 'jszip';
import { PDFDocument, PDFName, StandardFonts } from 'pdf-lib';

export interface DocMeta {
  author?: string;
  title?: string;
  subject?: string;
  keywords?: string;
  creator?: string;
  producer?: string;
}

/** A PDF with one page per text (ASCII, standard font), the given Info fields and an XMP packet naming the author. */
export async function makePdf(pages: readonly string[], meta: DocMeta = {}): Promise<Buffer> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const text of pages) {
    const page = doc.addPage([400, 300]);
    page.drawText(text, { x: 20, y: 200, size: 12, font });
  }
  if (meta.author) doc.setAuthor(meta.author);
  if (meta.title) doc.setTitle(meta.title);
  if (meta.subject) doc.setSubject(meta.subject);
  if (meta.keywords) doc.setKeywords([meta.keywords]);
  if (meta.creator) doc.setCreator(meta.creator);
  if (meta.producer) doc.setProducer(meta.producer);
  if (meta.author) {
    const xmp = `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${meta.author}</dc:creator></rdf:Description></rdf:RDF></x:xmpmeta>`;
    const stream = doc.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
    doc.catalog.set(PDFName.of('Metadata'), doc.context.register(stream));
  }
  return Buffer.from(await doc.save());
}

/** Every Info field of a PDF and whether any XMP stream is left. */
export async function pdfMetadata(bytes: Uint8Array): Promise<{ info: Record<string, string | undefined>; xmp: boolean; text: string }> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false });
  const info = {
    author: doc.getAuthor(),
    title: doc.getTitle(),
    subject: doc.getSubject(),
    keywords: doc.getKeywords(),
    creator: doc.getCreator(),
    producer: doc.getProducer(),
  };
  let xmp = false;
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    const dict = 'dict' in object ? (object as { dict: { get(n: PDFName): unknown } }).dict : null;
    if (dict?.get(PDFName.of('Type')) === PDFName.of('Metadata')) xmp = true;
  }
  if (doc.catalog.get(PDFName.of('Metadata'))) xmp = true;
  return { info, xmp, text: Buffer.from(bytes).toString('latin1') };
}

const PDFJS_DIR = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/**
 * The text of each page, as pdf.js reads it (what a reader or a copy-paste gets). pdf.js drops
 * glyphs outside the page; `wholePlane` widens every page first, so a stamp tiled past the
 * edges is read whole, once per tile.
 */
export async function pdfPageTexts(bytes: Uint8Array, options: { wholePlane?: boolean } = {}): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let data: Uint8Array = new Uint8Array(bytes);
  if (options.wholePlane) {
    const widened = await PDFDocument.load(data);
    for (const page of widened.getPages()) {
      page.setMediaBox(-10_000, -10_000, 20_000, 20_000);
      page.setCropBox(-10_000, -10_000, 20_000, 20_000);
    }
    data = await widened.save();
  }
  const doc = await getDocument({
    data,
    standardFontDataUrl: `${join(PDFJS_DIR, 'standard_fonts')}/`,
    isEvalSupported: false,
    verbosity: 0,
  }).promise;
  const out: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    out.push((await page.getTextContent()).items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  await doc.destroy();
  return out;
}

/** A minimal docx whose core, app and custom properties name the team. */
export async function makeDocx(meta: { author: string; company: string; title: string; custom: string }): Promise<Buffer> {
  const zip = new JSZip();
  zip.file(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  );
  zip.file(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  );
  zip.file(
    'word/document.xml',
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:ins w:id="1" w:author="${meta.author}"><w:r><w:t>方案正文</w:t></w:r></w:ins></w:p></w:body></w:document>`,
  );
  zip.file(
    'docProps/core.xml',
    `<?xml version="1.0" encoding="UTF-8"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${meta.title}</dc:title><dc:creator>${meta.author}</dc:creator><cp:lastModifiedBy>${meta.author}</cp:lastModifiedBy><cp:keywords>${meta.company}</cp:keywords></cp:coreProperties>`,
  );
  zip.file(
    'docProps/app.xml',
    `<?xml version="1.0" encoding="UTF-8"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Office Word</Application><Company>${meta.company}</Company><Manager>${meta.author}</Manager></Properties>`,
  );
  zip.file(
    'docProps/custom.xml',
    `<?xml version="1.0" encoding="UTF-8"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="Team"><vt:lpwstr>${meta.custom}</vt:lpwstr></property></Properties>`,
  );
  return zip.generateAsync({ type: 'nodebuffer' });
}

/** Every XML part of a docx (or pptx/xlsx) joined, to search for names. */
export async function officeXml(bytes: Uint8Array): Promise<string> {
  const zip = await JSZip.loadAsync(bytes);
  const parts = await Promise.all(Object.values(zip.files).filter((f) => !f.dir).map((f) => f.async('string')));
  return parts.join('\n');
}
