import { Alert, Form, Input, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  APPEAL_ATTACHMENT_ORIGIN,
  APPEAL_ATTACHMENTS_MAX,
  APPEAL_REASON_MAX,
  ROUND_SLUGS,
  UPLOAD_RULES,
  type MyAppeal,
  type ReviewRound,
} from '@contest/shared';
import { ApiError } from '../../../api';
import { useFeedback } from '../../../components/feedback';
import { useResultsMessage, useResultsText } from '../../../components/results';
import { MultiUpload } from '../../../components/upload';
import type { UploadValueItem } from '../../../lib/upload';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { submitAppeal } from './results-api';

const ACCEPT = UPLOAD_RULES[APPEAL_ATTACHMENT_ORIGIN].extensions.map((ext) => `.${ext}`).join(',');

interface Values {
  reason: string;
  attachments?: UploadValueItem[];
}

export interface AppealDialogProps {
  round: ReviewRound;
  open: boolean;
  onClose(): void;
  onSubmitted(appeal: MyAppeal): void;
  /** The server refused for a reason the card should show (closed, already filed...): read the results again. */
  onRefused(): void;
}

/**
 * 提出申诉 (docs/rules/results.md, "Appeals"): the reason (at most 1,000 characters, counted as the server counts) and
 * up to 3 attachments through the participant uploader (origin OTHER). The server's refusals stay in
 * the dialog; the card is read again so it shows why no appeal can be filed any more.
 */
export function AppealDialog({ round, open, onClose, onSubmitted, onRefused }: AppealDialogProps) {
  const { t } = useTranslation('results');
  const text = useResultsText();
  const translate = useResultsMessage();
  const { message } = useFeedback();
  const [form] = Form.useForm<Values>();
  const { busy, error, setError, submit } = useFormSubmit(
    form,
    async (values) => {
      const appeal = await submitAppeal(ROUND_SLUGS[round], {
        reason: values.reason.trim(),
        // The stored file's uniqueNo (its path when the server named none).
        attachments: (values.attachments ?? []).map((f) => f.id || f.filePath),
      });
      void message.success(text('appealSubmitted'));
      form.resetFields();
      onSubmitted(appeal);
      onClose();
    },
    (e) => {
      if (e instanceof ApiError && e.status < 500) onRefused();
      return translate(e instanceof Error ? e.message : String(e)) || t('mine.submitFailed');
    },
  );

  return (
    <Modal
      open={open}
      title={t('appealForm.title', { round: t(`rounds.${round}`) })}
      width={640}
      okText={t('appealForm.submit')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (busy) return;
        setError(null);
        onClose();
      }}
      mask={{ closable: false }}
      destroyOnHidden
      data-testid="appeal-dialog"
    >
      <Typography.Paragraph type="secondary">{t('appealForm.intro')}</Typography.Paragraph>
      <Form<Values> form={form} layout="vertical" initialValues={{ reason: '', attachments: [] }} disabled={busy}>
        <Form.Item
          name="reason"
          label={t('appealForm.reason')}
          required
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const trimmed = (value ?? '').trim();
                if (trimmed === '') throw new Error(text('appealReasonRequired'));
                // The server counts UTF-16 units after trimming (zod's max); so does the counter.
                if (trimmed.length > APPEAL_REASON_MAX) throw new Error(text('appealReasonTooLong'));
              },
            },
          ]}
        >
          <Input.TextArea rows={6} count={{ show: true, max: APPEAL_REASON_MAX }} placeholder={t('appealForm.reasonPlaceholder')} />
        </Form.Item>
        <Form.Item
          name="attachments"
          label={t('appealForm.attachments')}
          rules={[
            {
              validator: async (_rule, value: UploadValueItem[] | undefined) => {
                if ((value ?? []).length > APPEAL_ATTACHMENTS_MAX) throw new Error(text('appealAttachmentsTooMany'));
              },
            },
          ]}
        >
          <MultiUpload
            origin={APPEAL_ATTACHMENT_ORIGIN}
            accept={ACCEPT}
            maxSize={UPLOAD_RULES[APPEAL_ATTACHMENT_ORIGIN].maxBytes}
            maxCount={APPEAL_ATTACHMENTS_MAX}
          />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="appeal-error" />}
    </Modal>
  );
}
