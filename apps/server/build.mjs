// Bundles the server (and @contest/shared) into dist/server.js; npm packages stay external.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => !name.startsWith('@contest/'));

rmSync('dist', { recursive: true, force: true });
await build({
  // The operator's commands ship with the server, so a production install runs them without tsx
  // (docs/backup.md, docs/deploy.md).
  entryPoints: {
    server: 'src/server.ts',
    seed: 'src/db/seed-cli.ts',
    'backup-cli': 'src/db/backup-cli.ts',
    'restore-cli': 'src/db/restore-cli.ts',
    'verify-score-log-cli': 'src/db/verify-score-log-cli.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external,
  logLevel: 'warning',
});
cpSync('src/db/migrations', 'dist/migrations', { recursive: true });
console.log('server built: dist/server.js');
