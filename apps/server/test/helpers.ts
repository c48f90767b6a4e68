import { randomBytes } from 'node:crypto';
import { deleteRedisPrefix } from './redis-prefix.js';
import { inject } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadTestConfig } from '../src/config/test-config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import type { AppConfig } from '../src/config/config.js';
import {
  createPostgresDatabase,
  dropPostgresDatabase,
  readPgliteTemplate,
  withDatabaseName,
  type TestDatabaseTemplate,
} from './test-database.js';

/** The run's migrated template (test/global-setup.ts); none outside vitest or without that setup. */
function template(): TestDatabaseTemplate {
  try {
    return inject('testDatabaseTemplate') ?? {};
  } catch {
    return {};
  }
}

/**
 * A database of its own for one test file. On PGlite that is a fresh in-memory instance, loaded
 * from the run's tarball of a fresh cluster (test/global-setup.ts); on PostgreSQL a new database
 * created from DATABASE_URL, dropped at the end. It is empty unless `migrated`: then it starts
 * as the run's migrated template (PGlite: the migrated cluster; PostgreSQL: a copy of the template
 * database), and the app's own migration run at build finds nothing to do. Without a template
 * (outside vitest, or another DATABASE_URL than the run's) it starts empty and the app migrates it.
 */
export async function createTestDatabase(
  config: AppConfig,
  options: { migrated?: boolean } = {},
): Promise<{ database: Database; drop(): Promise<void> }> {
  const { pglite, postgres } = template();
  if (!config.databaseUrl?.startsWith('postgres')) {
    const tarball = config.databaseUrl === 'memory://' ? (options.migrated ? pglite?.migrated : pglite?.empty) : undefined;
    const loadDataDir = tarball ? readPgliteTemplate(tarball) : undefined;
    const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir, loadDataDir });
    return { database, drop: () => database.close() };
  }
  const adminUrl = config.databaseUrl;
  const name = await createPostgresDatabase(adminUrl, options.migrated && postgres?.url === adminUrl ? postgres.template : undefined);
  const database = await openDatabase({ databaseUrl: withDatabaseName(adminUrl, name), dataDir: config.dataDir });
  return {
    database,
    drop: async () => {
      await database.close();
      await dropPostgresDatabase(adminUrl, name);
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: AppConfig;
  database: Database;
  close(): Promise<void>;
}

/** One app per test file: PGlite takes seconds to start, so tests share it and use unique data. */
export async function createTestApp(
  overrides: Record<string, string | undefined> = {},
  options: { bare?: boolean } = {},
): Promise<TestApp> {
  const prefix = `test:${randomBytes(6).toString('hex')}:`;
  const config = loadTestConfig({ REDIS_PREFIX: prefix, ...overrides });
  const { database, drop } = await createTestDatabase(config, { migrated: true });
  const app = await buildApp(config, { database, bare: options.bare });
  return {
    app,
    config,
    database,
    close: async () => {
      await app.close();
      await drop();
      if (config.redisUrl) await deleteRedisPrefix(config.redisUrl, prefix);
    },
  };
}

export { deleteRedisPrefix };
