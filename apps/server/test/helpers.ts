import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { Redis } from 'ioredis';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadTestConfig } from '../src/config/test-config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import type { AppConfig } from '../src/config/config.js';

/**
 * A database of its own for one test file. On PGlite that is a fresh in-memory instance;
 * on PostgreSQL a new database created from DATABASE_URL and dropped at the end.
 */
export async function createTestDatabase(config: AppConfig): Promise<{ database: Database; drop(): Promise<void> }> {
  if (!config.databaseUrl?.startsWith('postgres')) {
    const database = await openDatabase(config);
    return { database, drop: () => database.close() };
  }
  const name = `test_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: config.databaseUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(config.databaseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), dataDir: config.dataDir });
  return {
    database,
    drop: async () => {
      await database.close();
      const cleanup = new pg.Client({ connectionString: config.databaseUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists "${name}" with (force)`);
      await cleanup.end();
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
  const { database, drop } = await createTestDatabase(config);
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

async function deleteRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
