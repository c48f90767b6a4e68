import { ConfigError } from '../config/config.js';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, existsSync, openAsBlob, readFileSync } from 'node:fs';
import { chmod, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { count, sql } from 'drizzle-orm';
import { create as createTar, extract as extractTar } from 'tar';
import type { AppConfig } from '../config/config.js';
import { STORAGE_KEY_PATTERN } from '../lib/storage/storage.js';
import { openDatabase, type Database, type Db } from '../db/client.js';
import { migrationsFolder } from '../db/migrate.js';
import { accounts, attachments, scoreSheets, teams } from '../db/schema.js';

/**
 * Backup and restore of one installation (docs/backup.md).
 *
 * One `.tar.gz` holds `manifest.json`, `database/pglite.tar` (the embedded database as PGlite's
 * own `dumpDataDir()` writes it) and `files/<storage key>` (the disk driver's stored files). The
 * manifest lists every other member with its size and SHA-256; restore refuses an archive whose
 * members do not match it, and a target folder that is not empty.
 *
 * Offline only for the embedded database: PGlite belongs to one process (client.ts, the
 * `pglite.lock`), so a backup while the portal runs is refused with a message to stop it first.
 * The backup holds that lock until the archive is written, so the portal cannot start halfway
 * through. PostgreSQL and S3 live outside DATA_DIR: the backup prints the commands that copy
 * them (pg_dump, a bucket sync) and archives only what is on this disk.
 */

export const BACKUP_FORMAT = 'contest-backup';
export const BACKUP_FORMAT_VERSION = 1;
export const MANIFEST_MEMBER = 'manifest.json';
export const DATABASE_MEMBER = 'database/pglite.tar';
const FILES_PREFIX = 'files/';

export interface BackupCounts {
  accounts: number;
  teams: number;
  /** Attachment rows (stored files). */
  files: number;
  scoreSheets: number;
}

export interface MigrationLevel {
  /** Migrations applied to the database. */
  applied: number;
  /** Tag of the newest one (`0010_kv_store`); null when it is not in this code's journal. */
  last: string | null;
  /** Its drizzle timestamp: how a newer backup is told apart from an older one. */
  lastAt: number;
}

export interface ManifestMember {
  path: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: typeof BACKUP_FORMAT;
  formatVersion: number;
  /** Version of the portal (apps/server/package.json) that wrote the backup. */
  appVersion: string;
  createdAt: string;
  database: { kind: 'pglite'; included: true } | { kind: 'postgres'; included: false };
  storage: { driver: 'disk'; included: true } | { driver: 's3'; included: false; bucket: string; keyPrefix: string };
  migrations: MigrationLevel;
  counts: BackupCounts;
  /** Every member of the archive but the manifest, in archive order. */
  members: ManifestMember[];
}

export type BackupErrorCode = 'IN_USE' | 'NOT_MIGRATED' | 'OUT_EXISTS' | 'NOTHING_TO_ARCHIVE' | 'NOT_EMPTY' | 'BAD_ARCHIVE' | 'TAMPERED' | 'NEWER_VERSION' | 'VERIFY_FAILED';

/** A refusal with a stable code; the CLIs print the message and exit 1. */
export class BackupError extends Error {
  override name = 'BackupError';
  constructor(
    readonly code: BackupErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface BackupResult {
  /** The archive written; null when nothing of this installation lives on this disk. */
  archive: string | null;
  manifest: BackupManifest;
  /** Steps for what lives elsewhere (PostgreSQL, S3), to run beside this backup. */
  external: string[];
}

export interface RestoreResult {
  dataDir: string;
  manifest: BackupManifest;
  /** Steps for what the archive does not hold (PostgreSQL, S3). */
  external: string[];
}

// ---- Backup ---------------------------------------------------------------------------------

/** A default archive name: contest-backup-20250301-143000.tar.gz (UTC). */
export function defaultBackupName(now: Date = new Date()): string {
  const s = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  return `contest-backup-${s}.tar.gz`;
}

/**
 * Writes the archive to `out` (refused when it exists). Written under a temporary name and
 * renamed, so an interrupted backup never leaves a file that looks complete.
 */
export async function createBackup(config: AppConfig, out: string, now: Date = new Date()): Promise<BackupResult> {
  out = resolve(out);
  const external = externalBackupSteps(config);
  const postgres = isPostgres(config);
  const disk = config.files.storage.driver === 'disk' ? config.files.storage.dir : null;
  if (existsSync(out)) throw new BackupError('OUT_EXISTS', `${out} already exists: choose another --out (a backup never overwrites a file).`);
  for (const inside of [disk, join(config.dataDir, 'pglite')]) {
    if (inside && isInside(out, inside)) throw new BackupError('OUT_EXISTS', `--out must not be inside ${inside}: the backup would include itself.`);
  }

  const database = await openForBackup(config);
  try {
    const migrations = await migrationLevel(database.db);
    const counts = await countRows(database.db);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      formatVersion: BACKUP_FORMAT_VERSION,
      appVersion: appVersion(),
      createdAt: now.toISOString(),
      database: postgres ? { kind: 'postgres', included: false } : { kind: 'pglite', included: true },
      storage:
        config.files.storage.driver === 'disk'
          ? { driver: 'disk', included: true }
          : { driver: 's3', included: false, bucket: config.files.storage.bucket, keyPrefix: config.files.storage.keyPrefix },
      migrations,
      counts,
      members: [],
    };
    if (postgres && !disk) return { archive: null, manifest, external };

    await mkdir(dirname(out), { recursive: true });
    const staging = await mkdtemp(join(dirname(out), '.contest-backup-'));
    const partial = `${out}.${randomBytes(4).toString('hex')}.partial`;
    try {
      const names: string[] = [];
      if (!postgres) {
        const client = (database.db as unknown as { $client: PGlite }).$client;
        // A clean checkpoint first: the restored cluster then starts without replaying the WAL.
        await client.exec('CHECKPOINT');
        const dump = await client.dumpDataDir('none');
        await mkdir(join(staging, 'database'));
        await writeFile(join(staging, DATABASE_MEMBER), new Uint8Array(await dump.arrayBuffer()));
        manifest.members.push(await describe(staging, DATABASE_MEMBER));
        names.push(DATABASE_MEMBER);
      }
      if (disk && existsSync(disk)) {
        // Packed through a link in the staging folder, so every member has a path relative to one root.
        await symlink(disk, join(staging, 'files'), 'dir');
        for (const key of await storedKeys(disk)) {
          const name = `${FILES_PREFIX}${key}`;
          manifest.members.push(await describe(staging, name));
          names.push(name);
        }
      }
      await writeFile(join(staging, MANIFEST_MEMBER), `${JSON.stringify(manifest, null, 2)}\n`);
      // portable: no owner, group or mode of this machine in the archive.
      await createTar({ gzip: true, file: partial, cwd: staging, portable: true, noDirRecurse: true }, [MANIFEST_MEMBER, ...names]);
      // Personal data and password hashes: readable by the owner only, like DATA_DIR itself should be.
      await chmod(partial, 0o600);
      await rename(partial, out);
    } finally {
      await rm(partial, { force: true });
      await rm(staging, { recursive: true, force: true });
    }
    return { archive: out, manifest, external };
  } finally {
    await database.close();
  }
}

/** The database as the portal opens it; the embedded one refused while the portal runs. */
async function openForBackup(config: AppConfig): Promise<Database> {
  if (!isPostgres(config) && !existsSync(join(config.dataDir, 'pglite'))) {
    throw new BackupError('NOT_MIGRATED', `No embedded database in ${config.dataDir}: check DATA_DIR (or set DATABASE_URL for PostgreSQL).`);
  }
  try {
    return await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  } catch (err) {
    const pid = /in use by process (\d+)/.exec(err instanceof Error ? err.message : '')?.[1];
    if (pid) {
      throw new BackupError(
        'IN_USE',
        `The portal is running (process ${pid}) on ${config.dataDir}. Stop it first, back up, then start it again: ` +
          'the embedded database belongs to one process, and a copy taken beside a running server could hold half of a write.',
      );
    }
    throw err;
  }
}

/** Stored objects of the disk driver: keys only (a `*.tmp` left by a crashed write is not a file of the portal). */
async function storedKeys(root: string): Promise<string[]> {
  const keys: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) {
        const key = relative(root, path).split(sep).join('/');
        if (STORAGE_KEY_PATTERN.test(key)) keys.push(key);
      }
    }
  };
  await walk(root);
  return keys.sort();
}

