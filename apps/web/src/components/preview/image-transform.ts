import { ZOOM } from '@contest/shared';

/** Rotation step of the 旋转 button, in degrees. */
export const ROTATE_STEP = 90;

/** The next rotation: 90 degrees further, kept within 0-359. */
export function nextRotation(degrees: number): number {
  return (((degrees + ROTATE_STEP) % 360) + 360) % 360;
}

/**
 * The zoom after one wheel event: scale + wheelDelta / 1200, applied only when the result
 * lies strictly between 0.1 and 5; otherwise the scale stays as it was (docs/rules/screens.md, "File preview").
 */
export function nextZoom(scale: number, wheelDelta: number): number {
  const next = scale + wheelDelta / ZOOM.wheelDivisor;
  return next > ZOOM.min && next < ZOOM.max ? next : scale;
}

/**
 * The legacy `wheelDelta` of a wheel event (120 per notch, positive when rolling away from
 * the user, i.e. zooming in). Firefox lacks it, so it is derived from deltaY there.
 */
export function wheelDeltaOf(event: Pick<WheelEvent, 'deltaY' | 'deltaMode'> & { wheelDelta?: number }): number {
  if (typeof event.wheelDelta === 'number' && event.wheelDelta !== 0) return event.wheelDelta;
  // deltaMode 1 counts lines (about 3 per notch), 0 counts pixels (about 100 per notch).
  const perNotch = event.deltaMode === 1 ? 3 : 100;
  return (-event.deltaY / perNotch) * 120;
}
