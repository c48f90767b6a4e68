import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { CAPTCHA, MSG } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { createMemoryKvStore, type KvStore } from '../../lib/kv-store.js';
import { BLOCK_GEOMETRY, X_RANGE, Y_RANGE, mulberry32 } from './captcha-image.js';
import { captchaRoutes } from './captcha.routes.js';
import { CAPTCHA_TTL_MS, captchaKeys, createCaptchaService, type CaptchaService } from './captcha.service.js';

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

async function pixels(dataUrl: string): Promise<{ at(x: number, y: number): [number, number, number, number] }> {
  const image = await loadImage(pngBytes(dataUrl));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  return {
    at: (x, y) => {
      const i = (y * image.width + x) * 4;
      return [data[i]!, data[i + 1]!, data[i + 2]!, data[i + 3]!];
    },
  };
}

function setup(seed = 42) {
  let clock = 1_750_000_000_000;
  const kv = createMemoryKvStore(() => clock);
  const captcha = createCaptchaService({ kv, now: () => clock, random: mulberry32(seed) });
  return { kv, captcha, advance: (ms: number) => (clock += ms) };
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

  it.each([7, 99, 2024, 31337])('cuts a piece that is transparent around its shape and fits the hole at the answer (seed %i)', async (seed) => {
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
    // Inside the body the piece is opaque and the hole shows the same picture darkened by the
    // 45 % black fill (skia's blending rounds a few levels off), best matched with no shift: the
    // piece lines up exactly when slidingDistance equals x.
    const mismatch = (dx: number, dy: number) => {
      let sum = 0;
      for (let py = 7; py <= 35; py += 2) {
        for (let px = 24; px <= 36; px += 2) {
          const piece = block.at(BLOCK_GEOMETRY.bodyLeft + px, BLOCK_GEOMETRY.bodyTop + py);
          expect(piece[3]).toBe(255);
          const hole = canvas.at(x + BLOCK_GEOMETRY.bodyLeft + px + dx, challenge.blockY + BLOCK_GEOMETRY.bodyTop + py + dy);
          for (let c = 0; c < 3; c++) {
            const diff = Math.abs(hole[c]! - piece[c]! * 0.55);
            if (dx === 0 && dy === 0) expect(diff).toBeLessThanOrEqual(3);
            sum += diff;
          }
        }
      }
      return sum;
    };
    const aligned = mismatch(0, 0);
    for (const [dx, dy] of [[-3, 0], [-1, 0], [1, 0], [3, 0], [0, -2], [0, 2]] as const) {
      expect(mismatch(dx, dy), `shift ${dx},${dy}`).toBeGreaterThan(aligned);
    }
  });

  it('passes within the accuracy at both edges and fails one pixel beyond', async () => {
    const { kv, captcha } = setup();
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
      expect(await captcha.check(nonceStr, x + offset), `offset ${offset}`).toBe(expected);
    }
  });

  it('a failed check consumes the nonce: the right answer afterwards fails', async () => {
    const { kv, captcha } = setup();
    const { nonceStr } = await captcha.issue();
    const x = await answerOf(kv, nonceStr);
    expect(await captcha.check(nonceStr, x + 10)).toBe(false);
    expect(await kv.get(captchaKeys.answer(nonceStr))).toBeNull();
    expect(await captcha.check(nonceStr, x)).toBe(false);
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
  });

  it('a passed nonce cannot be checked twice', async () => {
    const { kv, captcha } = setup();
    const { nonceStr } = await captcha.issue();
    const x = await answerOf(kv, nonceStr);
    expect(await captcha.check(nonceStr, x)).toBe(true);
    expect(await captcha.check(nonceStr, x)).toBe(false);
  });

  it('rejects unknown nonces and non-finite distances', async () => {
    const { kv, captcha } = setup();
    expect(await captcha.check('0'.repeat(32), 100)).toBe(false);
    expect(await captcha.check('', 100)).toBe(false);
    const { nonceStr } = await captcha.issue();
    expect(await captcha.check(nonceStr, Number.NaN)).toBe(false);
    expect(await kv.get(captchaKeys.answer(nonceStr))).toBeNull();
  });

  it('consumePassed is true exactly once, and only after a pass', async () => {
    const { kv, captcha } = setup();
    const { nonceStr } = await captcha.issue();
    expect(await captcha.consumePassed(nonceStr)).toBe(false);
    // An unchecked challenge is still open: asking about it must not spend it.
    const x = await answerOf(kv, nonceStr);
    expect(await captcha.check(nonceStr, x)).toBe(true);
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
    expect(await captcha.check(inTime.nonceStr, inTimeX)).toBe(true);
    advance(1);
    expect(await captcha.check(late.nonceStr, lateX)).toBe(false);
  });

  it('a passed mark expires after two minutes too', async () => {
    const { kv, captcha, advance } = setup();
    const { nonceStr } = await captcha.issue();
    expect(await captcha.check(nonceStr, await answerOf(kv, nonceStr))).toBe(true);
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

describe('captcha routes', () => {
  let t: TestApp;
  let captcha: CaptchaService;

  beforeAll(async () => {
    t = await createTestApp({}, { bare: true });
    captcha = createCaptchaService({ kv: t.app.deps.kv });
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
  const check = (imageKey: string, slidingDistance: number | string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/captcha/check?imageKey=${encodeURIComponent(imageKey)}&slidingDistance=${encodeURIComponent(slidingDistance)}`,
    });

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

  it('an unknown nonce is pass false', async () => {
    const res = await check('a'.repeat(32), 100);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ pass: false });
  });

  it('a missing imageKey is 400 naming the field', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/captcha/check?slidingDistance=120' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: MSG.missingField('imageKey'),
      data: { field: 'imageKey' },
    });
  });

  it('a non-numeric or missing slidingDistance is 400 naming the field', async () => {
    const bad = await check('a'.repeat(32), 'abc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      status: 400,
      code: 'VALIDATION_FAILED',
      message: MSG.invalidField('slidingDistance'),
      data: { field: 'slidingDistance' },
    });
    const empty = await check('a'.repeat(32), '');
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
