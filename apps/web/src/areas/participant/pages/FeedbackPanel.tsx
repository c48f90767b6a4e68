import { useState } from 'react';
import { Button, Empty, Form, Input, Select, Skeleton, Tag } from 'antd';
import { PaperClipOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  FEEDBACK_ATTACHMENTS_MAX,
  FEEDBACK_CONTACT_MAX,
  FEEDBACK_CONTENT_MAX,
  FEEDBACK_TYPE_DICT,
  UPLOAD_RULES,
  type FeedbackItem,
  type FeedbackStatus,
} from '@contest/shared';
import { Pager } from '../../../components/admin-kit/Pager';
import { useDictLabels } from '../../../components/contest';
import { usePreviewDialog } from '../../../components/preview';
import { MultiUpload } from '../../../components/upload';
import type { UploadValueItem } from '../../../lib/upload';
import { formatTime } from './InboxPanel';
import { useContentSuccess } from './content-success';
import { FEEDBACK_LIST_QUERY_KEY, sendFeedback, useFeedbackTypes, useMyFeedback } from './message-api';
import { useFeedback } from '../../../components/feedback';

const ACCEPT = UPLOAD_RULES.FEEDBACK.extensions.map((ext) => `.${ext}`).join(',');

const STATUS_COLORS: Record<FeedbackStatus, string> = { OPEN: 'orange', REPLIED: 'green', CLOSED: 'default' };

interface FeedbackForm {
  type: string;
  content: string;
  contact?: string;
  attachments?: UploadValueItem[];
}

const FEEDBACK_LABEL_TYPES = [FEEDBACK_TYPE_DICT];

function FeedbackCard({ item, typeName, onPreview }: { item: FeedbackItem; typeName: string; onPreview(index: number): void }) {
  const { t } = useTranslation('participant');
  return (
    <li className="feedback-card" data-testid="feedback-row">
      <div className="feedback-card__head">
        <Tag color="blue" data-testid="feedback-type">
          {typeName}
        </Tag>
        <Tag color={STATUS_COLORS[item.status]}>{t(`feedback.status.${item.status}`)}</Tag>
        <time className="feedback-card__time" dateTime={item.createdAt}>
          {formatTime(item.createdAt)}
        </time>
      </div>
      <p className="feedback-card__content">{item.content}</p>
      {item.attachments.length > 0 && (
        <ul className="feedback-card__files">
          {item.attachments.map((file, index) => (
            <li key={file.uniqueNo}>
              <Button type="link" size="small" icon={<PaperClipOutlined />} onClick={() => onPreview(index)}>
                {file.name}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {item.reply && (
        <div className="feedback-card__reply" data-testid="feedback-reply">
          <strong>{t('feedback.reply')}</strong>
          {/* Replies are plain text: rendered as text, line breaks kept by CSS. */}
          <p>{item.reply}</p>
          {item.repliedAt && <time dateTime={item.repliedAt}>{formatTime(item.repliedAt)}</time>}
        </div>
      )}
    </li>
  );
}

/** Feedback: send one (type, text, contact, up to three attachments) and follow the replies. */
export function FeedbackPanel() {
  const { t } = useTranslation('participant');
  const { message } = useFeedback();
  const successText = useContentSuccess();
  const client = useQueryClient();
  const [form] = Form.useForm<FeedbackForm>();
  const [sending, setSending] = useState(false);
  const [page, setPage] = useState(1);
  const types = useFeedbackTypes();
  const list = useMyFeedback(page);
  // The type by its name in the page's language, like the other participant pages show codes
  // (/dic/label, disabled items too); the server's Chinese typeName while that loads or if it fails.
  const labels = useDictLabels(FEEDBACK_LABEL_TYPES);
  const typeNameOf = (item: FeedbackItem) => labels.data?.[FEEDBACK_TYPE_DICT]?.[item.type] || item.typeName || item.type;
  const { preview, holder } = usePreviewDialog();

  const submit = async (values: FeedbackForm) => {
    setSending(true);
    try {
      const res = await sendFeedback({
        type: values.type,
        content: values.content,
        contact: values.contact?.trim() || null,
        attachments: (values.attachments ?? []).map((file) => file.filePath),
      });
      // The server's text is the spec's Chinese; English pages show it by its message key.
      void message.success(successText(res.message, 'feedback.sent'));
      form.resetFields();
      setPage(1);
      await client.invalidateQueries({ queryKey: FEEDBACK_LIST_QUERY_KEY });
    } catch {
      // The client has shown the server's reason.
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="feedback" data-testid="feedback">
      <Form<FeedbackForm>
        form={form}
        layout="vertical"
        className="feedback__form"
        onFinish={(values) => void submit(values)}
        requiredMark
      >
        <Form.Item name="type" label={t('feedback.type')} rules={[{ required: true, message: t('feedback.typeRequired') }]}>
          <Select
            placeholder={t('feedback.typePlaceholder')}
            loading={types.isPending}
            options={(types.data ?? []).map((o) => ({ value: o.code, label: o.name }))}
          />
        </Form.Item>
        <Form.Item
          name="content"
          label={t('feedback.content')}
          rules={[
            { required: true, whitespace: true, message: t('feedback.contentRequired') },
            { max: FEEDBACK_CONTENT_MAX, message: t('feedback.contentTooLong', { max: FEEDBACK_CONTENT_MAX }) },
          ]}
        >
          <Input.TextArea rows={5} maxLength={FEEDBACK_CONTENT_MAX} showCount placeholder={t('feedback.contentPlaceholder')} />
        </Form.Item>
        <Form.Item
          name="contact"
          label={t('feedback.contact')}
          rules={[{ max: FEEDBACK_CONTACT_MAX, message: t('feedback.contactTooLong', { max: FEEDBACK_CONTACT_MAX }) }]}
        >
          <Input maxLength={FEEDBACK_CONTACT_MAX} placeholder={t('feedback.contactPlaceholder')} />
        </Form.Item>
        <Form.Item name="attachments" label={t('feedback.attachments')}>
          <MultiUpload
            origin="FEEDBACK"
            accept={ACCEPT}
            maxSize={UPLOAD_RULES.FEEDBACK.maxBytes}
            maxCount={FEEDBACK_ATTACHMENTS_MAX}
            tip={t('feedback.attachmentsTip', { max: FEEDBACK_ATTACHMENTS_MAX })}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={sending}>
          {t('feedback.submit')}
        </Button>
      </Form>

      <h3 className="feedback__list-title">{t('feedback.mine')}</h3>
      {list.isPending ? (
        <Skeleton active paragraph={{ rows: 4 }} />
      ) : !list.data || list.data.list.length === 0 ? (
        <Empty description={t('feedback.empty')} />
      ) : (
        <>
          <ul className="feedback__list">
            {list.data.list.map((item) => (
              <FeedbackCard
                key={item.id}
                item={item}
                typeName={typeNameOf(item)}
                onPreview={(index) =>
                  preview(
                    item.attachments.map((f) => ({ id: f.uniqueNo, uniqueNo: f.uniqueNo, name: f.name, filePath: f.filePath })),
                    index,
                  )
                }
              />
            ))}
          </ul>
          <div className="my-message__pager">
            <Pager page={page} size={list.data.size} total={list.data.total} onChange={(p) => setPage(p)} />
          </div>
        </>
      )}
      {holder}
    </div>
  );
}
