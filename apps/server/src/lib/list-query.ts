/**
 * Server side of the admin lists: paging, sorting and filters over Drizzle, in one place.
 *
 * A repository declares its list once (the page select, the count select, the sortable
 * columns, the default order and a unique tiebreak); each call passes filters already turned
 * into SQL (the builders below) and `{page, size, sort?, order?}`. The sort keys are an enum
 * in the request schema (`sortQueryFields` of @contest/shared), so a key reaching here is
 * always one of the declared columns: no caller text ever becomes SQL.
 */
import { and, asc, Column, desc, getTableName, Table, type Subquery, eq, gt, gte, ilike, inArray, is, like, lt, lte, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { PgDialect, type PgSelect } from 'drizzle-orm/pg-core';
import type { SortOrder } from '@contest/shared';
import { createCountCache, type CountCache } from './count-cache.js';
import { containsPattern, monthBounds, rangeEndExclusive, rangeStart } from './filter-values.js';

/** A column, or an SQL expression (`lower(name)`), a list may be sorted by. */
export type Sortable = AnyColumn | SQL;

/** One ORDER BY term of a declared order (columns only: keyset paging reads their values). */
export interface OrderTerm {
  column: AnyColumn;
  order: SortOrder;
}

/** Filters of one call: `undefined` entries (a blank search field) are dropped. */
export type Filters = ReadonlyArray<SQL | undefined>;

export interface PageRequest<K extends string = string> {
  page: number;
  size: number;
  sort?: K | undefined;
  order?: SortOrder | undefined;
}

export interface ListDeclaration<K extends string, Q extends PgSelect, Row> {
  /** The page select without where/order/limit: `() => db.select(cols).from(t).leftJoin(…).$dynamic()`. */
  rows: () => Q;
  /** The same FROM/JOIN selecting `{ n: count() }`: `() => db.select({ n: count() }).from(t).leftJoin(…).$dynamic()`. */
  count: () => PgSelect;
  /** Public sort key -> column. Keys must match the `sortQueryFields` of the request schema. */
  sortable: Readonly<Record<K, Sortable>>;
  /** Order without `sort` (e.g. newest first); also the order of export batches. */
  defaultOrder: readonly OrderTerm[];
  /** A unique column ending every order, so rows with equal sort values never swap between pages. */
  tiebreak: OrderTerm;
  /**
   * The tiebreak value of a row (`(r) => r.id`). With it, and a default order of NOT NULL
   * columns of the tiebreak's table, `batch(…, { after })` pages by keyset instead of OFFSET.
   */
  cursor?: (row: Row) => unknown;
  /**
   * Where the keyset reads a row's order values back from, when the order's columns are those of a
   * read model (another module's table, docs/architecture.md, "Database") rather than of a table:
   * that read model itself. A keyset over a read model without it is refused when declared.
   */
  keySource?: Subquery;
  /** A shared cache, or options of the one created here (see createCountCache). */
  countCache?: CountCache | Parameters<typeof createCountCache>[0];
}

export interface ListQuery<K extends string, Row> {
  /** One page and the (cached when large) total of the filtered list. */
  page(filters: Filters, request: PageRequest<K>): Promise<{ rows: Row[]; total: number }>;
  /** Exact total, never cached: what an export checks its size against. */
  count(filters: Filters): Promise<number>;
  /**
   * A batch of the filtered list in the default order, for exports: after the given last row
   * of the previous batch (keyset; needs `cursor`), else from `offset`.
   */
  batch(filters: Filters, opts: { limit: number; offset?: number; after?: Row | undefined }): Promise<Row[]>;
  /** ORDER BY of a request: the chosen key, then the default order, then the tiebreak. */
  orderBy(request: Pick<PageRequest<K>, 'sort' | 'order'>): SQL[];
}

// Only renders SQL to text for the count cache's key; never runs anything.
const dialect = new PgDialect();

const whereOf = (filters: Filters): SQL | undefined => and(...filters.filter((f): f is SQL => f !== undefined));

const term = (column: Sortable, order: SortOrder, nullsLast = false): SQL =>
  nullsLast ? (order === 'desc' ? sql`${column} desc nulls last` : sql`${column} asc nulls last`) : order === 'desc' ? desc(column) : asc(column);

// Values that may be NULL are sorted with the empty ones last in both directions. NOT NULL
// columns of the list's own table (the tiebreak's) keep plain asc/desc, which a btree index
// serves (it cannot serve `desc nulls last`); a column of a joined table may be NULL whatever
// its declaration (left join), and so may an expression.
const maybeNull = (column: Sortable, ownTable: unknown) => !is(column, Column) || !column.notNull || !sameTable(column.table, ownTable);

/**
 * Tables and columns compared by name: each read of a read model's column (another module's
 * table, docs/architecture.md, "Database") comes with a fresh alias object of its table.
 */
const sameTable = (a: unknown, b: unknown) => a === b || (is(a, Table) && is(b, Table) && getTableName(a) === getTableName(b));
const sameColumn = (a: Sortable, b: Sortable) => a === b || (is(a, Column) && is(b, Column) && a.name === b.name && sameTable(a.table, b.table));

/**
 * Rows after `lastKey` (the tiebreak value of the previous batch's last row) in the order
 * `terms`. Each other term's value is read back from the database by the key
 * (`(select created_at from accounts where id = $1)`): a JS Date holds milliseconds, the
 * column microseconds, so the row's own value would skip or repeat rows. The first term is
 * also bounded on its own (`created_at <= …`) so an index on it starts the scan there.
 * Were that row deleted meanwhile, the read would end early (short batch): the lists using
 * it (accounts, audit records) never delete rows.
 */
function keysetAfter(terms: readonly OrderTerm[], tiebreak: OrderTerm, lastKey: unknown, keySource: Subquery | undefined): SQL {
  const keyMatch = eq(tiebreak.column, lastKey);
  const valueOf = (t: OrderTerm): unknown =>
    sameColumn(t.column, tiebreak.column) ? lastKey : sql`(select ${t.column} from ${keySource ?? (t.column as Column).table} where ${keyMatch})`;
  const beyond = (t: OrderTerm) => (t.order === 'desc' ? lt(t.column, valueOf(t)) : gt(t.column, valueOf(t)));
  let cond = beyond(terms[terms.length - 1]!);
  for (let i = terms.length - 2; i >= 0; i--) {
    const t = terms[i]!;
    cond = or(beyond(t), and(eq(t.column, valueOf(t)), cond))!;
  }
  const first = terms[0]!;
  return and(first.order === 'desc' ? lte(first.column, valueOf(first)) : gte(first.column, valueOf(first)), cond)!;
}

/** Declares a list once; see ListDeclaration. */
export function createListQuery<K extends string, Q extends PgSelect, Row = Q['_']['result'][number]>(
  decl: ListDeclaration<K, Q, Row>,
): ListQuery<K, Row> {
  const totals: CountCache = typeof decl.countCache === 'function' ? decl.countCache : createCountCache(decl.countCache);
  const defaultTerms = [...decl.defaultOrder.filter((t) => !sameColumn(t.column, decl.tiebreak.column)), decl.tiebreak];
  const defaultOrderBy = defaultTerms.map((t) => term(t.column, t.order));
  const keyTable = is(decl.tiebreak.column, Column) ? decl.tiebreak.column.table : undefined;
  const keyset =
    decl.cursor !== undefined &&
    defaultTerms.every((t) => is(t.column, Column) && t.column.notNull && sameTable(t.column.table, keyTable));
  // A read model's columns name its alias, which a scalar subquery cannot read from by name.
  if (keyset && decl.keySource === undefined && (keyTable as Record<symbol, unknown> | undefined)?.[Symbol.for('drizzle:IsAlias')]) {
    throw new Error('createListQuery: a keyset over a read model needs keySource (the read model)');
  }

  const countOf = async (where: SQL | undefined) => {
    const [row] = (await decl.count().where(where)) as Array<{ n: number | string }>;
    return Number(row?.n ?? 0);
  };

  function orderBy({ sort, order }: Pick<PageRequest<K>, 'sort' | 'order'>): SQL[] {
    if (sort === undefined) return defaultOrderBy;
    // The schema's enum makes this unreachable; a typo between schema and declaration is a bug.
    if (!Object.hasOwn(decl.sortable, sort)) throw new Error(`list: sort key "${sort}" is not declared`);
    const column = decl.sortable[sort];
    return [term(column, order ?? 'asc', maybeNull(column, keyTable)), ...defaultTerms.filter((t) => !sameColumn(t.column, column)).map((t) => term(t.column, t.order))];
  }

  return {
    orderBy,

    async page(filters, request) {
      const where = whereOf(filters);
      // The key is the rendered filter (text and parameters): equal filters share one count.
      const key = where ? JSON.stringify(dialect.sqlToQuery(where)) : '';
      const [rows, total] = await Promise.all([
        decl
          .rows()
          .where(where)
          .orderBy(...orderBy(request))
          .limit(request.size)
          .offset((request.page - 1) * request.size),
        totals(key, () => countOf(where)),
      ]);
      return { rows: rows as Row[], total };
    },

    count: (filters) => countOf(whereOf(filters)),

    async batch(filters, { limit, offset = 0, after }) {
      if (after !== undefined && keyset) {
        const where = and(whereOf(filters), keysetAfter(defaultTerms, decl.tiebreak, decl.cursor!(after), decl.keySource));
        return (await decl.rows().where(where).orderBy(...defaultOrderBy).limit(limit)) as Row[];
      }
      return (await decl.rows().where(whereOf(filters)).orderBy(...defaultOrderBy).limit(limit).offset(offset)) as Row[];
    },
  };
}

// ---- Filter builders: each turns one search field into SQL, or undefined when it is blank ----

/** "Contains", case-insensitive, the user's % and _ taken literally; several columns: any of them. */
export function contains(column: Sortable | readonly Sortable[], value: string | undefined): SQL | undefined {
  if (!value) return undefined;
  const pattern = containsPattern(value);
  const columns = Array.isArray(column) ? (column as readonly Sortable[]) : [column as Sortable];
  return columns.length === 1 ? ilike(columns[0]!, pattern) : or(...columns.map((c) => ilike(c, pattern)));
}

/** "Starts with", case-sensitive (codes such as `account:`), % and _ taken literally. */
export function startsWith(column: Sortable, value: string | undefined): SQL | undefined {
  if (!value) return undefined;
  return like(column, `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
}

/** Equality; `undefined` means no filter (`false` and `0` do filter). */
export function equals<C extends AnyColumn>(column: C, value: C['_']['data'] | undefined): SQL | undefined {
  return value === undefined ? undefined : eq(column, value);
}

/** One of the values; absent or empty means no filter (nothing ticked = everything). */
export function inList<C extends AnyColumn>(column: C, values: ReadonlyArray<C['_']['data']> | undefined): SQL | undefined {
  return values?.length ? inArray(column, [...values]) : undefined;
}

/** Within a Beijing calendar month `YYYY-MM` (the spec's month picker); absent means no filter. */
export function inMonth(column: AnyColumn, month: string | undefined): SQL | undefined {
  if (!month) return undefined;
  const [start, end] = monthBounds(month);
  return and(gte(column, start), lt(column, end));
}

/**
 * A Beijing-time range of the query conventions, both ends inclusive: `YYYY-MM-DD` (a bare `to`
 * covers its whole day) or `YYYY-MM-DD HH:mm:ss` (its whole second).
 */
export function dateRange(column: AnyColumn, from: string | undefined, to: string | undefined): SQL | undefined {
  const start = rangeStart(from);
  const end = rangeEndExclusive(to);
  return and(start ? gte(column, start) : undefined, end ? lt(column, end) : undefined);
}
