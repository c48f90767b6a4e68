/** Small reads and SQL fragments the benches share (set-based seeding, checks, row counts). */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../apps/server/src/db/client.js';

export const rowsOf = (r: unknown) => (r as { rows: Array<Record<string, unknown>> }).rows;

/** A query answering one row with a column `n`. */
export const count = async (db: Db, query: SQL) => Number(rowsOf(await db.execute(query))[0]!.n);

/** Row counts of tables, by name (to report what a run wrote: after minus before). */
export async function tableCounts(db: Db, tables: string[]): Promise<Record<string, number>> {
  return Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await count(db, sql`select count(*) as n from ${sql.identifier(t)}`)] as const)));
}

/** A value 0..mod-1 from a bigint expression: independent per salt, the same on every run. */
export const hashed = (expr: string, salt: number, mod: number) => sql.raw(`(((hashint8extended(${expr}, ${salt}) % ${mod}) + ${mod}) % ${mod})`);
