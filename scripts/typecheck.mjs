// Type-checks every project of the repository, two (or as many as there are cores) at a time:
// one checker after another left a core idle for 90 s of every `npm test` on the 2-core CI machine.
// The checker is tsgo, TypeScript's native port (pinned preview), about 3x faster than tsc 5 here
// (docs/decisions.md, "Type checking with tsgo"); TYPECHECK_WITH=tsc checks with tsc 5 instead.
// Each project's output is printed whole once it ends; any failure fails the run.
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const PROJECTS = ['packages/shared', 'apps/server', 'apps/web', 'e2e', 'bench'];
const require = createRequire(import.meta.url);
const withTsc = process.env.TYPECHECK_WITH === 'tsc';
const checker = withTsc ? require.resolve('typescript/bin/tsc') : join(dirname(require.resolve('@typescript/native-preview/package.json')), 'bin', 'tsgo');
const checkerName = withTsc ? 'tsc' : 'tsgo';

function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [checker, '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`${checkerName} -p ${project}: ${code === 0 ? 'ok' : 'FAILED'} (${seconds} s)\n${output}`);
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
