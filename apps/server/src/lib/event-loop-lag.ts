import { monitorEventLoopDelay } from 'node:perf_hooks';

/**
 * Calls `onSample` every `everyMs` with the event loop's delay over that window (its 99th
 * percentile, in ms): how long a request that became ready waited for the loop. Returns a stop
 * function. The timer never keeps the process alive.
 */
export function watchEventLoopLag(everyMs: number, onSample: (p99Ms: number) => void): () => void {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  const timer = setInterval(() => {
    // Values are in ns; the resolution (10 ms) is part of every sample, so it is taken off.
    const p99 = Math.max(0, histogram.percentile(99) / 1e6 - 10);
    histogram.reset();
    onSample(p99);
  }, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}
