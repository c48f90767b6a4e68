import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { asc } from 'drizzle-orm';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { FastifyInstance } from 'fastify';
import { create as createTar, extract as extractTar } from 'tar';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { UPLOAD_PIECE_SIZE } from '@contest/shared';
import { buildApp } from '../src/app.js';
import { loadConfig, type AppConfig } from '../src/config/config.js';
import { loadTestConfig } from '../src/config/test-config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { accounts, attachments, scoreSheets, teams } from '../src/db/schema.js';
import { BackupError, createBackup, externalBackupSteps, restoreBackup, type BackupManifest } from '../src/cli/backup.js';
import { seedAtStartup } from '../src/startup.js';
import { fakeFile, multipart, newUploadId, piecesOf } from './files-helpers.js';
import { openWindow, setSetting } from './contest-helpers.js';
import type { TestApp } from './helpers.js';
import { seedExperts, seedGroup, seedProjects } from './review-helpers.js';
import { signIn, type SignedIn } from './sign-in.js';
import { createPostgresDatabase, dropPostgresDatabase, readPgliteTemplate, withDatabaseName, type TestDatabaseTemplate } from './test-database.js';

/**
 * Backup and restore (docs/backup.md): a demo installation on the embedded database
 * with uploaded files (single and chunked) and submitted score sheets is backed up, restored
 * into a fresh folder and compared row by row and byte by byte; the portal starts on the copy.
 * Tampered archives and non-empty targets are refused without touching the target.
 */

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const postgresUrl = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
const scratch = mkdtempSync(join(tmpdir(), 'contest-backup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function template(): TestDatabaseTemplate {
  try {
    return inject('testDatabaseTemplate') ?? {};
  } catch {
    return {};
  }
}

/** The portal's config for a data folder on the embedded database (no Redis: the folder is the whole installation). */
const configFor = (dataDir: string, extra: Record<string, string> = {}): AppConfig =>
  loadTestConfig({ DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', ...extra });

/** A data folder whose database starts as the run's migrated cluster (initdb on disk alone takes seconds). */
async function freshDataDir(name: string): Promise<string> {
  const dir = join(scratch, name);
  mkdirSync(dir, { recursive: true });
  const migrated = template().pglite?.migrated;
  if (migrated) {
    const client = new PGlite({ dataDir: join(dir, 'pglite'), loadDataDir: readPgliteTemplate(migrated), extensions: { pg_trgm } });
    await client.waitReady;
    await client.close();
  }
  return dir;
}

const asTestApp = (app: FastifyInstance) => ({ app, database: app.deps.database, config: app.deps.config }) as unknown as TestApp;

async function uploadSingle(app: FastifyInstance, who: SignedIn, name: string, content: Buffer): Promise<string> {
  const body = multipart({ origin: 'OTHER', name }, { name, content });
  const res = await app.inject({ method: 'POST', url: '/api/attachment/upload/public', payload: body.payload, headers: { ...body.headers, ...who.headers } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.uniqueNo as string;
}

async function uploadChunked(app: FastifyInstance, who: SignedIn, name: string, content: Buffer): Promise<string> {
  const id = newUploadId();
  const pieces = piecesOf(content);
  let last: { uniqueNo?: string } = {};
  for (const [chunk, piece] of pieces.entries()) {
    const body = multipart({ origin: 'PRELIM', id, name, chunks: pieces.length, chunk }, { name, content: piece });
    const res = await app.inject({ method: 'POST', url: '/api/attachment/piece/upload', payload: body.payload, headers: { ...body.headers, ...who.headers } });
    expect(res.statusCode, res.body).toBe(200);
    last = res.json().data;
  }
  return last.uniqueNo!;
}

/** What a restore must bring back: every account, team, file (with its bytes) and score sheet. */
async function snapshot(database: Database, dataDir: string) {
  const db = database.db;
  const files = await db.select({ uniqueNo: attachments.uniqueNo, sha256: attachments.sha256, size: attachments.size, storageKey: attachments.storageKey }).from(attachments).orderBy(asc(attachments.uniqueNo));
  return {
    accounts: await db.select({ id: accounts.id, username: accounts.username, realm: accounts.realm, passwordHash: accounts.passwordHash }).from(accounts).orderBy(asc(accounts.id)),
    teams: await db.select({ id: teams.id, status: teams.status, teamName: teams.teamName, version: teams.version }).from(teams).orderBy(asc(teams.id)),
    files: files.map((f) => {
      const path = join(dataDir, 'files', ...f.storageKey.split('/'));
      // The bytes on disk, hashed: equal to the row's SHA-256 in both folders.
      return { ...f, onDisk: existsSync(path) ? sha256(readFileSync(path)) : null };
    }),
    scoreSheets: await db.select({ id: scoreSheets.id, status: scoreSheets.status, scores: scoreSheets.scores, total: scoreSheets.total }).from(scoreSheets).orderBy(asc(scoreSheets.id)),
  };
}

/** Unpacks an archive, lets `edit` change the folder, packs it again (members in the same order). */
async function repack(archive: string, out: string, edit: (dir: string) => void): Promise<void> {
  const dir = mkdtempSync(join(scratch, 'repack-'));
  const names: string[] = [];
  await extractTar({ file: archive, cwd: dir, onReadEntry: (e) => void names.push(e.path) });
  edit(dir);
  const extra = readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .filter((n) => !names.includes(n));
  await createTar({ gzip: true, file: out, cwd: dir, portable: true }, [...names.filter((n) => existsSync(join(dir, n))), ...extra]);
}

/** One of the CLIs (`npm run backup` / `npm run restore`) as its own process. */
function runCli(file: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL(`../src/cli/${file}`, import.meta.url)), ...args], {
    env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', STORAGE_DRIVER: 'disk', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BackupError);
  return err as BackupError;
};

// Runs on the embedded database whatever DATABASE_URL says; the PostgreSQL pass skips it (the PGlite pass ran it).
describe.skipIf(postgresUrl)('backup and restore of the embedded database and the stored files', () => {
  let source = '';
  let archive = '';
  let before: Awaited<ReturnType<typeof snapshot>>;
  let participant: SignedIn;
  let chunkedNo = '';
  let chunkedBytes: Buffer;

  beforeAll(async () => {
    source = await freshDataDir('source');
    const app = await buildApp(configFor(source));
    try {
      await seedAtStartup(app, true);
      const t = asTestApp(app);
      participant = await signIn(t, { realm: 'USER' });
      await uploadSingle(app, participant, '说明.pdf', fakeFile.pdf(40_000));
      await uploadSingle(app, participant, 'logo.png', fakeFile.png(9_000));
      // Two pieces: the join's file moves into the store like any upload's.
      chunkedBytes = fakeFile.pdf(UPLOAD_PIECE_SIZE + 123_456);
      chunkedNo = await uploadChunked(app, participant, '申报书.pdf', chunkedBytes);

      // Submitted score sheets (with their score log entries), through the expert's own calls.
      await setSetting(t, 'contest.phases', { prelimReview: openWindow() });
      const projects = await seedProjects(t, 2);
      const [expert] = await seedExperts(t, 1);
      await seedGroup(t, 'PRELIMINARY', [expert!.accountId], projects);
      for (const [i, id] of projects.entries()) {
        const res = await app.inject({
          method: 'POST',
          url: `/api/expert/review/prelim/${id}/sheet/submit`,
          headers: expert!.headers,
          payload: { scores: { innovation: 20 - i, feasibility: 18.5, value: 25, completeness: 15 }, comment: `评语${i}` },
        });
        expect(res.statusCode, res.body).toBe(200);
      }

      // Offline only: while the portal (this process) holds the embedded database, `npm run backup` is refused.
      const busy = await runCli('backup-cli.ts', ['--out', join(scratch, 'busy.tar.gz')], { DATA_DIR: source });
      expect(busy.code).toBe(1);
      expect(busy.stderr).toContain(`Backup refused: The portal is running (process ${process.pid}) on ${source}. Stop it first`);
      expect(existsSync(join(scratch, 'busy.tar.gz'))).toBe(false);
      before = await snapshot(app.deps.database, source);
    } finally {
      await app.close();
    }
    archive = join(scratch, 'out', 'backup.tar.gz');
    const done = await runCli('backup-cli.ts', ['--out', archive], { DATA_DIR: source });
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain(`Backup written: ${archive}`);
    expect(done.stdout).toMatch(/rows: \d+ accounts, \d+ teams, \d+ files, 2 score sheets/);
  }, 180_000);

  it('the seeded installation has something of every kind', () => {
    expect(before.accounts.length).toBeGreaterThan(17);
    expect(before.teams.length).toBeGreaterThanOrEqual(12);
    expect(before.files.length).toBeGreaterThanOrEqual(3 + 3); // the demo's templates + ours
    expect(before.scoreSheets.filter((s) => s.status === 'SUBMITTED')).toHaveLength(2);
    expect(before.files.every((f) => f.onDisk === f.sha256)).toBe(true);
  });

  it('writes one archive with a manifest: version, migration level, counts and every member hashed', async () => {
    const names: string[] = [];
    const peek = mkdtempSync(join(scratch, 'peek-'));
    await extractTar({ file: archive, cwd: peek, onReadEntry: (e) => void names.push(e.path) });
    expect(names[0]).toBe('manifest.json');
    // Personal data and password hashes inside: the owner's only.
    expect(statSync(archive).mode & 0o777).toBe(0o600);
    const manifest = JSON.parse(readFileSync(join(peek, 'manifest.json'), 'utf8')) as BackupManifest;
    expect(manifest).toMatchObject({
      format: 'contest-backup',
      formatVersion: 1,
      appVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
      database: { kind: 'pglite', included: true },
      storage: { driver: 'disk', included: true },
      counts: { accounts: before.accounts.length, teams: before.teams.length, files: before.files.length, scoreSheets: before.scoreSheets.length },
    });
    expect(manifest.migrations.applied).toBeGreaterThan(5);
    expect(manifest.migrations.last).toMatch(/^\d{4}_/);
    expect(Date.parse(manifest.createdAt)).toBeGreaterThan(Date.now() - 600_000);
    expect(manifest.members.map((m) => m.path).sort()).toEqual(names.filter((n) => n !== 'manifest.json').sort());
    expect(manifest.members.map((m) => m.path)).toContain('database/pglite.tar');
    for (const f of before.files) expect(manifest.members).toContainEqual({ path: `files/${f.storageKey}`, size: f.size, sha256: f.sha256 });
  });

  it('restores into a fresh folder with every account, team, file (byte for byte) and score sheet; the portal starts on it', async () => {
    const target = join(scratch, 'restored');
    const result = await restoreBackup(archive, target);
    expect(result.manifest.counts.scoreSheets).toBe(2);
    expect(result.external.at(-1)).toContain(`DATA_DIR=${target}`);
    expect(readdirSync(target).sort()).toEqual(['files', 'pglite']);

    const database = await openDatabase({ databaseUrl: undefined, dataDir: target });
    try {
      expect(await snapshot(database, target)).toEqual(before);
    } finally {
      await database.close();
    }

    // The server starts on the restored folder (migrations find nothing to do) and serves the files.
    const app = await buildApp(configFor(target));
    try {
      await seedAtStartup(app, false);
      expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      const res = await app.inject({ method: 'GET', url: `/api/attachment/stream/${chunkedNo}`, headers: participant.headers });
      expect(res.statusCode).toBe(200);
      expect(sha256(res.rawPayload)).toBe(sha256(chunkedBytes));
    } finally {
      await app.close();
    }
  }, 120_000);

  it('refuses a tampered archive, an archive with a member the manifest does not list, and a folder that is not empty', async () => {
    const changed = join(scratch, 'changed.tar.gz');
    await repack(archive, changed, (dir) => {
      const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as BackupManifest;
      const member = join(dir, ...manifest.members.find((m) => m.path.startsWith('files/'))!.path.split('/'));
      const bytes = readFileSync(member);
      bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
      writeFileSync(member, bytes);
    });
    const target = join(scratch, 'target-tampered');
    const tampered = await runCli('restore-cli.ts', [changed, '--data-dir', target]);
    expect(tampered.code).toBe(1);
    expect(tampered.stderr).toMatch(/Restore refused: files\/\S+ does not match its SHA-256 in the manifest/);
    expect(existsSync(target)).toBe(false);
    expect(readdirSync(scratch).filter((n) => n.includes('.restore-'))).toEqual([]);

    const smuggled = join(scratch, 'smuggled.tar.gz');
    await repack(archive, smuggled, (dir) => writeFileSync(join(dir, 'files', 'extra'), 'not in the manifest'));
    const empty = mkdtempSync(join(scratch, 'empty-'));
    expect((await refusal(restoreBackup(smuggled, empty))).code).toBe('TAMPERED');
    expect(readdirSync(empty)).toEqual([]);

    const truncated = join(scratch, 'truncated.tar.gz');
    writeFileSync(truncated, readFileSync(archive).subarray(0, 4096));
    expect((await refusal(restoreBackup(truncated, empty))).code).toBe('BAD_ARCHIVE');
    expect(readdirSync(empty)).toEqual([]);

    writeFileSync(join(empty, 'keep.txt'), 'mine');
    expect((await refusal(restoreBackup(archive, empty))).code).toBe('NOT_EMPTY');
    expect(readdirSync(empty)).toEqual(['keep.txt']);
  }, 60_000);

  it('never overwrites an archive', async () => {
    expect((await refusal(createBackup(configFor(source), archive))).code).toBe('OUT_EXISTS');
  });
});

describe('PostgreSQL and S3: what lives outside DATA_DIR', () => {
  const base = { NODE_ENV: 'test', DATA_DIR: scratch };
  const s3 = { STORAGE_DRIVER: 's3', S3_ENDPOINT: 'https://minio.example.com', S3_BUCKET: 'contest-files', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's', S3_KEY_PREFIX: 'prod/' };

  it('names pg_dump/pg_restore for PostgreSQL and a bucket copy for S3', () => {
    const pg = externalBackupSteps(loadConfig({ ...base, DATABASE_URL: 'postgres://u:p@db:5432/contest' })).join('\n');
    expect(pg).toMatch(/pg_dump --format=custom .*"\$DATABASE_URL"/);
    expect(pg).toMatch(/pg_restore .*contest-db\.dump/);
    const bucket = externalBackupSteps(loadConfig({ ...base, ...s3 })).join('\n');
    expect(bucket).toContain('aws s3 sync s3://contest-files/prod/ ./contest-files --endpoint-url https://minio.example.com');
    expect(bucket).toContain('mc mirror contest/contest-files/prod/');
    expect(externalBackupSteps(loadConfig(base))).toEqual([]);
  });

  // The CI's PostgreSQL pass: the archive holds the disk files only; the database is pg_dump's.
  it.skipIf(!postgresUrl)('backs up the disk files beside a PostgreSQL database and prints the pg_dump step', async () => {
    const { postgres } = template();
    const name = await createPostgresDatabase(postgresUrl!, postgres && postgres.url === postgresUrl ? postgres.template : undefined);
    const dataDir = mkdtempSync(join(scratch, 'pg-'));
    try {
      const config = loadTestConfig({ DATA_DIR: dataDir, DATABASE_URL: withDatabaseName(postgresUrl!, name), REDIS_URL: '' });
      const app = await buildApp(config);
      let uniqueNo = '';
      try {
        const who = await signIn(asTestApp(app), { realm: 'USER' });
        uniqueNo = await uploadSingle(app, who, 'a.pdf', fakeFile.pdf(5_000));
      } finally {
        await app.close();
      }
      const out = join(scratch, 'pg.tar.gz');
      const result = await createBackup(config, out);
      expect(result.manifest.database).toEqual({ kind: 'postgres', included: false });
      expect(result.manifest.counts.files).toBe(1);
      expect(result.manifest.members.map((m) => m.path)).toEqual([expect.stringMatching(/^files\//)]);
      expect(result.external.join('\n')).toContain('pg_dump');
      const restored = await restoreBackup(out, join(scratch, 'pg-restored'));
      expect(restored.external[0]).toMatch(/pg_restore/);
      expect(readdirSync(join(scratch, 'pg-restored'))).toEqual(['files']);
      expect(uniqueNo).not.toBe('');
    } finally {
      await dropPostgresDatabase(postgresUrl!, name);
    }
  }, 60_000);
});
