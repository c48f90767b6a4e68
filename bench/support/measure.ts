/**
 * Load runs with autocannon, measured the same way in every bench: a warm-up run (JIT, caches,
 * connection pools, query plans), then the measured run.
 */
import autocannon from 'autocannon';

export type LoadOptions = Parameters<typeof autocannon>[0];

export interface Figures {
  name: string;
  /** Requests per second, the average over the run. */
  rps: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  non2xx: number;
}

/** `options` carries url, connections and duration; the warm-up runs the same for `warmUp` seconds (default 2). */
export async function measure(name: string, options: LoadOptions, { warmUp = 2 }: { warmUp?: number } = {}): Promise<Figures> {
  if (warmUp > 0) await autocannon({ ...options, duration: warmUp });
  const r = await autocannon(options);
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, max: r.latency.max, errors: r.errors, non2xx: r.non2xx };
}

/** A row of console.table: the label column, req/s, p50, p99, then `extra` (e.g. a target), errors and non-2xx. */
export function figureRow(f: Figures, label = 'endpoint', extra: Record<string, string | number> = {}): Record<string, string | number> {
  return { [label]: f.name, 'req/s': Math.round(f.rps), 'p50 ms': f.p50, 'p99 ms': f.p99, ...extra, errors: f.errors, non2xx: f.non2xx };
}

/** Whether a run had failures; its figures are then not clean. */
export const dirty = (figures: Figures[]) => figures.some((f) => f.errors || f.non2xx);

/** Round robin over bearer tokens, one per request: many signed-in clients on few connections. */
export function rotatingTokens(tokens: string[]): NonNullable<LoadOptions['requests']> {
  let i = 0;
  return [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${tokens[i++ % tokens.length]}` } }) }];
}
