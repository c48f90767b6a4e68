import { toBeijingWallClock, type ExpertRoundProgress, type SheetViewStatus } from '@contest/shared';

/** A round's window as the home page tells it; the server's `open` decides 进行中. */
export type RoundState = 'OPEN' | 'NOT_STARTED' | 'ENDED' | 'UNSCHEDULED';

export function roundState(progress: Pick<ExpertRoundProgress, 'open' | 'window'>, now: Date): RoundState {
  if (progress.open) return 'OPEN';
  const { window } = progress;
  if (!window) return 'UNSCHEDULED';
  if (window.start && now.getTime() < Date.parse(window.start)) return 'NOT_STARTED';
  // Closed with no start ahead: the window is behind us (or its end passed on the server's clock).
  return 'ENDED';
}

export const ROUND_STATE_COLORS: Record<RoundState, string> = {
  OPEN: 'green',
  NOT_STARTED: 'blue',
  ENDED: 'default',
  UNSCHEDULED: 'default',
};

/** `YYYY-MM-DD HH:mm` in Beijing time, the contest's clock, whatever the device's zone; '' when empty. */
export function beijingMinute(iso: string | null | undefined): string {
  if (!iso || Number.isNaN(Date.parse(iso))) return '';
  return toBeijingWallClock(iso).slice(0, 16);
}

export const SHEET_STATUS_COLORS: Record<SheetViewStatus | 'ABSTAINED', string> = {
  NONE: 'default',
  DRAFT: 'processing',
  SUBMITTED: 'success',
  RETURNED: 'error',
  ABSTAINED: 'default',
};

/** Totals are kept in half points: one decimal at most, none when whole. */
export function formatPoints(points: number): string {
  return Number.isInteger(points) ? String(points) : points.toFixed(1);
}
