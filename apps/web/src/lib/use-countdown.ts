import { useCallback, useEffect, useState } from 'react';

export interface Countdown {
  /** Whole seconds left; 0 when idle. */
  remaining: number;
  start(seconds: number): void;
  reset(): void;
}

function secondsLeft(endAt: number): number {
  return Math.max(0, Math.ceil((endAt - Date.now()) / 1000));
}

/**
 * A seconds countdown computed from the end time rather than by counting ticks, so a
 * throttled background tab still shows the true remainder when it wakes up.
 */
export function useCountdown(): Countdown {
  const [endAt, setEndAt] = useState<number | null>(null);
  const [remaining, setRemaining] = useState(0);

  useEffect(() => {
    if (endAt === null) return;
    let timer: ReturnType<typeof setTimeout>;
    const tick = () => {
      const left = secondsLeft(endAt);
      setRemaining(left);
      if (left === 0) {
        setEndAt(null);
        return;
      }
      // Wake up exactly when the displayed number changes.
      timer = setTimeout(tick, (endAt - Date.now()) % 1000 || 1000);
    };
    tick();
    return () => clearTimeout(timer);
  }, [endAt]);

  const start = useCallback((seconds: number) => setEndAt(Date.now() + seconds * 1000), []);
  const reset = useCallback(() => {
    setEndAt(null);
    setRemaining(0);
  }, []);
  return { remaining, start, reset };
}
