import type { NewsDetail, NewsListItem, NewsListQuery, Page } from '@contest/shared';
import { CONTENT_MSG } from '@contest/shared';
import { notFound } from '../../lib/errors.js';
import { sanitizeHtml } from '../../lib/sanitize-html.js';
import type { NewsListRow, NewsRepository, NewsRow } from './news.repository.js';

/** `YYYY-MM-DD` of the Beijing day (UTC+8, no daylight saving). */
export function beijingDate(at: Date): string {
  return new Date(at.getTime() + 8 * 3600_000).toISOString().slice(0, 10);
}

function toListItem(row: NewsListRow): NewsListItem {
  const shown = row.publishAt ?? row.createdAt;
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    summary: row.summary,
    coverPath: row.coverPath,
    source: row.source,
    pinned: row.pinned,
    publishAt: row.publishAt?.toISOString() ?? null,
    date: beijingDate(shown),
  };
}

function toDetail(row: NewsRow, neighbours: Pick<NewsDetail, 'previous' | 'next'>): NewsDetail {
  // Sanitised again on the way out: rows written around the repository stay harmless.
  return { ...toListItem(row), body: sanitizeHtml(row.body), status: row.status, ...neighbours };
}

export function createNewsService(repo: NewsRepository) {
  return {
    async list(query: NewsListQuery): Promise<Page<NewsListItem>> {
      const { rows, total } = await repo.pagePublished(query.category, query.page, query.size);
      return { list: rows.map(toListItem), page: query.page, size: query.size, total };
    },

    async published(id: string): Promise<NewsDetail> {
      const row = await repo.findPublished(id);
      if (!row) throw notFound(CONTENT_MSG.newsNotFound);
      return toDetail(row, await repo.neighbours(row));
    },

    /** /dynamic-look: an admin sees any status; no neighbours (the article may not be listed). */
    async preview(id: string): Promise<NewsDetail> {
      const row = await repo.find(id);
      if (!row) throw notFound(CONTENT_MSG.newsNotFound);
      return toDetail(row, { previous: null, next: null });
    },
  };
}
export type NewsService = ReturnType<typeof createNewsService>;
