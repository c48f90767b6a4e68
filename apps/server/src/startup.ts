import type { FastifyInstance } from 'fastify';
import { seed, type SeedResult } from './seed/seed.js';
import { seedContent } from './seed/seed-content.js';
import { createStorage } from './lib/storage/create-storage.js';

/** Seeds under the startup lock, so two instances starting together never both create an admin. */
export async function seedAtStartup(app: FastifyInstance, demo: boolean): Promise<SeedResult> {
  const { config, database } = app.deps;
  return database.withStartupLock(async (db) => {
    const result = await seed(db, { adminUsername: config.seedAdmin.username, adminPassword: config.seedAdmin.password, demo });
    // Templates and site blocks are needed in production too, not only in the demo.
    await seedContent(db, createStorage(config.files.storage), { demo });
    return result;
  });
}

/** Credentials go to stdout, once, and never into the structured log. */
export function printSeedResult(result: SeedResult, print: (line: string) => void = console.log): void {
  if (result.createdAdmin) {
    const { username, password, generated } = result.createdAdmin;
    print('');
    print('  Super admin account created (admin console: /admin/login)');
    print(`    username: ${username}`);
    print(`    password: ${generated ? password : '(from SEED_ADMIN_PASSWORD)'}`);
    if (generated) print('    This password is shown only once. Change it after signing in.');
  }
  if (result.demo) {
    print('');
    print(`  Demo data: participants ${result.demo.participants.join(', ')}; experts ${result.demo.experts.join(', ')}`);
    print(`    demo password for all of them: ${result.demo.password}`);
  }
}
