import { describe, expect, it } from 'vitest';
import { createAdmission, REFUSAL_WINDOW_MS, retryAfterSeconds, RETRY_AFTER_MAX_S } from './admission.js';

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
