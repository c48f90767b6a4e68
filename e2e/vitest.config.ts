import { defineConfig } from 'vitest/config';

/**
 * One browser journey per file. E2E_WORKERS files run at once (1 by default: one Chromium at a
 * time); every journey has its own portal on a free port, its own DATA_DIR copied from the
 * template, its own browser profile and temp files, so files do not share state. .ci/run sets the
 * number it uses, with the figures measured for it and why.
 */
const workers = Math.max(1, Number.parseInt(process.env.E2E_WORKERS ?? '1', 10) || 1);

export default defineConfig({
  test: {
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: workers > 1,
    maxWorkers: workers,
    // Two journeys and the PostgreSQL suite share two cores in CI: steps take up to ~2x their time
    // alone, so the limits leave room (a hang still fails, only later).
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // expect.poll's own default (5 s) timed out under that load; Playwright's waits default to 30 s.
    expect: { poll: { timeout: 20_000 } },
  },
});
