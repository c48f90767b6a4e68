import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { CAPTCHA } from '@contest/shared';

/**
 * Geometry of the jigsaw piece. The square body is CAPTCHA.blockSize wide; a knob of
 * CAPTCHA.blockRadius sticks out on top and on the right, and the left side has a notch cut in.
 * The block image is the piece's bounding box plus a margin for the outline, so the client can
 * lay it over the background at (slidingDistance, blockY) and it lines up exactly when
 * slidingDistance equals the answer x.
 */
const BODY = CAPTCHA.blockSize;
const R = CAPTCHA.blockRadius;
/** The knob centres sit 2 px inside the body edge, so a knob rises 2R - 2 beyond it. */
const KNOB_RISE = 2 * R - 2;
const MARGIN = 3;

export const BLOCK_GEOMETRY = {
  /** Width and height of the block image (blockSrc). */
  width: BODY + KNOB_RISE + 2 * MARGIN,
  height: BODY + KNOB_RISE + 2 * MARGIN,
  /** Where the square body starts inside the block image. */
  bodyLeft: MARGIN,
  bodyTop: MARGIN + KNOB_RISE,
} as const;

/** Range of the block image's left edge on the canvas: away from the start, inside the right edge. */
export const X_RANGE = { min: 60, max: CAPTCHA.canvasWidth - BLOCK_GEOMETRY.width - 4 } as const;
export const Y_RANGE = { min: 4, max: CAPTCHA.canvasHeight - BLOCK_GEOMETRY.height - 4 } as const;

/** A cheap seeded PRNG: background drawing needs thousands of numbers, and one seed keeps it reproducible. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const PALETTES: readonly (readonly string[])[] = [
  ['#0f4c81', '#3a7ca5', '#81c3d7', '#d9dcd6', '#f2a65a'], // harbour
  ['#264653', '#2a9d8f', '#e9c46a', '#f4a261', '#e76f51'], // desert
  ['#3d5a80', '#98c1d9', '#e0fbfc', '#ee6c4d', '#293241'], // slate
  ['#355070', '#6d597a', '#b56576', '#e56b6f', '#eaac8b'], // dusk
  ['#1b4332', '#2d6a4f', '#52b788', '#b7e4c7', '#f1c453'], // forest
  ['#22223b', '#4a4e69', '#9a8c98', '#c9ada7', '#f2e9e4'], // dune
  ['#03045e', '#0077b6', '#00b4d8', '#90e0ef', '#ffb703'], // ocean
  ['#5f0f40', '#9a031e', '#fb8b24', '#e36414', '#0f4c5c'], // ember
  ['#006d77', '#83c5be', '#edf6f9', '#ffddd2', '#e29578'], // clinic
  ['#2b2d42', '#8d99ae', '#edf2f4', '#ef233c', '#d90429'], // signal
];

function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255},${(n >> 8) & 255},${n & 255},${alpha.toFixed(2)})`;
}

/**
 * A varied background: gradient base, soft glows, a scatter of translucent shapes and bands,
 * and speckle. Varied enough that the hole cannot be found by looking for one flat colour.
 */
