import { and, asc, count, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { NewsCategory } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { news } from '../../db/schema.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';

export type NewsRow = typeof news.$inferSelect;
export type NewsInsert = typeof news.$inferInsert;

/** The time an article is listed under: its publish time, or its creation when never set. */
const shownAt = sql<Date>`coalesce(${news.publishAt}, ${news.createdAt})`;
const pinnedRank = sql<number>`(case when ${news.pinned} then 1 else 0 end)`;

/** Published and due: an article with a future publish time waits for it. */
function visible(category?: NewsCategory): SQL {
  const where = [eq(news.status, 'PUBLISHED'), lte(shownAt, sql`now()`)];
  if (category) where.push(eq(news.category, category));
  return and(...where)!;
}

const listOrder = [desc(news.pinned), desc(shownAt), desc(news.id)];

const listColumns = {
  id: news.id,
  category: news.category,
  title: news.title,
  summary: news.summary,
  coverPath: news.coverPath,
  source: news.source,
  pinned: news.pinned,
  publishAt: news.publishAt,
  createdAt: news.createdAt,
};
export type NewsListRow = Pick<NewsRow, keyof typeof listColumns>;

/**
 * Every write of a body goes through here, so what is stored is always allow-listed HTML,
 * whoever writes it (seed, admin CRUD).
 */
function cleanBody<T extends { body?: string | null }>(values: T): T {
  return values.body === undefined ? values : { ...values, body: sanitizeHtml(values.body) };
}

export function createNewsRepository(db: Db) {
  return {
    /**
     * One page and the total in one statement (a window count); bodies stay out of lists, they
     * can be large. A page past the end has no row to carry the total, so it is counted apart.
     */
    async pagePublished(category: NewsCategory | undefined, page: number, size: number): Promise<{ rows: NewsListRow[]; total: number }> {
      const where = visible(category);
      const rows = await db
        .select({ ...listColumns, total: sql<number>`(count(*) over ())::int` })
        .from(news)
        .where(where)
        .orderBy(...listOrder)
        .limit(size)
        .offset((page - 1) * size);
      if (rows.length) return { rows, total: rows[0]!.total };
      const [total] = await db.select({ n: count() }).from(news).where(where);
      return { rows: [], total: total?.n ?? 0 };
    },

    async findPublished(id: string): Promise<NewsRow | undefined> {
      const [row] = await db.select().from(news).where(and(eq(news.id, id), visible()));
      return row;
    },

    async find(id: string): Promise<NewsRow | undefined> {
      const [row] = await db.select().from(news).where(eq(news.id, id));
      return row;
    },

    /**
     * Neighbours of `row` in its category's list order (pinned, shown time, id; all descending):
     * the previous one sorts just above it, the next one just below.
     */
    async neighbours(row: NewsRow): Promise<{ previous: Pick<NewsRow, 'id' | 'title'> | null; next: Pick<NewsRow, 'id' | 'title'> | null }> {
      const key = sql`(${pinnedRank}, ${shownAt}, ${news.id})`;
      // Read from the row itself: timestamps keep microseconds that a JS Date would lose.
      const own = sql`(select (case when o.pinned then 1 else 0 end), coalesce(o.publish_at, o.created_at), o.id from ${news} o where o.id = ${row.id})`;
      const cols = { id: news.id, title: news.title };
      const [[previous], [next]] = await Promise.all([
        db.select(cols).from(news).where(and(visible(row.category), sql`${key} > ${own}`)).orderBy(asc(news.pinned), asc(shownAt), asc(news.id)).limit(1),
        db.select(cols).from(news).where(and(visible(row.category), sql`${key} < ${own}`)).orderBy(...listOrder).limit(1),
      ]);
      return { previous: previous ?? null, next: next ?? null };
    },

    async insert(tx: Db, values: NewsInsert): Promise<NewsRow> {
      const [row] = await tx.insert(news).values(cleanBody(values)).returning();
      return row!;
    },

    async update(tx: Db, id: string, values: Partial<NewsInsert>): Promise<NewsRow | undefined> {
      const [row] = await tx.update(news).set({ ...cleanBody(values), updatedAt: new Date() }).where(eq(news.id, id)).returning();
      return row;
    },
  };
}
export type NewsRepository = ReturnType<typeof createNewsRepository>;
