import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inject } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SERVER = join(ROOT, 'apps/server/dist/server.js');

export interface Portal {
  url: string;
  /** The server's DATA_DIR: the SMS outbox (log provider) is written there. */
  dataDir: string;
  output(): string;
  /** Stops the server and removes its DATA_DIR (unless told to keep it). */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/** What a start with `--demo` leaves in DATA_DIR that the next start reads (not the outboxes). */
export const TEMPLATE_PARTS = ['pglite', 'files'] as const;

/**
 * Starts the BUILT portal (what `npm start` runs) on a free port with a throwaway DATA_DIR
 * and the embedded database, so each journey begins on a fresh install.
 */
export async function startPortal(extraEnv: Record<string, string> = {}): Promise<Portal> {
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-e2e-'));
  // A copy of the installed demo (global-setup.ts) instead of migrating and seeding again: the
  // same state a fresh `--demo` start reaches, seconds sooner for every journey.
  const template = inject('portalTemplate');
  if (template) for (const part of TEMPLATE_PARTS) if (existsSync(join(template, part))) cpSync(join(template, part), join(dataDir, part), { recursive: true });
  return launchPortal(dataDir, extraEnv);
}

/** Starts the built portal with `--demo` on `dataDir` (kept as it is: a fresh install when empty). */
export async function launchPortal(dataDir: string, extraEnv: Record<string, string> = {}): Promise<Portal> {
  if (!existsSync(SERVER)) throw new Error('The app is not built: run `npm run build` first (npm run test:e2e does).');
  const child: ChildProcess = spawn(process.execPath, [SERVER, '--demo'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      SEED_ADMIN_PASSWORD: 'Admin@2025',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    // A busy machine (several journeys at once, E2E_WORKERS) slows the start: 120 s before giving
    // up, and the server is stopped then, not left running behind the failed run.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`portal did not start in 120 s:\n${out}`));
    }, 120_000);
    const onData = () => {
      const match = /running at (http:\/\/\S+)/.exec(out);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!.replace('localhost', '127.0.0.1'));
      }
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`portal exited with ${code}:\n${out}`));
    });
  });
  return {
    url,
    dataDir,
    output: () => out,
    stop: async (options) => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!options?.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
