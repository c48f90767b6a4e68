import { createCanvas, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import { CAPTCHA, seededUnitRandom } from '@contest/shared';

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

/**
 * The shapes a hole can take: the piece's own, and the piece mirrored or turned, for decoys. A
 * decoy has the piece's size, darkening and outline, so a matcher of pixels or of dark areas
 * finds it as readily as the real hole; a person sees at a glance that its knobs are elsewhere.
 */
type HoleShape = 'piece' | 'mirrored' | 'flipped' | 'turned';

/** How far each shape reaches beyond its square body: [left, top, right, bottom]. */
const REACH: Record<HoleShape, [number, number, number, number]> = {
  piece: [0, KNOB_RISE, KNOB_RISE, 0],
  mirrored: [KNOB_RISE, KNOB_RISE, 0, 0],
  flipped: [0, 0, KNOB_RISE, KNOB_RISE],
  turned: [KNOB_RISE, 0, 0, KNOB_RISE],
};

/** Traces `shape` with its square body's top-left corner at (x, y). */
function traceShape(ctx: SKRSContext2D, shape: HoleShape, x: number, y: number): void {
  if (shape === 'piece') return tracePiece(ctx, x, y);
  const cx = x + BODY / 2;
  const cy = y + BODY / 2;
  // The transform only shapes the path: it is restored before the path is filled or stroked.
  ctx.save();
  ctx.translate(cx, cy);
  ctx.scale(shape === 'flipped' ? 1 : -1, shape === 'mirrored' ? 1 : -1);
  tracePiece(ctx, -BODY / 2, -BODY / 2);
  ctx.restore();
}

interface Hole {
  shape: HoleShape;
  /** Left edge of the square body on the canvas. */
  bodyX: number;
}

/** Horizontal extent of a hole on the canvas, knobs included. */
const extent = (h: Hole): [number, number] => [h.bodyX - REACH[h.shape][0], h.bodyX + BODY + REACH[h.shape][2]];

/**
 * One or two decoys on the piece's row (a matcher slides the piece along that row only), placed
 * where a real answer could be (inside X_RANGE) and apart from the other holes. Shapes that would
 * poke out of the canvas's bottom are not used.
 */
function placeDecoys(rand: () => number, real: Hole, bodyTop: number): Hole[] {
  const holes: Hole[] = [real];
  const wanted = 1 + Math.floor(rand() * 2);
  const fitsBelow = bodyTop + BODY + KNOB_RISE <= CAPTCHA.canvasHeight - 2;
  const shapes: HoleShape[] = fitsBelow ? ['mirrored', 'flipped', 'turned'] : ['mirrored'];
  const minBodyX = X_RANGE.min + BLOCK_GEOMETRY.bodyLeft;
  const maxBodyX = X_RANGE.max + BLOCK_GEOMETRY.bodyLeft;
  for (let tries = 0; tries < 40 && holes.length <= wanted; tries++) {
    const shape = shapes[Math.floor(rand() * shapes.length)]!;
    const candidate: Hole = { shape, bodyX: minBodyX + Math.floor(rand() * (maxBodyX - minBodyX + 1)) };
    const [left, right] = extent(candidate);
    if (left < 2 || right > CAPTCHA.canvasWidth - 2) continue;
    if (holes.some((h) => {
      const [l, r] = extent(h);
      return left < r + 6 && right > l - 6;
    })) continue;
    holes.push(candidate);
  }
  return holes;
}

/** Average luminance (0-255) of a square of the canvas, clipped to the canvas. */
function meanLuminance(ctx: SKRSContext2D, x: number, y: number, size: number): number {
  const left = Math.max(0, Math.floor(x));
  const top = Math.max(0, Math.floor(y));
  const width = Math.min(CAPTCHA.canvasWidth, Math.ceil(x + size)) - left;
  const height = Math.min(CAPTCHA.canvasHeight, Math.ceil(y + size)) - top;
  if (width <= 0 || height <= 0) return 128;
  const { data } = ctx.getImageData(left, top, width, height);
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) sum += 0.299 * data[i]! + 0.587 * data[i + 1]! + 0.114 * data[i + 2]!;
  return sum / (width * height);
}

