/**
 * Calls of the 报名管理 pages (docs/api-contest.md, "Console calls for contest operations").
 * Decisions are sent `silent`: the audit dialog and panel show a refusal next to the form
 * instead of a toast.
 */
import type {
  AdminAuditInput,
  BatchAuditInput,
  BatchResult,
  Page,
  QueueNext,
  RemindInput,
  RemindResult,
  TeamAdminDetail,
  TeamAdminRow,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const TEAM_QUERY_KEYS = {
  list: ['admin', 'teams'] as const,
  // Not under `list`: invalidating the lists must not read a detail page twice.
  detail: (id: string) => ['admin', 'team-detail', id] as const,
  drafts: ['admin', 'team-drafts'] as const,
  draft: (id: string) => ['admin', 'team-drafts', 'detail', id] as const,
  queue: ['admin', 'team-queue'] as const,
};

export const TEAM_EXPORT_URL = '/admin/team/export';

export const fetchTeams = (params: object) => dataOf(api.get<Page<TeamAdminRow>>('/admin/team/list', { params }));
export const fetchTeam = (id: string) => dataOf(api.get<TeamAdminDetail>(`/admin/team/${id}`));
export const fetchDrafts = (params: object) => dataOf(api.get<Page<TeamAdminRow>>('/admin/team/draft/list', { params }));
export const fetchDraft = (id: string) => dataOf(api.get<TeamAdminDetail>(`/admin/team/draft/${id}`));
export const remindDrafts = (body: RemindInput) => dataOf(api.post<RemindResult>('/admin/team/draft/remind', body));
export const auditTeam = (id: string, body: AdminAuditInput) =>
  dataOf(api.post<TeamAdminDetail>(`/admin/team/${id}/audit`, body, { silent: true }));
export const batchAuditTeams = (body: BatchAuditInput) =>
  dataOf(api.post<BatchResult>('/admin/team/audit/batch', body, { silent: true }));
/** The oldest SUBMITTED sign-up not skipped in this session, and how many wait. */
export const fetchQueueNext = (exclude: readonly string[]) =>
  dataOf(api.get<QueueNext<TeamAdminDetail>>('/admin/team/queue/next', { params: { exclude } }));
