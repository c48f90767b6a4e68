/**
 * Calls of the expert area (packages/shared/src/review/api.ts, "expert area"). Shapes come from
 * @contest/shared; this file names paths and query keys, and tells the agreement refusal apart.
 */
import type {
  ExpertOverview,
  ExpertProjectDetail,
  ExpertProjectQuery,
  ExpertProjectRow,
  Page,
  RoundSlug,
  SheetBody,
} from '@contest/shared';
import { ApiError } from '../../api';
import { api, dataOf } from '../../lib/api';

export const EXPERT_QUERY_KEYS = {
  all: ['expert', 'review'] as const,
  overview: ['expert', 'review', 'overview'] as const,
  list: (slug: RoundSlug) => ['expert', 'review', slug, 'list'] as const,
  detail: (slug: RoundSlug, id: string) => ['expert', 'review', slug, 'detail', id] as const,
};

/** Sheet writes report their refusals on the page (a STALE answer reloads instead): no second toast. */
const SILENT = { silent: true } as const;

export const fetchOverview = () => dataOf(api.get<ExpertOverview>('/expert/review/overview'));

export type ExpertListParams = Partial<Omit<ExpertProjectQuery, 'page' | 'size'>> & { page: number; size: number };

export const fetchProjects = (slug: RoundSlug, params: ExpertListParams | Record<string, unknown>) =>
  dataOf(api.get<Page<ExpertProjectRow>>(`/expert/review/${slug}/list`, { params }));

export const fetchProject = (slug: RoundSlug, id: string) =>
  dataOf(api.get<ExpertProjectDetail>(`/expert/review/${slug}/${encodeURIComponent(id)}`));

/**
 * Draft: keeps the sheet open. `version` is the one the expert saw (absent on a first save).
 * Both writes answer the project as GET /expert/review/:r/:id shows it after the write.
 */
export const saveSheet = (slug: RoundSlug, id: string, body: SheetBody) =>
  dataOf(api.put<ExpertProjectDetail>(`/expert/review/${slug}/${encodeURIComponent(id)}/sheet`, body, SILENT));

export const submitSheet = (slug: RoundSlug, id: string, body: SheetBody) =>
  dataOf(api.post<ExpertProjectDetail>(`/expert/review/${slug}/${encodeURIComponent(id)}/sheet/submit`, body, SILENT));

/** Reasons of a refused write that mean the sheet moved on (window closed, submitted meanwhile): reload it. */
export function isOutdatedRefusal(error: unknown): boolean {
  if (!(error instanceof ApiError) || error.status !== 400) return false;
  const reason = (error.data as { reason?: unknown } | null)?.reason;
  return reason === 'CLOSED' || reason === 'NOT_ALLOWED';
}

/** PUT /user/agreement: the review agreement, once (docs/rules/review.md, "Review agreement"). */
export const acceptAgreement = () => api.put('/user/agreement');

/** 403 with data.reason AGREEMENT_REQUIRED: every review call until the agreement is accepted. */
export function isAgreementRequired(error: unknown): boolean {
  return (
    error instanceof ApiError && error.status === 403 && (error.data as { reason?: unknown } | null)?.reason === 'AGREEMENT_REQUIRED'
  );
}

export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && error.status === 404;
}