/** A picture to show inside a hole in place of what was there, moved by (shiftX, shiftY). */
interface HoleContent {
  picture: Canvas;
  shiftX: number;
  shiftY: number;
}

function strokeHole(ctx: SKRSContext2D, rand: () => number, shape: HoleShape, bodyX: number, bodyTop: number): void {
  traceShape(ctx, shape, bodyX, bodyTop);
  ctx.lineWidth = 1 + rand() * 0.6;
  ctx.strokeStyle = `rgba(255,255,255,${(0.55 + rand() * 0.3).toFixed(2)})`;
  ctx.stroke();
}

/**
 * The bait decoy: the piece's own picture under the old flat 45 % shade, in a hole of the wrong
 * shape. A matcher of pixels (the piece times the darkening) scores it best; a person goes by
 * the knobs.
 */
function baitHole(ctx: SKRSContext2D, rand: () => number, shape: HoleShape, bodyX: number, bodyTop: number, content: HoleContent): void {
  ctx.save();
  traceShape(ctx, shape, bodyX, bodyTop);
  ctx.clip();
  ctx.drawImage(content.picture, content.shiftX, content.shiftY);
  ctx.fillStyle = 'rgba(0,0,0,0.45)';
  ctx.fillRect(0, 0, CAPTCHA.canvasWidth, CAPTCHA.canvasHeight);
  ctx.restore();
  strokeHole(ctx, rand, shape, bodyX, bodyTop);
}

/**
 * Shades one hole (the real one or a plain decoy). Each gets its own depth, tint, direction of
 * shading and grain, so the holes cannot be told apart by how they are shaded. The real hole
 * shows another part of the picture under its shade (`content`): what the piece shows is not
 * in it at all, so no matcher of pixels finds it, while its outline, what a person looks at,
 * stays the piece's.
 */
function shadeHole(ctx: SKRSContext2D, rand: () => number, shape: HoleShape, bodyX: number, bodyTop: number, content: HoleContent | null): void {
  const between = (lo: number, hi: number) => lo + rand() * (hi - lo);
  // Dark holes on light ground, light holes on dark ground: always visible to a person, and on
  // dark ground never the "picture times 0.55" that a simple matcher expects.
  const light = meanLuminance(ctx, bodyX - KNOB_RISE, bodyTop - KNOB_RISE, BODY + 2 * KNOB_RISE) < 150;
  const tint = (light ? [between(215, 255), between(215, 255), between(215, 255)] : [between(0, 40), between(0, 40), between(0, 50)]).map(Math.round);
  const fill = (alpha: number) => `rgba(${tint[0]},${tint[1]},${tint[2]},${(light ? alpha - 0.12 : alpha).toFixed(2)})`;
  const angle = rand() * Math.PI * 2;
  const cx = bodyX + BODY / 2;
  const cy = bodyTop + BODY / 2;
  const reach = BODY / 2 + KNOB_RISE;
  const gradient = ctx.createLinearGradient(cx - Math.cos(angle) * reach, cy - Math.sin(angle) * reach, cx + Math.cos(angle) * reach, cy + Math.sin(angle) * reach);
  gradient.addColorStop(0, fill(between(0.62, 0.8)));
  gradient.addColorStop(1, fill(between(0.8, 0.94)));

  ctx.save();
  traceShape(ctx, shape, bodyX, bodyTop);
  ctx.clip();
  if (content) ctx.drawImage(content.picture, content.shiftX, content.shiftY);
  ctx.fillStyle = gradient;
  ctx.fillRect(0, 0, CAPTCHA.canvasWidth, CAPTCHA.canvasHeight);
  // Grain inside the hole: a few hundred dots are cheap in the PNG, unlike noise over the canvas.
  for (let i = 0; i < 140; i++) {
    ctx.fillStyle = rand() < 0.5 ? `rgba(255,255,255,${between(0.08, 0.3).toFixed(2)})` : `rgba(0,0,0,${between(0.1, 0.4).toFixed(2)})`;
    const size = 1 + Math.floor(rand() * 2);
    ctx.fillRect(Math.floor(bodyX - KNOB_RISE + rand() * (BODY + 2 * KNOB_RISE)), Math.floor(bodyTop - KNOB_RISE + rand() * (BODY + 2 * KNOB_RISE)), size, size);
  }
  ctx.restore();
  strokeHole(ctx, rand, shape, bodyX, bodyTop);
}

