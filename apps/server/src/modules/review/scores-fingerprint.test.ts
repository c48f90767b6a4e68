import { readFileSync } from 'node:fs';
import { getTableName, isTable } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as schema from '../../db/schema.js';
import { FINGERPRINT_TABLES } from './scores.repository.js';

/**
 * The tables a source file reads, by their SQL names: its own (imported from db/schema/<module>.js)
 * and other modules' (their read models, `teamsView` for `teams`; docs/architecture.md, "Database").
 */
function tablesImportedBy(file: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  const names: string[] = [];
  for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'[^']*(?:db\/schema\/[\w-]+|\.read-model)\.js'/g)) {
    for (const raw of match[1]!.split(',')) {
      const name = raw.replace(/^\s*type\s+/, '').trim();
      if (name) names.push(name.replace(/View$/, ''));
    }
  }
  return names
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
