import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { loadTestConfig } from '../src/config/test-config.js';
import { migrationsFolder, runMigrations } from '../src/db/migrate.js';
import { accounts, menus } from '../src/db/schema.js';
import type { Db } from '../src/db/client.js';
import { createTestApp, createTestDatabase, type TestApp } from './helpers.js';

// Test databases start from a template built once per run (test/global-setup.ts): these check
// that the template is exactly the migrations of this checkout, and nothing more.

const expected = () =>
  readMigrationFiles({ migrationsFolder: migrationsFolder() }).map((m) => ({ hash: m.hash, createdAt: String(m.folderMillis) }));

const applied = async (db: Db) =>
  (
    (await db.execute(sql`select hash, created_at::text as "createdAt" from drizzle.__drizzle_migrations order by created_at`)) as unknown as {
      rows: Array<{ hash: string; createdAt: string }>;
    }
  ).rows.map((r) => ({ hash: r.hash, createdAt: r.createdAt }));

const count = async (db: Db, table: typeof accounts | typeof menus) =>
  ((await db.select({ n: sql<number>`count(*)::int` }).from(table)) as [{ n: number }])[0].n;

describe('createTestApp database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { bare: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('has every migration of the folder applied, each once, and the migrator finds nothing to do', async () => {
    const db = t.database.db;
    expect(await applied(db)).toEqual(expected());
    await runMigrations(t.database);
    expect(await applied(db)).toEqual(expected());
  });

  it('has pg_trgm working (trigram indexes of the admin lists)', async () => {
    const res = (await t.database.db.execute(sql`select 'contest' % 'contests' as similar, extname from pg_extension where extname = 'pg_trgm'`)) as unknown as {
      rows: Array<{ similar: boolean; extname: string }>;
    };
    expect(res.rows).toEqual([{ similar: true, extname: 'pg_trgm' }]);
  });

  it('is not seeded (tests seed what they need)', async () => {
    expect(await count(t.database.db, accounts)).toBe(0);
    expect(await count(t.database.db, menus)).toBe(0);
  });

  it('belongs to this file: a write here is not in another new database', async () => {
    await t.database.db.insert(menus).values({ code: 'TEMPLATE_PROBE', name: 'probe', nameEn: 'probe', path: '/probe' });
    const other = await createTestApp({}, { bare: true });
    try {
      expect(await count(other.database.db, menus)).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('createTestDatabase without `migrated`', () => {
  it('is an empty database that the migrations then build', async () => {
    const { database, drop } = await createTestDatabase(loadTestConfig());
    try {
      const tables = (await database.db.execute(sql`select count(*)::int as n from information_schema.tables where table_schema in ('public', 'drizzle')`)) as unknown as {
        rows: Array<{ n: number }>;
      };
      expect(tables.rows[0]!.n).toBe(0);
      await runMigrations(database);
      expect(await applied(database.db)).toEqual(expected());
    } finally {
      await drop();
    }
  });
});
