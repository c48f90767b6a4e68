/**
 * Starting what a bench measures: the real app (buildApp, every plugin on) in a throwaway
 * DATA_DIR, on the embedded database or on PostgreSQL, and the bare Fastify hello-world that the
 * HTTP benches compare against.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig, type AppConfig } from '../../apps/server/src/config/config.js';
import type { Db } from '../../apps/server/src/db/client.js';

/**
 * Which database the app opens:
 * - `env`: DATABASE_URL as given (embedded PGlite when unset);
 * - `embedded`: always a PGlite of its own in DATA_DIR;
 * - `{ ownPrefix }`: with a postgres DATABASE_URL, a database of the bench's own on that server
 *   (`<ownPrefix>_<time>`), dropped at close, so seeded volume never lands in a shared database;
 *   embedded otherwise.
 */
export type BenchDatabase = 'env' | 'embedded' | { ownPrefix: string };

export interface BenchAppOptions {
  database?: BenchDatabase;
  /** Prefix of the temporary DATA_DIR (default `contest-bench-`). */
  dirPrefix?: string;
  /** An existing DATA_DIR instead of a temporary one (removed at close all the same). */
  dataDir?: string;
  /** More configuration (REDIS_URL, TRUST_PROXY, SEED_ADMIN_*); LOG_LEVEL warn and no rate limit are set. */
  env?: Record<string, string>;
  /** Builds the app from the config (default buildApp). */
  build?: (config: AppConfig) => Promise<FastifyInstance>;
}

export interface BenchApp {
  app: FastifyInstance;
  config: AppConfig;
  db: Db;
  dataDir: string;
  /** `pglite-memory`, `pglite-disk` or `postgres`. */
  kind: string;
  /** Listens on a free loopback port; returns the origin (`http://127.0.0.1:<port>`). */
  listen(): Promise<string>;
  /** Waits `settleMs` (autocannon stops with requests in flight), closes the app, drops the own database, removes DATA_DIR. */
  close(settleMs?: number): Promise<void>;
}

export const originOf = (server: FastifyInstance) => `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;

export async function startBenchApp(options: BenchAppOptions = {}): Promise<BenchApp> {
  const database = options.database ?? 'env';
  const serverUrl = process.env.DATABASE_URL ?? '';
  const own = typeof database === 'object' && serverUrl.startsWith('postgres') ? await ownDatabase(serverUrl, database.ownPrefix) : null;
  const databaseUrl = own ? own.url : database === 'env' ? serverUrl : '';
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), options.dirPrefix ?? 'contest-bench-'));
  const config = loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MINUTE: '100000000',
    RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: '100000000',
    ...options.env,
  });
  const app = await (options.build ?? buildApp)(config);
  return {
    app,
    config,
    db: app.deps.database.db,
    dataDir,
    kind: app.deps.database.kind,
    async listen() {
      await app.listen({ port: 0, host: '127.0.0.1' });
      return originOf(app);
    },
    async close(settleMs = 0) {
      if (settleMs) await new Promise((resolve) => setTimeout(resolve, settleMs));
      try {
        await app.close();
      } finally {
        await own?.drop();
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** A database of the bench's own on the given PostgreSQL server; dropped by the returned function. */
export async function ownDatabase(serverUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`drop database if exists "${name}" with (force)`);
      await c.end();
    },
  };
}

/** A bare Fastify answering GET /hello: what the web stack alone does on this machine. */
export async function startBareHello(): Promise<{ url: string; close(): Promise<void> }> {
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  return { url: `${originOf(bare)}/hello`, close: () => bare.close() };
}
