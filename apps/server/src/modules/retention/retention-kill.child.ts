/**
 * The worker process of retention-kill.test.ts (not a test of its own): a jobs runner with the
 * retention run job (`retention.run`, as retention.module.ts registers it) on the database and the
 * disk store the test names. It prints the job's progress (jobs.done/total, from the database) as
 * one JSON line each time, and exits by itself once the job is DONE or FAILED.
 *
 * Every object removal is appended to a log file (appendFileSync, so it is on disk before the real
 * removal starts) for the test's "removes nothing twice". After removing the first of the keys in
 * KILL_PAUSE_KEYS it prints `PAUSED` and waits forever: the test SIGKILLs it there, the worst
 * moment of docs/retention.md "Crash safety" (an object gone, its item still MARKED, the rest of
 * the batch MARKED with their objects still in the store).
 *
 * Environment: KILL_DATABASE_URL (PostgreSQL) or KILL_DATA_DIR (PGlite on disk), KILL_FILES_DIR
 * (the disk store), KILL_DELETE_LOG, KILL_JOB_ID, KILL_PAUSE_KEYS (comma-separated, optional),
 * KILL_STALE_MS (when another runner takes over a job whose heartbeat stopped).
 */
import { appendFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { openDatabase } from '../../db/client.js';
import { jobs } from '../../db/schema.js';
import { createJobRunner } from '../../lib/jobs.js';
import { createDiskStorage } from '../../lib/storage/disk-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import { retentionRunJob, RUN_MAX_ATTEMPTS, type ExecutorDeps } from './retention.executor.js';
import { RETENTION_RUN_JOB } from './retention.service.js';

const env = process.env;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const database = await openDatabase({ databaseUrl: env.KILL_DATABASE_URL || undefined, dataDir: env.KILL_DATA_DIR ?? '' });
const db = database.db;
const jobId = env.KILL_JOB_ID ?? '';
const log = env.KILL_DELETE_LOG ?? '';
const pauseKeys = new Set((env.KILL_PAUSE_KEYS ?? '').split(',').filter(Boolean));
const disk = createDiskStorage(env.KILL_FILES_DIR ?? '');

const storage: Pick<Storage, 'delete'> = {
  async delete(key) {
    appendFileSync(log, `${key}\n`);
    await disk.delete(key);
    if (pauseKeys.has(key)) {
      pauseKeys.clear();
      process.stdout.write('PAUSED\n');
      await new Promise<never>(() => {});
    }
  },
};

const executor: ExecutorDeps = {
  db,
  storage,
  // The test's witness of "each person anonymised once": a row written in the person's
  // transaction, so a batch rolled back by the kill leaves none.
  anonymisers: [(tx, person) => tx.execute(sql`insert into kill_anonymised (account_id) values (${person.accountId})`)],
  batchSize: 50,
};

const runner = createJobRunner({
  db,
  pollMs: 100,
  heartbeatMs: 200,
  staleMs: Number(env.KILL_STALE_MS ?? 2_000),
  concurrency: 1,
  log: { info() {}, warn() {}, error: (obj, msg) => console.error(msg, JSON.stringify(obj)) },
});
// The same handler retention.module.ts registers (the run's error bookkeeping included).
runner.register(RETENTION_RUN_JOB, retentionRunJob(executor), { maxAttempts: RUN_MAX_ATTEMPTS });
await runner.start();

for (;;) {
  const [row] = await db.select({ status: jobs.status, done: jobs.done, total: jobs.total, attempts: jobs.attempts, lastError: jobs.lastError }).from(jobs).where(eq(jobs.id, jobId));
  process.stdout.write(`${JSON.stringify(row ?? null)}\n`);
  if (row && (row.status === 'DONE' || row.status === 'FAILED')) break;
  // A failed attempt waits 30 s for its retry: report it instead of waiting.
  if (row?.lastError) {
    console.error(`job attempt failed: ${row.lastError}`);
    process.exit(2);
  }
  await sleep(50);
}
await runner.stop();
await database.close();
process.exit(0);
