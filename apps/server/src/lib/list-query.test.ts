import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq, sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import { LIST_QUERY_MSG, pageQueryFields, sortQueryFields } from '@contest/shared';
import { createTestDatabase } from '../../test/helpers.js';
import { loadTestConfig } from '../config/test-config.js';
import type { Db } from '../db/client.js';
import { readModel } from '../db/read-model.js';
import { contains, createListQuery, dateRange, equals, inList, startsWith } from './list-query.js';

// Tables of this test only, in a database of its own: the helper knows nothing of the schema.
const people = pgTable('lq_people', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  city: text('city'),
  score: integer('score').notNull(),
  active: boolean('active').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});
const pets = pgTable('lq_pets', {
  id: integer('id').primaryKey(),
  ownerId: integer('owner_id').notNull(),
  kind: text('kind').notNull(),
});

let db: Db;
let drop: () => Promise<void>;

// 12 people; created_at is set in SQL with microseconds, several within one millisecond.
const rows = [
  // id, name, city, score, active, created_at (UTC)
  [1, 'Alice', 'Beijing', 5, true, '2025-05-01 01:00:00.000001+00'],
  [2, 'bob', null, 5, true, '2025-05-01 01:00:00.000002+00'],
  [3, 'Carol', 'Shanghai', 7, false, '2025-05-01 01:00:00.000003+00'],
  [4, 'dave_x', 'Beijing', 5, true, '2025-05-02 15:59:59+00'], // Beijing 2025-05-02 23:59:59
  [5, 'Eve%', 'Wuhan', 1, true, '2025-05-02 16:00:00+00'], // Beijing 2025-05-03 00:00:00
  [6, 'Frank', null, 9, false, '2025-05-03 00:00:00+00'],
  [7, 'Grace', 'Shanghai', 5, true, '2025-05-03 00:00:00+00'],
  [8, 'Heidi', 'Xian', 3, true, '2025-05-03 00:00:00+00'],
  [9, 'Ivan', 'Beijing', 5, true, '2025-05-04 08:00:00.5+00'],
  [10, 'Judy', null, 2, false, '2025-05-04 08:00:00.500001+00'],
  [11, 'Mallory', 'Chengdu', 5, true, '2025-05-05 00:00:00+00'],
  [12, 'Niaj', 'Beijing', 8, true, '2025-05-06 00:00:00+00'],
] as const;

beforeAll(async () => {
  const created = await createTestDatabase(loadTestConfig());
  db = created.database.db;
  drop = created.drop;
  await db.execute(sql`create table lq_people (id integer primary key, name text not null, city text, score integer not null, active boolean not null, created_at timestamptz not null)`);
  await db.execute(sql`create table lq_pets (id integer primary key, owner_id integer not null, kind text not null)`);
  for (const [id, name, city, score, active, at] of rows) {
    await db.execute(sql`insert into lq_people values (${id}, ${name}, ${city}, ${score}, ${active}, ${at}::timestamptz)`);
  }
  await db.execute(sql`insert into lq_pets values (1, 1, 'cat'), (2, 3, 'dog'), (3, 9, 'ant'), (4, 12, 'cat')`);
});

afterAll(async () => {
  await drop?.();
});

// The list under test: people with their pet (left join), newest first, id as tiebreak.
const declare = (countCache?: Parameters<typeof createListQuery>[0]['countCache']) =>
  createListQuery({
    rows: () => db.select({ id: people.id, name: people.name, city: people.city, score: people.score, pet: pets.kind }).from(people).leftJoin(pets, eq(pets.ownerId, people.id)).$dynamic(),
    count: () => db.select({ n: count() }).from(people).leftJoin(pets, eq(pets.ownerId, people.id)).$dynamic(),
    sortable: { name: sql`lower(${people.name})`, city: people.city, score: people.score, createdAt: people.createdAt, pet: pets.kind },
    defaultOrder: [{ column: people.createdAt, order: 'desc' }],
    tiebreak: { column: people.id, order: 'asc' },
    cursor: (r) => r.id,
    countCache,
  });
