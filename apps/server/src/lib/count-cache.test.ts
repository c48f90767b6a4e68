import { describe, expect, it, vi } from 'vitest';
import { createCountCache } from './count-cache.js';

describe('createCountCache', () => {
  it('shares one count among concurrent callers and keeps a large total for the TTL only', async () => {
    vi.useFakeTimers();
    try {
      const totals = createCountCache({ ttlMs: 1000, exactBelow: 100 });
      const count = vi.fn(async () => 5000);
      expect(await Promise.all([totals('k', count), totals('k', count), totals('k', count)])).toEqual([5000, 5000, 5000]);
      expect(count).toHaveBeenCalledTimes(1);
      vi.advanceTimersByTime(1001);
      await totals('k', count);
      expect(count).toHaveBeenCalledTimes(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts small totals and failures afresh every time', async () => {
    const totals = createCountCache({ exactBelow: 100 });
    const small = vi.fn(async () => 7);
    await totals('s', small);
    await totals('s', small);
    expect(small).toHaveBeenCalledTimes(2);
    const failing = vi.fn(async () => {
      throw new Error('db down');
    });
    await expect(totals('f', failing)).rejects.toThrow('db down');
    await expect(totals('f', failing)).rejects.toThrow('db down');
    expect(failing).toHaveBeenCalledTimes(2);
  });
});
