import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { AUDIT_REASON_MAX } from '@contest/shared';
import { AppDialog } from '../../../components/admin-kit';
import { ApiError } from '../../../api';

export interface ReasonDialogProps {
  open: boolean;
  title: ReactNode;
  /** Above the reason (what is about to change). */
  children?: ReactNode;
  onClose(): void;
  /** Resolves: the dialog closes. Rejects: the dialog stays open with the message. */
  onSubmit(reason: string): Promise<unknown>;
  /** Ok disabled (nothing chosen yet...). */
  okDisabled?: boolean;
  width?: number;
}

/** A change of the final-round list: the reason is always required (FINAL workflow), at most 500 characters. */
export function ReasonDialog({ open, title, children, onClose, onSubmit, okDisabled, width }: ReasonDialogProps) {
  const { t } = useTranslation('admin');
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
      setError(e instanceof ApiError || e instanceof Error ? e.message || null : null);
    } finally {
      setBusy(false);
    }
  };

  return (
    <AppDialog
      open={open}
      title={title}
      width={width}
      confirmLoading={busy}
      okButtonProps={{ disabled: okDisabled }}
      onOk={() => void submit()}
      onCancel={() => {
        if (!busy) onClose();
      }}
      data-testid="reason-dialog"
    >
      {children}
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ reason: '' }}>
        <Form.Item
          name="reason"
          label={t('pages.prelim.final.reason')}
          required
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const text = (value ?? '').trim();
                if (text === '') throw new Error(t('pages.prelim.final.reasonRequired'));
                if (Array.from(text).length > AUDIT_REASON_MAX) throw new Error(t('kit.audit.reasonTooLong', { max: AUDIT_REASON_MAX }));
              },
            },
          ]}
        >
          <Input.TextArea rows={3} count={{ show: true, max: AUDIT_REASON_MAX }} placeholder={t('pages.prelim.final.reasonPlaceholder')} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="reason-error" />}
    </AppDialog>
  );
}