const list = declare();
const ids = (r: { rows: Array<{ id: number }> }) => r.rows.map((p) => p.id);
const all = { page: 1, size: 100 };

describe('createListQuery: paging and sorting', () => {
  it('pages in the default order, with the tiebreak, and counts the filtered rows', async () => {
    // Rows 6, 7 and 8 share a created_at: id ascending breaks the tie.
    expect(ids(await list.page([], all))).toEqual([12, 11, 10, 9, 6, 7, 8, 5, 4, 3, 2, 1]);
    const second = await list.page([], { page: 2, size: 5 });
    expect(second).toMatchObject({ total: 12 });
    expect(ids(second)).toEqual([7, 8, 5, 4, 3]);
    expect(ids(await list.page([], { page: 4, size: 5 }))).toEqual([]);
  });

  it('sorts by a declared key in either direction, ties in the default order', async () => {
    expect(ids(await list.page([], { ...all, sort: 'score', order: 'desc' }))).toEqual([6, 12, 3, 11, 9, 7, 4, 2, 1, 8, 10, 5]);
    expect(ids(await list.page([], { ...all, sort: 'score' }))).toEqual([5, 10, 8, 11, 9, 7, 4, 2, 1, 3, 12, 6]);
    // An expression: case-insensitive name order.
    expect((await list.page([], { page: 1, size: 3, sort: 'name', order: 'asc' })).rows.map((r) => r.name)).toEqual(['Alice', 'bob', 'Carol']);
    // `order` without `sort` keeps the default order.
    expect(ids(await list.page([], { page: 1, size: 3, order: 'asc' }))).toEqual([12, 11, 10]);
  });

  it('puts empty values last in both directions, also for a joined column', async () => {
    const cityAsc = await list.page([], { ...all, sort: 'city', order: 'asc' });
    expect(cityAsc.rows.map((r) => r.city)).toEqual(['Beijing', 'Beijing', 'Beijing', 'Beijing', 'Chengdu', 'Shanghai', 'Shanghai', 'Wuhan', 'Xian', null, null, null]);
    const cityDesc = await list.page([], { ...all, sort: 'city', order: 'desc' });
    expect(cityDesc.rows.map((r) => r.city).slice(-3)).toEqual([null, null, null]);
    expect(ids(cityDesc).slice(-3)).toEqual([10, 6, 2]);
    const pets = await list.page([], { ...all, sort: 'pet', order: 'desc' });
    expect(pets.rows.slice(0, 5).map((r) => [r.id, r.pet])).toEqual([
      [3, 'dog'],
      [12, 'cat'],
      [1, 'cat'],
      [9, 'ant'],
      [11, null],
    ]);
  });

  it('never repeats or skips a row across pages of a sort with many ties', async () => {
    const seen: number[] = [];
    for (let page = 1; page <= 5; page++) seen.push(...ids(await list.page([], { page, size: 3, sort: 'score', order: 'asc' })));
    expect(seen).toEqual(ids(await list.page([], { ...all, sort: 'score', order: 'asc' })));
    expect(new Set(seen).size).toBe(12);
  });

  it('refuses an undeclared key (the request schema makes it unreachable)', () => {
    expect(() => list.orderBy({ sort: 'password' as never })).toThrow('not declared');
  });
});

