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
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config/config.js';
import { accounts } from '../apps/server/src/db/schema.js';
import { hashPassword } from '../apps/server/src/lib/password.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const PASSWORD = 'Bench@2025';
const USERS = 200;

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

type Options = Parameters<typeof autocannon>[0];

async function measure(name: string, options: Options): Promise<Figures> {
  // Warm up JIT, argon2's thread pool and the database before the measured run.
  await autocannon({ ...options, connections: CONNECTIONS, duration: 2 });
  const r = await autocannon({ ...options, connections: CONNECTIONS, duration: DURATION });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

let ipSeq = 0;
const nextIp = () => {
  ipSeq++;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

async function main(): Promise<void> {
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  const bareUrl = `http://127.0.0.1:${(bare.server.address() as { port: number }).port}/hello`;

  const dataDir = mkdtempSync(join(tmpdir(), 'contest-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    REDIS_URL: process.env.REDIS_URL ?? '',
    LOG_LEVEL: 'warn',
    TRUST_PROXY: 'true',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}/api`;

  const passwordHash = await hashPassword(PASSWORD);
  const tag = Date.now().toString(36);
  await app.deps.database.db.insert(accounts).values(
    Array.from({ length: USERS }, (_, i) => ({
      realm: 'USER' as const,
      username: `bench${tag}${i}`,
      phone: `137${String(i).padStart(8, '0')}`,
      email: `bench${tag}${i}@example.com`,
      roleCode: 'USER' as const,
      passwordHash,
      agreedAt: new Date(),
    })),
  );

  let userSeq = 0;
  const loginBody = () => JSON.stringify({ username: `bench${tag}${userSeq++ % USERS}`, password: PASSWORD });
  const first = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() },
    body: loginBody(),
  });
  const token = ((await first.json()) as { data: { accessToken: string } }).data.accessToken;

  try {
    const baseline = await measure('bare fastify GET /hello', { url: bareUrl });
    const login = await measure('POST /api/login (password)', {
      url: `${base}/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      requests: [
        {
          setupRequest: (req) => ({ ...req, body: loginBody(), headers: { ...req.headers, 'x-forwarded-for': nextIp() } }),
        },
      ],
    });
    const account = await measure('GET /api/user/account', {
      url: `${base}/user/account`,
      headers: { authorization: `Bearer ${token}` },
    });
    console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each, after a 2 s warm-up; database ${app.deps.database.kind}\n`);
    console.table(
      [baseline, login, account].map((f) => ({
        endpoint: f.name,
        'req/s': Math.round(f.rps),
        'p50 ms': f.p50,
        'p99 ms': f.p99,
        errors: f.errors,
        non2xx: f.non2xx,
      })),
    );
    console.log(`ratio GET /api/user/account / bare: ${(account.rps / baseline.rps).toFixed(3)}`);
    console.log(`ratio POST /api/login / bare: ${(login.rps / baseline.rps).toFixed(4)}`);
    if (login.non2xx || account.non2xx) console.log('WARNING: non-2xx answers: the figures above are not clean');
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