export interface CaptchaImages {
  canvasPng: Buffer;
  blockPng: Buffer;
}

/**
 * Draws one challenge: the background with the hole whose block image's top-left is at (x, y),
 * one or two decoy holes on the same row, and the piece cut from the untouched background.
 * `seed` drives everything but the answer.
 */
export async function renderCaptcha(seed: number, x: number, y: number): Promise<CaptchaImages> {
  // A cheap seeded PRNG: background drawing needs thousands of numbers, and one seed keeps it reproducible.
  const rand = seededUnitRandom(seed);
  const background: Canvas = createCanvas(CAPTCHA.canvasWidth, CAPTCHA.canvasHeight);
  const bg = background.getContext('2d');
  paintBackground(bg, rand);

  const block = createCanvas(BLOCK_GEOMETRY.width, BLOCK_GEOMETRY.height);
  const bc = block.getContext('2d');
  tracePiece(bc, BLOCK_GEOMETRY.bodyLeft, BLOCK_GEOMETRY.bodyTop);
  bc.save();
  bc.clip();
  bc.drawImage(background, -x, -y);
  // Grain of the piece's own: its pixels never equal the background's, hole or no hole.
  for (let i = 0; i < 60; i++) {
    bc.fillStyle = rand() < 0.5 ? `rgba(255,255,255,${(0.1 + rand() * 0.25).toFixed(2)})` : `rgba(0,0,0,${(0.1 + rand() * 0.25).toFixed(2)})`;
    bc.fillRect(Math.floor(rand() * BLOCK_GEOMETRY.width), Math.floor(rand() * BLOCK_GEOMETRY.height), 1 + Math.floor(rand() * 2), 1);
  }
  bc.restore();
  // A light rim with a dark halo keeps the piece visible on light and dark backgrounds alike;
  // its weight varies so the piece's edge is no template for the hole's.
  bc.shadowColor = `rgba(0,0,0,${(0.5 + rand() * 0.3).toFixed(2)})`;
  bc.shadowBlur = 2 + rand() * 2;
  bc.lineWidth = 1.2 + rand() * 0.8;
  bc.strokeStyle = `rgba(255,255,255,${(0.85 + rand() * 0.15).toFixed(2)})`;
  bc.stroke();

  const bodyTop = y + BLOCK_GEOMETRY.bodyTop;
  const realX = x + BLOCK_GEOMETRY.bodyLeft;
  const holes = placeDecoys(rand, { shape: 'piece', bodyX: realX }, bodyTop);
  // The first decoy is the bait: it needs the picture as it was before any hole was cut.
  const picture = createCanvas(CAPTCHA.canvasWidth, CAPTCHA.canvasHeight);
  picture.getContext('2d').drawImage(background, 0, 0);
  // What the real hole shows instead: a patch of the picture well away from it.
  const sourceXs = { min: KNOB_RISE + 2, max: CAPTCHA.canvasWidth - BODY - KNOB_RISE - 2 };
  let sourceX = realX;
  while (Math.abs(sourceX - realX) < 50) sourceX = sourceXs.min + Math.floor(rand() * (sourceXs.max - sourceXs.min + 1));
  const sourceY = KNOB_RISE + 2 + Math.floor(rand() * (CAPTCHA.canvasHeight - BODY - 2 * KNOB_RISE - 4));
  holes.forEach((hole, i) => {
    if (i === 0) shadeHole(bg, rand, hole.shape, hole.bodyX, bodyTop, { picture, shiftX: realX - sourceX, shiftY: bodyTop - sourceY });
    else if (i === 1) baitHole(bg, rand, hole.shape, hole.bodyX, bodyTop, { picture, shiftX: hole.bodyX - realX, shiftY: 0 });
    else shadeHole(bg, rand, hole.shape, hole.bodyX, bodyTop, null);
  });

  // encode() runs on libuv's thread pool, so drawing many captchas does not stall the event loop.
  const [canvasPng, blockPng] = await Promise.all([background.encode('png'), block.encode('png')]);
  return { canvasPng, blockPng };
}
