import { useState } from 'react';
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CONTENT_MSG, FEEDBACK_MSG, FEEDBACK_REPLY_MAX, FEEDBACK_TYPE_DICT, type AdminFeedbackItem, type ContestAttachment } from '@contest/shared';
import { ApiError, isCancel } from '../../../api';
import { DetailLayout, formatDateTimeLabel, isStale } from '../../../components/admin-kit';
import { AttachmentList } from '../../../components/contest';
import { useFeedback } from '../../../components/feedback';
import { Permission } from '../../../lib/permission';
import { piiValue } from '../components/PiiText';
import { FEEDBACK_QUERY_KEYS, closeFeedback, fetchFeedback, replyFeedback } from './feedback-api';
import { useFeedbackMessage } from './feedback-messages';
import { FeedbackStatusTag, participantOf } from './feedback-views';
import { validateAndFocus } from '../../../lib/form-errors';

interface ReplyValues {
  reply: string;
}

/** What the drawer says about a refused action, above the reply box. */
type Notice = { kind: 'stale' } | { kind: 'closed' } | { kind: 'error'; message: string };

const isClosedRefusal = (error: unknown) => error instanceof ApiError && (error.data as { reason?: unknown } | null)?.reason === 'CLOSED';

const toAttachment = (file: AdminFeedbackItem['attachments'][number]): ContestAttachment => ({
  ...file,
  extension: file.name.includes('.') ? file.name.split('.').pop()!.toLowerCase() : '',
});

export interface FeedbackDetailProps {
  id: string;
  /** Replied or closed: the page closes the drawer and refreshes the list. */
  onDone(): void;
  /** Someone else changed the feedback meanwhile: the list refreshes, the drawer stays. */
  onChanged(): void;
}

/**
 * One feedback in the drawer: the participant, the whole text, the attachments (preview and
 * download), the current reply, and the reply box with 回复 and 关闭 for holders of
 * `feedback:reply`. A reply carries the `repliedAt` it was written against, so a colleague's
 * reply in between is not silently replaced: the drawer shows it and keeps the typed text.
 */
