import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppDialog } from '../../../components/admin-kit';
import { errorText } from './errors';

/** The review calls take reasons of at most 200 characters (api.ts reason200). */
export const REVIEW_REASON_MAX = 200;

export interface ReviewReasonDialogProps {
  open: boolean;
  title: ReactNode;
  /** Above the reason: what is about to change. */
  children?: ReactNode;
  /** A required reason (退回) or an optional note (调整分组). */
  required?: boolean;
  label?: ReactNode;
  okText?: ReactNode;
  onClose(): void;
  /** Resolves: the dialog closes. Rejects: it stays open with the message. */
  onSubmit(reason: string): Promise<unknown>;
}

/** A decision with a reason, the refusal shown inside the dialog. */
export function ReviewReasonDialog({ open, title, children, required = true, label, okText, onClose, onSubmit }: ReviewReasonDialogProps) {
  const { t } = useTranslation('review');
  const [form] = Form.useForm<{ reason?: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  const submit = async () => {
    let reason: string;
    try {
      reason = ((await form.validateFields()).reason ?? '').trim();
    } catch {
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onSubmit(reason);
      onClose();
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      open={open}
      title={title}
      okText={okText}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (!busy) onClose();
      }}
      data-testid="review-reason-dialog"
    >
      {children}
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ reason: '' }}>
        <Form.Item
          name="reason"
          label={label ?? t('common.reason')}
          required={required}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const text = (value ?? '').trim();
                if (required && text === '') throw new Error(t('common.reasonRequired'));
                if (Array.from(text).length > REVIEW_REASON_MAX) throw new Error(t('common.reasonTooLong', { max: REVIEW_REASON_MAX }));
              },
            },
          ]}
        >
          <Input.TextArea
            rows={3}
            count={{ show: true, max: REVIEW_REASON_MAX }}
            placeholder={required ? t('common.reasonPlaceholder') : t('common.optional')}
          />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="review-dialog-error" />}
    </AppDialog>
  );
}
