/**
 * Calls of 初赛管理 and 决赛项目管理 (docs/api-contest.md, "Console calls for contest operations").
 * Shapes come from @contest/shared; this file only names paths and query keys.
 */
import type {
  AdminAuditInput,
  BatchAuditInput,
  BatchResult,
  FinalAdminRow,
  FinalChangeInput,
  Page,
  PrelimAdminDetail,
  PrelimAdminRow,
  QueueNext,
  RemindInput,
  RemindResult,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';
import { fetchAccessUrl } from '../../../lib/upload';

export const PRELIM_QUERY_KEYS = {
  all: ['admin', 'prelim'] as const,
  drafts: ['admin', 'prelim', 'drafts'] as const,
  draft: (id: string) => ['admin', 'prelim', 'drafts', id] as const,
  list: ['admin', 'prelim', 'list'] as const,
  detail: (id: string) => ['admin', 'prelim', 'detail', id] as const,
  queue: (exclude: readonly string[]) => ['admin', 'prelim', 'queue', ...exclude] as const,
  finals: ['admin', 'prelim', 'finals'] as const,
  final: (id: string) => ['admin', 'prelim', 'finals', id] as const,
  candidates: ['admin', 'prelim', 'final-candidates'] as const,
  accessUrl: (filePath: string) => ['admin', 'prelim', 'access-url', filePath] as const,
};

/** Decisions report their refusals in the dialog or the panel, not a second time in a toast. */
const SILENT = { silent: true } as const;

// 初赛草稿
export const fetchPrelimDrafts = (params: object) => dataOf(api.get<Page<PrelimAdminRow>>('/admin/prelim-doc/draft/list', { params }));
export const fetchPrelimDraft = (id: string) => dataOf(api.get<PrelimAdminDetail>(`/admin/prelim-doc/draft/${id}`));
export const remindPrelimDrafts = (body: RemindInput) => dataOf(api.post<RemindResult>('/admin/prelim-doc/draft/remind', body));

// 初赛项目管理
export const fetchPrelims = (params: object) => dataOf(api.get<Page<PrelimAdminRow>>('/admin/prelim-doc/list', { params }));
export const fetchPrelim = (id: string) => dataOf(api.get<PrelimAdminDetail>(`/admin/prelim-doc/${id}`));
export const fetchPrelimQueueNext = (exclude: readonly string[]) =>
  dataOf(
    // Sent comma-separated by the client; an empty list is left out.
    api.get<QueueNext<PrelimAdminDetail>>('/admin/prelim-doc/queue/next', { params: { exclude: [...exclude] } }),
  );
export const auditPrelim = (id: string, body: AdminAuditInput) =>
  dataOf(api.post<PrelimAdminDetail>(`/admin/prelim-doc/${id}/audit`, body, SILENT));
export const auditPrelimBatch = (body: BatchAuditInput) => dataOf(api.post<BatchResult>('/admin/prelim-doc/audit/batch', body, SILENT));
export const PRELIM_EXPORT_URL = '/admin/prelim-doc/export';

// 决赛项目管理
export const fetchFinals = (params: object) => dataOf(api.get<Page<FinalAdminRow>>('/admin/final/list', { params }));
export const fetchFinal = (id: string) => dataOf(api.get<PrelimAdminDetail>(`/admin/final/${id}`));
export const addToFinal = (id: string, body: FinalChangeInput) => dataOf(api.post<PrelimAdminDetail>(`/admin/final/${id}/add`, body, SILENT));
export const removeFromFinal = (id: string, body: FinalChangeInput) =>
  dataOf(api.post<PrelimAdminDetail>(`/admin/final/${id}/remove`, body, SILENT));
export const FINAL_EXPORT_URL = '/admin/final/export';

/** A short-lived signed link of a stored file, usable in a src attribute (docs/files.md). */
export const fetchFileAccessUrl = (filePath: string) => fetchAccessUrl(api, filePath);
