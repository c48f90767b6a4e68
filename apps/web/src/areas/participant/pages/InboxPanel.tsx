import { useState } from 'react';
import { Badge, Button, Empty, Modal, Radio, Skeleton, Spin, Tag } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { beijingTimeLabel } from '../../../lib/beijing-time';
import { SKELETON_ROWS, type InboxMessage, type MessageOrder } from '@contest/shared';
import { Pager } from '../../../components/admin-kit/Pager';
import { useMinimumDuration } from '../../../components/admin-kit/DataTable';
import { readAllMessages, readMessage, refreshUnread, useMessages } from './message-api';
import { noticeBody, noticeTitle } from './notice-text';
import { useContentSuccess } from './content-success';
import { useFeedback } from '../../../components/feedback';

/** Message and feedback times: Beijing time, marked as such (lib/beijing-time.ts). */
export function formatTime(iso: string | null | undefined): string {
  return beijingTimeLabel(iso);
}

/**
 * Message bodies are plain text or allow-listed HTML that the server sanitised when storing
 * (deliverMessage's contract) and again when serving; that is why they are injected as HTML.
 */
function MessageBody({ html }: { html: string }) {
  return <div className="my-message__body" data-testid="message-body" dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A system notice's title in the reader's language when its kind is known (notice-text.ts); else as sent. */
/** A known system notice's body as text in the reader's language; null: the stored body. */
function noticeText(title: string, html: string) {
  const text = noticeBody(title, html);
  return text === null ? null : (
    <div className="my-message__body" data-testid="message-body">
      {text}
    </div>
  );
}

/**
 * On English pages a notice's English comes from the server (`en`: rendered from its event and the
 * current template, docs/decisions.md, "English"); system notices stored before events were kept
 * (no `event`) fall back to recognising the default Chinese (notice-text.ts); anything else,
 * an event notice whose template's English is empty included, shows as sent.
 */
const olderNotice = (item: InboxMessage) => item.kind === 'SYSTEM' && !item.event;
const titleOf = (item: InboxMessage, english: boolean) => (english && item.en?.title) || (olderNotice(item) && noticeTitle(item.title)) || item.title;

/** The inbox: paged, unread first or newest first; opening a message reads it (and the badge drops). */
export function InboxPanel() {
  const { t, i18n } = useTranslation('participant');
  const english = (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');
  const { message } = useFeedback();
  const successText = useContentSuccess();
  const client = useQueryClient();
  const [order, setOrder] = useState<MessageOrder>('unread');
  const [page, setPage] = useState(1);
  const { data, isPending } = useMessages(page, order);
  const skeleton = useMinimumDuration(isPending);
  const [opened, setOpened] = useState<{ item: InboxMessage; full: InboxMessage | null } | null>(null);
  const [markingAll, setMarkingAll] = useState(false);

  const open = async (item: InboxMessage) => {
    setOpened({ item, full: null });
    try {
      const full = await readMessage(item.id);
      setOpened((cur) => (cur?.item.id === item.id ? { item, full } : cur));
      if (!item.read) await refreshUnread(client);
    } catch {
      // The client has shown the reason; the dialog keeps the list's copy.
      setOpened((cur) => (cur?.item.id === item.id ? { item, full: item } : cur));
    }
  };

  const markAll = async () => {
    setMarkingAll(true);
    try {
      const res = await readAllMessages();
      // The server's text is the spec's Chinese; English pages show it by its message key.
      void message.success(successText(res.message, 'inbox.allRead'));
      await refreshUnread(client);
    } catch {
      // Toasted by the client.
    } finally {
      setMarkingAll(false);
    }
  };

  const hasUnread = data?.list.some((m) => !m.read) ?? false;

  return (
    <div className="my-message__inbox" data-testid="inbox">
      <div className="my-message__toolbar">
        <Radio.Group
          optionType="button"
          size="small"
          value={order}
          onChange={(e) => {
            setOrder(e.target.value as MessageOrder);
            setPage(1);
          }}
          options={[
            { value: 'unread', label: t('inbox.orderUnread') },
            { value: 'time', label: t('inbox.orderTime') },
          ]}
        />
        <Button size="small" icon={<CheckOutlined />} loading={markingAll} disabled={!hasUnread} onClick={() => void markAll()}>
          {t('inbox.readAll')}
        </Button>
      </div>
      {skeleton || (isPending && !data) ? (
        <div data-testid="inbox-skeleton" aria-busy="true">
          {Array.from({ length: SKELETON_ROWS }, (_, i) => (
            <Skeleton.Input key={i} active block size="small" className="my-message__skeleton-row" />
          ))}
        </div>
      ) : !data || data.list.length === 0 ? (
        <Empty description={t('inbox.empty')} />
      ) : (
        <>
          <ul className="my-message__list">
            {data.list.map((item) => (
              <li key={item.id}>
                <button
                  type="button"
                  className={item.read ? 'my-message__item' : 'my-message__item is-unread'}
                  data-testid="message-row"
                  data-read={item.read}
                  onClick={() => void open(item)}
                >
                  <Badge status={item.read ? 'default' : 'error'} />
                  <span className="my-message__title">{titleOf(item, english)}</span>
                  {item.kind === 'SYSTEM' && <Tag className="my-message__kind">{t('inbox.system')}</Tag>}
                  <time className="my-message__time" dateTime={item.createdAt}>
                    {formatTime(item.createdAt)}
                  </time>
                </button>
              </li>
            ))}
          </ul>
          <div className="my-message__pager">
            <Pager page={page} size={data.size} total={data.total} onChange={(p) => setPage(p)} />
          </div>
        </>
      )}
      <Modal
        open={opened !== null}
        title={opened ? titleOf(opened.item, english) : undefined}
        footer={null}
        width={640}
        onCancel={() => setOpened(null)}
        destroyOnHidden
      >
        {opened && (
          <>
            <p className="my-message__meta">{formatTime(opened.item.createdAt)}</p>
            {opened.full ? (
              english && opened.full.en ? (
                <MessageBody html={opened.full.en.body} />
              ) : (
                (olderNotice(opened.item) && noticeText(opened.item.title, opened.full.body)) || <MessageBody html={opened.full.body} />
              )
            ) : (
              <Spin />
            )}
          </>
        )}
      </Modal>
    </div>
  );
}
