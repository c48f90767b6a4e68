import { describe, expect, it, vi } from 'vitest';
import { createAdmission, REFUSAL_WINDOW_MS, retryAfterSeconds, RETRY_AFTER_MAX_S, type Admission } from './admission.js';

describe('retryAfterSeconds', () => {
  it('is the average piece time, longer by one round per `limit` recent refusals, spread by up to half', () => {
    expect(retryAfterSeconds(4, 0, 16, 0)).toBe(4);
    expect(retryAfterSeconds(4, 16, 16, 0)).toBe(8);
    expect(retryAfterSeconds(4, 32, 16, 0)).toBe(12);
    expect(retryAfterSeconds(4, 16, 16, 1)).toBe(12);
    expect(retryAfterSeconds(4, 0, 16, 0.5)).toBe(5);
    expect(retryAfterSeconds(2.1, 0, 16, 0)).toBe(3);
  });

  it('stays within 1..60 s, whatever it is given', () => {
    expect(retryAfterSeconds(0, 0, 16, 0)).toBe(1);
    expect(retryAfterSeconds(0.2, 3, 16, 1)).toBe(1);
    expect(retryAfterSeconds(30, 1000, 16, 1)).toBe(RETRY_AFTER_MAX_S);
    expect(retryAfterSeconds(-5, -1, 0, 7)).toBe(1);
    expect(retryAfterSeconds(Number.POSITIVE_INFINITY, 0, 16, 0)).toBe(RETRY_AFTER_MAX_S);
    // A limit of 0 counts as 1 (no division by zero).
    expect(retryAfterSeconds(2, 1, 0, 0)).toBe(4);
  });
});

describe('createAdmission', () => {
  function clock() {
    let t = 1_000_000;
    return { now: () => t, advance: (ms: number) => (t += ms) };
  }

  it('admits up to the limit and refuses beyond, with a wait from the measured piece durations', () => {
    const c = clock();
    const admission = createAdmission({ limit: 2, now: c.now, random: () => 0 });
    const a = admission.admit();
    const b = admission.admit();
    expect(a.admitted && b.admitted).toBe(true);
    c.advance(3000);
    // No piece ended yet: the oldest running one (3 s) stands for the average; 1 refusal of limit 2.
    expect(admission.admit()).toEqual({ admitted: false, retryAfter: 5 });
    if (a.admitted) a.leave();
    if (a.admitted) a.leave(); // idempotent
    expect(admission.stats()).toMatchObject({ inFlight: 1, avgPieceSeconds: 3 });
    const c2 = admission.admit();
    expect(c2.admitted).toBe(true);
    // Average 3 s, 2 refusals in the window of limit 2: 3 x 2 = 6.
    expect(admission.admit()).toEqual({ admitted: false, retryAfter: 6 });
  });

  it('keeps a moving average of piece durations and forgets refusals older than the window', () => {
    const c = clock();
    const admission = createAdmission({ limit: 1, now: c.now, random: () => 0 });
    for (const ms of [10_000, 10_000, 0]) {
      const turn = admission.admit();
      c.advance(ms);
      if (turn.admitted) turn.leave();
    }
    // 10, 10, then 0: the newest weighs a fifth.
    expect(admission.stats().avgPieceSeconds).toBeCloseTo(8);
    const held = admission.admit();
    expect(held.admitted).toBe(true);
    for (let i = 0; i < 5; i++) admission.admit();
    expect(admission.stats().refusedRecently).toBe(5);
    expect(admission.admit()).toEqual({ admitted: false, retryAfter: 8 * 7 });
    c.advance(REFUSAL_WINDOW_MS);
    expect(admission.stats().refusedRecently).toBe(0);
    expect(admission.admit()).toEqual({ admitted: false, retryAfter: 16 });
  });
});

