/**
 * Character count of a PDF's text (docs/rules/prelim.md, "The application's character count"): only CJK characters and Latin letters
 * count, after dropping lines that are nothing but a page number ("3", "3/10", "page 3 of
 * 10", "第3页", "第 3 页 共 10 页", "- 3 -"), so headers and footers do not inflate it.
 * The server counts stored application PDFs with it; the web preview's label gives the same
 * number (apps/web/src/components/preview/pdf-text.ts holds the same rules).
 */
const PAGE_NUMBER_LINE = [
  /^[-–—\s]*\d+[-–—\s]*$/,
  /^\d+\s*\/\s*\d+$/,
  /^(?:page|p\.?)\s*\d+(?:\s*(?:of|\/)\s*\d+)?$/i,
  /^第\s*[\d一二三四五六七八九十百千零〇]+\s*页(?:\s*[,，/、]?\s*共\s*[\d一二三四五六七八九十百千零〇]+\s*页)?$/,
  /^共\s*\d+\s*页\s*[,，/、]?\s*第\s*\d+\s*页$/,
];

export function isPageNumberLine(line: string): boolean {
  const text = line.trim();
  return text !== '' && PAGE_NUMBER_LINE.some((re) => re.test(text));
}

// Han ideographs (with extensions and compatibility forms) and Latin-script letters.
const COUNTED = /[\p{Script=Han}]|(?=\p{L})\p{Script=Latin}/gu;

export function countCharacters(text: string): number {
  let count = 0;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (isPageNumberLine(line)) continue;
    count += line.match(COUNTED)?.length ?? 0;
  }
  return count;
}

/** A text item of pdf.js' getTextContent(); marked-content items have no `str`. */
export interface PdfTextItem {
  str?: string;
  hasEOL?: boolean;
}

/** Joins a page's text items into lines as pdf.js lays them out. */
export function pageText(items: readonly PdfTextItem[]): string {
  let text = '';
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text;
}

/** A document's count is the sum of its pages' counts (each page's text counted on its own). */
export function countPages(pages: readonly (readonly PdfTextItem[])[]): number {
  return pages.reduce((total, items) => total + countCharacters(pageText(items)), 0);
}
