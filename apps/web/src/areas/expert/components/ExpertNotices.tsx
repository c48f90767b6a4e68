import { useState } from 'react';
import { Badge, Button, Card, Empty, List, Modal, Skeleton, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { type InboxMessage, type Page } from '@contest/shared';
import { formatDateTimeLabel } from '../../../components/admin-kit';
import { api } from '../../../lib/api';

const NOTICES_KEY = ['expert', 'notices'] as const;
const SHOWN = 5;

/**
 * A notice in the page's language: on English pages the server's English of an event notice
 * (`en`, rendered from its event, variables and current template; docs/decisions.md, "English"),
 * else the Chinese as sent. Notices without an event (bulk sends, older rows) read as sent.
 */
const textOf = (item: InboxMessage, english: boolean): { title: string; body: string } => (english && item.en) || item;

/**
 * The expert's notices (GET /messages, own rows only): a returned sheet, a reminder, a
 * re-review. Opening one reads it. Bodies are plain text or allow-listed HTML sanitised by the
 * server when stored and when served (deliverMessage's contract), hence injected as HTML.
 */
export function ExpertNotices() {
  const { t, i18n } = useTranslation('expert');
  const english = (i18n.resolvedLanguage ?? i18n.language ?? '').startsWith('en');
  const client = useQueryClient();
  const [open, setOpen] = useState<InboxMessage | null>(null);
  const notices = useQuery({
    queryKey: NOTICES_KEY,
    queryFn: async () => (await api.get<Page<InboxMessage>>('/messages', { params: { page: 1, size: SHOWN, order: 'time' }, silent: true })).data,
  });

  const read = async (item: InboxMessage) => {
    setOpen(item);
    if (item.read) return;
    await api.get(`/messages/${item.id}`, { silent: true }).catch(() => undefined);
    void client.invalidateQueries({ queryKey: NOTICES_KEY });
  };

  let body;
  if (notices.isPending) body = <Skeleton active paragraph={{ rows: 2 }} />;
  else if (notices.isError || notices.data.list.length === 0) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('notices.empty')} />;
  else
    body = (
      <List
        size="small"
        dataSource={notices.data.list}
        renderItem={(item) => (
          <List.Item
            key={item.id}
            data-testid="expert-notice"
            actions={[
              <Button key="open" type="link" size="small" onClick={() => void read(item)} aria-label={t('notices.openOf', { title: textOf(item, english).title })}>
                {t('notices.open')}
              </Button>,
            ]}
          >
            <List.Item.Meta
              title={
                <Badge dot={!item.read} offset={[6, 0]}>
                  <Typography.Text strong={!item.read}>{textOf(item, english).title}</Typography.Text>
                </Badge>
              }
              description={formatDateTimeLabel(item.createdAt)}
            />
          </List.Item>
        )}
      />
    );

  return (
    <Card className="expert-notices" title={<h3 className="expert-notices__title">{t('notices.title')}</h3>} data-testid="expert-notices">
      {body}
      <Modal open={open !== null} title={open ? textOf(open, english).title : undefined} footer={null} onCancel={() => setOpen(null)} destroyOnHidden>
        {open && <div data-testid="expert-notice-body" dangerouslySetInnerHTML={{ __html: textOf(open, english).body }} />}
      </Modal>
    </Card>
  );
}
