import { and, asc, count, desc, eq, lte, sql, type SQL } from 'drizzle-orm';
import type { AdminNewsListQuery, NewsCategory } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { news } from '../../db/schema/news.js';
import { accountsView } from '../auth/auth.read-model.js';
import { attachmentsView } from '../files/files.read-model.js';
import { contains, createListQuery, dateRange, equals } from '../../lib/list-query.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';

export type NewsRow = typeof news.$inferSelect;
export type NewsInsert = typeof news.$inferInsert;

/** The time an article is listed under: its publish time, or its creation when never set. */
const shownAt = sql<Date>`coalesce(${news.publishAt}, ${news.createdAt})`;
const pinnedRank = sql<number>`(case when ${news.pinned} then 1 else 0 end)`;

/**
 * Published and due: an article with a future publish time waits for it. `now` is the service's
 * clock (tests move it), not the database's.
 */
function visible(now: Date, category?: NewsCategory): SQL {
  const where = [eq(news.status, 'PUBLISHED'), lte(shownAt, sql`${now.toISOString()}::timestamptz`)];
  if (category) where.push(eq(news.category, category));
  return and(...where)!;
}

const listOrder = [desc(news.pinned), desc(shownAt), desc(news.id)];

const listColumns = {
  id: news.id,
  category: news.category,
  title: news.title,
  titleEn: news.titleEn,
  summary: news.summary,
  summaryEn: news.summaryEn,
  coverPath: news.coverPath,
  source: news.source,
  pinned: news.pinned,
  publishAt: news.publishAt,
  createdAt: news.createdAt,
};
export type NewsListRow = Pick<NewsRow, keyof typeof listColumns>;

const adminColumns = {
  id: news.id,
  category: news.category,
  title: news.title,
  titleEn: news.titleEn,
  status: news.status,
  pinned: news.pinned,
  coverPath: news.coverPath,
  source: news.source,
  publishAt: news.publishAt,
  createdAt: news.createdAt,
  updatedAt: news.updatedAt,
  authorName: sql<string | null>`coalesce(${accountsView.name}, ${accountsView.username})`,
};
export type AdminNewsListRow = Pick<NewsRow, Exclude<keyof typeof adminColumns, 'authorName'>> & { authorName: string | null };

/**
 * Every write of a body goes through here, so what is stored is always allow-listed HTML,
 * whoever writes it (seed, admin CRUD), in both languages.
 */
function cleanBodies<T extends { body?: string | null; bodyEn?: string | null }>(values: T): T {
  const out = { ...values };
  if (values.body !== undefined) out.body = sanitizeHtml(values.body);
  if (values.bodyEn !== undefined) out.bodyEn = values.bodyEn === null ? null : sanitizeHtml(values.bodyEn) || null;
  return out;
}

/**
 * The news the result publication writes (a published version's announcement, taken offline when
 * a later version replaces it), in the publication's transaction; news is owned here
 * (docs/architecture.md, "Database"). The body is the server's own HTML, stored as built.
 */
export async function insertResultNews(tx: Db, values: NewsInsert): Promise<string> {
  const [row] = await tx.insert(news).values(values).returning({ id: news.id });
  return row!.id;
}

/** Takes a published item offline (no-op when it is not published any more). */
export async function unpublishNews(tx: Db, id: string, at: Date): Promise<void> {
  await tx.update(news).set({ status: 'OFFLINE', updatedAt: at }).where(and(eq(news.id, id), eq(news.status, 'PUBLISHED')));
}

