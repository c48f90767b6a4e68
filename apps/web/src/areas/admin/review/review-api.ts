/**
 * Calls of the expert-review console pages, both rounds (packages/shared/src/review/api.ts).
 * Shapes come from @contest/shared; this file only names paths and query keys. `slug` is a
 * round slug (ROUND_SLUGS: prelim | final).
 */
import type {
  AssignPreview,
  ExpertRow,
  GroupBody,
  GroupView,
  GroupsOverview,
  MonitorExpertDetail,
  MonitorExpertRow,
  MonitorProjectRow,
  MoveBody,
  Page,
  PromotionBody,
  PromotionConfirmBody,
  PromotionPreview,
  PromotionRecord,
  PromotionResult,
  RemindExpertsBody,
  RemindExpertsResult,
  RereviewBody,
  ReturnSheetBody,
  RoundProjectRow,
  RoundSlug,
  RubricPut,
  RubricView,
  ScoreDetail,
  ScoreList,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const REVIEW_QUERY_KEYS = {
  all: ['admin', 'review'] as const,
  round: (slug: RoundSlug) => ['admin', 'review', slug] as const,
  groups: (slug: RoundSlug) => ['admin', 'review', slug, 'groups'] as const,
  projects: (slug: RoundSlug) => ['admin', 'review', slug, 'projects'] as const,
  rubric: (slug: RoundSlug) => ['admin', 'review', slug, 'rubric'] as const,
  scores: (slug: RoundSlug) => ['admin', 'review', slug, 'scores'] as const,
  score: (slug: RoundSlug, id: string) => ['admin', 'review', slug, 'scores', 'detail', id] as const,
  monitorExperts: (slug: RoundSlug) => ['admin', 'review', slug, 'monitor', 'experts'] as const,
  monitorExpert: (slug: RoundSlug, id: string) => ['admin', 'review', slug, 'monitor', 'expert', id] as const,
  monitorProjects: (slug: RoundSlug) => ['admin', 'review', slug, 'monitor', 'projects'] as const,
  expertOptions: (keyword: string) => ['admin', 'review', 'expert-options', keyword] as const,
  promotions: ['admin', 'final', 'promotions'] as const,
};

/** Writes report their refusals inside their dialog, not a second time in a toast. */
const SILENT = { silent: true } as const;

const base = (slug: RoundSlug) => `/admin/review/${slug}`;

// Experts to choose from (专家库): the pickers search it.
export const fetchExpertOptions = (params: { keyword?: string; size?: number }) =>
  dataOf(api.get<Page<ExpertRow>>('/admin/expert/list', { params: { page: 1, size: 100, ...params }, silent: true }));

// Rubric and rule
export const fetchRubric = (slug: RoundSlug) => dataOf(api.get<RubricView>(`${base(slug)}/rubric`));
export const saveRubric = (slug: RoundSlug, body: RubricPut) => dataOf(api.put<RubricView>(`${base(slug)}/rubric`, body, SILENT));

// Groups and assignment
export const fetchGroups = (slug: RoundSlug) => dataOf(api.get<GroupsOverview>(`${base(slug)}/groups`));
/** For filters of other pages: an admin without the groups menu simply gets no group options. */
export const fetchGroupOptions = (slug: RoundSlug) => dataOf(api.get<GroupsOverview>(`${base(slug)}/groups`, SILENT));
export const createGroup = (slug: RoundSlug, body: GroupBody) => dataOf(api.post<GroupView>(`${base(slug)}/groups`, body, SILENT));
export const updateGroup = (slug: RoundSlug, id: string, body: GroupBody) =>
  dataOf(api.put<GroupView>(`${base(slug)}/groups/${id}`, body, SILENT));
export const deleteGroup = (slug: RoundSlug, id: string) => dataOf(api.delete<null>(`${base(slug)}/groups/${id}`));
export const fetchRoundProjects = (slug: RoundSlug, params: object) =>
  dataOf(api.get<Page<RoundProjectRow>>(`${base(slug)}/projects`, { params }));
export const moveProject = (slug: RoundSlug, id: string, body: MoveBody) =>
  dataOf(api.post<unknown>(`${base(slug)}/projects/${id}/move`, body, SILENT));
export const previewAssign = (slug: RoundSlug) => dataOf(api.post<AssignPreview>(`${base(slug)}/assign/preview`, {}, SILENT));
/** How many projects the apply placed (the server's AssignApplyResult). */
export interface AssignApplied {
  assigned: number;
}
export const applyAssign = (slug: RoundSlug, token: string) =>
  dataOf(api.post<AssignApplied | null>(`${base(slug)}/assign/apply`, { token }, SILENT));

// Score query
export const fetchScores = (slug: RoundSlug, params: object) => dataOf(api.get<ScoreList>(`${base(slug)}/scores`, { params }));
export const scoresExportUrl = (slug: RoundSlug) => `${base(slug)}/scores/export`;
export const fetchScoreDetail = (slug: RoundSlug, id: string) => dataOf(api.get<ScoreDetail>(`${base(slug)}/scores/${id}`));
export const returnSheet = (slug: RoundSlug, sheetId: string, body: ReturnSheetBody) =>
  dataOf(api.post<unknown>(`${base(slug)}/sheets/${sheetId}/return`, body, SILENT));
export const startRereview = (slug: RoundSlug, projectId: string, body: RereviewBody) =>
  dataOf(api.post<unknown>(`${base(slug)}/projects/${projectId}/rereview`, body, SILENT));

// Monitoring
export const fetchMonitorExperts = (slug: RoundSlug, params: object) =>
  dataOf(api.get<Page<MonitorExpertRow>>(`${base(slug)}/monitor/experts`, { params }));
export const fetchMonitorExpert = (slug: RoundSlug, id: string) =>
  dataOf(api.get<MonitorExpertDetail>(`${base(slug)}/monitor/experts/${id}`));
export const fetchMonitorProjects = (slug: RoundSlug, params: object) =>
  dataOf(api.get<Page<MonitorProjectRow>>(`${base(slug)}/monitor/projects`, { params }));
export const remindExperts = (slug: RoundSlug, body: Partial<RemindExpertsBody>) =>
  dataOf(api.post<RemindExpertsResult>(`${base(slug)}/monitor/remind`, body));

// Promotion (晋级决赛)
export const previewPromotion = (body: PromotionBody) =>
  dataOf(api.post<PromotionPreview>('/admin/final/promotion/preview', body, SILENT));
export const confirmPromotion = (body: PromotionConfirmBody) =>
  dataOf(api.post<PromotionResult>('/admin/final/promotion/confirm', body, SILENT));
/** Newest first. Read as a list or a page, whichever the server sends. */
export const fetchPromotions = async (): Promise<PromotionRecord[]> => {
  const answer = await dataOf(api.get<PromotionRecord[] | Page<PromotionRecord>>('/admin/final/promotions'));
  return Array.isArray(answer) ? answer : answer.list;
};