async function describe(root: string, name: string): Promise<ManifestMember> {
  const path = join(root, ...name.split('/'));
  return { path: name, size: (await stat(path)).size, sha256: await sha256File(path) };
}

// ---- Restore --------------------------------------------------------------------------------

/**
 * Restores `archive` into `dataDir`, which must not exist or be empty. The archive is unpacked
 * into a staging folder beside it and checked (every member listed in the manifest with its
 * SHA-256, nothing else, no newer migrations than this code knows) before anything reaches
 * `dataDir`; the restored database is then opened and its rows counted against the manifest.
 * On any refusal `dataDir` is left as it was.
 */
export async function restoreBackup(archive: string, dataDir: string): Promise<RestoreResult> {
  archive = resolve(archive);
  dataDir = resolve(dataDir);
  if (!existsSync(archive)) throw new BackupError('BAD_ARCHIVE', `${archive} does not exist.`);
  const created = !existsSync(dataDir);
  if (!created) {
    if (!(await stat(dataDir)).isDirectory()) throw new BackupError('NOT_EMPTY', `${dataDir} is not a folder.`);
    if ((await readdir(dataDir)).length > 0) {
      throw new BackupError('NOT_EMPTY', `${dataDir} is not empty: restore only into a new or empty folder (nothing is overwritten).`);
    }
  }
  await mkdir(dataDir, { recursive: true });
  const staging = await mkdtemp(join(dirname(dataDir), `.${basename(dataDir)}.restore-`));
  let done = false;
  try {
    const manifest = await unpackAndVerify(archive, staging);
    const files = manifest.members.filter((m) => m.path.startsWith(FILES_PREFIX));
    if (files.length > 0) await rename(join(staging, 'files'), join(dataDir, 'files'));
    if (manifest.database.included) {
      const client = new PGlite({ dataDir: join(dataDir, 'pglite'), loadDataDir: await openAsBlob(join(staging, DATABASE_MEMBER)), extensions: { pg_trgm } });
      await client.waitReady;
      await client.close();
      await verifyRestored(dataDir, manifest);
    }
    done = true;
    return { dataDir, manifest, external: externalRestoreSteps(manifest, dataDir) };
  } finally {
    await rm(staging, { recursive: true, force: true });
    if (!done) {
      // Back to how it was: absent, or empty.
      if (created) await rm(dataDir, { recursive: true, force: true });
      else for (const name of await readdir(dataDir).catch(() => [] as string[])) await rm(join(dataDir, name), { recursive: true, force: true });
    }
  }
}

