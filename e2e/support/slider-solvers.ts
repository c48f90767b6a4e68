/**
 * Finding the slider captcha's answer from its two pictures, as plain functions of RGBA pixels
 * so the journeys (pixels read in the browser) and bench/captcha-solver.bench.ts (pixels decoded
 * in Node) run the very same code.
 */

export interface Rgba {
  data: ArrayLike<number>;
  width: number;
  height: number;
}

/** Opaque pixels of the piece at least `inset` px from its transparent surroundings. */
function solidPixels(block: Rgba, inset: number): Array<[number, number]> {
  const alpha = (x: number, y: number) => (x < 0 || y < 0 || x >= block.width || y >= block.height ? 0 : block.data[(y * block.width + x) * 4 + 3]!);
  const inside: Array<[number, number]> = [];
  for (let y = 0; y < block.height; y++) {
    for (let x = 0; x < block.width; x++) {
      let solid = true;
      for (const [dx, dy] of [[0, 0], [inset, 0], [-inset, 0], [0, inset], [0, -inset]] as const) {
        if (alpha(x + dx, y + dy) < 255) solid = false;
      }
      if (solid) inside.push([x, y]);
    }
  }
  return inside;
}

/**
 * The simple matcher: the hole is the piece's picture under a 45 % black fill, so the piece's
 * pixels times 0.55 should match the background at the right offset. Solved every captcha
 * before the decoys; the decoy holes and the shaded, textured hole fill are there to defeat it.
 */
export function findGapSimple(bg: Rgba, block: Rgba, top: number): number {
  const inside = solidPixels(block, 3);
  let best = 0;
  let bestError = Infinity;
  for (let offset = 0; offset + block.width <= bg.width; offset++) {
    let error = 0;
    for (const [x, y] of inside) {
      const by = y + top;
      if (by < 0 || by >= bg.height) continue;
      const b = (by * bg.width + x + offset) * 4;
      const p = (y * block.width + x) * 4;
      for (let ch = 0; ch < 3; ch++) error += Math.abs(bg.data[b + ch]! - block.data[p + ch]! * 0.55);
    }
    if (error < bestError) {
      bestError = error;
      best = offset;
    }
  }
  return best;
}

/**
 * The outline matcher: where does the background change exactly along the piece's outline?
 * For points around the piece's edge it compares the background just outside the outline with
 * just inside it, at every offset along the piece's row, and takes the offset where the inside
 * is darker (or lighter) all the way round. Decoy holes share the straight sides but not the knobs, so they
 * score lower; this is how a person picks the hole (by its shape), and the journeys' way in.
 */
export function findGapByOutline(bg: Rgba, block: Rgba, top: number): number {
  const solid = (x: number, y: number) => x >= 0 && y >= 0 && x < block.width && y < block.height && block.data[(y * block.width + x) * 4 + 3]! >= 200;
  const pairs: Array<[number, number, number, number]> = [];
  for (let y = 0; y < block.height; y++) {
    for (let x = 0; x < block.width; x++) {
      if (!solid(x, y) || (solid(x - 1, y) && solid(x + 1, y) && solid(x, y - 1) && solid(x, y + 1))) continue;
      // Outward normal: away from the solid pixels around this edge pixel.
      let nx = 0;
      let ny = 0;
      for (let dy = -2; dy <= 2; dy++) {
        for (let dx = -2; dx <= 2; dx++) {
          if (solid(x + dx, y + dy)) {
            nx -= dx;
            ny -= dy;
          }
        }
      }
      const length = Math.hypot(nx, ny);
      if (length === 0) continue;
      nx /= length;
      ny /= length;
      const ix = Math.round(x - nx * 3);
      const iy = Math.round(y - ny * 3);
      const ox = Math.round(x + nx * 3);
      const oy = Math.round(y + ny * 3);
      if (!solid(ix, iy) || solid(ox, oy)) continue;
      pairs.push([ix, iy + top, ox, oy + top]);
    }
  }
  const lum = (x: number, y: number) => {
    if (x < 0 || y < 0 || x >= bg.width || y >= bg.height) return 0;
    const i = (y * bg.width + x) * 4;
    return 0.299 * bg.data[i]! + 0.587 * bg.data[i + 1]! + 0.114 * bg.data[i + 2]!;
  };
  let best = 0;
  let bestScore = -Infinity;
  for (let offset = 0; offset + block.width <= bg.width; offset++) {
    let sum = 0;
    // Each point votes at most a fixed amount: one strong edge of the picture cannot outvote the outline.
    for (const [ix, iy, ox, oy] of pairs) sum += Math.min(60, Math.max(-60, lum(ox + offset, oy) - lum(ix + offset, iy)));
    // A hole is darker than its surroundings on light ground and lighter on dark ground.
    const score = Math.abs(sum);
    if (score > bestScore) {
      bestScore = score;
      best = offset;
    }
  }
  return best;
}