export function createNewsRepository(db: Db) {
  const adminList = createListQuery({
    rows: () => db.select(adminColumns).from(news).leftJoin(accountsView, eq(accountsView.id, news.authorId)).$dynamic(),
    count: () => db.select({ n: count() }).from(news).$dynamic(),
    sortable: { publishAt: news.publishAt, updatedAt: news.updatedAt },
    // Pinned first (as the public lists), then the last edited.
    defaultOrder: [
      { column: news.pinned, order: 'desc' },
      { column: news.updatedAt, order: 'desc' },
    ],
    tiebreak: { column: news.id, order: 'desc' },
  });

  return {
    /**
     * One page and the total in one statement (a window count); bodies stay out of lists, they
     * can be large. A page past the end has no row to carry the total, so it is counted apart.
     */
    async pagePublished(category: NewsCategory | undefined, page: number, size: number, now: Date): Promise<{ rows: NewsListRow[]; total: number }> {
      const where = visible(now, category);
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

    async findPublished(id: string, now: Date): Promise<NewsRow | undefined> {
      const [row] = await db.select().from(news).where(and(eq(news.id, id), visible(now)));
      return row;
    },

    async find(id: string, tx: Db = db): Promise<NewsRow | undefined> {
      const [row] = await tx.select().from(news).where(eq(news.id, id));
      return row;
    },

    /** The row, locked until the transaction ends: saves, publishing and deleting of one article queue up. */
    async lock(tx: Db, id: string): Promise<NewsRow | undefined> {
      const [row] = await tx.select().from(news).where(eq(news.id, id)).for('update');
      return row;
    },

    async authorName(id: string, tx: Db = db): Promise<string | null> {
      const [row] = await tx
        .select({ name: sql<string | null>`coalesce(${accountsView.name}, ${accountsView.username})` })
        .from(news)
        .leftJoin(accountsView, eq(accountsView.id, news.authorId))
        .where(eq(news.id, id));
      return row?.name ?? null;
    },

    /**
     * Neighbours of `row` in its category's list order (pinned, shown time, id; all descending):
     * the previous one sorts just above it, the next one just below.
     */
    async neighbours(
      row: NewsRow,
      now: Date,
    ): Promise<{ previous: Pick<NewsRow, 'id' | 'title' | 'titleEn'> | null; next: Pick<NewsRow, 'id' | 'title' | 'titleEn'> | null }> {
      const key = sql`(${pinnedRank}, ${shownAt}, ${news.id})`;
      // Read from the row itself: timestamps keep microseconds that a JS Date would lose.
      const own = sql`(select (case when o.pinned then 1 else 0 end), coalesce(o.publish_at, o.created_at), o.id from ${news} o where o.id = ${row.id})`;
      const cols = { id: news.id, title: news.title, titleEn: news.titleEn };
      const [[previous], [next]] = await Promise.all([
        db.select(cols).from(news).where(and(visible(now, row.category), sql`${key} > ${own}`)).orderBy(asc(news.pinned), asc(shownAt), asc(news.id)).limit(1),
        db.select(cols).from(news).where(and(visible(now, row.category), sql`${key} < ${own}`)).orderBy(...listOrder).limit(1),
      ]);
      return { previous: previous ?? null, next: next ?? null };
    },

    /** The admin list (every status): filters of GET /admin/news. */
    adminPage(q: AdminNewsListQuery): Promise<{ rows: AdminNewsListRow[]; total: number }> {
      return adminList.page(
        [
          equals(news.category, q.category),
          equals(news.status, q.status),
          equals(news.pinned, q.pinned),
          contains([news.title, news.titleEn], q.keyword),
          dateRange(news.publishAt, q.publishFrom, q.publishTo),
        ],
        q,
      );
    },

    /** A cover candidate: an upload of origin NEWS (stored public, so every reader may load it). */
    async newsImage(uniqueNo: string, tx: Db = db): Promise<{ uniqueNo: string } | undefined> {
      const [row] = await tx
        .select({ uniqueNo: attachmentsView.uniqueNo })
        .from(attachmentsView)
        .where(and(eq(attachmentsView.uniqueNo, uniqueNo), eq(attachmentsView.origin, 'NEWS'), eq(attachmentsView.isPublic, true)));
      return row;
    },

    async insert(tx: Db, values: NewsInsert): Promise<NewsRow> {
      const [row] = await tx.insert(news).values(cleanBodies(values)).returning();
      return row!;
    },

    /** `updatedAt` defaults to now; the admin service passes its own (strictly later) stamp. */
    async update(tx: Db, id: string, values: Partial<NewsInsert>): Promise<NewsRow | undefined> {
      const [row] = await tx
        .update(news)
        .set({ ...cleanBodies(values), updatedAt: values.updatedAt ?? new Date() })
        .where(eq(news.id, id))
        .returning();
      return row;
    },

    async delete(tx: Db, id: string): Promise<boolean> {
      const rows = await tx.delete(news).where(eq(news.id, id)).returning({ id: news.id });
      return rows.length > 0;
    },
  };
}
export type NewsRepository = ReturnType<typeof createNewsRepository>;
