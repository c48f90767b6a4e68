import type { PhaseState, PhaseWindow } from '@contest/shared';

/** Tag colours of a phase's state on the schedule and the entry pages. */
export const PHASE_STATE_COLORS: Record<PhaseState, string> = {
  UNSCHEDULED: 'default',
  NOT_STARTED: 'blue',
  OPEN: 'green',
  ENDED: 'default',
};

const BEIJING_DAY = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Shanghai',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** YYYY-MM-DD of an ISO time in Beijing time (the contest's clock), whatever the device's zone. */
export function beijingDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const time = Date.parse(iso);
  return Number.isNaN(time) ? '' : BEIJING_DAY.format(time);
}

/** A phase window as the schedule prints it; null when the phase is not scheduled. */
export function windowText(window: PhaseWindow | null, openEnded: string): string | null {
  if (!window) return null;
  const start = beijingDate(window.start) || openEnded;
  const end = beijingDate(window.end) || openEnded;
  return start === end ? start : `${start} ~ ${end}`;
}
