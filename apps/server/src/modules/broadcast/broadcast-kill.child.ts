/**
 * The worker process of broadcast-kill.test.ts (not a test of its own): a jobs runner with the
 * bulk-send job, as an app instance runs it, on the database the test names. It polls the
 * jobs' progress (jobs.done/total) and prints it as one JSON line each time, so the test can
 * SIGKILL it half-way; it exits by itself once every job is DONE.
 *
 * Environment: KILL_DATABASE_URL (PostgreSQL) or KILL_DATA_DIR (PGlite on disk), KILL_JOB_IDS
 * (comma-separated), KILL_SLICE (recipients per slice), KILL_SLICE_DELAY_MS (a pause before each
 * slice, so a run lasts long enough to be killed in the middle), KILL_STALE_MS (when another
 * runner takes over a job whose heartbeat stopped).
 */
import { inArray } from 'drizzle-orm';
import { openDatabase } from '../../db/client.js';
import { jobs } from '../../db/schema.js';
import { createJobRunner } from '../../lib/jobs.js';
import { createMemoryKvStore } from '../../lib/kv-store.js';
import { BROADCAST_JOB, createBroadcastJob } from './broadcast.job.js';

const env = process.env;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const database = await openDatabase({ databaseUrl: env.KILL_DATABASE_URL || undefined, dataDir: env.KILL_DATA_DIR ?? '' });
const db = database.db;
const jobIds = (env.KILL_JOB_IDS ?? '').split(',');
const delay = Number(env.KILL_SLICE_DELAY_MS ?? 0);

const runner = createJobRunner({
  db,
  pollMs: 100,
  heartbeatMs: 200,
  staleMs: Number(env.KILL_STALE_MS ?? 2_000),
  concurrency: 2,
  log: { info() {}, warn() {}, error: (obj, msg) => console.error(msg, JSON.stringify(obj)) },
});
runner.register(
  BROADCAST_JOB,
  createBroadcastJob({
    kv: createMemoryKvStore(),
    smsDailyLimit: 1_000_000,
    sliceSize: Number(env.KILL_SLICE ?? 500),
    beforeSlice: () => (delay ? sleep(delay) : undefined),
  }),
);
await runner.start();

for (;;) {
  const rows = await db.select({ id: jobs.id, status: jobs.status, done: jobs.done, total: jobs.total, attempts: jobs.attempts }).from(jobs).where(inArray(jobs.id, jobIds));
  process.stdout.write(`${JSON.stringify(rows)}\n`);
  if (rows.length === jobIds.length && rows.every((r) => r.status === 'DONE' || r.status === 'FAILED')) break;
  await sleep(50);
}
await runner.stop();
await database.close();
process.exit(0);