/** Only these member names are ever written by a backup; anything else is refused. */
function allowedMember(path: string): boolean {
  if (path === MANIFEST_MEMBER || path === DATABASE_MEMBER) return true;
  return path.startsWith(FILES_PREFIX) && STORAGE_KEY_PATTERN.test(path.slice(FILES_PREFIX.length));
}

async function unpackAndVerify(archive: string, staging: string): Promise<BackupManifest> {
  const refused: string[] = [];
  try {
    await extractTar({
      file: archive,
      cwd: staging,
      strict: true,
      preserveOwner: false,
      // Regular files with the names a backup writes; directories only as their parents.
      filter: (path, entry) => {
        const type = 'type' in entry ? entry.type : 'File';
        const name = path.replace(/^\.\//, '').replace(/\/$/, '');
        const ok = type === 'Directory' ? name === 'database' || name === 'files' || allowedMember(name) : type === 'File' && allowedMember(name);
        if (!ok) refused.push(`${name} (${type})`);
        return ok;
      },
    });
  } catch (err) {
    throw new BackupError('BAD_ARCHIVE', `${archive} is not a readable backup archive: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (refused.length > 0) throw new BackupError('TAMPERED', `The archive holds members a backup never writes: ${refused.slice(0, 5).join(', ')}.`);

  let manifest: BackupManifest;
  try {
    manifest = JSON.parse(await readFile(join(staging, MANIFEST_MEMBER), 'utf8')) as BackupManifest;
  } catch {
    throw new BackupError('BAD_ARCHIVE', 'The archive has no readable manifest.json: it is not a backup of this portal.');
  }
  if (manifest.format !== BACKUP_FORMAT || !Array.isArray(manifest.members)) throw new BackupError('BAD_ARCHIVE', 'manifest.json is not a backup manifest of this portal.');
  if (manifest.formatVersion > BACKUP_FORMAT_VERSION) {
    throw new BackupError('NEWER_VERSION', `The archive has format ${manifest.formatVersion}; this portal reads up to ${BACKUP_FORMAT_VERSION}. Restore it with the newer portal.`);
  }

  const listed = new Set<string>();
  for (const member of manifest.members) {
    if (!allowedMember(member.path) || member.path === MANIFEST_MEMBER || listed.has(member.path)) {
      throw new BackupError('TAMPERED', `manifest.json lists an impossible member: ${member.path}.`);
    }
    listed.add(member.path);
    const path = join(staging, ...member.path.split('/'));
    const s = await lstat(path).catch(() => null);
    if (!s?.isFile()) throw new BackupError('TAMPERED', `${member.path} is listed in the manifest but missing from the archive.`);
    if (s.size !== member.size || (await sha256File(path)) !== member.sha256) {
      throw new BackupError('TAMPERED', `${member.path} does not match its SHA-256 in the manifest: the archive is damaged or was altered. Nothing was restored.`);
    }
  }
  for (const name of await filesUnder(staging)) {
    if (name !== MANIFEST_MEMBER && !listed.has(name)) throw new BackupError('TAMPERED', `${name} is in the archive but not in its manifest.`);
  }
  if (manifest.database.included && !listed.has(DATABASE_MEMBER)) throw new BackupError('TAMPERED', `The manifest says the database is included, but ${DATABASE_MEMBER} is not listed.`);

  const known = readJournal();
  if (manifest.migrations.lastAt > (known.at(-1)?.when ?? 0)) {
    throw new BackupError('NEWER_VERSION', `The backup was made by a newer portal (database at migration ${manifest.migrations.last ?? manifest.migrations.lastAt}); upgrade this portal first.`);
  }
  return manifest;
}

/**
 * Opens the restored folder as the portal will, and checks it against the manifest: the same
 * migration level and counts, and every stored file of the disk driver present with the
 * SHA-256 its attachment row recorded.
 */
async function verifyRestored(dataDir: string, manifest: BackupManifest): Promise<void> {
  const database = await openDatabase({ databaseUrl: undefined, dataDir });
  try {
    const counts = await countRows(database.db);
    const level = await migrationLevel(database.db);
    const wrong = (Object.keys(manifest.counts) as Array<keyof BackupCounts>).filter((k) => counts[k] !== manifest.counts[k]);
    if (wrong.length > 0 || level.applied !== manifest.migrations.applied) {
      throw new BackupError('VERIFY_FAILED', `The restored database does not match the manifest (${wrong.map((k) => `${k}: ${counts[k]} instead of ${manifest.counts[k]}`).join(', ') || 'migration level'}).`);
    }
    if (manifest.storage.included) {
      const hashes = new Map(manifest.members.filter((m) => m.path.startsWith(FILES_PREFIX)).map((m) => [m.path.slice(FILES_PREFIX.length), m.sha256]));
      const rows = await database.db.select({ storageKey: attachments.storageKey, sha256: attachments.sha256 }).from(attachments);
      const missing = rows.filter((r) => hashes.get(r.storageKey) !== r.sha256);
      if (missing.length > 0) {
        throw new BackupError('VERIFY_FAILED', `${missing.length} stored file(s) of the database are missing from the archive or differ (first: ${missing[0]!.storageKey}).`);
      }
    }
  } finally {
    await database.close();
  }
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'));
}

// ---- PostgreSQL and S3 ----------------------------------------------------------------------

const isPostgres = (config: AppConfig) => Boolean(config.databaseUrl?.startsWith('postgres'));

/** The commands for what lives outside DATA_DIR (printed by `npm run backup`, docs/backup.md). */
export function externalBackupSteps(config: AppConfig): string[] {
  const steps: string[] = [];
  if (isPostgres(config)) {
    steps.push(
      'PostgreSQL (DATABASE_URL) is not in the archive. Dump it with the client tools of the server\'s major version, before copying the files:',
      '  pg_dump --format=custom --no-owner --file=contest-db.dump "$DATABASE_URL"',
      '  (restore into an empty database: pg_restore --no-owner --exit-on-error --dbname="$DATABASE_URL" contest-db.dump)',
    );
  }
  const storage = config.files.storage;
  if (storage.driver === 's3') {
    const source = `s3://${storage.bucket}/${storage.keyPrefix}`;
    steps.push(
      `Stored files are in the bucket (STORAGE_DRIVER=s3), not in the archive. Copy ${source} after the database dump, e.g.:`,
      `  aws s3 sync ${source} ./contest-files --endpoint-url ${storage.endpoint}`,
      `  or: mc alias set contest ${storage.endpoint} "$S3_ACCESS_KEY_ID" "$S3_SECRET_ACCESS_KEY" && mc mirror contest/${storage.bucket}/${storage.keyPrefix} ./contest-files`,
      '  (restore: the same command the other way round, into the bucket the portal is configured with)',
    );
  }
  return steps;
}

function externalRestoreSteps(manifest: BackupManifest, dataDir: string): string[] {
  const steps: string[] = [];
  if (!manifest.database.included) steps.push('The database was PostgreSQL: restore its dump with pg_restore (docs/backup.md) before starting the portal.');
  if (!manifest.storage.included) steps.push(`Stored files were in the bucket ${manifest.storage.bucket}: copy them back with aws s3 sync / mc mirror (docs/backup.md).`);
  steps.push(`Start the portal with DATA_DIR=${dataDir} (it migrates the restored database if this version is newer).`);
  return steps;
}

// ---- Shared ---------------------------------------------------------------------------------

async function countRows(db: Db): Promise<BackupCounts> {
  const n = async (table: typeof accounts | typeof teams | typeof attachments | typeof scoreSheets) => (await db.select({ n: count() }).from(table))[0]!.n;
  return { accounts: await n(accounts), teams: await n(teams), files: await n(attachments), scoreSheets: await n(scoreSheets) };
}

interface JournalEntry {
  when: number;
  tag: string;
}

function readJournal(): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(migrationsFolder(), 'meta', '_journal.json'), 'utf8')) as { entries: JournalEntry[] };
  return [...journal.entries].sort((a, b) => a.when - b.when);
}

