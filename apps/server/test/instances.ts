import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';
import type { TestDatabaseTemplate } from './test-database.js';

/**
 * Real server processes for the tests of several instances (multi-instance.test.ts,
 * direct-upload-instances.test.ts): the production start, the bundle build.mjs makes run as
 * `node …/server.js` (the Dockerfile's CMD, the systemd unit), not the sources through tsx.
 */

export const SERVER_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The run's migrated template (test/global-setup.ts); none outside vitest or without that setup. */
export function testDatabaseTemplate(): TestDatabaseTemplate {
  try {
    return inject('testDatabaseTemplate') ?? {};
  } catch {
    return {};
  }
}

export interface Instance {
  child: ChildProcess;
  port: number;
  exited: Promise<void>;
  output(): string;
}

/**
 * A fresh bundle of the current sources (build.mjs, ~0.5 s), never a dist/ that may be older. In
 * a folder of its own under apps/server/node_modules: inside the repository, so node finds the
 * external packages, and away from dist/, which a concurrent `npm run build` empties.
 */
export async function buildServer(outdir: string): Promise<string> {
  await promisify(execFile)(process.execPath, ['build.mjs', '--outdir', outdir], { cwd: SERVER_ROOT });
  return join(outdir, 'server.js');
}

export function startInstance(serverJs: string, env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, [serverJs], {
    // Configuration through the environment only, and only these names (no inherited DATABASE_URL & co.).
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise<Instance>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 60_000);
    child.stdout!.on('data', () => {
      const match = /running at http:\/\/[^:]+:(\d+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]), exited, output: () => out });
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`server exited (${child.exitCode ?? child.signalCode}):\n${out}`));
    });
  });
}

export async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance || instance.child.exitCode !== null || instance.child.signalCode !== null) return;
  instance.child.kill('SIGTERM');
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), 10_000);
  await instance.exited;
  clearTimeout(timer);
}
