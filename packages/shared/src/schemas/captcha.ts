import { z } from 'zod';
import { CAPTCHA } from '../constants.js';

/**
 * The slider captcha's check (docs/rules/identity.md, "Slider captcha"): the drop position alone told the server nothing about
 * who dropped it, so the client also sends how the handle got there, and the server judges it.
 *
 * A track is a list of [x, y, t] points:
 * - x: the handle's offset in the captcha's 320 px canvas space (what slidingDistance is in);
 * - y: the pointer's vertical offset from where the drag began, in CSS px (always 0 from keys);
 * - t: ms since the drag began (pointer) or since the first key press (keyboard).
 * The first point is [0, 0, 0]. For keyboard input every key press adds a point with the
 * handle's new x, and Enter adds the last one.
 */
export const CAPTCHA_TRACK = {
  /** Enough for a drag at display rate; the client thins longer tracks down to this. */
  maxPoints: 240,
  /** A drag shorter than this is a jump, not a drag. */
  minPointerPoints: 8,
  /** The origin, at least three key moves (the nearest answer is 60 px away) and Enter. */
  minKeyboardPoints: 5,
  /** Faster than a person can find the hole and drop the piece within 3 px. */
  minDurationMs: 250,
  /** Arrow keys move the handle this far; with Shift or PageUp/PageDown, keyBigStep. */
  keySmallStep: 2,
  keyBigStep: 20,
  /** The POST body's byte limit: maxPoints points of short numbers fit about three times over. */
  maxBodyBytes: 16_384,
} as const;

export const CAPTCHA_INPUTS = ['pointer', 'keyboard'] as const;
export type CaptchaInput = (typeof CAPTCHA_INPUTS)[number];

const coordinate = (limit: number) => z.number().min(-limit).max(limit);

export const captchaTrackSchema = z.object({
  input: z.enum(CAPTCHA_INPUTS),
  points: z
    .array(
      z.tuple([
        coordinate(CAPTCHA.canvasWidth * 2),
        // The pointer may wander off the track while the handle is held; a screen's height bounds it.
        coordinate(4_000),
        z.number().min(0).max(CAPTCHA.dragLimitMs * 6),
      ]),
    )
    .min(2)
    .max(CAPTCHA_TRACK.maxPoints),
});
export type CaptchaTrack = z.infer<typeof captchaTrackSchema>;

/** POST /captcha/check. */
export const captchaCheckSchema = z.object({
  imageKey: z.string().min(1).max(128),
  slidingDistance: z.number(),
  track: captchaTrackSchema,
});
export type CaptchaCheckInput = z.infer<typeof captchaCheckSchema>;
