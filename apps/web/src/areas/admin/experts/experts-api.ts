/**
 * Calls of 专家库 (/admin/grade/database-expert). Shapes come from @contest/shared
 * (review/api.ts, "experts"); this file only names paths and query keys.
 */
import type { ExpertBody, ExpertCredentials, ExpertImportResult, ExpertRow, ImportRowError, Page } from '@contest/shared';
import { ApiError } from '../../../api';
import { api, dataOf } from '../../../lib/api';

export const EXPERT_QUERY_KEYS = {
  all: ['admin', 'experts'] as const,
  list: ['admin', 'experts', 'list'] as const,
};

/** Dialogs report their refusals themselves, not a second time in a toast. */
const SILENT = { silent: true } as const;

export const EXPERT_EXPORT_URL = '/admin/expert/export';
export const EXPERT_TEMPLATE_URL = '/admin/expert/import-template';
/** The server's ceiling for an import sheet. */
export const IMPORT_MAX_BYTES = 5 * 1024 * 1024;

export const fetchExperts = (params: object) => dataOf(api.get<Page<ExpertRow>>('/admin/expert/list', { params }));
export const createExpert = (body: ExpertBody) => dataOf(api.post<ExpertCredentials>('/admin/expert', body, SILENT));
export const updateExpert = (id: string, body: ExpertBody) => dataOf(api.put<ExpertRow>(`/admin/expert/${id}`, body, SILENT));
export const setExpertEnabled = (id: string, enabled: boolean) => dataOf(api.put<ExpertRow>(`/admin/expert/${id}/enabled`, { enabled }));
export const resetExpertPassword = (id: string) => dataOf(api.post<ExpertCredentials>(`/admin/expert/${id}/reset-password`));

export function importExperts(file: File): Promise<ExpertImportResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  return dataOf(api.post<ExpertImportResult>('/admin/expert/import', form, SILENT));
}

/** The per-row report of a refused import (400 importHasErrors), or null for any other refusal. */
export function importRowErrors(err: unknown): ImportRowError[] | null {
  if (!(err instanceof ApiError) || err.status !== 400) return null;
  const rows = (err.data as { rows?: unknown } | null)?.rows;
  return Array.isArray(rows) ? (rows as ImportRowError[]) : null;
}
