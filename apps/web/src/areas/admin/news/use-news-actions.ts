import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { AdminNewsRow } from '@contest/shared';
import { useFeedback } from '../../../components/feedback';
import { formatDateTimeLabel } from '../../../components/admin-kit';
import { NEWS_QUERY_KEYS, deleteNews, offlineNews, pinNews, publishNews } from './news-api';
import { useNewsMessage } from './news-messages';

type Target = Pick<AdminNewsRow, 'id' | 'title' | 'publishAt'>;

/**
 * The list's and the detail page's row actions: publish, offline and delete ask first; each
 * shows the server's answer and refreshes what shows the article. A refusal was toasted by the
 * HTTP client already.
 */
export function useNewsActions(after?: (action: 'publish' | 'offline' | 'pin' | 'delete') => void) {
  const { t } = useTranslation('newsAdmin');
  const { t: ta } = useTranslation('admin');
  const { message, modal } = useFeedback();
  const translate = useNewsMessage();
  const queryClient = useQueryClient();

  const run = useCallback(
    async (action: 'publish' | 'offline' | 'pin' | 'delete', call: () => Promise<{ message: string }>) => {
      try {
        const answer = await call();
        void message.success(translate(answer.message));
        after?.(action);
      } catch {
        // The client toasted it; the list is reloaded anyway, the article may have changed.
      } finally {
        void queryClient.invalidateQueries({ queryKey: NEWS_QUERY_KEYS.all });
      }
    },
    [after, message, queryClient, translate],
  );

  const confirm = useCallback(
    (content: string, onOk: () => Promise<void>, danger = false) =>
      modal.confirm({ title: t('confirm.title'), content, okText: ta('kit.ok'), cancelText: ta('kit.cancel'), okButtonProps: { danger }, onOk }),
    [modal, t, ta],
  );

  return {
    publish: (row: Target) => {
      const ahead = row.publishAt && new Date(row.publishAt).getTime() > Date.now();
      const content = ahead ? t('confirm.publishScheduled', { title: row.title, time: formatDateTimeLabel(row.publishAt) }) : t('confirm.publish', { title: row.title });
      confirm(content, () => run('publish', () => publishNews(row.id)));
    },
    offline: (row: Target) => confirm(t('confirm.offline', { title: row.title }), () => run('offline', () => offlineNews(row.id))),
    pin: (row: Target & { pinned: boolean }) => void run('pin', () => pinNews(row.id, !row.pinned)),
    remove: (row: Target) => confirm(t('confirm.delete', { title: row.title }), () => run('delete', () => deleteNews(row.id)), true),
  };
}