export function FeedbackDetail({ id, onDone, onChanged }: FeedbackDetailProps) {
  const { t } = useTranslation('admin');
  const translate = useFeedbackMessage();
  const { message, modal } = useFeedback();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ReplyValues>();
  const [saving, setSaving] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  const detail = useQuery({ queryKey: FEEDBACK_QUERY_KEYS.detail(id), queryFn: () => fetchFeedback(id) });
  const item = detail.data;

  const reload = () => {
    onChanged();
    return queryClient.invalidateQueries({ queryKey: FEEDBACK_QUERY_KEYS.detail(id) });
  };

  /** A refusal: explained in the drawer; a stale or closed feedback is reloaded. */
  const refusedWith = async (error: unknown) => {
    if (isCancel(error)) return;
    if (isStale(error)) {
      setNotice({ kind: 'stale' });
      await reload();
    } else if (isClosedRefusal(error)) {
      setNotice({ kind: 'closed' });
      await reload();
    } else {
      setNotice({ kind: 'error', message: translate(error instanceof Error ? error.message : String(error)) });
    }
  };

  const submit = async () => {
    if (!item) return;
    const values = await validateAndFocus(form);
    setSaving(true);
    setNotice(null);
    try {
      await replyFeedback(id, { reply: values.reply, lastRepliedAt: item.repliedAt });
      void message.success(translate(CONTENT_MSG.replied));
      onDone();
    } catch (error) {
      await refusedWith(error);
    } finally {
      setSaving(false);
    }
  };

  const close = () =>
    modal.confirm({
      title: t('feedback.confirmCloseTitle'),
      content: t('feedback.confirmClose'),
      okText: t('kit.ok'),
      cancelText: t('kit.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        setNotice(null);
        try {
          await closeFeedback(id);
          void message.success(translate(FEEDBACK_MSG.feedbackClosedOk));
          onDone();
        } catch (error) {
          await refusedWith(error);
        }
      },
    });

  if (!item) return <DetailLayout loading sections={[]} />;

  const closed = item.status === 'CLOSED';
  const replySection = (
    <div className="feedback-reply">
      {item.reply ? (
        <div className="feedback-reply__current" data-testid="feedback-current-reply">
          <p className="feedback-text">{item.reply}</p>
          <Typography.Text type="secondary">
            {[item.repliedBy ? item.repliedBy.name || item.repliedBy.username : null, formatDateTimeLabel(item.repliedAt)].filter(Boolean).join(' · ')}
          </Typography.Text>
        </div>
      ) : (
        <Typography.Text type="secondary">{t('feedback.noReply')}</Typography.Text>
      )}
      {notice && (
        <Alert
          className="feedback-reply__notice"
          role="alert"
          type={notice.kind === 'error' ? 'error' : 'warning'}
          showIcon
          title={notice.kind === 'stale' ? t('feedback.stale') : notice.kind === 'closed' ? t('feedback.closedMeanwhile') : notice.message}
          data-testid="feedback-notice"
        />
      )}
      {closed ? (
        <Alert className="feedback-reply__notice" type="info" showIcon title={t('feedback.closedNotice')} data-testid="feedback-closed" />
      ) : (
        <Permission codes={['feedback:reply']}>
          <Form form={form} layout="vertical" name="feedback-reply" className="feedback-reply__form">
            <Form.Item
              name="reply"
              label={t('feedback.fields.reply')}
              extra={item.reply ? t('feedback.replaceHint') : t('feedback.replyHint')}
              rules={[
                { required: true, whitespace: true, message: translate(CONTENT_MSG.replyRequired) },
                { max: FEEDBACK_REPLY_MAX, message: translate(CONTENT_MSG.replyTooLong) },
              ]}
            >
              <Input.TextArea rows={5} placeholder={t('feedback.replyPlaceholder')} count={{ show: true, max: FEEDBACK_REPLY_MAX }} />
            </Form.Item>
            <Space wrap>
              <Button type="primary" loading={saving} onClick={() => void submit().catch(() => {})} data-testid="feedback-reply-submit">
                {t('feedback.actions.reply')}
              </Button>
              <Button danger disabled={saving} onClick={close} data-testid="feedback-close">
                {t('feedback.actions.close')}
              </Button>
            </Space>
          </Form>
        </Permission>
      )}
    </div>
  );

  return (
    <DetailLayout
      headingLevel={2}
      status={<FeedbackStatusTag status={item.status} />}
      title={participantOf(item.owner)}
      sections={[
        {
          key: 'info',
          title: t('feedback.sections.info'),
          items: [
            { label: t('feedback.fields.participant'), value: `${participantOf(item.owner)}（${item.owner.username}）` },
            // Masked; the eye shows the record's phone and contact in full (pii:view).
            { label: t('feedback.fields.phone'), value: piiValue('feedback', item.id, 'owner.phone', item.owner.phone) },
            { label: t('feedback.fields.type'), value: item.type, dict: FEEDBACK_TYPE_DICT },
            { label: t('feedback.fields.contact'), value: piiValue('feedback', item.id, 'contact', item.contact) },
            { label: t('feedback.fields.createdAt'), value: item.createdAt, dateTime: true },
            { label: t('feedback.fields.repliedAt'), value: item.repliedAt, dateTime: true },
            ...(item.closedAt ? [{ label: t('feedback.fields.closedAt'), value: item.closedAt, dateTime: true }] : []),
          ],
        },
        {
          key: 'content',
          title: t('feedback.sections.content'),
          content: (
            <p className="feedback-text" data-testid="feedback-content">
              {item.content}
            </p>
          ),
        },
        { key: 'attachments', title: t('feedback.sections.attachments'), content: <AttachmentList files={item.attachments.map(toAttachment)} /> },
        { key: 'reply', title: t('feedback.sections.reply'), content: replySection },
      ]}
    />
  );
}
