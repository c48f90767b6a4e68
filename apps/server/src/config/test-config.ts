import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, type AppConfig } from './config.js';

/**
 * Config for tests: in-memory PGlite unless the run sets DATABASE_URL (the CI's PostgreSQL
 * pass), Redis only when REDIS_URL is set, silent logs, a throwaway DATA_DIR.
 */
export function loadTestConfig(overrides: Record<string, string | undefined> = {}): AppConfig {
  return loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'contest-test-')),
    DATABASE_URL: process.env.DATABASE_URL || 'memory://',
    REDIS_URL: process.env.REDIS_URL,
    SEED_ADMIN_PASSWORD: 'Admin@2025',
    // Tests sign in many at once on purpose; the line's refusal has its own tests.
    PASSWORD_MAX_WAITING: '10000',
    ...overrides,
  });
}
