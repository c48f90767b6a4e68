/**
 * HTTP benchmark of the public content calls: what the home page loads (news of both
 * categories, the site blocks, /contest/public when that module is present) and the news list,
 * at 100 concurrent clients (autocannon). Prints requests/s and p50/p99 latency of each.
 *
 *   node --import tsx bench/content.bench.ts      (DURATION=10 CONNECTIONS=100 to change the load)
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app.js';
import type { AppConfig } from '../apps/server/src/config/config.js';
import { seed } from '../apps/server/src/seed/seed.js';
import { seedContent } from '../apps/server/src/seed/seed-content.js';
import { createStorage } from '../apps/server/src/lib/storage/create-storage.js';
import { registerIdentity } from '../apps/server/src/modules/auth/identity.module.js';
import { registerContent } from '../apps/server/src/modules/content/content.module.js';
import { registerFiles } from '../apps/server/src/modules/files/files.module.js';
import { createNewsRepository } from '../apps/server/src/modules/news/news.repository.js';
import { startBenchApp } from './support/app.js';
import { runMain } from './support/run.js';
import { figureRow, measure as measureLoad } from './support/measure.js';
import { BENCH_PASSWORD } from './support/seed.js';

const DURATION = Number(process.env.DURATION ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 100);
const HOME_BLOCKS = 'home-intro,home-tracks,home-schedule,home-organisers,home-contact';

/** The paths in turn (round robin) over CONNECTIONS clients. */
const measure = (name: string, base: string, paths: string[]) =>
  measureLoad(name, { url: base, connections: CONNECTIONS, duration: DURATION, requests: paths.map((path) => ({ method: 'GET' as const, path })) });

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
  const bench = await startBenchApp({ build: contentApp });
  const { app, db, config } = bench;
  await seed(db, { adminUsername: 'admin', adminPassword: BENCH_PASSWORD, demo: true });
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
  const base = await bench.listen();
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
    console.table(results.map((f) => figureRow(f)));
  } finally {
    await bench.close();
  }
}

runMain(main);
