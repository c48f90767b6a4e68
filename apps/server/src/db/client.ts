import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite, types, type ParserOptions } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import * as schema from './schema.js';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export type DatabaseKind = 'pglite-memory' | 'pglite-disk' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** Runs `fn` while holding a cluster-wide lock, so two instances never migrate or seed at once. */
  withStartupLock<T>(fn: (db: Db) => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_POOL_MAX = 10;

// Arbitrary constant shared by every instance of this portal: the advisory lock id.
const STARTUP_LOCK_ID = 724_2025;

export async function openDatabase(opts: {
  databaseUrl: string | undefined;
  dataDir: string;
  /** PostgreSQL connections this process keeps at most (DATABASE_POOL_MAX); 10 when not given. */
  databasePoolMax?: number;
  /**
   * Tests only: start the in-memory database from a `dumpDataDir()` tarball (an already migrated
   * cluster) instead of running initdb. Ignored for PostgreSQL and for a data folder on disk.
   */
  loadDataDir?: Blob;
}): Promise<Database> {
  if (opts.databaseUrl && opts.databaseUrl.startsWith('postgres')) return openPostgres(opts.databaseUrl, opts.databasePoolMax ?? DEFAULT_POOL_MAX);
  const inMemory = opts.databaseUrl === 'memory://';
  let dataPath: string | undefined;
  if (!inMemory) {
    dataPath = join(opts.dataDir, 'pglite');
    mkdirSync(dataPath, { recursive: true });
  }
  const releaseLock = dataPath ? lockDataDir(dataPath) : () => {};
  let client: PGlite;
  try {
    // pg_trgm backs the trigram indexes of the admin lists' "contains" searches (migration 0004).
    client = new PGlite({
      ...(dataPath ? { dataDir: dataPath } : {}),
      ...(inMemory && opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
      extensions: { pg_trgm },
    });
    await client.waitReady;
    parseAsDrizzleOnce(client);
  } catch (err) {
    releaseLock();
    throw err;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Db;
  let startupQueue: Promise<unknown> = Promise.resolve();
  return {
    db,
    kind: inMemory ? 'pglite-memory' : 'pglite-disk',
    // PGlite belongs to this process (see lockDataDir); an in-process queue is enough.
    withStartupLock: (fn) => {
      const run = startupQueue.then(() => fn(db));
      startupQueue = run.catch(() => {});
      return run;
    },
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      await client.close();
      releaseLock();
    },
  };
}

/**
 * drizzle sends the same parser overrides with every query (timestamps, dates, intervals and their
 * arrays as text: it converts them itself), and PGlite copies its whole table of parsers (several
 * hundred entries, one per array type) to merge them in, on every query: ~0.1 ms of CPU per
 * statement, the largest cost of a hot call after the query itself. Set once on the instance, the
 * same overrides apply without the copy; queries passing exactly those overrides go without them.
 * Nothing else reads timestamps from this client directly (the ping reads none).
 */
const DRIZZLE_TEXT_TYPES = [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182];

function parseAsDrizzleOnce(client: PGlite): void {
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = (value: string) => value;
  const isDrizzles = (parsers: ParserOptions) => {
    const keys = Object.keys(parsers);
    return keys.length === DRIZZLE_TEXT_TYPES.length && DRIZZLE_TEXT_TYPES.every((oid) => oid in parsers);
  };
  const query = client.query.bind(client);
  client.query = ((text, params, options) =>
    query(text, params, options?.parsers && isDrizzles(options.parsers) ? { ...options, parsers: undefined } : options)) as PGlite['query'];
}

/**
 * PGlite is one process's database: a second process opening the same folder would corrupt
 * it. A pid file refuses the second opener with a clear message (and ignores a stale one).
 */
function lockDataDir(dataPath: string): () => void {
  const lockPath = join(dataPath, '..', 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lockPath, String(process.pid), { flag: 'wx' });
      return () => rmSync(lockPath, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(readFileSync(lockPath, 'utf8'));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new Error(
          `The embedded database in ${dataPath} is in use by process ${pid}. Stop that process first, or set DATABASE_URL to a PostgreSQL server.`,
          { cause: err },
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock ${dataPath}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function openPostgres(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max, idleTimeoutMillis: 30_000 });
  // A failed idle client must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    withStartupLock: async (fn) => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [STARTUP_LOCK_ID]);
        try {
          return await fn(drizzlePg(client, { schema }) as unknown as Db);
        } finally {
          await client.query('select pg_advisory_unlock($1)', [STARTUP_LOCK_ID]);
        }
      } finally {
        client.release();
      }
    },
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    close: () => pool.end(),
  };
}
