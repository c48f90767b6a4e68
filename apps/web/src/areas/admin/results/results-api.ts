/**
 * Calls of 结果发布 and 申诉处理 (docs/api-results.md). Shapes come from @contest/shared; this
 * file only names paths and query keys. `slug` is a round slug (prelim | final).
 */
import type {
  AppealAcceptBody,
  AppealDetail,
  AppealRejectBody,
  AppealRow,
  NewVersionBody,
  NewVersionPreview,
  NewVersionPreviewBody,
  Page,
  PublishBodyInput,
  PublishPreview,
  PublishResult,
  ResultEntryView,
  ResultVersionList,
  ResultsOverview,
  RoundSlug,
  VersionCompare,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const RESULTS_QUERY_KEYS = {
  all: ['admin', 'results'] as const,
  overview: ['admin', 'results', 'overview'] as const,
  round: (slug: RoundSlug) => ['admin', 'results', slug] as const,
  versions: (slug: RoundSlug) => ['admin', 'results', slug, 'versions'] as const,
  entries: (slug: RoundSlug, version: number) => ['admin', 'results', slug, 'entries', version] as const,
  compare: (slug: RoundSlug, a: number, b: number, changedOnly: boolean, keyword: string) =>
    ['admin', 'results', slug, 'compare', a, b, changedOnly, keyword] as const,
  appeals: ['admin', 'appeals', 'list'] as const,
  appeal: (id: string) => ['admin', 'appeals', 'detail', id] as const,
};

/** Writes report their refusals inside their dialog or panel, not a second time in a toast. */
const SILENT = { silent: true } as const;

const base = (slug: RoundSlug) => `/admin/results/${slug}`;

// Publication
export const fetchOverview = () => dataOf(api.get<ResultsOverview>('/admin/results/overview'));
export const previewPublish = (slug: RoundSlug, body: PublishBodyInput) =>
  dataOf(api.post<PublishPreview>(`${base(slug)}/publish/preview`, body, SILENT));
export const publishResult = (slug: RoundSlug, body: PublishBodyInput) =>
  dataOf(api.post<PublishResult>(`${base(slug)}/publish`, body, SILENT));
export const fetchVersions = (slug: RoundSlug) => dataOf(api.get<ResultVersionList>(`${base(slug)}/versions`));
export const fetchEntries = (slug: RoundSlug, version: number, params: object) =>
  dataOf(api.get<Page<ResultEntryView>>(`${base(slug)}/versions/${version}/entries`, { params }));
export const fetchCompare = (slug: RoundSlug, params: { a: number; b: number; changedOnly?: boolean; keyword?: string }) =>
  dataOf(api.get<VersionCompare>(`${base(slug)}/versions/compare`, { params }));
export const previewNewVersion = (slug: RoundSlug, body: NewVersionPreviewBody) =>
  dataOf(api.post<NewVersionPreview>(`${base(slug)}/versions/preview`, body, SILENT));
export const publishNewVersion = (slug: RoundSlug, body: NewVersionBody) =>
  dataOf(api.post<PublishResult>(`${base(slug)}/versions`, body, SILENT));

// Appeals
export const fetchAppeals = (params: object) => dataOf(api.get<Page<AppealRow>>('/admin/appeals', { params }));
export const fetchAppeal = (id: string) => dataOf(api.get<AppealDetail>(`/admin/appeals/${encodeURIComponent(id)}`));
export const rejectAppeal = (id: string, body: AppealRejectBody) =>
  dataOf(api.post<AppealDetail>(`/admin/appeals/${encodeURIComponent(id)}/reject`, body, SILENT));
export const acceptAppeal = (id: string, body: AppealAcceptBody) =>
  dataOf(api.post<AppealDetail>(`/admin/appeals/${encodeURIComponent(id)}/accept`, body, SILENT));
