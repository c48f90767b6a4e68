import { useState } from 'react';
import { Button, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { FEEDBACK_STATUSES, FEEDBACK_TYPE_DICT, type AdminFeedbackItem, type FeedbackStatus } from '@contest/shared';
import { SearchTable, type SearchColumns, type SearchField } from '../../../components/admin-kit';
import { SideDrawer } from '../../../components/admin-kit/SideDrawer';
import { usePermission } from '../../../lib/permission';
import { piiValue } from '../components/PiiText';
import { FeedbackDetail } from './FeedbackDetail';
import { FEEDBACK_QUERY_KEYS, fetchFeedbackPage } from './feedback-api';
import { FeedbackStatusTag, participantOf } from './feedback-views';
import './feedback.css';

const FIELDS: SearchField[] = [
  { name: 'keyword', label: 'feedback.filters.keyword', kind: 'text', placeholder: 'feedback.filters.keywordPlaceholder', width: 220 },
  { name: 'type', label: 'feedback.filters.type', kind: 'dict', dictType: FEEDBACK_TYPE_DICT },
  {
    name: 'status',
    label: 'feedback.filters.status',
    kind: 'select',
    options: FEEDBACK_STATUSES.map((status) => ({ value: status, label: `feedback.status.${status}` })),
  },
  { name: 'created', label: 'feedback.filters.createdAt', kind: 'dateTimeRange', fromName: 'from', toName: 'to' },
];

/** Characters of the content shown in the list; the drawer shows all of it. */
const EXCERPT_LENGTH = 40;

/**
 * 用户反馈 (/admin/information/UserFeedback): participants' feedback filtered by type, status,
 * keyword and submission time; the drawer shows the whole text with its attachments and takes
 * the reply (the participant is told by in-site message) or closes it.
 */
export function UserFeedbackPage() {
  const { t } = useTranslation('admin');
  const queryClient = useQueryClient();
  const [openId, setOpenId] = useState<string | null>(null);
  const canReply = usePermission()({ codes: ['feedback:reply'] });

  const columns: SearchColumns<AdminFeedbackItem> = [
    { title: t('feedback.fields.createdAt'), dataIndex: 'createdAt', dateTime: true, width: 170 },
    {
      title: t('feedback.fields.participant'),
      dataIndex: 'owner',
      render: (owner: AdminFeedbackItem['owner']) => (
        <div className="feedback-owner">
          <span>{participantOf(owner)}</span>
          {owner.name && owner.name !== owner.username && (
            <Typography.Text type="secondary" className="feedback-owner__account">
              {owner.username}
            </Typography.Text>
          )}
        </div>
      ),
    },
    { title: t('feedback.fields.type'), dataIndex: 'type', dict: FEEDBACK_TYPE_DICT },
    {
      title: t('feedback.fields.excerpt'),
      dataIndex: 'content',
      render: (content: string) => (
        <span className="feedback-excerpt" title={content}>
          {content.length > EXCERPT_LENGTH ? `${content.slice(0, EXCERPT_LENGTH)}…` : content}
        </span>
      ),
    },
    { title: t('feedback.fields.contact'), dataIndex: 'contact', render: (contact: string | null, row) => piiValue('feedback', row.id, 'contact', contact) },
    { title: t('feedback.fields.status'), dataIndex: 'status', render: (status: FeedbackStatus) => <FeedbackStatusTag status={status} /> },
    { title: t('feedback.fields.repliedAt'), dataIndex: 'repliedAt', dateTime: true, width: 170 },
    {
      title: t('kit.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Button
          type="link"
          size="small"
          onClick={() => setOpenId(row.id)}
          data-testid="feedback-view"
        >
          {canReply && row.status === 'OPEN' ? t('feedback.actions.reply') : t('feedback.actions.view')}
        </Button>
      ),
    },
  ];

  const refresh = () => void queryClient.invalidateQueries({ queryKey: FEEDBACK_QUERY_KEYS.all });

  return (
    <section className="admin-page" data-testid="user-feedback-page">
      <h1 className="admin-page__title">{t('titles.userFeedback')}</h1>
      <SearchTable<AdminFeedbackItem>
        queryKey={FEEDBACK_QUERY_KEYS.list}
        fetchPage={fetchFeedbackPage}
        rowKey="id"
        columns={columns}
        searchFields={FIELDS}
        urlState
      />
      <SideDrawer open={openId !== null} title={t('feedback.detailTitle')} onClose={() => setOpenId(null)}>
        {openId && (
          <div data-testid="feedback-detail">
            <FeedbackDetail
              id={openId}
              onDone={() => {
                setOpenId(null);
                refresh();
              }}
              onChanged={refresh}
            />
          </div>
        )}
      </SideDrawer>
    </section>
  );
}
