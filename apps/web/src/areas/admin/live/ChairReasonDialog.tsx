import { Alert, Form, Input, Select, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIVE_REASON_MAX, type LiveChairProject } from '@contest/shared';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { LiveFormDialog } from './LiveFormDialog';

/** What the dialog asks for: closing a project's scoring, returning one judge's score, reopening the session. */
export type ReasonTarget =
  | { action: 'CLOSE'; project: LiveChairProject }
  | { action: 'RETURN_SCORE'; project: LiveChairProject; expertId?: string }
  | { action: 'REOPEN' };

interface Values {
  reason: string;
  expertId?: string;
}

export interface ChairReasonDialogProps {
  target: ReasonTarget | null;
  onClose(): void;
  /** Sends the action; a rejection's text (from `refusal`) stays in the dialog. */
  onSubmit(values: { reason: string; expertId?: string }): Promise<void>;
  /** The text shown for a refusal, or null when the page handled it (STALE: the dialog closes). */
  refusal(error: unknown): string | null;
}

/**
 * The chair's reason dialog: 关闭评分 (a reason required while a judge has not submitted), 退回评分
 * (the judge, among those who submitted, and a reason) and 重新开放场次 (a reason).
 */
export function ChairReasonDialog({ target, onClose, onSubmit, refusal }: ChairReasonDialogProps) {
  const { t } = useTranslation('liveAdmin');
  const [form] = Form.useForm<Values>();
  const missing = target?.action === 'CLOSE' ? target.project.judges.filter((j) => j.status !== 'SUBMITTED').length : 0;
  const reasonRequired = target?.action !== 'CLOSE' || missing > 0;
  const returnable = target?.action === 'RETURN_SCORE' ? target.project.judges.filter((j) => j.status === 'SUBMITTED') : [];
  const submission = useFormSubmit(
    form,
    async (values) => {
      await onSubmit({ reason: (values.reason ?? '').trim(), ...(values.expertId ? { expertId: values.expertId } : {}) });
      onClose();
    },
    refusal,
  );

  const title =
    target?.action === 'CLOSE' ? t('chair.closeTitle') : target?.action === 'RETURN_SCORE' ? t('chair.returnTitle') : t('chair.reopenTitle');

  return (
    <LiveFormDialog
      open={target !== null}
      title={title}
      okButtonProps={{ danger: target?.action === 'CLOSE' }}
      submission={submission}
      onClose={onClose}
      errorTestId="live-reason-error"
      data-testid="live-reason-dialog"
    >
      {target && target.action !== 'REOPEN' && (
        <Typography.Paragraph strong>{target.project.projectName}</Typography.Paragraph>
      )}
      {target?.action === 'CLOSE' && (
        <Alert type={missing > 0 ? 'warning' : 'info'} showIcon className="live-dialog-note" title={missing > 0 ? t('chair.closeHint', { count: missing }) : t('chair.closeAllIn')} />
      )}
      <Form<Values>
        form={form}
        layout="vertical"
        clearOnDestroy
        initialValues={{ reason: '', expertId: target?.action === 'RETURN_SCORE' ? target.expertId : undefined }}
      >
        {target?.action === 'RETURN_SCORE' && (
          <Form.Item name="expertId" label={t('chair.returnJudge')} rules={[{ required: true, message: t('chair.returnJudgeRequired') }]}>
            <Select options={returnable.map((j) => ({ value: j.expertId, label: `${j.code} ${j.name}` }))} placeholder={t('chair.returnJudgeRequired')} />
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label={t('chair.reason')}
          rules={[
            { required: reasonRequired, whitespace: true, message: t('chair.reasonRequired') },
            { max: LIVE_REASON_MAX, message: t('chair.reasonTooLong') },
          ]}
        >
          <Input.TextArea rows={3} maxLength={LIVE_REASON_MAX} showCount />
        </Form.Item>
      </Form>
    </LiveFormDialog>
  );
}