/** What drizzle's migrator recorded (drizzle.__drizzle_migrations), named by this code's journal. */
async function migrationLevel(db: Db): Promise<MigrationLevel> {
  let rows: Array<{ created_at: string | number }>;
  try {
    const result = (await db.execute(sql`select created_at from drizzle.__drizzle_migrations order by created_at`)) as unknown as { rows: Array<{ created_at: string | number }> };
    rows = result.rows;
  } catch {
    rows = [];
  }
  if (rows.length === 0) throw new BackupError('NOT_MIGRATED', 'The database has never been migrated: start the portal once before backing it up.');
  const lastAt = Number(rows.at(-1)!.created_at);
  return { applied: rows.length, last: readJournal().find((e) => e.when === lastAt)?.tag ?? null, lastAt };
}

function appVersion(): string {
  // apps/server/package.json, from src/cli (tsx) or dist (the bundle).
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 4; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === '@contest/server') return pkg.version ?? '0.0.0';
    }
    dir = dirname(dir);
  }
  return '0.0.0';
}

function isInside(path: string, dir: string): boolean {
  const rel = relative(resolve(dir), path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep);
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Runs a backup/restore command line: exit with `main`'s code; a bad argument exits 2, a refusal
 * or failure 1 with one line naming which (the CLIs share this tail).
 */
export function runBackupCli(verb: 'Backup' | 'Restore', main: (argv: string[]) => Promise<number>): void {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof ConfigError) {
        console.error(err.message);
        process.exit(2);
      }
      console.error(err instanceof BackupError ? `${verb} refused: ${err.message}` : `${verb} failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exit(1);
    },
  );
}
