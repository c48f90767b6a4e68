import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { openDatabase } from '../src/db/client.js';
import { migrationsFolder, runMigrations } from '../src/db/migrate.js';

/**
 * Test databases start from a migrated template built once per run (test/global-setup.ts), not
 * from an empty cluster migrated by every test file:
 * - PGlite: a migrated cluster dumped with dumpDataDir() to a tar file, which each file loads
 *   (`loadDataDir`); this also skips initdb, most of a fresh PGlite's start-up time. The same
 *   cluster before migrating is dumped too, for tests that migrate an empty database themselves.
 * - PostgreSQL: a migrated database that each file copies with `create database … template`.
 * The app still runs its migrations at build (they find everything applied) and is not seeded.
 */
export interface TestDatabaseTemplate {
  /** PGlite: tarballs of a fresh cluster (as after initdb) and of the same cluster migrated. */
  pglite?: { empty: string; migrated: string };
  /** PostgreSQL: `url` is the DATABASE_URL the template was made from, `template` its name. */
  postgres?: { url: string; template: string };
}

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabaseTemplate: TestDatabaseTemplate;
  }
}

// ---- PGlite -------------------------------------------------------------------------------

const CACHE_DIR = join(tmpdir(), 'contest-test-db');
const CACHE_MAX_AGE_MS = 24 * 3600_000;

/**
 * What the migrated cluster depends on: the migrations, the code that opens and migrates the
 * database, and the PGlite and drizzle versions. Any change gives another file name.
 */
function templateKey(): string {
  const hash = createHash('sha256').update('pglite-template-v1\0');
  const require = createRequire(import.meta.url);
  for (const pkg of ['@electric-sql/pglite', 'drizzle-orm']) {
    // Walk up from the entry point to the package's own package.json (exports hide it).
    let dir = dirname(require.resolve(pkg));
    while (!existsSync(join(dir, 'package.json')) || JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name !== pkg) {
      const up = dirname(dir);
      if (up === dir) throw new Error(`package.json of ${pkg} not found`);
      dir = up;
    }
    hash.update(`${pkg}@${JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version}\0`);
  }
  const srcDb = join(dirname(fileURLToPath(import.meta.url)), '..', 'src', 'db');
  const folder = migrationsFolder();
  const files: Array<[string, string]> = [
    ['client.ts', join(srcDb, 'client.ts')],
    ['migrate.ts', join(srcDb, 'migrate.ts')],
    ...readdirSync(folder, { recursive: true, encoding: 'utf8' })
      .sort()
      .map((f): [string, string] => [`migrations/${f}`, join(folder, f)]),
  ];
  for (const [name, file] of files) {
    if (!statSync(file).isFile()) continue;
    hash.update(`${name}\0`).update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

/**
 * Builds the PGlite clusters through the app's own openDatabase and runMigrations, and writes
 * them to tar files. The files are keyed by content (templateKey), so a later run with the same
 * migrations reuses them (`reuse`; CI always rebuilds). Each is written to a temporary name and
 * renamed, so a concurrent run never reads half a file.
 */
export async function buildPgliteTemplate(opts: { reuse: boolean }): Promise<{ empty: string; migrated: string }> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const key = templateKey();
  const files = { empty: join(CACHE_DIR, `pglite-${key}-empty.tar`), migrated: join(CACHE_DIR, `pglite-${key}-migrated.tar`) };
  if (opts.reuse && existsSync(files.empty) && existsSync(files.migrated)) {
    const now = new Date();
    utimesSync(files.empty, now, now);
    utimesSync(files.migrated, now, now);
    return files;
  }
  const database = await openDatabase({ databaseUrl: 'memory://', dataDir: CACHE_DIR });
  try {
    const client = (database.db as unknown as { $client: PGlite }).$client;
    const dump = async (file: string) => {
      // A clean checkpoint: the loaded copies then start without replaying the WAL.
      await client.exec('CHECKPOINT');
      const tarball = await client.dumpDataDir('none');
      const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      writeFileSync(tmp, new Uint8Array(await tarball.arrayBuffer()));
      renameSync(tmp, file);
    };
    await dump(files.empty);
    await runMigrations(database);
    await dump(files.migrated);
  } finally {
    await database.close();
  }
  removeStaleTemplates(Object.values(files));
  return files;
}

/** Other keys' tarballs not used for a day (older migrations, other checkouts). */
function removeStaleTemplates(keep: string[]): void {
  for (const name of readdirSync(CACHE_DIR)) {
    const path = join(CACHE_DIR, name);
    if (keep.includes(path) || !name.startsWith('pglite-')) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > CACHE_MAX_AGE_MS) rmSync(path, { force: true });
    } catch {
      // Removed by a concurrent run.
    }
  }
}

const tarballs = new Map<string, Blob>();

/** A tarball as a Blob, read once per test file (a file may open several databases). */
export function readPgliteTemplate(path: string): Blob {
  let blob = tarballs.get(path);
  if (!blob) tarballs.set(path, (blob = new Blob([new Uint8Array(readFileSync(path))])));
  return blob;
}

// ---- PostgreSQL ---------------------------------------------------------------------------

export function withDatabaseName(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function adminQuery(url: string, text: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(text);
  } finally {
    await admin.end();
  }
}

export function uniqueDatabaseName(kind: 'test' | 'test_tmpl'): string {
  return `${kind}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

/**
 * Creates and migrates the template database, then closes every connection to it and forbids
 * new ones: `create database … template` refuses while any session is connected to the template.
 */
export async function buildPostgresTemplate(url: string): Promise<string> {
  const name = uniqueDatabaseName('test_tmpl');
  await adminQuery(url, `create database "${name}"`);
  try {
    const database = await openDatabase({ databaseUrl: withDatabaseName(url, name), dataDir: tmpdir() });
    try {
      await runMigrations(database);
    } finally {
      await database.close();
    }
    await adminQuery(url, `alter database "${name}" with allow_connections false`);
  } catch (err) {
    await dropPostgresDatabase(url, name).catch(() => {});
    throw err;
  }
  return name;
}

/**
 * A new database for one test file, copied from `template` when given. PostgreSQL itself waits
 * a few seconds for other sessions to leave the template; should one still be there (a template
 * being built or dropped), this retries a few times.
 */
export async function createPostgresDatabase(url: string, template: string | undefined): Promise<string> {
  const name = uniqueDatabaseName('test');
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(template ? `create database "${name}" template "${template}"` : `create database "${name}"`);
        return name;
      } catch (err) {
        // 55006 object_in_use: "source database … is being accessed by other users"
        if ((err as { code?: string }).code !== '55006' || attempt >= 5) throw err;
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
  } finally {
    await admin.end();
  }
}

export async function dropPostgresDatabase(url: string, name: string): Promise<void> {
  await adminQuery(url, `drop database if exists "${name}" with (force)`);
}
