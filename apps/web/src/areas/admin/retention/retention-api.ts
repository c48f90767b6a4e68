/**
 * Calls of 数据保留 and 个人数据申请 (docs/retention.md); shapes from @contest/shared
 * (retention/retention.ts).
 */
import type { AdminDataRequestItem, DataRequestDecisionInput, DataRequestItem, Page, RetentionOverview, RetentionRunItem } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const RETENTION_QUERY_KEYS = {
  all: ['admin', 'retention'] as const,
  overview: ['admin', 'retention', 'overview'] as const,
  runs: ['admin', 'retention', 'runs'] as const,
  requests: ['admin', 'data-requests'] as const,
};

export const fetchRetentionOverview = () => dataOf(api.get<RetentionOverview>('/admin/retention'));
export const fetchRetentionRuns = (params: object) => dataOf(api.get<Page<RetentionRunItem>>('/admin/retention/runs', { params }));
export const dryRunRetention = () => dataOf(api.post<RetentionRunItem>('/admin/retention/dry-run'));
export const executeRetention = (id: string) => dataOf(api.post<RetentionRunItem>(`/admin/retention/runs/${id}/execute`));

export const fetchDataRequests = (params: object) => dataOf(api.get<Page<AdminDataRequestItem>>('/admin/data-requests', { params }));
export const decideDataRequest = (id: string, body: DataRequestDecisionInput) => api.post<DataRequestItem>(`/admin/data-requests/${id}/decide`, body);
