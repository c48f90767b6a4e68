import { ConfigError, loadConfig, loadDotEnv } from '../config/config.js';
import { printSeedResult } from '../startup.js';
import { openDatabase } from './client.js';
import { runMigrations } from './migrate.js';
import { seed } from './seed.js';

/** `npm run seed [-- --demo]`: migrate and seed without starting the server. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await runMigrations(database);
    const result = await database.withStartupLock((db) =>
      seed(db, {
        adminUsername: config.seedAdmin.username,
        adminPassword: config.seedAdmin.password,
        demo: process.argv.includes('--demo'),
      }),
    );
    printSeedResult(result);
    console.log('\n  Seed complete.');
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof ConfigError || err instanceof Error ? err.message : err);
  process.exit(1);
});
