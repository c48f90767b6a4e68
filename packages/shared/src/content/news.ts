import { z } from 'zod';
import { optionalQuery, pageQueryFields, type IsoDateTime } from '../admin/common.js';
import { NEWS_CATEGORIES, type NewsCategory, type NewsStatus } from '../enums.js';
import { CONTENT_MSG as M } from './messages.js';

// Categories (医保资讯 for /medical-insurance, 大赛动态 for /contest-dynamic) and statuses live in enums.ts.

/** GET /news: published articles, pinned first, then newest first. No category = both. */
export const newsListQuerySchema = z.object({
  ...pageQueryFields,
  category: optionalQuery(z.enum(NEWS_CATEGORIES, { error: M.newsCategoryInvalid })),
});
export type NewsListQuery = z.infer<typeof newsListQuerySchema>;

export interface NewsListItem {
  id: string;
  category: NewsCategory;
  title: string;
  summary: string;
  /** filePath of the cover image (`/api/attachment/stream/<uniqueNo>`), public; null without one. */
  coverPath: string | null;
  source: string | null;
  pinned: boolean;
  publishAt: IsoDateTime | null;
  /** Publish day in Beijing time, `YYYY-MM-DD`, as the lists show it. */
  date: string;
}

/** A neighbour in the same category, in list order (previous = shown above). */
export interface NewsNeighbour {
  id: string;
  title: string;
}

export interface NewsDetail extends NewsListItem {
  /** Allow-listed HTML (sanitised when stored and again when served). */
  body: string;
  status: NewsStatus;
  previous: NewsNeighbour | null;
  next: NewsNeighbour | null;
}
