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
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
