/**
 * HTTP benchmark: GET /api/health of the real app (embedded database, every plugin on)
 * against a bare Fastify hello-world, both started here, measured the same way.
 * Prints requests/s and latency of each and their ratio. Later features add their endpoints.
 *
 *   npm run bench            (DURATION=10 CONNECTIONS=50 to change the load)
 */
import { startBareHello, startBenchApp } from './support/app.js';
import { runMain } from './support/run.js';
import { figureRow, measure } from './support/measure.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);

async function main(): Promise<void> {
  const bare = await startBareHello();
  const bench = await startBenchApp();
  const appUrl = `${await bench.listen()}/api/health`;

  try {
    const load = { connections: CONNECTIONS, duration: DURATION };
    const baseline = await measure('bare fastify GET /hello', { url: bare.url, ...load });
    const health = await measure(`portal GET /api/health (${bench.kind})`, { url: appUrl, ...load });
    console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each, after a 2 s warm-up\n`);
    console.table([baseline, health].map((f) => figureRow(f)));
    console.log(`ratio portal/bare: ${(health.rps / baseline.rps).toFixed(3)} (requests per second)`);
  } finally {
    await bench.close();
    await bare.close();
  }
}

runMain(main);
