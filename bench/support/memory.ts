/** Resident memory: sampled while something runs, of this process or of a child. */
import { readFileSync } from 'node:fs';

export const MB = 1024 * 1024;

/** RSS of another process (Linux /proc), in bytes. */
export function rssOfPid(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) * 1024;
}

export interface MemorySample {
  base: number;
  peak: number;
  end: number;
}

/**
 * Reads `read` now (the base) and every `everyMs` until stop(), which reads once more (the end,
 * counted in the peak unless `endInPeak` is false) and returns base, peak and end in bytes.
 * Default: this process's RSS every 50 ms.
 */
export function sampleMemory(everyMs = 50, read: () => number = () => process.memoryUsage().rss, { endInPeak = true }: { endInPeak?: boolean } = {}) {
  const base = read();
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, read());
  }, everyMs);
  return {
    base,
    stop(): MemorySample {
      clearInterval(timer);
      const end = read();
      if (endInPeak) peak = Math.max(peak, end);
      return { base, peak, end };
    },
  };
}