function paintBackground(ctx: SKRSContext2D, rand: () => number): void {
  const w = CAPTCHA.canvasWidth;
  const h = CAPTCHA.canvasHeight;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
  const palette = pick(PALETTES);
  const between = (lo: number, hi: number) => lo + rand() * (hi - lo);

  const angle = rand() * Math.PI * 2;
  const dx = Math.cos(angle) * w;
  const dy = Math.sin(angle) * h;
  const base = ctx.createLinearGradient(w / 2 - dx / 2, h / 2 - dy / 2, w / 2 + dx / 2, h / 2 + dy / 2);
  base.addColorStop(0, pick(palette));
  base.addColorStop(between(0.35, 0.65), pick(palette));
  base.addColorStop(1, pick(palette));
  ctx.fillStyle = base;
  ctx.fillRect(0, 0, w, h);

  for (let i = 0, n = 1 + Math.floor(rand() * 3); i < n; i++) {
    const cx = rand() * w;
    const cy = rand() * h;
    const radius = between(40, 140);
    const glow = ctx.createRadialGradient(cx, cy, 0, cx, cy, radius);
    const colour = pick(palette);
    glow.addColorStop(0, withAlpha(colour, between(0.5, 0.8)));
    glow.addColorStop(1, withAlpha(colour, 0));
    ctx.fillStyle = glow;
    ctx.fillRect(0, 0, w, h);
  }

  for (let i = 0, n = 14 + Math.floor(rand() * 12); i < n; i++) {
    ctx.fillStyle = withAlpha(pick(palette), between(0.25, 0.75));
    ctx.strokeStyle = withAlpha(pick(palette), between(0.4, 0.9));
    ctx.lineWidth = between(1, 4);
    const x = rand() * w;
    const y = rand() * h;
    const size = between(8, 48);
    ctx.beginPath();
    switch (Math.floor(rand() * 5)) {
      case 0:
        ctx.arc(x, y, size / 2, 0, Math.PI * 2);
        ctx.fill();
        break;
      case 1:
        ctx.arc(x, y, size / 2, 0, Math.PI * 2);
        ctx.stroke();
        break;
      case 2:
        ctx.save();
        ctx.translate(x, y);
        ctx.rotate(rand() * Math.PI);
        ctx.roundRect(-size / 2, -size / 3, size, (size * 2) / 3, size / 6);
        ctx.fill();
        ctx.restore();
        break;
      case 3: {
        const sides = 3 + Math.floor(rand() * 4);
        const turn = rand() * Math.PI;
        for (let s = 0; s < sides; s++) {
          const a = turn + (s / sides) * Math.PI * 2;
          ctx.lineTo(x + Math.cos(a) * (size / 2), y + Math.sin(a) * (size / 2));
        }
        ctx.closePath();
        ctx.fill();
        break;
      }
      default: {
        // A wavy band across the whole width breaks up large flat areas.
        ctx.lineWidth = between(3, 12);
        ctx.moveTo(-10, y);
        ctx.bezierCurveTo(w / 3, y + between(-60, 60), (2 * w) / 3, y + between(-60, 60), w + 10, rand() * h);
        ctx.stroke();
      }
    }
  }

  // Speckle rather than per-pixel noise: it defeats flat-colour matching while keeping the
  // PNG small (full noise would triple the size of every captcha sent).
  for (let i = 0; i < 260; i++) {
    ctx.fillStyle = rand() < 0.5 ? `rgba(255,255,255,${between(0.15, 0.5).toFixed(2)})` : `rgba(0,0,0,${between(0.1, 0.35).toFixed(2)})`;
    const s = 1 + Math.floor(rand() * 2);
    ctx.fillRect(Math.floor(rand() * w), Math.floor(rand() * h), s, s);
  }
}

/** Traces the piece outline with the square body's top-left corner at (x, y). */
function tracePiece(ctx: SKRSContext2D, x: number, y: number): void {
  const PI = Math.PI;
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.arc(x + BODY / 2, y - R + 2, R, 0.72 * PI, 2.26 * PI);
  ctx.lineTo(x + BODY, y);
  ctx.arc(x + BODY + R - 2, y + BODY / 2, R, 1.21 * PI, 2.78 * PI);
  ctx.lineTo(x + BODY, y + BODY);
  ctx.lineTo(x, y + BODY);
  // Drawn anticlockwise so this knob bites into the body instead of sticking out.
  ctx.arc(x + R - 2, y + BODY / 2, R + 0.4, 2.76 * PI, 1.24 * PI, true);
  ctx.closePath();
}

export interface CaptchaImages {
  canvasPng: Buffer;
  blockPng: Buffer;
}

/**
 * Draws one challenge: the background with a hole whose block image's top-left is at (x, y),
 * and the piece cut from the untouched background. `seed` drives the background only.
 */
export async function renderCaptcha(seed: number, x: number, y: number): Promise<CaptchaImages> {
  const background: Canvas = createCanvas(CAPTCHA.canvasWidth, CAPTCHA.canvasHeight);
  const bg = background.getContext('2d');
  paintBackground(bg, mulberry32(seed));

  const block = createCanvas(BLOCK_GEOMETRY.width, BLOCK_GEOMETRY.height);
  const bc = block.getContext('2d');
  tracePiece(bc, BLOCK_GEOMETRY.bodyLeft, BLOCK_GEOMETRY.bodyTop);
  bc.save();
  bc.clip();
  bc.drawImage(background, -x, -y);
  bc.restore();
  // A light rim with a dark halo keeps the piece visible on light and dark backgrounds alike.
  bc.shadowColor = 'rgba(0,0,0,0.7)';
  bc.shadowBlur = 3;
  bc.lineWidth = 1.5;
  bc.strokeStyle = 'rgba(255,255,255,0.95)';
  bc.stroke();

  tracePiece(bg, x + BLOCK_GEOMETRY.bodyLeft, y + BLOCK_GEOMETRY.bodyTop);
  bg.fillStyle = 'rgba(0,0,0,0.45)';
  bg.fill();
  bg.lineWidth = 1;
  bg.strokeStyle = 'rgba(255,255,255,0.7)';
  bg.stroke();

  // encode() runs on libuv's thread pool, so drawing many captchas does not stall the event loop.
  const [canvasPng, blockPng] = await Promise.all([background.encode('png'), block.encode('png')]);
  return { canvasPng, blockPng };
}
