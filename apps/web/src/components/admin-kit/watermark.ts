/**
 * The expert watermark of the consoles (docs/rules/screens.md, "Consoles"): the account code and the
 * masked account, diagonal, in tiles of 300x240 at opacity 0.1, rotated -30 degrees, font 28.
 * Drawn as an SVG tile rather than on a canvas: no canvas dependency, and the text is
 * testable. The CSP allows data: images.
 */
import { ADMIN_WATERMARK, maskAccountName } from '@contest/shared';

/**
 * Hides the middle of an account (one rule with the server's stamp on downloaded PDFs):
 * 138****0001, e***1.
 */
export const maskAccount = maskAccountName;

/** The watermark's lines: the account code (when there is one) and the masked account. */
export function watermarkLines(code: string | null | undefined, account: string): string[] {
  return [code?.trim() ?? '', maskAccount(account)].filter(Boolean);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** One tile as SVG markup; the lines are centred and rotated about the tile's centre. */
export function watermarkSvg(lines: readonly string[], color = '#000'): string {
  const { width, height, opacity, rotate, fontSize } = ADMIN_WATERMARK;
  const lineHeight = Math.round(fontSize * 1.3);
  const top = height / 2 - ((lines.length - 1) * lineHeight) / 2;
  const texts = lines
    .map(
      (line, i) =>
        `<text x="${width / 2}" y="${top + i * lineHeight}" text-anchor="middle" dominant-baseline="middle">${escapeXml(line)}</text>`,
    )
    .join('');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<g transform="rotate(${rotate} ${width / 2} ${height / 2})" fill="${color}" fill-opacity="${opacity}" ` +
    `font-size="${fontSize}" font-family="sans-serif">${texts}</g></svg>`
  );
}

/** Base64 keeps the URL free of quotes and brackets, so it sits safely inside CSS url(). */
export function watermarkDataUrl(lines: readonly string[], color?: string): string {
  const bytes = new TextEncoder().encode(watermarkSvg(lines, color));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `data:image/svg+xml;base64,${btoa(binary)}`;
}

/** Inverse of watermarkDataUrl, for tests and debugging. */
export function svgOfDataUrl(url: string): string {
  const binary = atob(url.replace(/^data:image\/svg\+xml;base64,/, ''));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
