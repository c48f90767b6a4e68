/**
 * Bulk in-site message benchmark (docs/performance.md, "Bulk in-site message"), through the real app in a child process (its RSS
 * measured alone; the clients here see its answers as a browser would), on the embedded database,
 * or on PostgreSQL when DATABASE_URL is set (a database of the bench's own, bench_msg_<time>,
 * dropped at the end):
 * - PARTICIPANTS (default 50 000) enabled participant accounts, seeded in one statement;
 * - an admin signs in (POST /api/admin/login) and sends an in-site message to ALL
 *   (POST /api/admin/broadcast/insite/send): the time to its answer (batch, job and operation
 *   record written: the enqueue), then the time until the batch is DONE, polled every POLL_MS
 *   (500) with GET /api/admin/broadcast/{id} as the console's drawer does, the batch's own
 *   createdAt -> finishedAt beside it; the rows written (table counts before and after); the peak
 *   RSS of the server process sampled every 50 ms; meanwhile one participant keeps calling the
 *   unread count (the server must keep answering during a delivery), and the server's longest
 *   event-loop stall is recorded;
 * - SIGNED_IN (50) participants sign in (before the send) (POST /api/login, each from its own X-Forwarded-For) and
 *   the calls of the participant centre's menu badge are run at CONNECTIONS (50) clients for
 *   DURATION (10) s after a 2 s warm-up, each request with the next participant's token:
 *   GET /api/messages/summary (the unread count of the badge) and GET /api/user/account (its
 *   `hasUnReadMessage` dot). Errors and non-2xx answers must be 0.
 * Targets: enqueue < 1 s; delivery of 50 000 < 60 s (PostgreSQL); RSS growth < 100 MB; unread
 * count p99 < 100 ms.
 *
 *   npm run bench:messaging
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:messaging
 *   PARTICIPANTS=2000 DURATION=3 npm run bench:messaging      (a quick check)
 *
 * The figures are those of one machine at one moment: the load average is printed with them.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { BroadcastBatch, BroadcastSent } from '@contest/shared';
import { forkServer, serveParent, type ServerProcess } from './support/child.js';
import { count, tableCounts } from './support/db.js';
import { call, signInOverHttp } from './support/http.js';
import { dirty, measure, rotatingTokens, type Figures } from './support/measure.js';
import { MB, rssOfPid, sampleMemory, type MemorySample } from './support/memory.js';
import { load, markdown } from './support/report.js';
import { runMain } from './support/run.js';
import { BENCH_PASSWORD, seedParticipants } from './support/seed.js';

const PARTICIPANTS = Number(process.env.PARTICIPANTS ?? 50_000);
const SIGNED_IN = Number(process.env.SIGNED_IN ?? 50);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const DURATION = Number(process.env.DURATION ?? 10);
const POLL_MS = Number(process.env.POLL_MS ?? 500);
/** Give up waiting for DONE after this long. */
const TIMEOUT_S = Number(process.env.TIMEOUT_S ?? 900);
const ADMIN = 'benchadmin';

const TARGET = { enqueueMs: 1000, deliverySeconds: 60, rssGrowthMb: 100, unreadP99Ms: 100 };
const TABLES = ['message_batches', 'messages', 'message_recipients', 'jobs', 'operation_records', 'notice_outbox'];
const DRAFT = {
  segment: { kind: 'ALL', values: [] },
  title: '关于提交初赛材料的提醒',
  body: '各参赛团队：\n初赛材料提交将于 8 月 31 日 24:00 截止，请尚未提交的团队尽快在个人中心完成提交。\n大赛组委会',
};

const met = (ok: boolean) => (ok ? 'yes' : 'NO');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

// ---- The server (child process) ------------------------------------------------------------

interface Ready {
  origin: string;
  kind: string;
  seededSeconds: number;
  reach: number;
}

async function serve(): Promise<void> {
  const { startBenchApp } = await import('./support/app.js');
  const { seedAtStartup } = await import('../apps/server/src/startup.js');
  const bench = await startBenchApp({
    database: { ownPrefix: 'bench_msg' },
    dirPrefix: 'contest-bench-msg-',
    env: { REDIS_URL: '', TRUST_PROXY: 'true', SEED_ADMIN_USERNAME: ADMIN, SEED_ADMIN_PASSWORD: BENCH_PASSWORD },
  });
  const db = bench.db;
  await seedAtStartup(bench.app, false);
  const t = performance.now();
  await seedParticipants(db, { count: PARTICIPANTS, prefix: 'mb', namePrefix: '参赛者', phonePrefix: '17', agreed: true });
  await db.execute(sql`analyze`);
  const seededSeconds = (performance.now() - t) / 1000;
  const reach = await count(db, sql`select count(*) as n from accounts where realm = 'USER' and enabled`);
  const origin = await bench.listen();
  // How long the event loop could not run anything (answers, timers): a job that never yields shows here.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  serveParent<Ready>(
    { origin, kind: bench.kind, seededSeconds, reach },
    {
      counts: () => tableCounts(db, TABLES),
      loopReset: () => loop.reset(),
      loopMaxMs: () => loop.max / 1e6,
    },
    () => bench.close(1000),
  );
}

