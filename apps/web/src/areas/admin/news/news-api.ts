/**
 * Calls of 新闻资讯 (/admin/user/siteContentManagement, docs/api-content.md "News administration").
 * Shapes come from @contest/shared (content/news.ts); this file only names paths and query keys.
 */
import type { AdminNewsDetail, AdminNewsRow, NewsBody, NewsUpdateBody, Page } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const NEWS_QUERY_KEYS = {
  all: ['admin', 'news'] as const,
  list: ['admin', 'news', 'list'] as const,
  detail: (id: string) => ['admin', 'news', 'detail', id] as const,
};

/** The edit page shows refusals under their field (or as a banner), not a second time in a toast. */
const SILENT = { silent: true } as const;

export const fetchNewsList = (params: object) => dataOf(api.get<Page<AdminNewsRow>>('/admin/news', { params }));
export const fetchNewsDetail = (id: string) => dataOf(api.get<AdminNewsDetail>(`/admin/news/${id}`));

export const createNews = (body: NewsBody) => api.post<AdminNewsDetail>('/admin/news', body, SILENT);
export const updateNews = (id: string, body: NewsUpdateBody) => api.put<AdminNewsDetail>(`/admin/news/${id}`, body, SILENT);

/** Without `publishAt`: the article's own publish time, or now. A time ahead schedules it. */
export const publishNews = (id: string, publishAt?: string | null, silent = false) =>
  api.post<AdminNewsDetail>(`/admin/news/${id}/publish`, publishAt ? { publishAt } : {}, silent ? SILENT : undefined);
export const offlineNews = (id: string) => api.post<AdminNewsDetail>(`/admin/news/${id}/offline`);
export const pinNews = (id: string, pinned: boolean) => api.put<AdminNewsDetail>(`/admin/news/${id}/pinned`, { pinned });
export const deleteNews = (id: string) => api.delete<null>(`/admin/news/${id}`);

/** The public site's preview of any status, read with the admin token (/dynamic-look). */
export const previewPath = (id: string) => `/dynamic-look?id=${encodeURIComponent(id)}`;
export const editPath = (id?: string) => `/admin/user/siteContentManagement-edit${id ? `/${id}` : ''}`;
export const detailPath = (id: string) => `/admin/user/siteContentManagement-detail/${id}`;
export const LIST_PATH = '/admin/user/siteContentManagement';
/** 内容管理's page of the home page blocks and the sign-up guide (the documents helper's page). */
export const BLOCKS_PATH = '/admin/user/siteContentManagement-blocks';
