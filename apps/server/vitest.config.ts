import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
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
