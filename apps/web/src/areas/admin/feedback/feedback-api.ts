/**
 * Calls of 用户反馈 (/admin/information/UserFeedback); shapes from @contest/shared
 * (content/feedback.ts), the calls in docs/api-content.md.
 */
import type { AdminFeedbackItem, FeedbackReply, Page } from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const FEEDBACK_QUERY_KEYS = {
  all: ['admin', 'feedback'] as const,
  list: ['admin', 'feedback', 'list'] as const,
  detail: (id: string) => ['admin', 'feedback', 'detail', id] as const,
};

/** The drawer reports its refusals itself, not a second time in a toast. */
const SILENT = { silent: true } as const;

export const fetchFeedbackPage = (params: object) => dataOf(api.get<Page<AdminFeedbackItem>>('/admin/feedback', { params }));
export const fetchFeedback = (id: string) => dataOf(api.get<AdminFeedbackItem>(`/admin/feedback/${id}`));
export const replyFeedback = (id: string, body: FeedbackReply) => dataOf(api.post<AdminFeedbackItem>(`/admin/feedback/${id}/reply`, body, SILENT));
export const closeFeedback = (id: string) => dataOf(api.post<AdminFeedbackItem>(`/admin/feedback/${id}/close`, undefined, SILENT));
