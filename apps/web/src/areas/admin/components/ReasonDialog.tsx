import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Form, Input } from 'antd';
import { AppDialog } from '../../../components/admin-kit';
import { ApiError } from '../../../api';
import { validateAndFocus } from '../../../lib/form-errors';

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
  okText?: ReactNode;
  width?: number;
  /** A required reason (a return, a removal) or an optional note. */
  required?: boolean;
  /** Characters allowed (the server's limit for this call). */
  max: number;
  texts: { label: ReactNode; placeholder: string; required: string; tooLong: string };
  /** Test ids of the dialog and of the refusal shown in it. */
  testIds: { dialog: string; error: string };
}

/**
 * A decision with a reason, the server's refusal shown inside the dialog (the console's writes
 * here are silent: no toast besides). The final-round list and the review pages use it with
 * their own texts and limits.
 */
export function ReasonDialog({ open, title, children, onClose, onSubmit, okDisabled, okText, width, required = true, max, texts, testIds }: ReasonDialogProps) {
  const [form] = Form.useForm<{ reason?: string }>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  const submit = async () => {
    let reason: string;
    try {
      reason = ((await validateAndFocus(form)).reason ?? '').trim();
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
      okText={okText}
      confirmLoading={busy}
      okButtonProps={{ disabled: okDisabled }}
      onOk={() => void submit()}
      onCancel={() => {
        if (!busy) onClose();
      }}
      data-testid={testIds.dialog}
    >
      {children}
      <Form form={form} layout="vertical" clearOnDestroy initialValues={{ reason: '' }}>
        <Form.Item
          name="reason"
          label={texts.label}
          required={required}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const text = (value ?? '').trim();
                if (required && text === '') throw new Error(texts.required);
                if (Array.from(text).length > max) throw new Error(texts.tooLong);
              },
            },
          ]}
        >
          <Input.TextArea rows={3} count={{ show: true, max }} placeholder={texts.placeholder} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid={testIds.error} />}
    </AppDialog>
  );
}
