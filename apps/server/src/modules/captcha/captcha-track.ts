import { CAPTCHA, CAPTCHA_TRACK, type CaptchaTrack } from '@contest/shared';

/**
 * Why a track was refused. Logged, never sent: telling a script which rule it broke would let
 * it tune its fake track apart from its image matcher.
 */
export type TrackRefusal =
  | 'missing'
  | 'too-few-points'
  | 'too-many-points'
  | 'bad-origin'
  | 'time-not-monotonic'
  | 'too-fast'
  | 'too-slow'
  | 'longer-than-challenge'
  | 'end-mismatch'
  | 'out-of-bounds'
  | 'jump'
  | 'flat-y'
  | 'uniform-y'
  | 'linear-x'
  | 'keyboard-y'
  | 'keyboard-step'
  | 'uniform-key-timing';

/** How close the track's last x must be to slidingDistance: the client rounds both to 0.1 px. */
const END_TOLERANCE_PX = 1;
/** A drag whose x never strays further than this from constant speed is a script's straight line. */
const LINEAR_TOLERANCE_PX = 2;
/** Key presses whose gaps vary less than this (standard deviation over mean) come from a loop. */
const MIN_KEY_INTERVAL_CV = 0.1;
/** Timer granularity between the client's clock and the server's. */
const CLOCK_SLACK_MS = 100;

/**
 * Judges a captcha track (docs/rules/identity.md, "Slider captcha": over 10 s fails; perfectly uniform vertical movement
 * is not a person). These rules stop scripts that send a bare distance, a straight line or a
 * level track; a script that fakes jitter and easing gets past them, which is why the image
 * (decoys, shaded holes) and the login limits exist too.
 *
 * `sinceIssueMs` is how long ago the server issued the challenge: a drag cannot have taken longer.
 */
export function judgeTrack(track: CaptchaTrack | undefined, slidingDistance: number, sinceIssueMs: number): TrackRefusal | null {
  if (!track) return 'missing';
  const { points } = track;
  const keyboard = track.input === 'keyboard';
  if (points.length < (keyboard ? CAPTCHA_TRACK.minKeyboardPoints : CAPTCHA_TRACK.minPointerPoints)) return 'too-few-points';
  if (points.length > CAPTCHA_TRACK.maxPoints) return 'too-many-points';

  const [x0, y0, t0] = points[0]!;
  if (t0 !== 0 || Math.abs(x0) > END_TOLERANCE_PX || y0 !== 0) return 'bad-origin';
  for (let i = 1; i < points.length; i++) {
    const dt = points[i]![2] - points[i - 1]![2];
    // Key presses are separate events; pointer events may share a rounded millisecond.
    // The first key press shares t = 0 with the origin.
    if (dt < 0 || (keyboard && i > 1 && dt === 0)) return 'time-not-monotonic';
  }
  const duration = points.at(-1)![2];
  if (duration < CAPTCHA_TRACK.minDurationMs) return 'too-fast';
  if (duration > CAPTCHA.dragLimitMs) return 'too-slow';
  if (duration > sinceIssueMs + CLOCK_SLACK_MS) return 'longer-than-challenge';

  const end = points.at(-1)![0];
  if (Math.abs(end - slidingDistance) > END_TOLERANCE_PX) return 'end-mismatch';
  if (points.some(([x]) => x < -END_TOLERANCE_PX || x > CAPTCHA.canvasWidth)) return 'out-of-bounds';

  return keyboard ? judgeKeys(track) : judgeDrag(track, end, duration);
}

function judgeDrag({ points }: CaptchaTrack, end: number, duration: number): TrackRefusal | null {
  // A drag passes through the way to the hole; a script that sends the start and the end
  // padded with copies of them does not.
  const between = points.filter(([x]) => x > end * 0.1 && x < end * 0.9).length;
  if (between < 2) return 'jump';

  const ys = points.map(([, y]) => y);
  if (ys.every((y) => y === ys[0])) return 'flat-y';
  // Perfectly uniform vertical movement: every y exactly on the line from the first to the last.
  const yEnd = ys.at(-1)!;
  if (points.every(([, y, t]) => Math.abs(y - (yEnd * t) / duration) < 0.01)) return 'uniform-y';

  // A hand speeds up and slows down; constant speed from start to end is a loop's straight line.
  const farthest = Math.max(...points.map(([x, , t]) => Math.abs(x - (end * t) / duration)));
  if (farthest < LINEAR_TOLERANCE_PX) return 'linear-x';
  return null;
}

/**
 * Keys cannot wobble, so the y rule cannot apply. What a person's key presses have that a loop's
 * lack is uneven timing: the repeat delay of a held arrow, a pause to look, the reach for Enter.
 * Each press moves the handle one step at most, so a "keyboard" track cannot jump either.
 */
function judgeKeys({ points }: CaptchaTrack): TrackRefusal | null {
  if (points.some(([, y]) => y !== 0)) return 'keyboard-y';
  for (let i = 1; i < points.length; i++) {
    if (Math.abs(points[i]![0] - points[i - 1]![0]) > CAPTCHA_TRACK.keyBigStep + 0.5) return 'keyboard-step';
  }
  // Gaps between key presses: the origin shares the first press's moment, so they start at 1.
  const gaps: number[] = [];
  for (let i = 2; i < points.length; i++) gaps.push(points[i]![2] - points[i - 1]![2]);
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  const sd = Math.sqrt(gaps.reduce((a, g) => a + (g - mean) ** 2, 0) / gaps.length);
  if (sd / mean < MIN_KEY_INTERVAL_CV) return 'uniform-key-timing';
  return null;
}