describe('createListQuery: filters', () => {
  it('contains: case-insensitive, % and _ literal, several columns as "any"', async () => {
    expect(ids(await list.page([contains(people.name, 'ALI')], all))).toEqual([1]);
    expect(ids(await list.page([contains(people.name, '%')], all))).toEqual([5]);
    expect(ids(await list.page([contains(people.name, '_x')], all))).toEqual([4]);
    expect(ids(await list.page([contains([people.name, people.city], 'an')], all))).toEqual([9, 6, 7, 8, 5, 3]);
    expect(ids(await list.page([contains(people.name, undefined), contains(people.city, '')], all))).toHaveLength(12);
  });

  it('equals, in-list and starts-with; undefined is no filter, false and 0 filter', async () => {
    expect(ids(await list.page([equals(people.active, false)], all))).toEqual([10, 6, 3]);
    expect(ids(await list.page([equals(people.score, 0)], all))).toEqual([]);
    expect(ids(await list.page([equals(people.active, undefined)], all))).toHaveLength(12);
    expect(ids(await list.page([inList(people.city, ['Wuhan', 'Xian'])], all))).toEqual([8, 5]);
    expect(ids(await list.page([inList(people.city, [])], all))).toHaveLength(12);
    expect(ids(await list.page([startsWith(people.name, 'dave_')], all))).toEqual([4]);
    expect(ids(await list.page([startsWith(people.name, 'dav%')], all))).toEqual([]);
    expect(ids(await list.page([startsWith(people.name, 'alice')], all))).toEqual([]);
  });

  it('date ranges are Beijing days or seconds, both ends inclusive', async () => {
    expect(ids(await list.page([dateRange(people.createdAt, '2025-05-02', '2025-05-02')], all))).toEqual([4]);
    expect(ids(await list.page([dateRange(people.createdAt, '2025-05-03', '2025-05-03')], all))).toEqual([6, 7, 8, 5]);
    expect(ids(await list.page([dateRange(people.createdAt, '2025-05-03 00:00:00', '2025-05-03 00:00:00')], all))).toEqual([5]);
    expect(ids(await list.page([dateRange(people.createdAt, '2025-05-05', undefined)], all))).toEqual([12, 11]);
    expect(ids(await list.page([dateRange(people.createdAt, undefined, '2025-05-01'), equals(people.score, 5)], all))).toEqual([2, 1]);
    expect(dateRange(people.createdAt, undefined, undefined)).toBeUndefined();
  });
});

describe('createListQuery: totals', () => {
  it('shares a large total per filter for a while; count() is always exact', async () => {
    // Every total "large" here, kept a minute: a second page view does not count again.
    const cached = declare({ exactBelow: 0, ttlMs: 60_000 });
    const beijing = [equals(people.city, 'Beijing')];
    expect((await cached.page(beijing, all)).total).toBe(4);
    expect((await cached.page([], all)).total).toBe(12);
    await db.execute(sql`insert into lq_people values (13, 'Olivia', 'Beijing', 4, true, now())`);
    try {
      const again = await cached.page(beijing, { ...all, sort: 'name' });
      expect(again.total).toBe(4);
      expect(again.rows).toHaveLength(5);
      // Another filter, another key; the same filter built again, the same key.
      expect((await cached.page([equals(people.city, 'Beijing'), equals(people.active, true)], all)).total).toBe(5);
      expect((await cached.page([equals(people.city, 'Beijing')], all)).total).toBe(4);
      expect(await cached.count(beijing)).toBe(5);
      // The default cache keeps small totals exact.
      expect((await list.page(beijing, all)).total).toBe(5);
    } finally {
      await db.execute(sql`delete from lq_people where id = 13`);
    }
  });
});

