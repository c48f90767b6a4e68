/**
 * Identity benchmark: POST /api/login (argon2id verification, session insert, login record)
 * and GET /api/user/account with a valid token, each at CONNECTIONS concurrent clients,
 * against a bare Fastify hello-world measured the same way. Prints req/s, latency and ratios.
 *
 * Logins come through TRUST_PROXY with a distinct X-Forwarded-For per request, as they would
 * behind the production proxy: the per-IP login limit (30/min) is for one address, not for a
 * whole province signing in at once.
 *
 *   npm run bench:identity      (DURATION=10 CONNECTIONS=50 to change the load)
 */
import { startBareHello, startBenchApp } from './support/app.js';
import { runMain } from './support/run.js';
import { nextIp, signInOverHttp } from './support/http.js';
import { figureRow, measure } from './support/measure.js';
import { BENCH_PASSWORD, seedParticipants } from './support/seed.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const USERS = 200;

async function main(): Promise<void> {
  const bare = await startBareHello();
  const bench = await startBenchApp({ env: { REDIS_URL: process.env.REDIS_URL ?? '', TRUST_PROXY: 'true' } });
  const origin = await bench.listen();
  const base = `${origin}/api`;

  const tag = Date.now().toString(36);
  await seedParticipants(bench.db, { count: USERS, prefix: `bench${tag}`, namePrefix: `bench${tag}`, phonePrefix: '137', agreed: true });

  let userSeq = 0;
  const loginBody = () => JSON.stringify({ username: `bench${tag}${(userSeq++ % USERS) + 1}`, password: BENCH_PASSWORD });
  const token = await signInOverHttp(origin, '/api/login', `bench${tag}${USERS}`, BENCH_PASSWORD);

  try {
    const load = { connections: CONNECTIONS, duration: DURATION };
    const baseline = await measure('bare fastify GET /hello', { url: bare.url, ...load });
    const login = await measure('POST /api/login (password)', {
      url: `${base}/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (req) => ({ ...req, body: loginBody(), headers: { ...req.headers, 'x-forwarded-for': nextIp() } }),
        },
      ],
      ...load,
    });
    const account = await measure('GET /api/user/account', {
      url: `${base}/user/account`,
      headers: { authorization: `Bearer ${token}` },
      ...load,
    });
    console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each, after a 2 s warm-up; database ${bench.kind}\n`);
    console.table([baseline, login, account].map((f) => figureRow(f)));
    console.log(`ratio GET /api/user/account / bare: ${(account.rps / baseline.rps).toFixed(3)}`);
    console.log(`ratio POST /api/login / bare: ${(login.rps / baseline.rps).toFixed(4)}`);
    if (login.non2xx || account.non2xx) console.log('WARNING: non-2xx answers: the figures above are not clean');
  } finally {
    await bench.close();
    await bare.close();
  }
}

runMain(main);
