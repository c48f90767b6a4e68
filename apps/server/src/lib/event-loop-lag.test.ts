import { describe, expect, it } from 'vitest';
import { watchEventLoopLag } from './event-loop-lag.js';

describe('watchEventLoopLag', () => {
  it('reports a loop held busy as a delay of about that long, and a quiet one as small', async () => {
    const samples: number[] = [];
    const stop = watchEventLoopLag(300, (ms) => samples.push(ms));
    try {
      await new Promise((r) => setTimeout(r, 350));
      // Hold the loop for 200 ms: every timer due meanwhile fires that much late.
      const until = performance.now() + 200;
      while (performance.now() < until);
      await new Promise((r) => setTimeout(r, 350));
    } finally {
      stop();
    }
    expect(samples.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...samples)).toBeGreaterThan(120);
    // The quiet window reads well below the busy one (a loaded machine adds to both alike).
    expect(Math.max(...samples) - Math.min(...samples)).toBeGreaterThan(80);
  });
});
