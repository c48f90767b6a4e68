/**
 * Calls of the public site (docs/api-content.md, docs/api-contest.md) and their query keys.
 * If an answer changes shape, only this file changes.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  API_BASE,
  PAGE_SIZE_DEFAULT,
  type ApiEnvelope,
  type ContestPublic,
  type DocCategory,
  type DocumentItem,
  type NewsCategory,
  type NewsDetail,
  type NewsListItem,
  type Page,
  type SiteBlock,
  type SiteContentKey,
} from '@contest/shared';
import { ApiError } from '../../api';
import { api } from '../../lib/api';
import { getToken, useToken } from '../../lib/session';
import { saveBlob } from '../../lib/save-blob';

export async function fetchNewsPage(params: { category?: NewsCategory; page: number; size?: number }): Promise<Page<NewsListItem>> {
  const { category, page, size = PAGE_SIZE_DEFAULT } = params;
  return (await api.get<Page<NewsListItem>>('/news', { params: { category, page, size } })).data;
}

/** A news list page (pinned first, then newest: the server's order); the previous page stays while the next loads. */
export function useNewsPage(category: NewsCategory | undefined, page: number, size = PAGE_SIZE_DEFAULT) {
  return useQuery({
    queryKey: ['news', 'list', category ?? 'ALL', page, size],
    queryFn: () => fetchNewsPage({ category, page, size }),
    placeholderData: keepPreviousData,
  });
}

export async function fetchNews(id: string): Promise<NewsDetail> {
  return (await api.get<NewsDetail>(`/news/${encodeURIComponent(id)}`)).data;
}

export function useNews(id: string | null) {
  return useQuery({
    queryKey: ['news', 'detail', id],
    queryFn: () => fetchNews(id!),
    enabled: !!id,
    retry: false,
  });
}

/**
 * The admin's preview of an unpublished article. /dynamic-look is a site page, so the shared
 * client would send the participant's token and treat a 401 as the participant's session
 * ending. This call belongs to the AdminToken realm: it carries that token itself and a
 * refusal only means "no preview" here, never a logout of anyone.
 */
export async function fetchNewsPreview(id: string): Promise<NewsDetail> {
  const token = getToken('ADMIN');
  if (!token) throw new ApiError({ status: 401, code: 'UNAUTHORIZED', message: '', data: null });
  const res = await fetch(`${API_BASE}/admin/news/${encodeURIComponent(id)}/preview`, {
    headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
    credentials: 'include',
  });
  let body: ApiEnvelope<NewsDetail> | null = null;
  try {
    body = (await res.json()) as ApiEnvelope<NewsDetail>;
  } catch {
    body = null;
  }
  if (!body || body.status !== 200) {
    throw new ApiError({
      status: body?.status ?? res.status,
      code: body?.code ?? 'HTTP_ERROR',
      message: body?.message ?? '',
      data: null,
    });
  }
  return body.data;
}

export function useNewsPreview(id: string | null) {
  return useQuery({
    queryKey: ['news', 'preview', id],
    queryFn: () => fetchNewsPreview(id!),
    enabled: !!id,
    retry: false,
  });
}

export async function fetchSiteBlock(key: SiteContentKey): Promise<SiteBlock> {
  return (await api.get<SiteBlock>(`/site/content/${key}`)).data;
}

export function useSiteBlock(key: SiteContentKey) {
  return useQuery({ queryKey: ['site-content', key], queryFn: () => fetchSiteBlock(key) });
}

/** Several blocks in one call (the home page), keyed by block; a block left out is simply absent. */
export async function fetchSiteBlocks(keys: readonly SiteContentKey[]): Promise<Partial<Record<SiteContentKey, SiteBlock>>> {
  return (await api.get<Partial<Record<SiteContentKey, SiteBlock>>>('/site/content', { params: { keys: keys.join(',') } }))
    .data;
}

export function useSiteBlocks(keys: readonly SiteContentKey[]) {
  return useQuery({
    queryKey: ['site-content', 'batch', ...keys],
    queryFn: () => fetchSiteBlocks(keys),
    // The home page still shows its built-in texts when the blocks cannot be loaded.
    retry: false,
  });
}

export async function fetchContestPublic(): Promise<ContestPublic> {
  return (await api.get<ContestPublic>('/contest/public')).data;
}

export function useContestPublic() {
  return useQuery({ queryKey: ['contest', 'public'], queryFn: fetchContestPublic, retry: false });
}

export async function fetchDocuments(category: DocCategory): Promise<DocumentItem[]> {
  return (await api.get<DocumentItem[]>('/documents', { params: { category } })).data;
}

/** The documents of a category the caller may see (a signed-in participant sees more). */
export function useDocuments(category: DocCategory) {
  const token = useToken('USER');
  return useQuery({
    // The token is part of the key: logging in or out changes what the list holds.
    queryKey: ['documents', category, token ? 'signed-in' : 'anonymous'],
    queryFn: () => fetchDocuments(category),
  });
}

/**
 * Downloads through the API client, so the participant's token goes along (documents for
 * signed-in participants are not public links). An envelope instead of a file has already
 * been toasted by the client.
 */
export async function downloadDocument(doc: Pick<DocumentItem, 'downloadPath' | 'file'>): Promise<void> {
  const path = doc.downloadPath.startsWith(API_BASE) ? doc.downloadPath.slice(API_BASE.length) : doc.downloadPath;
  const result = await api.get(path, { responseType: 'blob' });
  if ('blob' in result) saveBlob(result, doc.file.name);
}

