/**
 * Single-request latency: one client, one keep-alive connection, one request at a time, timed
 * with performance.now() (autocannon's histogram counts whole milliseconds, too coarse here).
 */
import { Agent, request } from 'node:http';

export interface Latency {
  p50: number;
  p99: number;
  mean: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** GETs `url` `count` times in sequence after `warmUp` untimed ones; `headersOf(i)` gives each request's headers. Milliseconds. */
export async function sequentialLatency(
  url: string,
  headersOf: (i: number) => Record<string, string>,
  { count = 1000, warmUp = 200 }: { count?: number; warmUp?: number } = {},
): Promise<Latency> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const once = (i: number) =>
    new Promise<number>((resolve, reject) => {
      const t0 = performance.now();
      const req = request(url, { agent, headers: headersOf(i) }, (res) => {
        res.on('data', () => {});
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`GET ${url}: ${res.statusCode}`));
          else resolve(performance.now() - t0);
        });
      });
      req.on('error', reject);
      req.end();
    });
  try {
    for (let i = 0; i < warmUp; i++) await once(i);
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(await once(i));
    times.sort((a, b) => a - b);
    return { p50: quantile(times, 0.5), p99: quantile(times, 0.99), mean: times.reduce((a, b) => a + b, 0) / times.length };
  } finally {
    agent.destroy();
  }
}
