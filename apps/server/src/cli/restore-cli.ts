import { resolve } from 'node:path';
import { ConfigError, loadConfig, loadDotEnv } from '../config/config.js';
import { restoreBackup, runBackupCli } from './backup.js';

/**
 * `npm run restore -- <file> [--data-dir <empty folder>]`: unpacks a backup (docs/backup.md)
 * into a new or empty folder (DATA_DIR when --data-dir is not given), after checking every
 * member against the manifest. Nothing is overwritten. Exit status: 0 restored, 1 refused or
 * failed, 2 bad arguments.
 */
async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--data-dir');
  if (at >= 0 && !argv[at + 1]) throw new ConfigError('--data-dir needs a folder');
  const rest = argv.filter((_, i) => i !== at && i !== at + 1);
  if (rest.length !== 1 || rest[0]!.startsWith('-')) throw new ConfigError('usage: npm run restore -- <backup.tar.gz> --data-dir <new empty folder>');
  let dataDir: string;
  if (at >= 0) dataDir = resolve(argv[at + 1]!);
  else {
    loadDotEnv();
    dataDir = loadConfig().dataDir;
  }
  const { manifest, external } = await restoreBackup(rest[0]!, dataDir);
  const c = manifest.counts;
  console.log(`Restored ${resolve(rest[0]!)} (made ${manifest.createdAt} by portal ${manifest.appVersion}) into ${dataDir}`);
  console.log(`  every member matched its SHA-256; rows: ${c.accounts} accounts, ${c.teams} teams, ${c.files} files, ${c.scoreSheets} score sheets`);
  for (const line of external) console.log(`  ${line}`);
  return 0;
}

runBackupCli('Restore', main);
