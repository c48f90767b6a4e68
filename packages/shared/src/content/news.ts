import { z } from 'zod';
import { dateTimeQuery, keywordQuery, optionalQuery, pageQueryFields, rangeIsOrdered, type IsoDateTime } from '../admin/common.js';
import { sortQueryFields } from '../admin/list-query.js';
import { ADMIN_MSG } from '../admin/messages.js';
import { NEWS_CATEGORIES, NEWS_STATUSES, type Locale, type NewsCategory, type NewsStatus } from '../enums.js';
import { normalizeLocale } from '../locale.js';
import { CONTENT_MSG as M } from './messages.js';
import { NEWS_MSG as N } from './news-messages.js';

export { NEWS_MSG } from './news-messages.js';

// Categories (医保资讯 for /medical-insurance, 大赛动态 for /contest-dynamic) and statuses live in enums.ts.

/**
 * `lang` of the public reads: `en` answers the English title, summary and body where an article
 * has them (else the Chinese); anything else, or nothing, defers to the Accept-Language header.
 */
export const newsLangQuery = optionalQuery(z.string().max(35).transform((v): Locale | undefined => normalizeLocale(v) ?? undefined));

/** GET /news/{id}: the language only. */
export const newsDetailQuerySchema = z.object({ lang: newsLangQuery });
export type NewsDetailQuery = z.infer<typeof newsDetailQuerySchema>;

/** GET /news: published articles, pinned first, then newest first. No category = both. */
export const newsListQuerySchema = z.object({
  ...pageQueryFields,
  category: optionalQuery(z.enum(NEWS_CATEGORIES, { error: M.newsCategoryInvalid })),
  lang: newsLangQuery,
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

// ---- Administration (新闻资讯: /admin/user/siteContentManagement) ----

export const NEWS_TITLE_MAX = 100;
export const NEWS_SUMMARY_MAX = 300;
export const NEWS_SOURCE_MAX = 50;
/** Characters of HTML in one body (a language); images are links, so text alone never gets near. */
export const NEWS_BODY_MAX = 200_000;

/** Sort keys of the admin list; without one: pinned first, then the last edited. */
export const NEWS_ADMIN_SORTS = ['publishAt', 'updatedAt'] as const;

/** GET /admin/news: every status; the publish range reads Beijing time (docs/rules/screens.md, "Dates, sizes, toasts"). */
export const adminNewsListQuerySchema = z
  .object({
    ...pageQueryFields,
    ...sortQueryFields(NEWS_ADMIN_SORTS),
    category: optionalQuery(z.enum(NEWS_CATEGORIES, { error: M.newsCategoryInvalid })),
    status: optionalQuery(z.enum(NEWS_STATUSES, { error: N.newsStatusInvalid })),
    pinned: optionalQuery(z.enum(['true', 'false'], { error: N.newsPinnedInvalid }).transform((v) => v === 'true')),
    /** Title (Chinese or English) contains. */
    keyword: keywordQuery,
    publishFrom: dateTimeQuery,
    publishTo: dateTimeQuery,
  })
  .refine((v) => rangeIsOrdered({ from: v.publishFrom, to: v.publishTo }), { message: ADMIN_MSG.dateRangeInvalid, path: ['publishFrom'] });
export type AdminNewsListQuery = z.infer<typeof adminNewsListQuerySchema>;

const optionalText = (max: number, tooLong: string) =>
  z
    .string({ error: tooLong })
    .trim()
    .max(max, tooLong)
    .nullish()
    .transform((v) => v || null);

const isoTime = (message: string) => z.iso.datetime({ offset: true, error: message });

/**
 * POST /admin/news and PUT /admin/news/{id}: the article as the edit page sends it. Bodies are
 * HTML from the editor; the server keeps only its allow-list. `cover` is the uniqueNo (or the
 * stream path) of an image uploaded with origin NEWS.
 */
export const newsBodySchema = z.object({
  category: z.enum(NEWS_CATEGORIES, { error: (issue) => (issue.input === undefined ? N.newsCategoryRequired : M.newsCategoryInvalid) }),
  title: z.string({ error: N.newsTitleRequired }).trim().min(1, N.newsTitleRequired).max(NEWS_TITLE_MAX, N.newsTitleTooLong),
  titleEn: optionalText(NEWS_TITLE_MAX, N.newsTitleEnTooLong),
  summary: z.string({ error: N.newsSummaryTooLong }).trim().max(NEWS_SUMMARY_MAX, N.newsSummaryTooLong).nullish().transform((v) => v ?? ''),
  summaryEn: optionalText(NEWS_SUMMARY_MAX, N.newsSummaryEnTooLong),
  body: z.string({ error: N.newsBodyTooLong }).max(NEWS_BODY_MAX, N.newsBodyTooLong).nullish().transform((v) => v ?? ''),
  bodyEn: z.string({ error: N.newsBodyTooLong }).max(NEWS_BODY_MAX, N.newsBodyTooLong).nullish().transform((v) => v || null),
  source: optionalText(NEWS_SOURCE_MAX, N.newsSourceTooLong),
  cover: z.string({ error: N.newsCoverInvalid }).trim().max(300, N.newsCoverInvalid).nullish().transform((v) => v || null),
  /** When the article shows as published; a future time on a published article publishes it then. */
  publishAt: isoTime(N.newsPublishAtInvalid).nullish().transform((v) => v ?? null),
  pinned: z.boolean({ error: N.newsPinnedInvalid }).optional().default(false),
});
export type NewsBody = z.input<typeof newsBodySchema>;

/** PUT /admin/news/{id}: `updatedAt` as read, so a save over someone else's newer one is refused (STALE). */
export const newsUpdateSchema = newsBodySchema.extend({
  updatedAt: isoTime(N.newsVersionRequired),
});
export type NewsUpdateBody = z.input<typeof newsUpdateSchema>;

/** POST /admin/news/{id}/publish: without `publishAt`, the article's own publish time, or now when it has none. */
export const newsPublishSchema = z
  .object({ publishAt: isoTime(N.newsPublishAtInvalid).nullish() })
  .nullish()
  .transform((v) => ({ publishAt: v?.publishAt ?? null }));
export type NewsPublishBody = z.input<typeof newsPublishSchema>;

export const newsPinnedSchema = z.object({ pinned: z.boolean({ error: N.newsPinnedInvalid }) });
export type NewsPinnedBody = z.infer<typeof newsPinnedSchema>;

/** A row of the admin list. */
export interface AdminNewsRow {
  id: string;
  category: NewsCategory;
  title: string;
  titleEn: string | null;
  status: NewsStatus;
  /** Published with a publish time still ahead: the public lists show it from then on. */
  scheduled: boolean;
  pinned: boolean;
  coverPath: string | null;
  source: string | null;
  publishAt: IsoDateTime | null;
  createdAt: IsoDateTime;
  /** Also the version a save sends back (`updatedAt` of PUT). */
  updatedAt: IsoDateTime;
  /** Who wrote it (name or username), null once that account is gone. */
  authorName: string | null;
}

/** GET /admin/news/{id}: the whole article, bodies already allow-listed. */
export interface AdminNewsDetail extends AdminNewsRow {
  summary: string;
  summaryEn: string | null;
  body: string;
  bodyEn: string | null;
  /** uniqueNo of the cover image, for the edit form's upload field. */
  cover: string | null;
}
