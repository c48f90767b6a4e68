/**
 * Calls of the expert area (packages/shared/src/review/api.ts, "expert area"). Shapes come from
 * @contest/shared; this file names paths and query keys, and tells the agreement refusal apart.
 */
import type {
  AbstainBody,
  DeclaredOrgBody,
  ExpertOrganisations,
  ExpertOverview,
  ExpertProjectDetail,
  ExpertProjectQuery,
  ExpertProjectRow,
  Page,
  RoundSlug,
  SheetBody,
  SheetView,
} from '@contest/shared';
import { ApiError } from '../../api';
import { api, dataOf } from '../../lib/api';

export const EXPERT_QUERY_KEYS = {
  all: ['expert', 'review'] as const,
  overview: ['expert', 'review', 'overview'] as const,
  list: (slug: RoundSlug) => ['expert', 'review', slug, 'list'] as const,
  detail: (slug: RoundSlug, id: string) => ['expert', 'review', slug, 'detail', id] as const,
  /** 申报回避单位: outside 'review', so that invalidating the review data does not read it again. */
  organisations: ['expert', 'organisations'] as const,
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

/**
 * 回避 (docs/rules/review.md, "Abstaining"): final. Answers the sheet (ABSTAINED, the reason in
 * returnReason); the project is then no longer the expert's (its GET answers 404).
 */
export const abstainSheet = (slug: RoundSlug, id: string, body: AbstainBody) =>
  dataOf(api.post<SheetView>(`/expert/review/${slug}/${encodeURIComponent(id)}/abstain`, body, SILENT));

/** 申报回避单位 (docs/api-review.md, "Declared organisations"): the expert's own and declared organisations. */
export const fetchOrganisations = () => dataOf(api.get<ExpertOrganisations>('/expert/organisations'));

/** One more declared organisation (no removal: that goes through the admins). Answers the whole list. */
export const declareOrganisation = (body: DeclaredOrgBody) =>
  dataOf(api.post<ExpertOrganisations>('/expert/organisations', body, SILENT));

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
