import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import type { Database } from './client.js';

/** src/db/migrations when run from source, dist/migrations when run from the bundle. */
export function migrationsFolder(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'migrations'), join(here, 'db', 'migrations')];
  const found = candidates.find((dir) => existsSync(join(dir, 'meta', '_journal.json')));
  if (!found) throw new Error(`Migrations folder not found (looked in ${candidates.join(', ')})`);
  return found;
}

export async function runMigrations(database: Database): Promise<void> {
  const folder = migrationsFolder();
  await database.withStartupLock(async (db) => {
    if (database.kind === 'postgres') {
      await migratePg(db as unknown as NodePgDatabase, { migrationsFolder: folder });
    } else {
      await migratePglite(db as unknown as PgliteDatabase, { migrationsFolder: folder });
    }
  });
}
