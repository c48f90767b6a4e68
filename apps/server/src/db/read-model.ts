import { getTableColumns, type Table } from 'drizzle-orm';
import { QueryBuilder, type PgTable } from 'drizzle-orm/pg-core';

/**
 * A read-only projection of a table, as its owning module publishes it to the others
 * (docs/architecture.md, "Database"). It joins and filters like the table (PostgreSQL flattens it
 * into the outer query, so plans and indexes are those of the table) but cannot be the target of an
 * insert, update or delete: writes go through the owner. `hidden` names columns the others may not
 * see at all (an account's password hash).
 */
export function readModel<T extends PgTable, Alias extends string, Hidden extends keyof T['_']['columns'] = never>(
  table: T,
  alias: Alias,
  hidden: readonly Hidden[] = [],
) {
  const columns = { ...getTableColumns(table as Table) } as Record<string, unknown>;
  for (const key of hidden) delete columns[key as string];
  return new QueryBuilder()
    .select(columns as Omit<T['_']['columns'], Hidden>)
    .from(table as PgTable)
    .as(alias);
}

/**
 * A read model's columns as one object, for selecting a whole row of it beside other fields
 * (`select({ doc: fieldsOf(prelimDocsView), ... })`). Each field is read through the projection so
 * that it names the projection, not the table underneath.
 */
export function fieldsOf<Fields extends Record<string, unknown>>(view: { _: { selectedFields: Fields } }): Fields {
  const proxy = view as unknown as Record<string, unknown>;
  return Object.fromEntries(Object.keys(view._.selectedFields).map((key) => [key, proxy[key]])) as Fields;
}
