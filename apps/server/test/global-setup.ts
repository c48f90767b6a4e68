import type { TestProject } from 'vitest/node';
import { buildPgliteTemplate, buildPostgresTemplate, dropPostgresDatabase } from './test-database.js';

/**
 * Once per run, before any test file: the migrated template every test database starts from
 * (see test-database.ts). On PostgreSQL it is dropped at the end of the run.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const url = process.env.DATABASE_URL;
  if (url?.startsWith('postgres')) {
    const template = await buildPostgresTemplate(url);
    project.provide('testDatabaseTemplate', { postgres: { url, template } });
    return async () => {
      await dropPostgresDatabase(url, template);
    };
  }
  const pglite = await buildPgliteTemplate({ reuse: !process.env.CI });
  project.provide('testDatabaseTemplate', { pglite });
}
