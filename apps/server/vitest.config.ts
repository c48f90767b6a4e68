import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * `SERVER_SUITE=embedded` runs only these files: CI runs the whole suite on PostgreSQL + Redis and
 * these again on the embedded PGlite, beside the browser journeys (which run on PGlite too) —
 * docs/decisions.md, "CI: the whole server suite on PostgreSQL, the engine's files on PGlite".
 * They are the files whose outcome depends on the engine: its files on disk (template, backup,
 * crash, restart, the default start), the job and key-value tables' own PGlite paths, and the
 * transactions that must read through themselves (PGlite has one connection: a read through the
 * pool while one is open waits forever, which PostgreSQL's pool would hide).
 */
const EMBEDDED_ENGINE_FILES = [
  'test/test-database.test.ts',
  'test/backup.test.ts',
  'test/crash-safety.test.ts',
  'test/process.test.ts',
  'test/kv-persistence.test.ts',
  'src/seed/seed.test.ts',
  'src/lib/jobs.test.ts',
  'src/lib/kv-store.test.ts',
  'src/modules/broadcast/broadcast-kill.test.ts',
  'src/modules/retention/retention-kill.test.ts',
  'src/modules/files/files.test.ts',
  'src/modules/score-log/score-log.test.ts',
  'src/modules/review/scoring.test.ts',
  'src/modules/review/scores.test.ts',
  'src/modules/live-final/live-final.test.ts',
  'src/modules/templates/templates.test.ts',
  'src/modules/notices/notify.test.ts',
];

export default defineConfig({
  test: {
    include: process.env.SERVER_SUITE === 'embedded' ? EMBEDDED_ENGINE_FILES : ['src/**/*.test.ts', 'test/**/*.test.ts'],
    pool: 'forks',
    // Vitest keeps one core for itself (cores - 1 workers): on the 2-core CI machine that ran every
    // file one after another. The main process hardly works while files run; two workers took the
    // suites from 218/289/124 s to 133/183/84 s (server PGlite / web / server PostgreSQL).
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // Every file imports the whole server (Fastify, drizzle, zod schemas, the S3 SDK, exceljs,
    // pdfjs): with a fresh module graph per file that import was most of the suite's CPU time.
    // Files build their own app, database and Redis prefix in beforeAll, so nothing a module
    // holds ties one file to another; sharing the graph per worker took the suite from 669 s to
    // 282 s wall (8.3 to 5.0 CPU-minutes) on a loaded 2-core machine.
    isolate: false,
    // Builds once per run the migrated database every test file starts from (test/test-database.ts).
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
