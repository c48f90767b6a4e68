/**
 * HTTP benchmark: GET /api/health of the real app (embedded database, every plugin on)
 * against a bare Fastify hello-world, both started here, measured the same way.
 * Prints requests/s and latency of each and their ratio. Later features add their endpoints.
 *
 *   npm run bench            (DURATION=10 CONNECTIONS=50 to change the load)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config/config.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(name: string, url: string): Promise<Figures> {
  // Warm up JIT and connection pools before the measured run.
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ url, connections: CONNECTIONS, duration: DURATION });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

async function main(): Promise<void> {
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/hello`;

  const dataDir = mkdtempSync(join(tmpdir(), 'contest-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const appUrl = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api/health`;

  try {
    const baseline = await measure('bare fastify GET /hello', bareUrl);
    const health = await measure(`portal GET /api/health (${app.deps.database.kind})`, appUrl);
    console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each, after a 2 s warm-up\n`);
    console.table(
      [baseline, health].map((f) => ({
        endpoint: f.name,
        'req/s': Math.round(f.rps),
        'p50 ms': f.p50,
        'p99 ms': f.p99,
        errors: f.errors,
        non2xx: f.non2xx,
      })),
    );
    console.log(`ratio portal/bare: ${(health.rps / baseline.rps).toFixed(3)} (requests per second)`);
  } finally {
    await app.close();
    await bare.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
