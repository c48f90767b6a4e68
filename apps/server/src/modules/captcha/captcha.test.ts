import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { CAPTCHA, CAPTCHA_TRACK, MSG, seededUnitRandom, type CaptchaTrack } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createMemoryKvStore, type KvStore } from '../../lib/kv-store.js';
import { BLOCK_GEOMETRY, X_RANGE, Y_RANGE } from './captcha-image.js';
import { captchaRoutes } from './captcha.routes.js';
import { CAPTCHA_TTL_MS, captchaKeys, createCaptchaService, type CaptchaService } from './captcha.service.js';
import { judgeTrack } from './captcha-track.js';

type Point = [number, number, number];

/**
 * A person's drag to `distance`: eased (fast, then slowing into the hole), uneven event gaps and
 * a pixel or two of wobble, over about `ms`. Deterministic, so failures reproduce.
 */
function humanTrack(distance: number, ms = 1200): CaptchaTrack {
  const points: Point[] = [[0, 0, 0]];
  const steps = 24;
  const wobble = [0, 1, 1, 2, 1, 0, -1, 0, 1, 2, 2, 1];
  for (let i = 1; i <= steps; i++) {
    const s = i / steps;
    const t = Math.round(ms * 0.9 * (s + 0.02 * Math.sin(i * 1.7)));
    points.push([Math.round(distance * (1 - (1 - s) ** 3) * 10) / 10, wobble[i % wobble.length]!, Math.max(t, points.at(-1)![2])]);
  }
  points.push([distance, 1, ms]);
  return { input: 'pointer', points };
}

/**
 * Arrow keys to `distance`: PageUp-sized steps, then small ones, then Enter, with the uneven gaps
 * of a person (a held key's repeat delay, a pause to look, the reach for Enter).
 */
function keyTrack(distance: number, gaps: (i: number) => number = (i) => [180, 140, 260, 95, 330, 150][i % 6]!): { track: CaptchaTrack; end: number } {
  const points: Point[] = [[0, 0, 0]];
  let x = 0;
  let t = 0;
  let i = 0;
  const press = (step: number) => {
    x += step;
    points.push([x, 0, t]);
    t += gaps(i++);
  };
  while (distance - x >= CAPTCHA_TRACK.keyBigStep) press(CAPTCHA_TRACK.keyBigStep);
  while (distance - x >= CAPTCHA_TRACK.keySmallStep) press(CAPTCHA_TRACK.keySmallStep);
  points.push([x, 0, t]); // Enter
  return { track: { input: 'keyboard', points }, end: x };
}

/** Reads the answer the way the server does, from the kv store; nothing on the service exposes it. */
async function answerOf(kv: KvStore, nonce: string): Promise<number> {
  const raw = await kv.get(captchaKeys.answer(nonce));
  if (raw === null) throw new Error(`no answer stored for ${nonce}`);
  return (JSON.parse(raw) as { x: number }).x;
}

function pngBytes(dataUrl: string): Buffer {
  const prefix = 'data:image/png;base64,';
  expect(dataUrl.startsWith(prefix)).toBe(true);
  return Buffer.from(dataUrl.slice(prefix.length), 'base64');
}