// ---- The bench (this process) --------------------------------------------------------------

interface Delivery {
  sent: BroadcastSent;
  enqueueMs: number;
  untilDoneMs: number;
  polls: number;
  batch: BroadcastBatch;
  memory: MemorySample;
  writes: Record<string, number>;
  /** Unread-count calls of one participant during the delivery, in ms. */
  during: number[];
  loopMaxMs: number;
}

/** The send, its answer, the wait for DONE, what it wrote, the memory it took and how the server answered meanwhile. */
async function sendToAll(server: ServerProcess<Ready>, token: string, participant: string): Promise<Delivery> {
  const base = `${server.ready.origin}/api/admin`;
  // Warm-up (not measured): a preview of the same draft runs the send's validation and segment
  // count and writes nothing, so the first call's compilation is not counted as the enqueue.
  await call(`${base}/broadcast/insite/preview`, { token, body: DRAFT });
  const before = await server.ask<Record<string, number>>('counts');
  await server.ask('loopReset');
  const rss = sampleMemory(50, () => rssOfPid(server.pid));
  let delivering = true;
  const during: number[] = [];
  const probe = (async () => {
    while (delivering) {
      const t0 = performance.now();
      await call(`${server.ready.origin}/api/messages/summary`, { token: participant });
      during.push(performance.now() - t0);
      await sleep(50);
    }
  })();
  const started = performance.now();
  let memory;
  let sent: BroadcastSent;
  let enqueueMs: number;
  let batch: BroadcastBatch;
  let polls = 0;
  try {
    sent = await call<BroadcastSent>(`${base}/broadcast/insite/send`, { token, body: DRAFT });
    enqueueMs = performance.now() - started;
    for (;;) {
      ({ batch } = await call<{ batch: BroadcastBatch }>(`${base}/broadcast/${sent.batchId}?page=1&size=10`, { token }));
      polls++;
      if (batch.status === 'DONE') break;
      if (batch.status !== 'QUEUED' && batch.status !== 'RUNNING') throw new Error(`batch ended ${batch.status}: ${JSON.stringify(batch)}`);
      if (performance.now() - started > TIMEOUT_S * 1000) throw new Error(`batch not DONE after ${TIMEOUT_S} s: ${JSON.stringify(batch.progress)}`);
      await sleep(POLL_MS);
    }
  } finally {
    memory = rss.stop();
    delivering = false;
    await probe;
  }
  const untilDoneMs = performance.now() - started;
  const loopMaxMs = await server.ask<number>('loopMaxMs');
  const after = await server.ask<Record<string, number>>('counts');
  return {
    sent,
    enqueueMs,
    untilDoneMs,
    polls,
    batch,
    memory,
    writes: Object.fromEntries(TABLES.map((t) => [t, after[t]! - before[t]!])),
    during: during.sort((a, b) => a - b),
    loopMaxMs,
  };
}

