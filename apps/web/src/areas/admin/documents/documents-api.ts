/**
 * Calls of 文档管理 (/admin/user/docManage) and of 站点内容 (the site blocks), docs/api-content.md.
 * Shapes come from @contest/shared (content/documents.ts, content/site.ts); this file only names
 * paths and query keys.
 */
import type { DocumentAdminRow, DocumentBody, Page, SiteBlockAdmin, SiteBlockBody, SiteContentKey } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const DOC_PATHS = {
  list: '/admin/user/docManage',
  create: '/admin/user/docManagement-edit',
  edit: (id: string) => `/admin/user/docManagement-edit/${encodeURIComponent(id)}`,
  siteBlocks: '/admin/user/siteContentManagement-blocks',
};

export const DOC_QUERY_KEYS = {
  all: ['admin', 'documents'] as const,
  list: ['admin', 'documents', 'list'] as const,
  detail: (id: string) => ['admin', 'documents', 'detail', id] as const,
  siteBlocks: ['admin', 'site-content'] as const,
};

/** Query keys of the public pages (site area, /module) that show documents and blocks: refreshed after a change here. */
export const PUBLIC_DOCUMENT_KEYS = ['documents'] as const;
export const PUBLIC_SITE_CONTENT_KEYS = ['site-content'] as const;

/** Forms place refusals under their fields themselves, not a second time in a toast. */
const SILENT = { silent: true } as const;

export const fetchDocuments = (params: object) => dataOf(api.get<Page<DocumentAdminRow>>('/admin/documents', { params }));
export const fetchDocument = (id: string) => dataOf(api.get<DocumentAdminRow>(`/admin/documents/${encodeURIComponent(id)}`));
export const createDocument = (body: DocumentBody) => dataOf(api.post<DocumentAdminRow>('/admin/documents', body, SILENT));
export const updateDocument = (id: string, body: DocumentBody) => dataOf(api.put<DocumentAdminRow>(`/admin/documents/${encodeURIComponent(id)}`, body, SILENT));
export const setDocumentEnabled = (id: string, enabled: boolean) =>
  dataOf(api.put<DocumentAdminRow>(`/admin/documents/${encodeURIComponent(id)}/enabled`, { enabled }));
export const deleteDocument = (id: string) => dataOf(api.delete<null>(`/admin/documents/${encodeURIComponent(id)}`));

export const fetchSiteBlocks = () => dataOf(api.get<SiteBlockAdmin[]>('/admin/site-content'));
export const saveSiteBlock = (key: SiteContentKey, body: SiteBlockBody) => dataOf(api.put<SiteBlockAdmin>(`/admin/site-content/${key}`, body, SILENT));
