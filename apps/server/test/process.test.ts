import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { openDatabase } from '../src/db/client.js';
import { runMigrations } from '../src/db/migrate.js';
import { pieceUploads } from '../src/db/schema.js';
import { fakeFile, newUploadId, piecesOf } from './files-helpers.js';
import type { TestApp } from './helpers.js';
import { signIn } from './sign-in.js';

const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));

function startServer(dataDir: string, extra: Record<string, string> = {}, preload: string[] = []) {
  const child = spawn(process.execPath, ['--import', 'tsx', ...preload.flatMap((p) => ['--import', p]), SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  // tsx compiles the server and PGlite runs 16 migrations: ~16 s alone, over 40 s on a 2-core machine under full load.
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 90_000);
    child.stdout!.on('data', () => {
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}:\n${out}`)));
  });
  return { child, url, output: () => out };
}

// These start the server on the embedded database whatever DATABASE_URL says, so the PostgreSQL
// pass of the suite (.ci/run) would only run them a second time.
const postgres = process.env.DATABASE_URL?.startsWith('postgres');

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

describe.skipIf(postgres)('the server process on the embedded database', () => {
  it('migrates, seeds, prints the admin once, serves, and shuts down cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'contest-proc-'));
    const first = startServer(dataDir, { SEED_ADMIN_PASSWORD: '' });
    const url = await first.url;
    expect(first.output()).toMatch(/username: admin\n\s+password: \S{14}/);
    const res = await fetch(`${url}/api/health`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { databaseKind: string } }).data.databaseKind).toBe('pglite-disk');
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(true);

    // A second process on the same folder is refused instead of corrupting it.
    await expect(openDatabase({ databaseUrl: undefined, dataDir })).rejects.toThrow(/in use by process/);

    const code = exited(first.child);
    first.child.kill('SIGTERM');
    expect(await code).toBe(0);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);

    // Restart on the same data: nothing re-created, the password is not shown again.
    const second = startServer(dataDir);
    await second.url;
    expect(second.output()).not.toContain('Super admin account created');
    const secondExit = exited(second.child);
    second.child.kill('SIGINT');
    expect(await secondExit).toBe(0);
  }, 120_000);
});

describe.skipIf(postgres)('an upload whose server is killed (kill -9) while it joins the pieces', () => {
  it('completes after the restart when the client sends the last piece again', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'contest-proc-'));
    // A participant session in the server's own database, before the server starts.
    const database = await openDatabase({ databaseUrl: undefined, dataDir });
    await runMigrations(database);
    const participant = await signIn({ database } as TestApp, { realm: 'USER' });
    await database.close();

    const content = fakeFile.pdf(25 * 1024 * 1024 + 4321);
    const parts = piecesOf(content);
    const id = newUploadId();
    const send = (url: string, chunk: number) => {
      const form = new FormData();
      for (const [k, v] of Object.entries({ origin: 'PRELIM', id, name: 'killed.pdf', chunks: parts.length, chunk })) form.append(k, String(v));
      form.append('file', new Blob([parts[chunk]!]), 'blob');
      return fetch(`${url}/api/attachment/piece/upload`, { method: 'POST', body: form, headers: participant.headers });
    };

    // The last piece starts the join; the process dies the moment the join is claimed (a preload
    // kills it at the join's first read of the data file, right after the claim: watching for the
    // claim from here raced the join, which takes only milliseconds now that pieces are hashed as
    // they arrive).
    const first = startServer(dataDir, { LOG_LEVEL: 'fatal' }, [fileURLToPath(new URL('./kill-on-join-claim.mjs', import.meta.url))]);
    const firstUrl = await first.url;
    for (let chunk = 0; chunk < parts.length - 1; chunk++) expect((await send(firstUrl, chunk)).status).toBe(200);
    const firstExit = exited(first.child);
    await send(firstUrl, parts.length - 1).then(
      () => expect.fail('the server answered the last piece instead of dying at the claim'),
      () => {},
    );
    await firstExit;
    // The killed process left its claim, and no result, in the upload's row.
    const after = await openDatabase({ databaseUrl: undefined, dataDir });
    try {
      const [state] = await after.db.select().from(pieceUploads).where(eq(pieceUploads.id, id));
      expect(state?.claim).not.toBeNull();
      expect(state?.result).toBeNull();
    } finally {
      await after.close();
    }

    const second = startServer(dataDir, { LOG_LEVEL: 'fatal' });
    try {
      const url = await second.url;
      const res = await send(url, parts.length - 1);
      const body = (await res.json()) as { data: { complete: boolean; filePath: string } };
      expect(body.data.complete).toBe(true);
      const download = await fetch(`${url}${body.data.filePath}`, { headers: participant.headers });
      const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
      expect(sha(Buffer.from(await download.arrayBuffer()))).toBe(sha(content));
    } finally {
      const code = exited(second.child);
      second.child.kill('SIGTERM');
      await code;
    }
  }, 180_000);
});
