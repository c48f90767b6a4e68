import { readFileSync } from 'node:fs';
import { getTableName, isTable } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema.js';
import { FINGERPRINT_TABLES } from './scores.repository.js';

/** The schema tables a source file imports from db/schema.js, by their SQL names. */
function tablesImportedBy(file: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  const match = /import\s*\{([^}]*)\}\s*from\s*'\.\.\/\.\.\/db\/schema\.js'/.exec(source);
  if (!match) return [];
  return match[1]!
    .split(',')
    .map((name) => name.replace(/^\s*type\s+/, '').trim())
    .filter(Boolean)
    .map((name) => (schema as Record<string, unknown>)[name])
    .filter((value) => isTable(value))
    .map((table) => getTableName(table as Parameters<typeof getTableName>[0]));
}

describe('the score query cache fingerprint', () => {
  it('covers every table the round view and the rubric store read, so no change leaves the query stale', () => {
    const read = [...tablesImportedBy('./round-view.ts'), ...tablesImportedBy('./rubric-store.ts')];
    expect(read.length).toBeGreaterThan(5);
    const missing = read.filter((table) => !(table in FINGERPRINT_TABLES));
    expect(missing).toEqual([]);
    // The sheets and the settings are read by computeRound itself.
    expect(Object.keys(FINGERPRINT_TABLES)).toEqual(expect.arrayContaining(['score_sheets', 'settings']));
  });
});
