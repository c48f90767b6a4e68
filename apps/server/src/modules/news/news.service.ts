import type { Locale, NewsDetail, NewsListItem, NewsListQuery, Page } from '@contest/shared';
import { CONTENT_MSG } from '@contest/shared';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import type { NewsListRow, NewsRepository, NewsRow } from './news.repository.js';

/** `YYYY-MM-DD` of the Beijing day (UTC+8, no daylight saving). */
export function beijingDate(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

/** The text an English page shows: the English one where written, else the Chinese (per field). */
const local = (locale: Locale, zh: string, en: string | null | undefined): string => (locale === 'en' && en ? en : zh);

function toListItem(row: NewsListRow, locale: Locale): NewsListItem {
  const shown = row.publishAt ?? row.createdAt;
  return {
    id: row.id,
    category: row.category,
    title: local(locale, row.title, row.titleEn),
    summary: local(locale, row.summary, row.summaryEn),
    coverPath: row.coverPath,
    source: row.source,
    pinned: row.pinned,
    publishAt: row.publishAt?.toISOString() ?? null,
    date: beijingDate(shown),
  };
}

type Neighbour = Pick<NewsRow, 'id' | 'title' | 'titleEn'> | null;

function toDetail(row: NewsRow, locale: Locale, neighbours: { previous: Neighbour; next: Neighbour }): NewsDetail {
  const neighbour = (n: Neighbour) => (n ? { id: n.id, title: local(locale, n.title, n.titleEn) } : null);
  // Sanitised again on the way out: rows written around the repository stay harmless.
  return {
    ...toListItem(row, locale),
    body: sanitizeHtml(local(locale, row.body, row.bodyEn)),
    status: row.status,
    previous: neighbour(neighbours.previous),
    next: neighbour(neighbours.next),
  };
}

export interface NewsServiceDeps {
  repo: NewsRepository;
  /** The clock deciding which published articles are due (tests move it). */
  now: () => Date;
}

/** The public news pages and /dynamic-look (docs/rules/content.md, "News"); writing is news-admin.service.ts. */
export function createNewsService({ repo, now }: NewsServiceDeps) {
  return {
    async list(query: NewsListQuery, locale: Locale = 'zh-cn'): Promise<Page<NewsListItem>> {
      const { rows, total } = await repo.pagePublished(query.category, query.page, query.size, now());
      return { list: rows.map((r) => toListItem(r, locale)), page: query.page, size: query.size, total };
    },

    async published(id: string, locale: Locale = 'zh-cn'): Promise<NewsDetail> {
      const at = now();
      const row = await repo.findPublished(id, at);
      if (!row) throw notFound(CONTENT_MSG.newsNotFound);
      return toDetail(row, locale, await repo.neighbours(row, at));
    },

    /** /dynamic-look: an admin sees any status; no neighbours (the article may not be listed). */
    async preview(id: string, locale: Locale = 'zh-cn'): Promise<NewsDetail> {
      const row = await repo.find(id);
      if (!row) throw notFound(CONTENT_MSG.newsNotFound);
      return toDetail(row, locale, { previous: null, next: null });
    },
  };
}
export type NewsService = ReturnType<typeof createNewsService>;
