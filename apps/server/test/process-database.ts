import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { createPostgresDatabase, dropPostgresDatabase, readPgliteTemplate, withDatabaseName, type TestDatabaseTemplate } from './test-database.js';

/**
 * A migrated database that worker processes open by themselves (the kill -9 tests): PGlite in a
 * folder on disk (one process at a time), or a PostgreSQL database of its own when DATABASE_URL
 * is set. Both start from the run's migrated template (test/global-setup.ts).
 */
export interface ProcessDatabase {
  /** A temporary folder: PGlite's files under `pglite/`, room for the test's own files. */
  dataDir: string;
  /** The PostgreSQL URL, or undefined for PGlite in `dataDir`. */
  databaseUrl: string | undefined;
  /** Opens it in this process (close it before a worker opens PGlite). */
  open(): Promise<Database>;
  /** Drops the database and removes the folder. */
  remove(): Promise<void>;
}

/** The run's migrated template; none outside vitest. */
function template(): TestDatabaseTemplate {
  try {
    return inject('testDatabaseTemplate') ?? {};
  } catch {
    return {};
  }
}

export async function createProcessDatabase(prefix: string): Promise<ProcessDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
  const { pglite, postgres } = template();
  let pgName: string | undefined;
  let databaseUrl: string | undefined;
  if (postgresUrl) {
    pgName = await createPostgresDatabase(postgresUrl, postgres?.url === postgresUrl ? postgres.template : undefined);
    databaseUrl = withDatabaseName(postgresUrl, pgName);
  } else if (pglite) {
    // The folder starts as the run's migrated cluster (initdb on disk alone takes seconds).
    const client = new PGlite({ dataDir: join(dataDir, 'pglite'), loadDataDir: readPgliteTemplate(pglite.migrated), extensions: { pg_trgm } });
    await client.waitReady;
    await client.close();
  }
  return {
    dataDir,
    databaseUrl,
    open: () => openDatabase({ databaseUrl, dataDir }),
    remove: async () => {
      if (pgName) await dropPostgresDatabase(postgresUrl!, pgName);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
