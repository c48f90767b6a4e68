/**
 * WCAG 2.1 contrast arithmetic for the theme (success criterion 1.4.3: 4.5:1 for text, 3:1 for
 * large text). Colours are `#rgb`, `#rrggbb`, `#rrggbbaa` or `rgb()/rgba()`; a translucent colour is
 * laid over the background it is measured against, as the browser paints it.
 */

type Rgb = [number, number, number];

/** Text contrast WCAG 2.1 AA asks of normal-size text. */
export const AA_TEXT = 4.5;

function parse(color: string): { rgb: Rgb; alpha: number } {
  const c = color.trim().toLowerCase();
  if (c.startsWith('#')) {
    let hex = c.slice(1);
    if (hex.length === 3 || hex.length === 4) hex = [...hex].map((d) => d + d).join('');
    const n = (i: number) => parseInt(hex.slice(i, i + 2), 16);
    return { rgb: [n(0), n(2), n(4)], alpha: hex.length === 8 ? n(6) / 255 : 1 };
  }
  const m = /^rgba?\(([^)]+)\)$/.exec(c);
  if (!m) throw new Error(`not a colour: ${color}`);
  const parts = m[1]!.split(/[\s,/]+/).filter(Boolean);
  const channel = (s: string) => (s.endsWith('%') ? (parseFloat(s) * 255) / 100 : parseFloat(s));
  const alpha = parts[3] === undefined ? 1 : parts[3].endsWith('%') ? parseFloat(parts[3]) / 100 : parseFloat(parts[3]);
  return { rgb: [channel(parts[0]!), channel(parts[1]!), channel(parts[2]!)], alpha };
}

function over(fg: string, bg: Rgb): Rgb {
  const { rgb, alpha } = parse(fg);
  return [0, 1, 2].map((i) => rgb[i]! * alpha + bg[i]! * (1 - alpha)) as Rgb;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

const hex = (rgb: Rgb) => `#${rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;

/** The contrast ratio (1–21) of `fg` painted on `bg` (an opaque background; white behind a translucent one). */
export function contrastRatio(fg: string, bg: string): number {
  const back = over(bg, [255, 255, 255]);
  const [a, b] = [luminance(over(fg, back)), luminance(back)].sort((x, y) => y - x) as [number, number];
  return (a + 0.05) / (b + 0.05);
}

/**
 * The first candidate that reaches `min` on every background; failing all, the first candidate
 * mixed towards black (light backgrounds) or white (dark ones) in small steps until it does.
 * Candidates are usually a palette's steps (antd green-7, green-8…), so the answer stays a colour
 * of the design system whenever one is dark enough.
 */
export function readableColor(candidates: readonly string[], backgrounds: readonly string[], min = AA_TEXT): string {
  const ok = (c: string) => backgrounds.every((bg) => contrastRatio(c, bg) >= min);
  const found = candidates.find(ok);
  if (found) return found;
  const base = over(candidates[0]!, over(backgrounds[0]!, [255, 255, 255]));
  const towards = luminance(over(backgrounds[0]!, [255, 255, 255])) > 0.18 ? 0 : 255;
  for (let step = 1; step <= 20; step += 1) {
    const t = step / 20;
    const mixed = hex(base.map((v) => v * (1 - t) + towards * t) as Rgb);
    if (ok(mixed)) return mixed;
  }
  return towards === 0 ? '#000000' : '#ffffff';
}
