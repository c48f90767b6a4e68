/** Resident memory: sampled while something runs, of this process or of a child. */
import { readFileSync } from 'node:fs';

export const MB = 1024 * 1024;
// Clock ticks per second of /proc/<pid>/stat (USER_HZ): 100 on every Linux this runs on.
const CLK_TCK = 100;

/** CPU seconds a process has used, user and system apart (/proc/<pid>/stat fields 14 and 15). */
export function cpuOfPid(pid: number): { user: number; system: number; total: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const user = Number(fields[11]) / CLK_TCK;
  const system = Number(fields[12]) / CLK_TCK;
  return { user, system, total: user + system };
}

/** user+sys CPU seconds of a process. */
export const cpuSecondsOf = (pid: number): number => cpuOfPid(pid).total;

/** Peak resident memory of a process so far (VmHWM), in MB. */
export function peakRssMbOf(pid: number): number {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Math.round(Number(m?.[1] ?? 0) / 1024);
}

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
