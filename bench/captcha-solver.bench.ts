/**
 * Slider captcha against scripts (docs/rules/identity.md, "Slider captcha"). Issues N (default 200) challenges from
 * the real captcha service and measures:
 * - the simple matcher: slide the piece along its row and take the offset where the piece's
 *   pixels times the hole's darkening best match the background (what a script written in an
 *   afternoon does, and what e2e/support/slider.ts did before the decoys);
 * - the outline matcher: the one the journeys use now (e2e/support/slider.ts), reading the
 *   hole's shape the way a person does; its figure says how far the image alone still holds
 *   against a determined script (not far: the trajectory checks and the login limits carry the rest);
 * - chance: a uniform guess over the answer range.
 * Then, for every challenge the matcher solved, the server's check with the right distance and
 * (a) no trajectory, (b) a straight constant-speed track, (c) a human-like track.
 *
 *   npm run bench:captcha      (N=500 to change the sample)
 *
 * Target: the simple matcher at or near chance; a right distance without a human-like track
 * never passes. Exits 1 when either misses.
 */
import { createCanvas, loadImage } from '@napi-rs/canvas';
import { CAPTCHA, seededUnitRandom, type CaptchaTrack } from '@contest/shared';
import { createMemoryKvStore } from '../apps/server/src/lib/kv-store.js';
import { captchaKeys, createCaptchaService } from '../apps/server/src/modules/captcha/captcha.service.js';
import { X_RANGE } from '../apps/server/src/modules/captcha/captcha-image.js';
import { findGapByOutline, findGapSimple, type Rgba } from '../e2e/support/slider-solvers.js';
import { runMain } from './support/run.js';
import { load, markdown } from './support/report.js';

const N = Number(process.env.N ?? 200);
/** The simple matcher may solve at most this share (chance is about 3.6 %). */
const SIMPLE_TARGET = Number(process.env.SIMPLE_TARGET ?? 0.1);

async function rgba(dataUrl: string): Promise<Rgba> {
  const image = await loadImage(Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64'));
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data, width, height } = ctx.getImageData(0, 0, image.width, image.height);
  // A plain copy: reading skia's buffer element by element is many times slower.
  return { data: new Uint8Array(data), width, height };
}

/** A straight drag at constant speed with the hand perfectly level: the plainest script. */
function straightTrack(distance: number): CaptchaTrack {
  const points: [number, number, number][] = [];
  for (let i = 0; i <= 20; i++) points.push([Math.round((distance * i) / 20 * 10) / 10, 0, i * 40]);
  return { input: 'pointer', points };
}

/** Eased steps, uneven timing and a pixel or two of wobble: a person's drag, or a careful script. */
function humanTrack(distance: number, rand: () => number): CaptchaTrack {
  const points: [number, number, number][] = [[0, 0, 0]];
  let t = 0;
  const steps = 18 + Math.floor(rand() * 10);
  for (let i = 1; i <= steps; i++) {
    t += 14 + Math.floor(rand() * 22);
    const s = i / steps;
    points.push([Math.round(distance * (1 - (1 - s) ** 3) * 10) / 10, Math.round((rand() - 0.5) * 4), t]);
  }
  points.push([distance, Math.round((rand() - 0.5) * 4), t + 80]);
  return { input: 'pointer', points };
}

async function main(): Promise<void> {
  let clock = 1_750_000_000_000;
  const kv = createMemoryKvStore(() => clock);
  const captcha = createCaptchaService({ kv, now: () => clock });
  const rand = seededUnitRandom(2025);
  const within = (guess: number, x: number) => Math.abs(guess - x) <= CAPTCHA.accuracy;

  let simple = 0;
  let outline = 0;
  const verdicts = { none: 0, straight: 0, human: 0 };
  let endToEnd = 0;
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const challenges = [await captcha.issue(), await captcha.issue(), await captcha.issue(), await captcha.issue()];
    const first = challenges[0]!;
    const x = (JSON.parse((await kv.get(captchaKeys.answer(first.nonceStr)))!) as { x: number }).x;
    const [bg, block] = await Promise.all([rgba(first.canvasSrc), rgba(first.blockSrc)]);
    const simpleGuess = findGapSimple(bg, block, first.blockY);
    if (within(simpleGuess, x)) simple++;
    if (within(findGapByOutline(bg, block, first.blockY), x)) outline++;
    // The server's verdict on the right answer, sent three ways; each challenge is single use.
    clock += 3_000;
    const xn = answerOf(await kv.get(captchaKeys.answer(challenges[1]!.nonceStr)));
    if ((await captcha.check(challenges[1]!.nonceStr, xn, undefined)).pass) verdicts.none++;
    const xs = answerOf(await kv.get(captchaKeys.answer(challenges[2]!.nonceStr)));
    if ((await captcha.check(challenges[2]!.nonceStr, xs, straightTrack(xs))).pass) verdicts.straight++;
    const xh = answerOf(await kv.get(captchaKeys.answer(challenges[3]!.nonceStr)));
    if ((await captcha.check(challenges[3]!.nonceStr, xh, humanTrack(xh, rand))).pass) verdicts.human++;
    // The whole script: the simple matcher's answer with a human-like track.
    if ((await captcha.check(first.nonceStr, simpleGuess, humanTrack(simpleGuess, rand))).pass) endToEnd++;
  }
  const seconds = (performance.now() - started) / 1000;
  const chance = (2 * CAPTCHA.accuracy + 1) / (X_RANGE.max - X_RANGE.min + 1);
  const pct = (n: number) => `${((100 * n) / N).toFixed(1)} %`;

  console.log(`\nSlider captcha against scripts, ${N} challenges (${seconds.toFixed(1)} s; load ${load()})\n`);
  console.log(
    markdown(
      ['solver', 'solved'],
      [
        ['chance (uniform guess over the answer range, ±3 px)', `${(100 * chance).toFixed(1)} %`],
        ['simple matcher (piece × darkening against the background)', pct(simple)],
        ['outline matcher (the journeys\' helper)', pct(outline)],
        ['simple matcher + human-like track, through the server\'s check', pct(endToEnd)],
      ],
    ),
  );
  console.log(
    `\n${markdown(
      ['right distance sent with', 'passed'],
      [
        ['no trajectory', pct(verdicts.none)],
        ['straight, constant-speed, level track', pct(verdicts.straight)],
        ['human-like track', pct(verdicts.human)],
      ],
    )}\n`,
  );
  const misses: string[] = [];
  if (simple / N > SIMPLE_TARGET) misses.push(`simple matcher solved ${pct(simple)} (target ≤ ${(100 * SIMPLE_TARGET).toFixed(0)} %)`);
  if (verdicts.none || verdicts.straight) misses.push('a right distance passed without a human-like track');
  if (verdicts.human < N) misses.push('a human-like track with the right distance was refused');
  if (misses.length) {
    console.error(`MISSED: ${misses.join('; ')}`);
    process.exit(1);
  }
}

function answerOf(raw: string | null): number {
  return (JSON.parse(raw!) as { x: number }).x;
}

runMain(main);
