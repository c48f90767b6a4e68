// Type-checks every project of the repository, two (or as many as there are cores) at a time:
// one tsc after another left a core idle for 90 s of every `npm test` on the 2-core CI machine.
// Each project's output is printed whole once it ends; any failure fails the run.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';

const PROJECTS = ['packages/shared', 'apps/server', 'apps/web', 'e2e', 'bench'];
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds} s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...PROJECTS];
let failed = false;
await Promise.all(
  Array.from({ length: Math.max(2, Math.min(availableParallelism(), PROJECTS.length)) }, async () => {
    while (queue.length) if (!(await check(queue.shift()))) failed = true;
  }),
);
process.exit(failed ? 1 : 0);
