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
  type MessageChannel,
  type MessageTemplateItem,
  type Page,
  type TemplateBodyInput,
  type TemplateKind,
} from '@contest/shared';
import { api, dataOf } from '../../../lib/api';

export const MESSAGING_QUERY_KEYS = {
  all: ['admin', 'broadcast'] as const,
  list: (channel: BroadcastChannel) => ['admin', 'broadcast', 'list', channel] as const,
  detail: (id: string) => ['admin', 'broadcast', 'detail', id] as const,
  accounts: (keyword: string) => ['admin', 'broadcast', 'accounts', keyword] as const,
  /** Every templates query (compose dialogs' pickers, the templates tabs): refreshed after a template write. */
  templatesAll: ['admin', 'templates'] as const,
  templates: (channel: BroadcastChannel, kind?: 'BULK') => ['admin', 'templates', channel, kind ?? 'ALL'] as const,
  /** A templates tab's list: one channel (短信管理) or all of them (站内信管理). */
  templateList: (channel: MessageChannel | 'ANY') => ['admin', 'templates', 'list', channel] as const,
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

/** Enabled bulk templates of a channel, for the compose dialog's picker. */
export const fetchTemplates = (channel: BroadcastChannel, params: { kind?: 'BULK'; enabled?: boolean; page?: number; size?: number } = {}) =>
  dataOf(api.get<Page<MessageTemplateItem>>('/admin/templates', { params: { page: 1, size: 100, ...params, channel } }));

export interface TemplateListParams {
  page: number;
  size: number;
  kind?: TemplateKind;
  channel?: MessageChannel;
  keyword?: string;
}

/** One page of the templates tab (events in catalogue order, then bulk templates newest first). */
export const fetchTemplatePage = (params: TemplateListParams) => dataOf(api.get<Page<MessageTemplateItem>>('/admin/templates', { params }));
export const fetchTemplate = (key: string) => dataOf(api.get<MessageTemplateItem>(`/admin/templates/${encodeURIComponent(key)}`));

// Writes answer the whole envelope: the page shows the server's message (模板已保存, 已恢复默认模板...).
// Silent: the editor places refusals under their field, the list in its own toast.
export const createTemplate = (body: TemplateBodyInput) => api.post<MessageTemplateItem>('/admin/templates', body, SILENT);
export const updateTemplate = (key: string, body: TemplateBodyInput) => api.put<MessageTemplateItem>(`/admin/templates/${encodeURIComponent(key)}`, body, SILENT);
export const setTemplateEnabled = (key: string, enabled: boolean, version: number) =>
  api.put<MessageTemplateItem>(`/admin/templates/${encodeURIComponent(key)}/enabled`, { enabled, version }, SILENT);
export const deleteTemplate = (key: string) => api.delete<{ key: string; reset: boolean }>(`/admin/templates/${encodeURIComponent(key)}`, SILENT);