describe('the line (pieces waiting, unread, for a place)', () => {
  const admitted = (a: Admission): (() => void) => {
    if (!a.admitted) throw new Error(`refused: ${a.retryAfter}`);
    return a.leave;
  };

  it('lets pieces beyond the limit wait and hands each freed place to the first in line', async () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 2, maxWaitMs: 60_000, random: () => 0 });
    const first = admitted(await admission.enter());
    expect(admission.wouldWait()).toBe(true);
    const order: string[] = [];
    const second = admission.enter().then((a) => (order.push('second'), a));
    const third = admission.enter().then((a) => (order.push('third'), a));
    expect(admission.stats()).toMatchObject({ inFlight: 1, waiting: 2 });
    // The line is full: the next is refused at once, and it would not wait.
    expect(admission.wouldWait()).toBe(false);
    expect(await admission.enter()).toMatchObject({ admitted: false });
    first();
    const leaveSecond = admitted(await second);
    expect(order).toEqual(['second']);
    expect(admission.stats()).toMatchObject({ inFlight: 1, waiting: 1 });
    leaveSecond();
    admitted(await third)();
    expect(order).toEqual(['second', 'third']);
    expect(admission.stats()).toMatchObject({ inFlight: 0, waiting: 0 });
    // Leaving twice frees one place only.
    leaveSecond();
    expect(admission.stats().inFlight).toBe(0);
  });

  it('refuses a piece that waited too long, with a Retry-After, and counts the refusal', async () => {
    vi.useFakeTimers();
    try {
      const admission = createAdmission({ limit: 1, maxWaiting: 4, maxWaitMs: 5000, random: () => 0 });
      admitted(await admission.enter());
      const waiting = admission.enter();
      await vi.advanceTimersByTimeAsync(4999);
      expect(admission.stats().waiting).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      const answer = await waiting;
      expect(answer.admitted).toBe(false);
      expect(answer.admitted ? 0 : answer.retryAfter).toBeGreaterThanOrEqual(1);
      expect(admission.stats()).toMatchObject({ waiting: 0, refusedRecently: 1 });
    } finally {
      vi.useRealTimers();
    }
  });

  it('lets a piece whose client left leave the line without taking a place or counting as refused', async () => {
    const admission = createAdmission({ limit: 1, maxWaiting: 4, maxWaitMs: 60_000 });
    const first = admitted(await admission.enter());
    const gone = new AbortController();
    const left = admission.enter(gone.signal);
    const next = admission.enter();
    gone.abort();
    expect(await left).toEqual({ admitted: false, retryAfter: 0 });
    first();
    admitted(await next)();
    expect(admission.stats()).toMatchObject({ inFlight: 0, waiting: 0, refusedRecently: 0 });
    // Already gone before asking: no wait at all.
    expect(await admission.enter(AbortSignal.abort())).toMatchObject({ admitted: true });
  });

  it('with no line (maxWaiting 0) refuses at once, as admit() does', async () => {
    const admission = createAdmission({ limit: 1, random: () => 0 });
    admitted(await admission.enter());
    expect(admission.wouldWait()).toBe(false);
    expect(await admission.enter()).toMatchObject({ admitted: false });
  });
});

describe('places follow the event loop (adjust)', () => {
  it('halves the pieces read at once while the loop lags, down to the floor, and adds one back per quiet sample', async () => {
    const admission = createAdmission({ limit: 16, maxWaiting: 100, lagTargetMs: 50, minPlaces: 2 });
    expect(admission.stats().places).toBe(16);
    admission.adjust(120);
    expect(admission.stats().places).toBe(8);
    for (const lag of [80, 60, 51, 500]) admission.adjust(lag);
    expect(admission.stats().places).toBe(2);
    // Between half the target and the target: left as it is.
    admission.adjust(40);
    expect(admission.stats().places).toBe(2);
    // Pieces beyond the places wait, unread, even though the limit is 16.
    const leaves = [await admission.enter(), await admission.enter()];
    const third = admission.enter();
    expect(admission.stats()).toMatchObject({ inFlight: 2, waiting: 1 });
    // A quiet loop opens one more place, and the first in line takes it at once.
    admission.adjust(10);
    expect(admission.stats().places).toBe(3);
    expect(await third).toMatchObject({ admitted: true });
    expect(admission.stats()).toMatchObject({ inFlight: 3, waiting: 0 });
    for (const a of leaves) if (a.admitted) a.leave();
    for (let i = 0; i < 20; i++) admission.adjust(0);
    expect(admission.stats().places).toBe(16);
  });

  it('keeps the limit fixed without a target', () => {
    const admission = createAdmission({ limit: 4 });
    admission.adjust(10_000);
    expect(admission.stats().places).toBe(4);
  });
});
