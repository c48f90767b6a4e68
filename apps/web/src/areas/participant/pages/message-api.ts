/**
 * In-site messages and feedback (docs/api-content.md). The query keys live here so the layout's
 * badge, the user info's unread dot and the inbox refresh together when a message is read.
 */
import { keepPreviousData, useQuery, type QueryClient } from '@tanstack/react-query';
import {
  FEEDBACK_TYPE_DICT,
  PAGE_SIZE_DEFAULT,
  type FeedbackCreate,
  type FeedbackItem,
  type InboxMessage,
  type MessageOrder,
  type MessageSummary,
  type Page,
  type Locale,
  type ReadAllResult,
} from '@contest/shared';
import { useTranslation } from 'react-i18next';
import { api } from '../../../lib/api';
import { dictLang } from '../../../components/contest/contest-common';
import { USER_ACCOUNT_QUERY_KEY, useToken } from '../../../lib/session';

export const MESSAGE_SUMMARY_QUERY_KEY = ['messages', 'summary'] as const;
export const MESSAGE_LIST_QUERY_KEY = ['messages', 'list'] as const;
export const FEEDBACK_LIST_QUERY_KEY = ['feedback', 'my'] as const;

export async function fetchMessageSummary(): Promise<MessageSummary> {
  // Silent: the badge is decoration on every participant page; a failure must not toast each time.
  return (await api.get<MessageSummary>('/messages/summary', { silent: true })).data;
}

/** The unread count of the badge; idle without a participant token. */
export function useMessageSummary() {
  const token = useToken('USER');
  return useQuery({
    queryKey: MESSAGE_SUMMARY_QUERY_KEY,
    queryFn: fetchMessageSummary,
    enabled: token !== null,
    retry: false,
  });
}

export async function fetchMessages(params: { page: number; size?: number; order: MessageOrder }): Promise<Page<InboxMessage>> {
  const { page, size = PAGE_SIZE_DEFAULT, order } = params;
  return (await api.get<Page<InboxMessage>>('/messages', { params: { page, size, order } })).data;
}

export function useMessages(page: number, order: MessageOrder) {
  return useQuery({
    queryKey: [...MESSAGE_LIST_QUERY_KEY, order, page],
    queryFn: () => fetchMessages({ page, order }),
    placeholderData: keepPreviousData,
  });
}

/** Reading a message marks it read on the server. */
export async function readMessage(id: string): Promise<InboxMessage> {
  return (await api.get<InboxMessage>(`/messages/${encodeURIComponent(id)}`)).data;
}

export async function readAllMessages(): Promise<{ data: ReadAllResult; message: string }> {
  const res = await api.put<ReadAllResult>('/messages/read-all');
  return { data: res.data, message: res.message };
}

/** After a read: the badge, the unread dot of the user info and the lists all change. */
export async function refreshUnread(client: QueryClient): Promise<void> {
  await Promise.all([
    client.invalidateQueries({ queryKey: MESSAGE_SUMMARY_QUERY_KEY }),
    client.invalidateQueries({ queryKey: MESSAGE_LIST_QUERY_KEY }),
    client.invalidateQueries({ queryKey: USER_ACCOUNT_QUERY_KEY }),
  ]);
}

// ---------------------------------------------------------------------------------------
// Feedback

export interface CodeName {
  code: string;
  name: string;
}

/** Named in the page's language (English names fall back to Chinese). */
export async function fetchFeedbackTypes(lang: Locale = dictLang()): Promise<CodeName[]> {
  const options = (await api.get<Record<string, CodeName[]>>('/dic/module', { params: { module: 'FEEDBACK', lang } })).data;
  return options[FEEDBACK_TYPE_DICT] ?? [];
}

export function useFeedbackTypes() {
  const { i18n } = useTranslation();
  const lang = dictLang(i18n.resolvedLanguage ?? i18n.language);
  return useQuery({ queryKey: ['dic', 'FEEDBACK', lang], queryFn: () => fetchFeedbackTypes(lang), staleTime: 5 * 60_000 });
}

export async function fetchMyFeedback(page: number, size = PAGE_SIZE_DEFAULT): Promise<Page<FeedbackItem>> {
  return (await api.get<Page<FeedbackItem>>('/feedback/my', { params: { page, size } })).data;
}

export function useMyFeedback(page: number) {
  return useQuery({
    queryKey: [...FEEDBACK_LIST_QUERY_KEY, page],
    queryFn: () => fetchMyFeedback(page),
    placeholderData: keepPreviousData,
  });
}

export async function sendFeedback(body: FeedbackCreate): Promise<{ data: FeedbackItem; message: string }> {
  const res = await api.post<FeedbackItem>('/feedback', body);
  return { data: res.data, message: res.message };
}
