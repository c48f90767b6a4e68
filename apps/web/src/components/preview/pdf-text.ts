/**
 * The spec's character count of a PDF (section 5) lives in @contest/shared, so the preview,
 * the materials form and the server's stored count follow one rule.
 */
export { countCharacters, isPageNumberLine, pageText, type PdfTextItem } from '@contest/shared';
