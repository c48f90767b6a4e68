/**
 * Calls of the public site (docs/api-content.md, docs/api-contest.md) and their query keys.
 * If an answer changes shape, only this file changes.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  API_BASE,
  PAGE_SIZE_DEFAULT,
  type ApiEnvelope,
  type DictOptions,
  type DocCategory,
  type DocumentItem,
  type Locale,
  type NewsCategory,
  type NewsDetail,
  type NewsListItem,
  type Page,
  type SiteBlock,
  type SiteContentKey,
} from '@contest/shared';
import { ApiError } from '../../api';
import { api } from '../../lib/api';
import { CONTEST_PUBLIC_QUERY, fetchContestPublic } from '../../lib/contest-name';
import { getToken, useToken } from '../../lib/session';
import { saveBlob } from '../../lib/save-blob';
import { dictLang } from '../../lib/dict-lang';

export async function fetchNewsPage(params: { category?: NewsCategory; page: number; size?: number; lang?: Locale }): Promise<Page<NewsListItem>> {
  const { category, page, size = PAGE_SIZE_DEFAULT, lang = dictLang() } = params;
  return (await api.get<Page<NewsListItem>>('/news', { params: { category, page, size, lang } })).data;
}

/** A news list page (pinned first, then newest: the server's order); the previous page stays while the next loads. */
export function useNewsPage(category: NewsCategory | undefined, page: number, size = PAGE_SIZE_DEFAULT) {
  const lang = usePageLang();
  return useQuery({
    queryKey: ['news', 'list', category ?? 'ALL', page, size, lang],
    queryFn: () => fetchNewsPage({ category, page, size, lang }),
    placeholderData: keepPreviousData,
  });
}

export async function fetchNews(id: string, lang: Locale = dictLang()): Promise<NewsDetail> {
  return (await api.get<NewsDetail>(`/news/${encodeURIComponent(id)}`, { params: { lang } })).data;
}

export function useNews(id: string | null) {
  const lang = usePageLang();
  return useQuery({
    queryKey: ['news', 'detail', id, lang],
    queryFn: () => fetchNews(id!, lang),
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
export async function fetchNewsPreview(id: string, lang: Locale = dictLang()): Promise<NewsDetail> {
  const token = getToken('ADMIN');
  if (!token) throw new ApiError({ status: 401, code: 'UNAUTHORIZED', message: '', data: null });
  const res = await fetch(`${API_BASE}/admin/news/${encodeURIComponent(id)}/preview?lang=${encodeURIComponent(lang)}`, {
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
  const lang = usePageLang();
  return useQuery({
    queryKey: ['news', 'preview', id, lang],
    queryFn: () => fetchNewsPreview(id!, lang),
    enabled: !!id,
    retry: false,
  });
}

/**
 * The page's language for the document and block reads (English texts where written, else the
 * Chinese). Sent always: without it the server would follow the browser's Accept-Language.
 */
function usePageLang(): Locale {
  const { i18n } = useTranslation();
  return dictLang(i18n.resolvedLanguage ?? i18n.language);
}

export async function fetchSiteBlock(key: SiteContentKey, lang: Locale = dictLang()): Promise<SiteBlock> {
  return (await api.get<SiteBlock>(`/site/content/${key}`, { params: { lang } })).data;
}

export function useSiteBlock(key: SiteContentKey) {
  const lang = usePageLang();
  return useQuery({ queryKey: ['site-content', key, lang], queryFn: () => fetchSiteBlock(key, lang) });
}

/** Several blocks in one call (the home page), keyed by block; a block left out is simply absent. */
export async function fetchSiteBlocks(keys: readonly SiteContentKey[], lang: Locale = dictLang()): Promise<Partial<Record<SiteContentKey, SiteBlock>>> {
  return (await api.get<Partial<Record<SiteContentKey, SiteBlock>>>('/site/content', { params: { keys: keys.join(','), lang } }))
    .data;
}

export function useSiteBlocks(keys: readonly SiteContentKey[]) {
  const lang = usePageLang();
  return useQuery({
    queryKey: ['site-content', 'batch', lang, ...keys],
    queryFn: () => fetchSiteBlocks(keys, lang),
    // The home page still shows its built-in texts when the blocks cannot be loaded.
    retry: false,
  });
}

export { fetchContestPublic };

/**
 * Names of the TRACK dictionary in English (GET /dic/public, the console's query key): the home
 * page's track list on English pages when the tracks block has no English text. Silent: the
 * section simply stays without a list.
 */
export function useTrackNames(): string[] {
  const { data } = useQuery({
    queryKey: ['dic', 'public', 'en', 'TRACK'],
    queryFn: async () => (await api.get<DictOptions>('/dic/public', { params: { types: ['TRACK'], lang: 'en' }, silent: true })).data,
    retry: false,
  });
  return Array.isArray(data?.TRACK) ? data.TRACK.map((item) => item.name) : [];
}

/** The same query as the app's contest name (lib/contest-name.ts), so the page makes one request. */
export function useContestPublic() {
  return useQuery(CONTEST_PUBLIC_QUERY);
}

export async function fetchDocuments(category: DocCategory, lang: Locale = dictLang()): Promise<DocumentItem[]> {
  return (await api.get<DocumentItem[]>('/documents', { params: { category, lang } })).data;
}

/** The documents of a category the caller may see (a signed-in participant sees more), titled in the page's language. */
export function useDocuments(category: DocCategory) {
  const token = useToken('USER');
  const lang = usePageLang();
  return useQuery({
    // The token is part of the key: logging in or out changes what the list holds.
    queryKey: ['documents', category, token ? 'signed-in' : 'anonymous', lang],
    queryFn: () => fetchDocuments(category, lang),
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

