import { useEffect, useRef } from 'react';
import { Alert, Checkbox, Form, Input, Typography } from 'antd';
import type { TextAreaRef } from 'antd/es/input/TextArea';
import { useTranslation } from 'react-i18next';
import type { SheetView } from '@contest/shared';
import { AppDialog } from '../../../components/admin-kit';
import { moveFocusSoon } from '../../../components/a11y/move-focus';
import { refusalText } from '../../../components/admin-kit/refusal-text';
import { useFormSubmit } from '../../../lib/use-form-submit';

/** abstainSchema (packages/shared/src/review/api.ts): the reason, trimmed, 1-200 characters. */
export const ABSTAIN_REASON_MAX = 200;

interface Values {
  reason: string;
  understood: boolean;
}

export interface AbstainDialogProps {
  open: boolean;
  projectName: string;
  /** Sends the abstention; resolves with the abstained sheet, rejects with the refusal (shown inside). */
  onAbstain(reason: string): Promise<SheetView>;
  /** After a refusal the page may have reloaded (window closed, submitted elsewhere): the dialog is closed by it. */
  onRefused?(error: unknown): boolean;
  onDone(sheet: SheetView): void;
  onClose(): void;
}

/**
 * 申请回避 (docs/rules/review.md, "Abstaining"): the reason, and a box the expert ticks to say
 * they know it is final (the project leaves their list, the admins arrange another expert); the
 * confirm button sends it. Focus starts in the reason; Esc or 取消 closes and focus goes back to
 * the 回避 button (the dialog's own return of focus). A refusal is shown inside, in the page's
 * language.
 */
export function AbstainDialog({ open, projectName, onAbstain, onRefused, onDone, onClose }: AbstainDialogProps) {
  const { t } = useTranslation('expert');
  const [form] = Form.useForm<Values>();
  const reasonRef = useRef<TextAreaRef>(null);

  // Focus starts in the reason once the dialog is drawn (the dialog itself first takes focus to its frame).
  useEffect(() => {
    if (!open) return undefined;
    return moveFocusSoon(() => reasonRef.current?.resizableTextArea?.textArea, { force: true });
  }, [open]);

  const { busy, error, setError, submit } = useFormSubmit(
    form,
    async (values) => {
      const sheet = await onAbstain(values.reason.trim());
      onDone(sheet);
    },
    (e) => (onRefused?.(e) ? null : (refusalText(e) ?? t('abstain.failed'))),
  );

  return (
    <AppDialog
      open={open}
      title={t('abstain.title')}
      okText={t('abstain.confirm')}
      okButtonProps={{ danger: true }}
      cancelText={t('form.cancel')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (busy) return;
        setError(null);
        onClose();
      }}
      data-testid="abstain-dialog"
    >
      <Typography.Paragraph>{t('abstain.of', { name: projectName })}</Typography.Paragraph>
      <Alert type="warning" showIcon title={t('abstain.consequence')} className="expert-abstain__warning" />
      <Form<Values> form={form} layout="vertical" clearOnDestroy initialValues={{ reason: '', understood: false }} requiredMark={false}>
        <Form.Item
          name="reason"
          label={t('abstain.reason')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const text = (value ?? '').trim();
                if (text === '') throw new Error(t('abstain.reasonRequired'));
                if (Array.from(text).length > ABSTAIN_REASON_MAX) throw new Error(t('abstain.reasonTooLong', { max: ABSTAIN_REASON_MAX }));
              },
            },
          ]}
        >
          <Input.TextArea
            ref={reasonRef}
            rows={3}
            count={{ show: true, max: ABSTAIN_REASON_MAX }}
            placeholder={t('abstain.reasonPlaceholder')}
            data-testid="abstain-reason"
          />
        </Form.Item>
        <Form.Item
          name="understood"
          valuePropName="checked"
          rules={[{ validator: async (_rule, value: boolean) => (value ? undefined : Promise.reject(new Error(t('abstain.understoodRequired')))) }]}
        >
          <Checkbox data-testid="abstain-understood">{t('abstain.understood')}</Checkbox>
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="abstain-error" />}
    </AppDialog>
  );
}
