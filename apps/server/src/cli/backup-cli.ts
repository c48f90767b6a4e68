import { resolve } from 'node:path';
import { ConfigError, loadConfig, loadDotEnv } from '../config/config.js';
import { createBackup, defaultBackupName, runBackupCli } from './backup.js';

/**
 * `npm run backup [-- --out <file>]`: one archive of the embedded database and the stored files
 * (docs/backup.md). The portal must be stopped when the database is the embedded one; for
 * PostgreSQL and S3 the commands that copy them are printed. Exit status: 0 done, 1 refused or
 * failed, 2 bad arguments.
 */
async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--out');
  if (at >= 0 && !argv[at + 1]) throw new ConfigError('--out needs a file name');
  const unknown = argv.filter((a, i) => a.startsWith('-') && a !== '--out' && (at < 0 || i !== at + 1));
  if (unknown.length > 0) throw new ConfigError(`unknown option ${unknown[0]} (usage: npm run backup -- [--out <file.tar.gz>])`);
  loadDotEnv();
  const config = loadConfig();
  const out = resolve(at >= 0 ? argv[at + 1]! : defaultBackupName());
  const started = performance.now();
  const { archive, manifest, external } = await createBackup(config, out);
  const c = manifest.counts;
  if (archive) {
    const bytes = manifest.members.reduce((sum, m) => sum + m.size, 0);
    console.log(`Backup written: ${archive}`);
    console.log(`  database: ${manifest.database.included ? 'embedded (PGlite), included' : 'PostgreSQL, not included (see below)'}; migration ${manifest.migrations.last ?? manifest.migrations.lastAt}`);
    console.log(`  files: ${manifest.storage.included ? `${manifest.members.filter((m) => m.path.startsWith('files/')).length} stored file(s), included` : 'in the bucket, not included (see below)'}`);
    console.log(`  rows: ${c.accounts} accounts, ${c.teams} teams, ${c.files} files, ${c.scoreSheets} score sheets`);
    console.log(`  ${manifest.members.length} member(s), ${(bytes / 1048576).toFixed(1)} MB before compression, ${Math.round(performance.now() - started)} ms`);
    console.log(`  Restore: npm run restore -- ${archive} --data-dir <new empty folder>`);
  } else {
    console.log('Nothing of this installation is on this disk (PostgreSQL and S3): no archive written.');
  }
  for (const line of external) console.log(line);
  return 0;
}

runBackupCli('Backup', main);
