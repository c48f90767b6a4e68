import { describe, expect, it } from 'vitest';
import { PDF_DOCUMENT_OPTIONS, pdfAssetUrl } from './pdfjs';

// Guards the glob paths into the hoisted node_modules: if pdfjs-dist moves, these go empty.
describe('bundled pdf.js data', () => {
  it('maps CMaps, standard fonts and wasm decoders to bundled URLs', () => {
    expect(pdfAssetUrl('cMapUrl', 'UniGB-UCS2-H.bcmap')).toMatch(/UniGB-UCS2-H\.bcmap/);
    expect(pdfAssetUrl('cMapUrl', 'Adobe-GB1-UCS2.bcmap')).toBeTruthy();
    expect(pdfAssetUrl('standardFontDataUrl', 'FoxitSerif.pfb')).toBeTruthy();
    expect(pdfAssetUrl('standardFontDataUrl', 'LiberationSans-Regular.ttf')).toBeTruthy();
    expect(pdfAssetUrl('wasmUrl', 'openjpeg.wasm')).toBeTruthy();
    expect(pdfAssetUrl('cMapUrl', 'missing.bcmap')).toBeUndefined();
  });

  it('loads binary data through our factory, never from a CDN', () => {
    expect(PDF_DOCUMENT_OPTIONS.useWorkerFetch).toBe(false);
    expect(PDF_DOCUMENT_OPTIONS.isEvalSupported).toBe(false);
    for (const url of [PDF_DOCUMENT_OPTIONS.cMapUrl, PDF_DOCUMENT_OPTIONS.standardFontDataUrl]) {
      expect(url.startsWith('/')).toBe(true);
    }
  });
});
