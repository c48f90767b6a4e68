import { defineConfig } from 'vitest/config';

// One browser journey per file; files run one after another (2 cores, one Chromium at a time).
export default defineConfig({
  test: {
    include: ['**/*.e2e.ts'],
    globalSetup: ['./global-setup.ts'],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
