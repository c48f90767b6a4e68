// Bundles the server (and @contest/shared) into dist/server.js; npm packages stay external.
// `--outdir <dir>` bundles elsewhere (the multi-instance test starts a fresh bundle of its own); the
// folder must sit inside the repository, where node finds the external packages.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@contest/'));

const { values } = parseArgs({ options: { outdir: { type: 'string', default: 'dist' } } });
const outdir = values.outdir;

rmSync(outdir, { recursive: true, force: true });
await build({
  // The operator's commands ship with the server, so a production install runs them without tsx
  // (docs/backup.md, docs/deploy.md).
  entryPoints: {
    server: 'src/server.ts',
    seed: 'src/cli/seed-cli.ts',
    'backup-cli': 'src/cli/backup-cli.ts',
    'restore-cli': 'src/cli/restore-cli.ts',
    'verify-score-log-cli': 'src/cli/verify-score-log-cli.ts',
    // Its own thread (modules/review/cut-confidence-runner.ts): found beside server.js.
    'cut-confidence-worker': 'src/modules/review/cut-confidence.worker.ts',
  },
  outdir,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
cpSync('src/db/migrations', join(outdir, 'migrations'), { recursive: true });
console.log(`server built: ${join(outdir, 'server.js')}`);
