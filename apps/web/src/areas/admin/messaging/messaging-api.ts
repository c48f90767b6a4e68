/**
 * Calls of 站内信管理 and 短信管理 (bulk sends). Shapes come from @contest/shared
 * (content/broadcast.ts, content/templates.ts); this file only names paths and query keys.
 */
import {
  BROADCAST_CHANNEL_PATHS,
  type BroadcastAccount,
  type BroadcastBatch,
  type BroadcastChannel,
  type BroadcastDetail,
  type BroadcastDraft,
  type BroadcastPreview,
  type BroadcastSent,
  type MessageTemplateItem,
  type Page,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const MESSAGING_QUERY_KEYS = {
  all: ['admin', 'broadcast'] as const,
  list: (channel: BroadcastChannel) => ['admin', 'broadcast', 'list', channel] as const,
  detail: (id: string) => ['admin', 'broadcast', 'detail', id] as const,
  accounts: (keyword: string) => ['admin', 'broadcast', 'accounts', keyword] as const,
  templates: (channel: BroadcastChannel, kind?: 'BULK') => ['admin', 'templates', channel, kind ?? 'ALL'] as const,
};

/** The dialog reports refusals itself, not a second time in a toast. */
const SILENT = { silent: true } as const;

const base = (channel: BroadcastChannel) => `/admin/broadcast/${BROADCAST_CHANNEL_PATHS[channel]}`;

export const fetchBatches = (channel: BroadcastChannel, params: object) =>
  dataOf(api.get<Page<BroadcastBatch>>('/admin/broadcast', { params: { ...params, channel } }));
export const fetchBatchDetail = (id: string, params: { page: number; size: number; status?: string }) =>
  dataOf(api.get<BroadcastDetail>(`/admin/broadcast/${id}`, { params }));
export const previewBroadcast = (channel: BroadcastChannel, draft: BroadcastDraft) => dataOf(api.post<BroadcastPreview>(`${base(channel)}/preview`, draft, SILENT));
export const sendBroadcast = (channel: BroadcastChannel, draft: BroadcastDraft) => dataOf(api.post<BroadcastSent>(`${base(channel)}/send`, draft, SILENT));
export const recallBroadcast = (id: string) => dataOf(api.post<BroadcastBatch>(`/admin/broadcast/${id}/recall`));
export const searchAccounts = (keyword: string) =>
  dataOf(api.get<Page<BroadcastAccount>>('/admin/broadcast/accounts', { params: { keyword, page: 1, size: 20 } }));

/** Templates of a channel (the templates module): bulk ones for the compose dialog, all for the SMS tab. */
export const fetchTemplates = (channel: BroadcastChannel, params: { kind?: 'BULK'; enabled?: boolean; page?: number; size?: number } = {}) =>
  dataOf(api.get<Page<MessageTemplateItem>>('/admin/templates', { params: { page: 1, size: 100, ...params, channel } }));
