import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CutConfidence, CutConfidenceInput } from '@contest/shared';

/**
 * Runs `cutConfidence` (packages/shared, docs/rules/judging-quality.md) on a thread of its own:
 * 2,000 draws over 10,000 projects take seconds of CPU, which on the event loop every other
 * request of the instance would wait for. One thread per computation, ended when it answers.
 *
 * The worker needs the shared code, so it is a module of its own rather than inline source
 * (as password.ts and range-hasher.ts are): in the bundle it is dist/cut-confidence-worker.js
 * beside dist/server.js (build.mjs); from source (tsx, vitest) the same module bundled in
 * memory (fromSourceCode).
 */
export async function runCutConfidence(input: CutConfidenceInput): Promise<CutConfidence> {
  const worker = import.meta.url.endsWith('.ts')
    ? new Worker(await fromSourceCode(), { eval: true, workerData: input })
    : new Worker(new URL('./cut-confidence-worker.js', import.meta.url), { workerData: input });
  return new Promise<CutConfidence>((resolve, reject) => {
    let settled = false;
    worker.once('message', (msg: { value?: CutConfidence; error?: string }) => {
      settled = true;
      if (msg.error !== undefined) reject(new Error(msg.error));
      else resolve(msg.value!);
      void worker.terminate();
    });
    worker.once('error', (err) => {
      if (settled) return;
      settled = true;
      reject(err);
    });
    worker.once('exit', (code) => {
      if (settled) return;
      settled = true;
      reject(new Error(`cut-confidence worker exited with ${code}`));
    });
  });
}

let fromSource: Promise<string> | null = null;

/**
 * From source the worker's module is bundled in memory with esbuild, as build.mjs bundles it
 * (Node 20 does not apply tsx's loader to a worker's own .ts modules). esbuild is required by
 * name at run time only, so the server's bundle neither contains nor needs it.
 */
function fromSourceCode(): Promise<string> {
  if (fromSource !== null) return fromSource;
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const built = esbuild.build({
    entryPoints: [fileURLToPath(new URL('./cut-confidence.worker.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
  });
  fromSource = built.then((out) => out.outputFiles[0]!.text);
  fromSource.catch(() => (fromSource = null));
  return fromSource;
}
