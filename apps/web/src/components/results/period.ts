import { useEffect, useMemo, useState } from 'react';

/** What is left of a 公示 period (or an appeal window): whole days, hours and minutes. */
export interface PeriodLeft {
  ended: boolean;
  days: number;
  hours: number;
  minutes: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Time left until `endsAt` at `nowMs`, rounded down to the minute; ended once it is reached. */
export function periodLeft(endsAt: string, nowMs: number): PeriodLeft {
  const left = Date.parse(endsAt) - nowMs;
  if (!(left > 0)) return { ended: true, days: 0, hours: 0, minutes: 0 };
  return {
    ended: false,
    days: Math.floor(left / DAY),
    hours: Math.floor((left % DAY) / HOUR),
    minutes: Math.floor((left % HOUR) / MINUTE),
  };
}

const TICK_MS = 30_000;

/**
 * The server's clock, ticking: the answers carry the server's `now`, and the countdowns run on it
 * (the offset to the browser's clock is taken when an answer arrives), so a wrong clock on the
 * visitor's machine does not change what the countdown says.
 */
export function useServerClock(serverNow: string | null | undefined): number {
  const offset = useMemo(() => (serverNow ? Date.parse(serverNow) - Date.now() : 0), [serverNow]);
  const [tick, setTick] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setTick(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  // Read the browser's clock again on each render (a new answer, a tick), not only on ticks.
  void tick;
  return Date.now() + offset;
}