async function main(): Promise<void> {
  const server = await forkServer<Ready>(fileURLToPath(import.meta.url), ['serve']);
  try {
    const { origin, kind } = server.ready;
    console.log(`seeded ${PARTICIPANTS} participants in ${server.ready.seededSeconds.toFixed(1)} s (${server.ready.reach} enabled participants in all)`);
    const adminToken = await signInOverHttp(origin, '/api/admin/login', ADMIN, BENCH_PASSWORD);
    // Participants spread over the accounts, each signing in through the login call.
    const step = Math.max(1, Math.floor(PARTICIPANTS / SIGNED_IN));
    const usernames = Array.from({ length: Math.min(SIGNED_IN, PARTICIPANTS) }, (_, i) => `mb${1 + i * step}`);
    const tokens = await Promise.all(usernames.map((u) => signInOverHttp(origin, '/api/login', u, BENCH_PASSWORD)));

    const loadBeforeSend = load();
    const d = await sendToAll(server, adminToken, tokens[0]!);
    const loadAfterSend = load();
    const serverSeconds = d.batch.finishedAt ? (Date.parse(d.batch.finishedAt) - Date.parse(d.batch.createdAt)) / 1000 : NaN;
    console.log(`sent to ${d.sent.total}: answered in ${d.enqueueMs.toFixed(0)} ms, DONE after ${(d.untilDoneMs / 1000).toFixed(1)} s (${d.polls} polls); delivered ${d.batch.delivered}`);

    // The badge must show the message before its call is timed.
    for (const token of tokens) {
      const { unreadCount } = await call<{ unreadCount: number }>(`${origin}/api/messages/summary`, { token });
      if (unreadCount < 1) throw new Error(`a participant's unread count is ${unreadCount} after the send`);
    }
    const loadBeforeUnread = load();
    // Each run with the server's longest event-loop stall during it (warm-up included).
    const run = async (name: string, path: string) => {
      await server.ask('loopReset');
      const f = await measure(name, { url: `${origin}${path}`, connections: CONNECTIONS, duration: DURATION, requests: rotatingTokens(tokens) });
      return { ...f, stallMs: await server.ask<number>('loopMaxMs') };
    };
    const figures: Array<Figures & { stallMs: number }> = [
      await run('GET /api/messages/summary (unread count)', '/api/messages/summary'),
      await run('GET /api/user/account (hasUnReadMessage)', '/api/user/account'),
    ];
    const loadAfterUnread = load();

    const recipients = d.writes.message_recipients ?? 0;
    const seconds = d.untilDoneMs / 1000;
    const growthMb = (d.memory.peak - d.memory.base) / MB;
    console.log(`\n## Messaging bench: ${kind}, ${PARTICIPANTS} participants, ${new Date().toISOString().slice(0, 10)}\n`);
    console.log(
      `Load average (1/5/15 min): before the send ${loadBeforeSend}, after DONE ${loadAfterSend}, before the unread runs ${loadBeforeUnread}, after them ${loadAfterUnread}; ` +
        `the server process, the clients${kind === 'postgres' ? ' and PostgreSQL' : ''} share this machine.\n`,
    );
    console.log(
      markdown(
        ['bulk in-site message to ALL', 'figure', 'target', 'met'],
        [
          ['enqueue (answer of POST /broadcast/insite/send)', `${d.enqueueMs.toFixed(0)} ms`, `< ${TARGET.enqueueMs} ms`, met(d.enqueueMs < TARGET.enqueueMs)],
          [`until DONE (polled every ${POLL_MS} ms)`, `${seconds.toFixed(1)} s`, `< ${TARGET.deliverySeconds} s`, met(seconds < TARGET.deliverySeconds)],
          ['batch createdAt -> finishedAt', `${serverSeconds.toFixed(1)} s`, '', ''],
          ['recipients per second', Math.round(recipients / seconds), '', ''],
          [
            'rows written',
            Object.entries(d.writes)
              .map(([table, n]) => `${table} +${n}`)
              .join(', '),
            `message_recipients +${d.sent.total}`,
            met(recipients === d.sent.total && d.batch.delivered === d.sent.total),
          ],
          ['server RSS: before / peak / after', `${(d.memory.base / MB).toFixed(0)} / ${(d.memory.peak / MB).toFixed(0)} / ${(d.memory.end / MB).toFixed(0)} MB`, '', ''],
          ['server RSS growth (peak - before)', `${growthMb.toFixed(0)} MB`, `< ${TARGET.rssGrowthMb} MB`, met(growthMb < TARGET.rssGrowthMb)],
          [
            'unread count meanwhile (one participant, calls / p50 / max)',
            `${d.during.length} / ${quantile(d.during, 0.5).toFixed(0)} ms / ${(d.during.at(-1) ?? NaN).toFixed(0)} ms`,
            '',
            '',
          ],
          ['server event loop, longest stall meanwhile', `${d.loopMaxMs.toFixed(0)} ms`, '', ''],
        ],
      ),
    );
    console.log('');
    console.log(
      markdown(
        [
          `${tokens.length} signed-in participants, ${CONNECTIONS} connections, ${DURATION} s`,
          'req/s',
          'p50 ms',
          'p99 ms',
          'max ms',
          'errors',
          'non-2xx',
          'longest server stall ms',
          `p99 < ${TARGET.unreadP99Ms} ms`,
        ],
        figures.map((f) => [f.name, Math.round(f.rps), f.p50, f.p99, f.max, f.errors, f.non2xx, f.stallMs.toFixed(0), met(f.p99 < TARGET.unreadP99Ms)]),
      ),
    );
    if (dirty(figures)) console.log('WARNING: errors or non-2xx answers: the figures above are not clean');
    if (recipients !== d.sent.total) console.log(`WARNING: ${recipients} recipient rows written for ${d.sent.total} recipients`);
  } finally {
    await server.stop();
  }
}

runMain(process.argv[2] === 'serve' ? serve : main);