/** Width and height from the IHDR chunk, after checking the PNG signature. */
function pngSize(dataUrl: string): { width: number; height: number } {
  const bytes = pngBytes(dataUrl);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

async function pixels(dataUrl: string): Promise<{ data: Uint8Array; at(x: number, y: number): [number, number, number, number] }> {
  const image = await loadImage(pngBytes(dataUrl));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  // A plain copy: reading skia's buffer element by element is slow.
  const data = new Uint8Array(ctx.getImageData(0, 0, image.width, image.height).data);
  return {
    data,
    at: (x, y) => {
      const i = (y * image.width + x) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
    },
  };
}

function setup(seed = 42) {
  let clock = 1_750_000_000_000;
  const kv = createMemoryKvStore(() => clock);
  const captcha = createCaptchaService({ kv, now: () => clock, random: seededUnitRandom(seed) });
  /** A person's attempt: the drag takes its time after the challenge arrives, then checks. */
  const drag = async (nonce: string, distance: number, track: CaptchaTrack | undefined = humanTrack(distance)) => {
    clock += 2_000;
    return (await captcha.check(nonce, distance, track)).pass;
  };
  return { kv, captcha, drag, advance: (ms: number) => (clock += ms) };
}

describe('captcha service', () => {
  it('issues a PNG background and a PNG piece of the right sizes, without the answer', async () => {
    const { captcha } = setup();
    const challenge = await captcha.issue();
    expect(Object.keys(challenge).sort()).toEqual(['blockSrc', 'blockY', 'canvasSrc', 'nonceStr']);
    expect(challenge.nonceStr).toMatch(/^[0-9a-f]{32,}$/);
    expect(pngSize(challenge.canvasSrc)).toEqual({ width: CAPTCHA.canvasWidth, height: CAPTCHA.canvasHeight });
    expect(pngSize(challenge.blockSrc)).toEqual({ width: BLOCK_GEOMETRY.width, height: BLOCK_GEOMETRY.height });
    expect(BLOCK_GEOMETRY.width).toBeGreaterThanOrEqual(CAPTCHA.blockSize + CAPTCHA.blockRadius);
    expect(Number.isInteger(challenge.blockY)).toBe(true);
    expect(challenge.blockY).toBeGreaterThanOrEqual(Y_RANGE.min);
    expect(challenge.blockY + BLOCK_GEOMETRY.height).toBeLessThanOrEqual(CAPTCHA.canvasHeight);
  });

  it.each([7, 99, 2024, 31337])('cuts a piece transparent around its shape; the hole at the answer is shaded, with a bait of its picture elsewhere on the row (seed %i)', async (seed) => {
    const { kv, captcha } = setup(seed);
    const challenge = await captcha.issue();
    const x = await answerOf(kv, challenge.nonceStr);
    expect(x).toBeGreaterThanOrEqual(X_RANGE.min);
    expect(x + BLOCK_GEOMETRY.width).toBeLessThanOrEqual(CAPTCHA.canvasWidth);
    const block = await pixels(challenge.blockSrc);
    const canvas = await pixels(challenge.canvasSrc);
    // Corners of the block image lie outside the piece: fully transparent.
    expect(block.at(0, 0)[3]).toBe(0);
    expect(block.at(BLOCK_GEOMETRY.width - 1, BLOCK_GEOMETRY.height - 1)[3]).toBe(0);
    expect(block.at(BLOCK_GEOMETRY.width - 1, 0)[3]).toBe(0);
    const top = challenge.blockY + BLOCK_GEOMETRY.bodyTop;
    const lum = ([r, g, b]: readonly number[]) => 0.299 * r! + 0.587 * g! + 0.114 * b!;
    /**
     * Mean difference between the canvas at `offset` and the piece darkened by 45 %, over the
     * body's top and bottom bands (where no hole shape, mirrored or not, has a notch).
     */
    const darkenedMismatch = (offset: number) => {
      let sum = 0;
      let n = 0;
      for (const py of [3, 5, 7, 9, 33, 35, 37, 39]) {
        for (let px = 3; px <= 39; px += 2) {
          const piece = block.at(BLOCK_GEOMETRY.bodyLeft + px, BLOCK_GEOMETRY.bodyTop + py);
          expect(piece[3]).toBe(255);
          const there = canvas.at(offset + BLOCK_GEOMETRY.bodyLeft + px, top + py);
          for (let c = 0; c < 3; c++) sum += Math.abs(there[c]! - piece[c]! * 0.55);
          n += 3;
        }
      }
      return sum / n;
    };
    // The real hole no longer shows the piece's picture darkened (what the old matcher relied on)...
    expect(darkenedMismatch(x)).toBeGreaterThan(15);
    // ...the bait does, somewhere else on the same row (the piece's own grain aside).
    let bait = Infinity;
    for (let offset = 0; offset + BLOCK_GEOMETRY.width <= CAPTCHA.canvasWidth; offset++) {
      if (Math.abs(offset - x) > 40) bait = Math.min(bait, darkenedMismatch(offset));
    }
    expect(bait).toBeLessThan(6);
    // The hole stands out from the ground just below it, so a person sees where it is.
    let inside = 0;
    let below = 0;
    for (let px = 8; px <= 34; px += 2) {
      inside += lum(canvas.at(x + BLOCK_GEOMETRY.bodyLeft + px, top + CAPTCHA.blockSize - 8));
      below += lum(canvas.at(x + BLOCK_GEOMETRY.bodyLeft + px, top + CAPTCHA.blockSize + 4));
    }
    expect(Math.abs(inside - below) / 14).toBeGreaterThan(20);
  });

  it('a simple matcher (the piece darkened by 45 %, slid along its row) does no better than chance', async () => {
    const { kv, captcha } = setup(2025);
    let solved = 0;
    const runs = 20;
    for (let i = 0; i < runs; i++) {
      const challenge = await captcha.issue();
      const x = await answerOf(kv, challenge.nonceStr);
      const block = await pixels(challenge.blockSrc);
      const canvas = await pixels(challenge.canvasSrc);
      // Opaque pixels 3 px inside the piece: [canvas row offset, r, g, b] of the darkened piece.
      const inside: number[][] = [];
      for (let py = 3; py < BLOCK_GEOMETRY.height - 3; py++) {
        for (let px = 3; px < BLOCK_GEOMETRY.width - 3; px++) {
          if (![[0, 0], [3, 0], [-3, 0], [0, 3], [0, -3]].every(([dx, dy]) => block.at(px + dx!, py + dy!)[3] === 255)) continue;
          const [r, g, b] = block.at(px, py);
          inside.push([((py + challenge.blockY) * CAPTCHA.canvasWidth + px) * 4, r * 0.55, g * 0.55, b * 0.55]);
        }
      }
      let best = 0;
      let bestError = Infinity;
      for (let offset = 0; offset + BLOCK_GEOMETRY.width <= CAPTCHA.canvasWidth; offset++) {
        let error = 0;
        for (const [at, r, g, b] of inside) {
          const k = at! + offset * 4;
          error += Math.abs(canvas.data[k]! - r!) + Math.abs(canvas.data[k + 1]! - g!) + Math.abs(canvas.data[k + 2]! - b!);
        }
        if (error < bestError) [best, bestError] = [offset, error];
      }
      if (Math.abs(best - x) <= CAPTCHA.accuracy) solved++;
    }
    // Chance (a uniform guess within 3 px) is about 1 in 28; before the trajectory and decoy checks this solved 20 of 20.
    expect(solved, `solved ${solved} of ${runs}`).toBeLessThanOrEqual(3);
  });

  it('passes within the accuracy at both edges and fails one pixel beyond', async () => {
    const { kv, captcha, drag } = setup();
    const cases: [number, boolean][] = [
      [-CAPTCHA.accuracy, true],
      [CAPTCHA.accuracy, true],
      [0, true],
      [1.5, true],
      [CAPTCHA.accuracy + 1, false],
      [-(CAPTCHA.accuracy + 1), false],
      [CAPTCHA.accuracy + 0.5, false],
    ];
    for (const [offset, expected] of cases) {
      const { nonceStr } = await captcha.issue();
      const x = await answerOf(kv, nonceStr);
      expect(await drag(nonceStr, x + offset), `offset ${offset}`).toBe(expected);
    }
  });

  it('a failed check consumes the nonce: the right answer afterwards fails', async () => {
    const { kv, captcha, drag } = setup();
    const { nonceStr } = await captcha.issue();
    const x = await answerOf(kv, nonceStr);
    expect(await drag(nonceStr, x + 10)).toBe(false);
    expect(await kv.get(captchaKeys.answer(nonceStr))).toBeNull();
    expect(await drag(nonceStr, x)).toBe(false);
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
  });

  it('a passed nonce cannot be checked twice', async () => {
    const { kv, captcha, drag } = setup();
    const { nonceStr } = await captcha.issue();
    const x = await answerOf(kv, nonceStr);
    expect(await drag(nonceStr, x)).toBe(true);
    expect(await drag(nonceStr, x)).toBe(false);
  });

  it('rejects unknown nonces and non-finite distances', async () => {
    const { kv, captcha, drag } = setup();
    expect(await drag('0'.repeat(32), 100)).toBe(false);
    expect(await drag('', 100)).toBe(false);
    const { nonceStr } = await captcha.issue();
    expect(await captcha.check(nonceStr, Number.NaN, humanTrack(100))).toMatchObject({ pass: false });
    expect(await kv.get(captchaKeys.answer(nonceStr))).toBeNull();
  });

  it('consumePassed is true exactly once, and only after a pass', async () => {
    const { kv, captcha, drag } = setup();
    const { nonceStr } = await captcha.issue();
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
    // An unchecked challenge is still open: asking about it must not spend it.
    const x = await answerOf(kv, nonceStr);
    expect(await drag(nonceStr, x)).toBe(true);
    expect(await captcha.consumePassed(nonceStr)).toBe(true);
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
    expect(await captcha.consumePassed('f'.repeat(32))).toBe(false);
    expect(await captcha.consumePassed('')).toBe(false);
  });

  it('a challenge expires after two minutes on the store clock', async () => {
    const { kv, captcha, advance } = setup();
    const late = await captcha.issue();
    const lateX = await answerOf(kv, late.nonceStr);
    const inTime = await captcha.issue();
    const inTimeX = await answerOf(kv, inTime.nonceStr);
    advance(CAPTCHA_TTL_MS - 1);
    expect(await captcha.check(inTime.nonceStr, inTimeX, humanTrack(inTimeX))).toEqual({ pass: true });
    advance(1);
    expect(await captcha.check(late.nonceStr, lateX, humanTrack(lateX))).toMatchObject({ pass: false });
  });

  it('a passed mark expires after two minutes too', async () => {
    const { kv, captcha, advance, drag } = setup();
    const { nonceStr } = await captcha.issue();
    expect(await drag(nonceStr, await answerOf(kv, nonceStr))).toBe(true);
    advance(CAPTCHA_TTL_MS);
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
  });

  it('two challenges differ in nonce, background and position', async () => {
    const { kv, captcha } = setup(1234);
    const a = await captcha.issue();
    const b = await captcha.issue();
    expect(a.nonceStr).not.toBe(b.nonceStr);
    expect(a.canvasSrc).not.toBe(b.canvasSrc);
    expect(a.blockSrc).not.toBe(b.blockSrc);
    const positions = [
      [await answerOf(kv, a.nonceStr), a.blockY],
      [await answerOf(kv, b.nonceStr), b.blockY],
    ];
    expect(positions[0]).not.toEqual(positions[1]);
  });

  it('defaults to the secure random source and spreads answers over the range', async () => {
    const kv = createMemoryKvStore();
    const captcha = createCaptchaService({ kv });
    const xs = new Set<number>();
    for (let i = 0; i < 6; i++) {
      const { nonceStr, blockY } = await captcha.issue();
      const x = await answerOf(kv, nonceStr);
      expect(x).toBeGreaterThanOrEqual(X_RANGE.min);
      expect(x).toBeLessThanOrEqual(X_RANGE.max);
      expect(blockY).toBeLessThanOrEqual(Y_RANGE.max);
      xs.add(x);
    }
    expect(xs.size).toBeGreaterThan(1);
  });
});

describe('captcha trajectory: the right distance alone no longer passes', () => {
  /** Issues a challenge, waits `waitMs` as a person would, and checks its answer with `track(x)`. */
  async function attempt(track: (x: number) => CaptchaTrack | undefined, { waitMs = 3_000, distance }: { waitMs?: number; distance?: (x: number) => number } = {}) {
    const { kv, captcha, advance } = setup(7);
    const { nonceStr } = await captcha.issue();
    const x = await answerOf(kv, nonceStr);
    advance(waitMs);
    // The track first: keyboard tracks decide where the handle ends up.
    const made = track(x);
    const verdict = await captcha.check(nonceStr, distance ? distance(x) : x, made);
    // Whatever the verdict, the challenge is spent.
    expect(await kv.get(captchaKeys.answer(nonceStr))).toBeNull();
    if (!verdict.pass) expect(await captcha.consumePassed(nonceStr)).toBe(false);
    return verdict;
  }
  const refused = (reason: string) => ({ pass: false, reason });

  it('a human-like drag with the right distance passes', async () => {
    expect(await attempt((x) => humanTrack(x))).toEqual({ pass: true });
    expect(await attempt((x) => humanTrack(x, 400))).toEqual({ pass: true });
    expect(await attempt((x) => humanTrack(x, CAPTCHA.dragLimitMs), { waitMs: 12_000 })).toEqual({ pass: true });
  });

  it('the right distance without a trajectory is refused', async () => {
    expect(await attempt(() => undefined)).toEqual(refused('missing'));
  });

  it('too fast, too slow, or longer than the challenge has existed is refused', async () => {
    expect(await attempt((x) => humanTrack(x, CAPTCHA_TRACK.minDurationMs - 1))).toEqual(refused('too-fast'));
    expect(await attempt((x) => humanTrack(x, CAPTCHA.dragLimitMs + 1), { waitMs: 12_000 })).toEqual(refused('too-slow'));
    // A 2 s drag reported 500 ms after the challenge was issued was made up.
    expect(await attempt((x) => humanTrack(x, 2_000), { waitMs: 500 })).toEqual(refused('longer-than-challenge'));
  });

  it('a straight constant-speed drag is refused, even with vertical jitter', async () => {
    const straight = (x: number, jitter: boolean): CaptchaTrack => ({
      input: 'pointer',
      points: Array.from({ length: 21 }, (_, i): Point => [Math.round(((x * i) / 20) * 10) / 10, jitter && i > 0 ? (i % 3) - 1 : 0, i * 60]),
    });
    expect(await attempt((x) => straight(x, true))).toEqual(refused('linear-x'));
    expect(await attempt((x) => straight(x, false))).toEqual(refused('flat-y'));
  });

  it('a level track, or one drifting at an exactly constant vertical speed, is refused', async () => {
    const level = (x: number): CaptchaTrack => ({ input: 'pointer', points: humanTrack(x).points.map(([px, , t]): Point => [px, 0, t]) });
    expect(await attempt(level)).toEqual(refused('flat-y'));
    const drifting = (x: number): CaptchaTrack => {
      const { points } = humanTrack(x);
      const end = points.at(-1)![2];
      return { input: 'pointer', points: points.map(([px, , t]): Point => [px, (6 * t) / end, t]) };
    };
    expect(await attempt(drifting)).toEqual(refused('uniform-y'));
  });

  it('a track that jumps to the end, ends elsewhere, or is malformed is refused', async () => {
    const jump = (x: number): CaptchaTrack => ({
      input: 'pointer',
      points: [...Array.from({ length: 8 }, (_, i): Point => [0, i % 2, i * 100]), [x, 1, 900]],
    });
    expect(await attempt(jump)).toEqual(refused('jump'));
    expect(await attempt((x) => humanTrack(x + 2), { distance: (x) => x })).toEqual(refused('end-mismatch'));
    expect(await attempt((x) => ({ input: 'pointer', points: humanTrack(x).points.slice(-7) }))).toEqual(refused('too-few-points'));
    expect(await attempt((x) => ({ input: 'pointer', points: humanTrack(x).points.slice(1) }))).toEqual(refused('bad-origin'));
    const backwards = (x: number): CaptchaTrack => {
      const points = humanTrack(x).points.map((p): Point => [...p]);
      points[5]![2] = points[3]![2] - 1;
      return { input: 'pointer', points };
    };
    expect(await attempt(backwards)).toEqual(refused('time-not-monotonic'));
    const outside = (x: number): CaptchaTrack => {
      const points = humanTrack(x).points.map((p): Point => [...p]);
      points[10]![0] = CAPTCHA.canvasWidth + 5;
      return { input: 'pointer', points };
    };
    expect(await attempt(outside)).toEqual(refused('out-of-bounds'));
  });

  it('a wrong distance stays refused whatever the track', async () => {
    expect(await attempt((x) => humanTrack(x + 10), { distance: (x) => x + 10 })).toEqual(refused('wrong-distance'));
  });

  describe('keyboard input', () => {
    it('arrow keys with a person\'s uneven timing pass, with no vertical movement at all', async () => {
      let end = 0;
      const verdict = await attempt(
        (x) => {
          const k = keyTrack(x);
          end = k.end;
          return k.track;
        },
        { distance: () => end },
      );
      expect(verdict).toEqual({ pass: true });
    });

    it('a held arrow key (even auto-repeat) passes: the repeat delay and Enter break the rhythm', async () => {
      // The first repeat comes after the OS delay (~500 ms), then every 33 ms, then Enter later.
      const held = (i: number) => (i === 0 ? 500 : 33);
      let end = 0;
      const verdict = await attempt(
        (x) => {
          const k = keyTrack(x, held);
          const points = k.track.points.map((p): Point => [...p]);
          points.at(-1)![2] += 400;
          end = k.end;
          return { input: 'keyboard', points };
        },
        { distance: () => end },
      );
      expect(verdict).toEqual({ pass: true });
    });

    it('key presses at perfectly even intervals are a loop, not a person', async () => {
      let end = 0;
      const verdict = await attempt(
        (x) => {
          const k = keyTrack(x, () => 120);
          end = k.end;
          return k.track;
        },
        { distance: () => end },
      );
      expect(verdict).toEqual(refused('uniform-key-timing'));
    });

    it('keys move one step at a time, have no y, and obey the same time limits', async () => {
      const jumping = (x: number): CaptchaTrack => ({
        input: 'keyboard',
        points: [[0, 0, 0], [20, 0, 0], [40, 0, 180], [x, 0, 330], [x, 0, 700]],
      });
      expect(await attempt(jumping)).toEqual(refused('keyboard-step'));
      let end = 0;
      const wobbly = (x: number): CaptchaTrack => {
        const k = keyTrack(x);
        end = k.end;
        return { input: 'keyboard', points: k.track.points.map(([px, , t], i): Point => [px, i % 2, t]) };
      };
      expect(await attempt(wobbly, { distance: () => end })).toEqual(refused('keyboard-y'));
      const slow = (x: number) => {
        const k = keyTrack(x, (i) => (i % 2 ? 2_900 : 2_300));
        end = k.end;
        return k.track;
      };
      expect(await attempt(slow, { waitMs: 60_000, distance: () => end })).toEqual(refused('too-slow'));
    });
  });

  it('judgeTrack bounds the number of points', () => {
    const many: CaptchaTrack = { input: 'pointer', points: Array.from({ length: CAPTCHA_TRACK.maxPoints + 1 }, (_, i): Point => [i / 4, i % 3, i * 10]) };
    expect(judgeTrack(many, many.points.at(-1)![0], 60_000)).toBe('too-many-points');
  });
});

describe('captcha routes', () => {
  let t: TestApp;
  let captcha: CaptchaService;
  // The service's clock runs ahead by a person's drag before each check: a track cannot have
  // taken longer than the challenge has existed.
  let dragTime = 0;
  const thinking = () => (dragTime += 2_000);

  beforeAll(async () => {
    t = await createTestApp({}, { bare: true });
    captcha = createCaptchaService({ kv: t.app.deps.kv, now: () => Date.now() + dragTime });
    t.app.register(captchaRoutes, { prefix: '/api', captcha });
  });

  afterAll(async () => {
    await t?.close();
  });

  const issue = async (remoteAddress = '10.9.0.1') => {
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress });
    expect(res.statusCode).toBe(200);
    return res.json().data as { nonceStr: string; canvasSrc: string; blockSrc: string; blockY: number };
  };
  /** The web client's call: POST with the track in the body. */
  const check = (imageKey: string, slidingDistance: number, track: CaptchaTrack | undefined = humanTrack(slidingDistance, 300)) => {
    thinking();
    return t.app.inject({ method: 'POST', url: '/api/captcha/check', payload: { imageKey, slidingDistance, track } });
  };
  /** The spec's GET; the track, when given, as JSON text. */
  const checkByGet = (imageKey: string, slidingDistance: number | string, track?: CaptchaTrack | string) => {
    const trackParam = track === undefined ? '' : `&track=${encodeURIComponent(typeof track === 'string' ? track : JSON.stringify(track))}`;
    thinking();
    return t.app.inject({
      method: 'GET',
      url: `/api/captcha/check?imageKey=${encodeURIComponent(imageKey)}&slidingDistance=${encodeURIComponent(slidingDistance)}${trackParam}`,
    });
  };

  it('GET /api/captcha answers the challenge in the envelope', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress: '10.9.0.1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 200, code: 'OK' });
    expect(Object.keys(body.data).sort()).toEqual(['blockSrc', 'blockY', 'canvasSrc', 'nonceStr']);
    expect(body.data.nonceStr).toMatch(/^[0-9a-f]{32,}$/);
    expect(pngSize(body.data.canvasSrc)).toEqual({ width: 320, height: 155 });
    expect(pngSize(body.data.blockSrc)).toEqual({ width: BLOCK_GEOMETRY.width, height: BLOCK_GEOMETRY.height });
    expect(typeof body.data.blockY).toBe('number');
  });

  it('check passes at the real answer, marks the nonce passed, and is single use', async () => {
    const { nonceStr } = await issue();
    const x = await answerOf(t.app.deps.kv, nonceStr);
    const res = await check(nonceStr, x + 2.5);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, code: 'OK', data: { pass: true } });
    expect((await check(nonceStr, x)).json().data).toEqual({ pass: false });
    expect(await captcha.consumePassed(nonceStr)).toBe(true);
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
  });

  it('a wrong distance is still 200 with pass false, and spends the nonce', async () => {
    const { nonceStr } = await issue();
    const x = await answerOf(t.app.deps.kv, nonceStr);
    const res = await check(nonceStr, x + 4);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 200, code: 'OK', data: { pass: false } });
    expect((await check(nonceStr, x)).json().data).toEqual({ pass: false });
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
  });

  it('the spec\'s GET passes with a track as JSON text, and refuses (spending the nonce) without one', async () => {
    const first = await issue();
    const x = await answerOf(t.app.deps.kv, first.nonceStr);
    const bare = await checkByGet(first.nonceStr, x);
    expect(bare.statusCode).toBe(200);
    expect(bare.json().data).toEqual({ pass: false });
    expect(await t.app.deps.kv.get(captchaKeys.answer(first.nonceStr))).toBeNull();
    const second = await issue();
    const x2 = await answerOf(t.app.deps.kv, second.nonceStr);
    expect((await checkByGet(second.nonceStr, x2, humanTrack(x2, 300))).json().data).toEqual({ pass: true });
    expect(await captcha.consumePassed(second.nonceStr)).toBe(true);
    const third = await issue();
    const bad = await checkByGet(third.nonceStr, 100, '[1,2');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED', data: { field: 'track' } });
  });

  it('POST without a track, or with a malformed one, is 400 naming the field; nothing is spent', async () => {
    const { nonceStr } = await issue();
    const x = await answerOf(t.app.deps.kv, nonceStr);
    const missing = await t.app.inject({ method: 'POST', url: '/api/captcha/check', payload: { imageKey: nonceStr, slidingDistance: x } });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ code: 'VALIDATION_FAILED', message: MSG.missingField('track'), data: { field: 'track' } });
    const wrongInput = await check(nonceStr, x, { input: 'robot', points: humanTrack(x).points } as unknown as CaptchaTrack);
    expect(wrongInput.statusCode).toBe(400);
    expect(wrongInput.json().data).toEqual({ field: 'track.input' });
    const badPoint = await check(nonceStr, x, { input: 'pointer', points: [[0, 0, 0], [1, 'a', 2]] } as unknown as CaptchaTrack);
    expect(badPoint.statusCode).toBe(400);
    expect(badPoint.json().data.field).toMatch(/^track\.points/);
    // Nothing spent: the challenge still answers a proper attempt.
    expect(await t.app.deps.kv.get(captchaKeys.answer(nonceStr))).not.toBeNull();
    expect((await check(nonceStr, x)).json().data).toEqual({ pass: true });
  });

  it('bounds the track: too many points is 400, an oversized body 413', async () => {
    const { nonceStr } = await issue();
    const many: CaptchaTrack = { input: 'pointer', points: Array.from({ length: CAPTCHA_TRACK.maxPoints + 1 }, (_, i): Point => [i, i % 2, i]) };
    const tooMany = await check(nonceStr, 100, many);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().data).toEqual({ field: 'track.points' });
    const huge = await t.app.inject({
      method: 'POST',
      url: '/api/captcha/check',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ imageKey: nonceStr, slidingDistance: 100, track: { input: 'pointer', points: [] }, pad: 'x'.repeat(CAPTCHA_TRACK.maxBodyBytes) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(await t.app.deps.kv.get(captchaKeys.answer(nonceStr))).not.toBeNull();
  });

  it('a straight-line drag to the right distance is pass false over HTTP too', async () => {
    const { nonceStr } = await issue();
    const x = await answerOf(t.app.deps.kv, nonceStr);
    const straight: CaptchaTrack = { input: 'pointer', points: Array.from({ length: 11 }, (_, i): Point => [(x * i) / 10, i % 2, i * 50]) };
    expect((await check(nonceStr, x, straight)).json().data).toEqual({ pass: false });
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
  });

  it('an unknown nonce is pass false', async () => {
    const res = await check('a'.repeat(32), 100);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ pass: false });
  });

  it('a missing imageKey is 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha/check?slidingDistance=120' });
    const posted = await t.app.inject({ method: 'POST', url: '/api/captcha/check', payload: { slidingDistance: 120, track: humanTrack(120) } });
    expect(posted.json()).toMatchObject({ status: 400, message: MSG.missingField('imageKey'), data: { field: 'imageKey' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: MSG.missingField('imageKey'),
      data: { field: 'imageKey' },
    });
  });

  it('a non-numeric or missing slidingDistance is 400 naming the field', async () => {
    const bad = await checkByGet('a'.repeat(32), 'abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: MSG.invalidField('slidingDistance'),
      data: { field: 'slidingDistance' },
    });
    const empty = await checkByGet('a'.repeat(32), '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().data).toEqual({ field: 'slidingDistance' });
    const missing = await t.app.inject({ method: 'GET', url: `/api/captcha/check?imageKey=${'a'.repeat(32)}` });
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({ message: MSG.missingField('slidingDistance'), data: { field: 'slidingDistance' } });
  });

  it('limits GET /api/captcha to 30 a minute per IP', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) {
      statuses.push((await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress: '10.9.9.9' })).statusCode);
    }
    expect(statuses.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(statuses[30]).toBe(429);
    const limited = await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress: '10.9.9.9' });
    expect(limited.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    // Another address has its own allowance.
    expect((await t.app.inject({ method: 'GET', url: '/api/captcha', remoteAddress: '10.9.9.10' })).statusCode).toBe(200);
  });
});
