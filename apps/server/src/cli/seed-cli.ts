import { ConfigError, loadConfig, loadDotEnv } from '../config/config.js';
import { printSeedResult } from '../startup.js';
import { openDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { seed } from '../seed/seed.js';
import { seedContent } from '../seed/seed-content.js';
import { createStorage } from '../lib/storage/create-storage.js';

/** `npm run seed [-- --demo]`: migrate and seed without starting the server. */
async function main(): Promise<void> {
  loadDotEnv();
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    await runMigrations(database);
    const demo = process.argv.includes('--demo');
    const result = await database.withStartupLock(async (db) => {
      const seeded = await seed(db, { adminUsername: config.seedAdmin.username, adminPassword: config.seedAdmin.password, demo });
      await seedContent(db, createStorage(config.files.storage), { demo });
      return seeded;
    });
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
