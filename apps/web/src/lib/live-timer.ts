/**
 * The live final's timer on a screen (docs/live-final.md, "State machine", Timer): the snapshot
 * carries `{phase, limitSeconds, elapsedMs, running, at}` computed at the server time `at`; the
 * client adds its own elapsed time since it received the snapshot while `running`, and ticks
 * once a second. Remaining seconds below zero = overtime.
 */
import { useEffect, useState } from 'react';
import type { LiveTimer, LiveTimerPhase } from '@contest/shared';

export interface LiveTimerView {
  phase: LiveTimerPhase;
  /** Whole seconds left (rounded up); negative = seconds over the limit. */
  remaining: number;
  overtime: boolean;
  running: boolean;
  limitSeconds: number;
}

/** Remaining seconds `now` for a snapshot received at `receivedAt` (both client clock, ms). */
export function remainingSeconds(timer: LiveTimer, receivedAt: number, now: number): number {
  const elapsed = timer.elapsedMs + (timer.running ? Math.max(0, now - receivedAt) : 0);
  const leftMs = timer.limitSeconds * 1000 - elapsed;
  // Up while time is left (4.2 s left shows 5), down once over (1.2 s over shows -1... -2 after it).
  return leftMs >= 0 ? Math.ceil(leftMs / 1000) : -Math.floor(-leftMs / 1000);
}

/** mm:ss of a remaining figure; overtime as "+mm:ss". */
export function formatClock(remaining: number): string {
  const abs = Math.abs(remaining);
  const mm = String(Math.floor(abs / 60)).padStart(2, '0');
  const ss = String(abs % 60).padStart(2, '0');
  return `${remaining < 0 ? '+' : ''}${mm}:${ss}`;
}

/**
 * The ticking view of a snapshot's timer; null when the snapshot has none. A new timer object
 * (a new snapshot) restarts the count from its own figures: replace, never carry over.
 */
export function useLiveTimer(timer: LiveTimer | null | undefined, now: () => number = Date.now): LiveTimerView | null {
  const [receipt, setReceipt] = useState<{ timer: LiveTimer | null; at: number }>(() => ({ timer: timer ?? null, at: now() }));
  const [clock, setClock] = useState(() => now());
  const current = timer ?? null;
  // A new snapshot: note when it arrived (state adjusted during render, not in an effect).
  if (receipt.timer !== current) {
    const at = now();
    setReceipt({ timer: current, at });
    setClock(at);
  }

  const running = current?.running ?? false;
  useEffect(() => {
    if (!running) return;
    let handle: ReturnType<typeof setTimeout>;
    const tick = () => {
      const t = now();
      setClock(t);
      // Wake when the shown second changes.
      const phase = (t - receipt.at) % 1000;
      handle = setTimeout(tick, 1000 - phase || 1000);
    };
    handle = setTimeout(tick, 1000 - ((now() - receipt.at) % 1000) || 1000);
    return () => clearTimeout(handle);
  }, [running, receipt, now]);

  if (!current) return null;
  const at = receipt.timer === current ? receipt.at : clock;
  const remaining = remainingSeconds(current, at, Math.max(clock, at));
  return { phase: current.phase, remaining, overtime: remaining < 0, running: current.running, limitSeconds: current.limitSeconds };
}