describe('createListQuery: export batches', () => {
  it('keyset batches visit every row once in the default order, microsecond ties included', async () => {
    const expected = ids(await list.page([], all));
    for (const size of [1, 2, 5]) {
      const seen: number[] = [];
      let last: Awaited<ReturnType<typeof list.batch>>[number] | undefined;
      for (;;) {
        // offset stays 0: with `after`, the keyset alone decides where the batch starts.
        const batch = await list.batch([], { limit: size, after: last });
        seen.push(...batch.map((r) => r.id));
        if (batch.length < size) break;
        last = batch[batch.length - 1];
      }
      expect(seen, `batch size ${size}`).toEqual(expected);
    }
  });

  it('keyset batches keep the filters; without a cursor declared they page by offset', async () => {
    const after = (await list.batch([equals(people.score, 5)], { limit: 2 })).at(-1);
    expect(after?.id).toBe(9);
    expect((await list.batch([equals(people.score, 5)], { limit: 10, after })).map((r) => r.id)).toEqual([7, 4, 2, 1]);
    const byOffset = createListQuery({
      rows: () => db.select({ id: people.id }).from(people).$dynamic(),
      count: () => db.select({ n: count() }).from(people).$dynamic(),
      sortable: { score: people.score },
      defaultOrder: [{ column: people.score, order: 'desc' }],
      tiebreak: { column: people.id, order: 'desc' },
    });
    expect((await byOffset.batch([], { limit: 3, offset: 2, after: { id: 999 } })).map((r) => r.id)).toEqual([3, 11, 9]);
  });
});

describe('createListQuery over a read model (another module\'s table)', () => {
  // What a module sees of a table it does not own (db/read-model.ts): each read of a column comes
  // with a fresh alias object, so the list compares tables and columns by name.
  const view = readModel(people, 'lq_people_view');
  const overView = (keySource?: typeof view) =>
    createListQuery({
      rows: () => db.select({ id: view.id, name: view.name }).from(view).$dynamic(),
      count: () => db.select({ n: count() }).from(view).$dynamic(),
      sortable: { createdAt: view.createdAt, score: view.score },
      defaultOrder: [{ column: view.createdAt, order: 'desc' }],
      tiebreak: { column: view.id, order: 'asc' },
      cursor: (r) => r.id,
      keySource,
    });

  it('pages, sorts and reads keyset batches as over the table', async () => {
    const viewList = overView(view);
    const expected = ids(await list.page([], all));
    expect(ids(await viewList.page([], all))).toEqual(expected);
    expect(ids(await viewList.page([], { ...all, sort: 'score', order: 'desc' }))).toEqual(ids(await list.page([], { ...all, sort: 'score', order: 'desc' })));
    const seen: number[] = [];
    let last: { id: number; name: string } | undefined;
    for (;;) {
      // Once a last row is given the offset is ignored: the keyset alone places the batch.
      const batch = await viewList.batch([], { limit: 2, after: last, offset: last ? 999 : 0 });
      seen.push(...batch.map((r) => r.id));
      if (batch.length < 2) break;
      last = batch[batch.length - 1];
    }
    expect(seen).toEqual(expected);
  });

  it('refuses a keyset over a read model that does not say where to read a row back from', () => {
    expect(() => overView()).toThrow(/keySource/);
  });
});

describe('sortQueryFields (shared)', () => {
  const schema = z.object({ ...pageQueryFields, ...sortQueryFields(['createdAt', 'username']) });
  const issue = (input: Record<string, string>) => {
    const r = schema.safeParse(input);
    return r.success ? null : { path: r.error.issues[0]!.path.join('.'), message: r.error.issues[0]!.message };
  };

  it('accepts the declared keys and both orders; blank means the default order', () => {
    expect(schema.parse({ sort: 'username', order: 'desc' })).toEqual({ page: 1, size: 10, sort: 'username', order: 'desc' });
    const trimmed = schema.parse({ sort: ' createdAt ' });
    expect([trimmed.sort, trimmed.order]).toEqual(['createdAt', undefined]);
    const blank = schema.parse({ sort: '', order: '' });
    expect([blank.sort, blank.order]).toEqual([undefined, undefined]);
  });

  it('refuses unknown keys and orders with the list texts', () => {
    expect(issue({ sort: 'password' })).toEqual({ path: 'sort', message: LIST_QUERY_MSG.sortInvalid });
    expect(issue({ sort: 'created_at; drop table accounts' })).toEqual({ path: 'sort', message: LIST_QUERY_MSG.sortInvalid });
    expect(issue({ sort: 'username', order: 'DESC' })).toEqual({ path: 'order', message: LIST_QUERY_MSG.orderInvalid });
  });
});
