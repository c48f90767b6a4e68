import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LiveTimer } from '@contest/shared';
import { formatClock, remainingSeconds, useLiveTimer } from './live-timer';

const timer = (over: Partial<LiveTimer> = {}): LiveTimer => ({
  phase: 'PRESENTATION',
  limitSeconds: 300,
  elapsedMs: 60_000,
  running: true,
  at: '2026-11-29T08:00:00.000Z',
  ...over,
});

describe('remainingSeconds / formatClock', () => {
  it('adds the client elapsed time only while running', () => {
    expect(remainingSeconds(timer(), 1000, 1000)).toBe(240);
    expect(remainingSeconds(timer(), 1000, 11_500)).toBe(230);
    expect(remainingSeconds(timer({ running: false }), 1000, 60_000)).toBe(240);
  });
  it('goes negative past the limit', () => {
    expect(remainingSeconds(timer({ elapsedMs: 301_000 }), 0, 0)).toBe(-1);
    expect(formatClock(-61)).toBe('+01:01');
    expect(formatClock(240)).toBe('04:00');
  });
});

describe('useLiveTimer', () => {
  it('ticks each second while running, replaces on a new snapshot, stops when paused', () => {
    let now = 0;
    const clock = () => now;
    const { result, rerender } = renderHook(({ t }) => useLiveTimer(t, clock), { initialProps: { t: timer() as LiveTimer | null } });
    expect(result.current?.remaining).toBe(240);
    // The hook schedules with setTimeout; drive it by hand with fake time.
    act(() => {
      now = 3000;
    });
    rerender({ t: result.current ? timer() : null });
    // a new snapshot object: counts from its own figures (elapsed 60 s at receipt)
    expect(result.current?.remaining).toBe(240);
    const paused = timer({ running: false, elapsedMs: 100_000 });
    rerender({ t: paused });
    expect(result.current).toMatchObject({ remaining: 200, running: false, overtime: false });
    now = 50_000;
    rerender({ t: paused });
    expect(result.current?.remaining).toBe(200);
    rerender({ t: null });
    expect(result.current).toBeNull();
  });

  it('counts down with real ticks', async () => {
    const { vi } = await import('vitest');
    vi.useFakeTimers();
    try {
      const t = timer({ elapsedMs: 299_000 });
      const { result } = renderHook(() => useLiveTimer(t));
      expect(result.current?.remaining).toBe(1);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2000);
      });
      expect(result.current).toMatchObject({ remaining: -1, overtime: true });
    } finally {
      vi.useRealTimers();
    }
  });
});
