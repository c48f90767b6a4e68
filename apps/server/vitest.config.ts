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
    // Builds once per run the migrated database every test file starts from (test/test-database.ts).
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
