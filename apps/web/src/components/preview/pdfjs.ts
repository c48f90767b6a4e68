/**
 * pdf.js, set up to need nothing from the network: the worker and the binary data (CMaps for
 * CJK fonts, the standard fonts, the wasm decoders) are assets of our own bundle. Imported
 * only by the lazily loaded PdfViewer, so pdf.js stays out of the main chunk.
 *
 * The legacy build, because pdf.js 5's modern build relies on browser APIs (e.g.
 * Promise.withResolvers, Map.getOrInsertComputed) that older browsers still used in offices lack.
 */
import * as pdfjs from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { DocumentInitParameters } from 'pdfjs-dist/types/src/display/api';
import workerUrl from 'pdfjs-dist/legacy/build/pdf.worker.min.mjs?url';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

// Vite emits each file as a hashed asset and hands back its URL. The paths go through the
// workspace root's node_modules, where npm hoists pdfjs-dist (pdfjs.test.ts checks they resolve).
const ASSETS: Record<BinaryKind, Record<string, string>> = {
  cMapUrl: byFileName(
    import.meta.glob<string>('../../../../../node_modules/pdfjs-dist/cmaps/*.bcmap', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
  standardFontDataUrl: byFileName(
    import.meta.glob<string>('../../../../../node_modules/pdfjs-dist/standard_fonts/*.{pfb,ttf}', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
  wasmUrl: byFileName(
    import.meta.glob<string>('../../../../../node_modules/pdfjs-dist/wasm/*.wasm', {
      query: '?url',
      import: 'default',
      eager: true,
    }),
  ),
};

type BinaryKind = 'cMapUrl' | 'standardFontDataUrl' | 'wasmUrl';

function byFileName(modules: Record<string, string>): Record<string, string> {
  const map: Record<string, string> = {};
  for (const [path, url] of Object.entries(modules)) map[path.slice(path.lastIndexOf('/') + 1)] = url;
  return map;
}

/** The bundled asset URL of a pdf.js data file, or undefined when it is not bundled. */
export function pdfAssetUrl(kind: BinaryKind, fileName: string): string | undefined {
  return ASSETS[kind][fileName];
}

/**
 * Serves pdf.js' requests for binary data from the hashed asset URLs (pdf.js would otherwise
 * build `${cMapUrl}${name}`, which hashed file names cannot satisfy).
 */
class BundledBinaryDataFactory {
  async fetch({ kind, filename }: { kind: BinaryKind; filename: string }): Promise<Uint8Array> {
    const url = pdfAssetUrl(kind, filename);
    if (!url) throw new Error(`pdf.js data not bundled: ${kind} ${filename}`);
    const response = await fetch(url);
    if (!response.ok) throw new Error(`Unable to load ${url}: ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
}

// pdf.js wants these set to know the data exists; the factory above does the actual loading.
const BASE = `${import.meta.env.BASE_URL}pdfjs/`;

export const PDF_DOCUMENT_OPTIONS = {
  cMapUrl: `${BASE}cmaps/`,
  cMapPacked: true,
  standardFontDataUrl: `${BASE}standard_fonts/`,
  wasmUrl: `${BASE}wasm/`,
  useWorkerFetch: false,
  BinaryDataFactory: BundledBinaryDataFactory,
  // The CSP forbids eval; pdf.js would otherwise try it for PostScript functions.
  isEvalSupported: false,
} satisfies Partial<DocumentInitParameters>;

export function openPdf(data: Uint8Array) {
  return pdfjs.getDocument({ data, ...PDF_DOCUMENT_OPTIONS });
}

export type { PDFDocumentProxy, PDFPageProxy, RenderTask } from 'pdfjs-dist/legacy/build/pdf.mjs';
