import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.js';

const SERVER = fileURLToPath(new URL('../src/server.ts', import.meta.url));

function startServer(dataDir: string, extra: Record<string, string> = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'warn', ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 40_000);
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

const exited = (child: ChildProcess) => new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

describe('the server process on the embedded database', () => {
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
