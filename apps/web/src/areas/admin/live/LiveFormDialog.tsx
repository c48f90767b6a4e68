import type { ReactNode } from 'react';
import { Alert, type ModalProps } from 'antd';
import { AppDialog } from '../../../components/admin-kit';

/** What `useFormSubmit` hands back, the part the dialog needs. */
export interface DialogSubmission {
  busy: boolean;
  error: string | null;
  setError(error: string | null): void;
  submit(): Promise<void>;
}

export interface LiveFormDialogProps extends Omit<ModalProps, 'onOk' | 'onCancel' | 'confirmLoading' | 'children'> {
  submission: DialogSubmission;
  onClose(): void;
  children: ReactNode;
  /** The refusal's test id (the chair's reason dialog keeps its own). */
  errorTestId?: string;
  'data-testid'?: string;
}

/**
 * The live pages' form dialog: 确认 runs the form's submit (useFormSubmit), 取消 is ignored while
 * the call is under way (the answer must land in an open dialog) and otherwise clears the last
 * refusal, which is shown under the form.
 */
export function LiveFormDialog({ submission, onClose, children, errorTestId = 'live-dialog-error', ...modal }: LiveFormDialogProps) {
  const { busy, error, setError, submit } = submission;
  return (
    <AppDialog
      {...modal}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (busy) return;
        setError(null);
        onClose();
      }}
    >
      {children}
      {error && <Alert type="error" showIcon title={error} data-testid={errorTestId} />}
    </AppDialog>
  );
}
