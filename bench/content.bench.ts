/**
 * HTTP benchmark of the public content calls: what the home page loads (news of both
 * categories, the site blocks, /contest/public when that module is present) and the news list,
 * at 100 concurrent clients (autocannon). Prints requests/s and p50/p99 latency of each.
 *
 *   node --import tsx bench/content.bench.ts      (DURATION=10 CONNECTIONS=100 to change the load)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig, type AppConfig } from '../apps/server/src/config/config.js';
import { seed } from '../apps/server/src/db/seed.js';
import { seedContent } from '../apps/server/src/db/seed-content.js';
import { createStorage } from '../apps/server/src/lib/storage/create-storage.js';
import { registerIdentity } from '../apps/server/src/modules/auth/identity.module.js';
import { registerContent } from '../apps/server/src/modules/content/content.module.js';
import { registerFiles } from '../apps/server/src/modules/files/files.module.js';
import { createNewsRepository } from '../apps/server/src/modules/news/news.repository.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 100);
const HOME_BLOCKS = 'home-intro,home-tracks,home-schedule,home-organisers,home-contact';

interface Figures {
  name: string;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

async function measure(name: string, base: string, paths: string[]): Promise<Figures> {
  const options = { url: base, connections: CONNECTIONS, requests: paths.map((path) => ({ method: 'GET' as const, path })) };
  // Warm up JIT, caches and connection pools before the measured run.
  await autocannon({ ...options, duration: 2 });
  const r = await autocannon({ ...options, duration: DURATION });
  return { name, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
}

/** The full app; until app.ts registers the content module, the platform plus the modules it needs. */
async function contentApp(config: AppConfig): Promise<FastifyInstance> {
  const full = await buildApp(config);
  if (full.hasRoute({ method: 'GET', url: '/api/news' })) return full;
  await full.close();
  const app = await buildApp(config, { bare: true });
  await app.register(
    async (api) => {
      const identity = await registerIdentity(api, app.deps);
      await registerFiles(api, app.deps, identity);
      await registerContent(api, app.deps, identity);
    },
    { prefix: '/api' },
  );
  return app;
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: process.env.DATABASE_URL ?? '',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
  });
  const app = await contentApp(config);
  const db = app.deps.database.db;
  await seed(db, { adminUsername: 'admin', adminPassword: 'Bench@2025', demo: true });
  await seedContent(db, createStorage(config.files.storage), { demo: true });
  // A realistic archive: a few hundred articles per category, so paging and ordering do real work.
  const news = createNewsRepository(db);
  for (let i = 0; i < 300; i++) {
    await news.insert(db, {
      category: i % 2 ? 'MEDICAL_INSURANCE' : 'CONTEST_DYNAMIC',
      title: `资讯 ${i}`,
      summary: '医保信息化建设持续推进，智慧医保应用不断丰富。',
      body: '<p>正文</p>'.repeat(20),
      status: 'PUBLISHED',
      pinned: i < 4,
      publishAt: new Date(Date.now() - i * 3600_000),
    });
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const hasContest = app.hasRoute({ method: 'GET', url: '/api/contest/public' });

  const home = [
    '/api/news?category=CONTEST_DYNAMIC&size=6',
    '/api/news?category=MEDICAL_INSURANCE&size=6',
    `/api/site/content?keys=${HOME_BLOCKS}`,
    ...(hasContest ? ['/api/contest/public'] : []),
  ];
  try {
    const results = [
      await measure(`home page mix (${home.length} calls, round robin)`, base, home),
      await measure('GET /api/news?category=CONTEST_DYNAMIC (page 1, size 10)', base, ['/api/news?category=CONTEST_DYNAMIC']),
      await measure('GET /api/news?category=MEDICAL_INSURANCE&page=10', base, ['/api/news?category=MEDICAL_INSURANCE&page=10']),
      await measure('GET /api/site/content?keys=<5 home blocks>', base, [`/api/site/content?keys=${HOME_BLOCKS}`]),
    ];
    console.log(`\nautocannon: ${CONNECTIONS} connections, ${DURATION} s each, after a 2 s warm-up (${app.deps.database.kind})`);
    if (!hasContest) console.log('GET /api/contest/public is not registered in this build: left out of the home page mix');
    console.table(
      results.map((f) => ({ endpoint: f.name, 'req/s': Math.round(f.rps), 'p50 ms': f.p50, 'p99 ms': f.p99, errors: f.errors, non2xx: f.non2xx })),
    );
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
