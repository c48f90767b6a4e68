import { describe, expect, it } from 'vitest';
import { CongestionWindow, SLOW_START_PIECES, WINDOW_GROWTH_SUCCESSES } from './congestion-window';

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('CongestionWindow (AIMD)', () => {
  it('halves on a refusal (down to 1) and grows by one every few pieces taken, up to its normal size', async () => {
    const window = new CongestionWindow(10, 3);
    const signal = new AbortController().signal;
    expect(window.limit).toBe(10);
    let t = await window.acquire(signal);
    window.release(t, 'busy');
    expect(window.limit).toBe(5);
    for (const expected of [2, 1, 1]) {
      t = await window.acquire(signal);
      window.release(t, 'busy');
      expect(window.limit).toBe(expected);
    }
    for (let i = 1; i <= 3 * 12; i++) {
      t = await window.acquire(signal);
      window.release(t, 'taken');
      expect(window.limit).toBe(Math.min(10, 1 + Math.floor(i / 3)));
    }
    // Other failures neither shrink nor grow it.
    window.release(await window.acquire(signal), 'busy');
    window.release(await window.acquire(signal), 'other');
    expect(window.limit).toBe(5);
  });

  it('slow start: begins small, grows by one per piece taken until its normal size, and leaves slow start at the first refusal', async () => {
    const signal = new AbortController().signal;
    const window = new CongestionWindow(10, 3, SLOW_START_PIECES);
    expect(window.limit).toBe(2);
    for (const expected of [3, 4, 5, 6]) {
      window.release(await window.acquire(signal), 'taken');
      expect(window.limit).toBe(expected);
    }
    window.release(await window.acquire(signal), 'busy');
    expect(window.limit).toBe(3);
    // Additive from here: one more every 3 pieces taken, not one per piece.
    for (const expected of [3, 3, 4]) {
      window.release(await window.acquire(signal), 'taken');
      expect(window.limit).toBe(expected);
    }
    // A window that reached its normal size in slow start stays there.
    const full = new CongestionWindow(4, 3, 2);
    for (let i = 0; i < 5; i++) full.release(await full.acquire(signal), 'taken');
    expect(full.limit).toBe(4);
  });

  it('halves once for the pieces refused together, not once per piece', async () => {
    const window = new CongestionWindow(8, WINDOW_GROWTH_SUCCESSES);
    const signal = new AbortController().signal;
    const burst = await Promise.all(Array.from({ length: 8 }, () => window.acquire(signal)));
    for (const t of burst) window.release(t, 'busy');
    expect(window.limit).toBe(4);
    // A piece sent after the halving and refused halves it again.
    window.release(await window.acquire(signal), 'busy');
    expect(window.limit).toBe(2);
  });

  it('makes pieces beyond the window wait in order, and lets an aborted one leave the line', async () => {
    const window = new CongestionWindow(2);
    const signal = new AbortController().signal;
    const a = await window.acquire(signal);
    window.release(a, 'busy'); // window 1
    const held = await window.acquire(signal);
    const order: string[] = [];
    const aborter = new AbortController();
    const gone = window.acquire(aborter.signal, () => new Error('gone'));
    const second = window.acquire(signal).then((t) => (order.push('second'), t));
    const third = window.acquire(signal).then((t) => (order.push('third'), t));
    await flush();
    expect(order).toEqual([]);
    aborter.abort();
    await expect(gone).rejects.toThrow('gone');
    window.release(held, 'taken');
    const t2 = await second;
    await flush();
    expect(order).toEqual(['second']);
    expect(window.inFlight).toBe(1);
    window.release(t2, 'taken');
    window.release(await third, 'taken');
    expect(order).toEqual(['second', 'third']);
    expect(window.inFlight).toBe(0);
  });

  it('refuses at once on a signal already aborted', async () => {
    const c = new AbortController();
    c.abort();
    await expect(new CongestionWindow(3).acquire(c.signal)).rejects.toThrow('aborted');
  });
});
