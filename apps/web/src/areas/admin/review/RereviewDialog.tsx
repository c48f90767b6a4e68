import { Alert, Form, Input, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReviewRound, ScoreDetail } from '@contest/shared';
import { AppDialog } from '../../../components/admin-kit';
import { useFormSubmit } from '../../../lib/use-form-submit';
import { ExpertPicker } from './ExpertPicker';
import { errorText } from './errors';
import { startRereview } from './review-api';
import { REVIEW_REASON_MAX } from './ReviewReasonDialog';
import { slugOf } from './round';

/** api.ts rereviewSchema: at most 20 added experts. */
const ADD_MAX = 20;

interface Values {
  mode: 'ADD_EXPERTS' | 'RETURN_ALL';
  expertIds: string[];
  reason: string;
}

export interface RereviewDialogProps {
  round: ReviewRound;
  detail: ScoreDetail;
  open: boolean;
  onClose(): void;
  onDone(): void;
}

/**
 * 发起复评 (docs/rules/review.md, "Re-review"): add experts to score the project as well, or return every submitted
 * sheet for rescoring; a reason either way. Experts already on the project or in conflict with it
 * cannot be chosen.
 */
export function RereviewDialog({ round, detail, open, onClose, onDone }: RereviewDialogProps) {
  const { t } = useTranslation('review');
  const [form] = Form.useForm<Values>();
  const mode = Form.useWatch('mode', form);
  const unavailable = new Map<string, string>([
    // An expert who abstained cannot be added back (docs/rules/review.md, "Abstaining").
    ...detail.experts.map((e) => [e.expertId, e.sheet?.status === 'ABSTAINED' ? t('rereview.abstained') : t('rereview.already')] as const),
    ...detail.conflicts.map((c) => [c.expertId, t('rereview.conflict')] as const),
  ]);

  const { busy, error, setError, submit } = useFormSubmit(
    form,
    async (values) => {
      await startRereview(slugOf(round), detail.project.id, {
        mode: values.mode,
        expertIds: values.mode === 'ADD_EXPERTS' ? (values.expertIds ?? []) : [],
        reason: values.reason.trim(),
      });
      onDone();
      onClose();
    },
    errorText,
  );

  return (
    <AppDialog
      open={open}
      title={t('rereview.title')}
      width={640}
      okText={t('rereview.submit')}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={() => {
        if (!busy) {
          setError(null);
          onClose();
        }
      }}
      data-testid="rereview-dialog"
    >
      <p>{t('rereview.of', { name: detail.project.projectName || t('common.untitled') })}</p>
      <Form<Values> form={form} layout="vertical" clearOnDestroy initialValues={{ mode: 'ADD_EXPERTS', expertIds: [], reason: '' }}>
        <Form.Item name="mode" label={t('rereview.mode')}>
          <Radio.Group
            options={[
              { value: 'ADD_EXPERTS', label: t('rereview.modes.ADD_EXPERTS') },
              { value: 'RETURN_ALL', label: t('rereview.modes.RETURN_ALL') },
            ]}
          />
        </Form.Item>
        {mode !== 'RETURN_ALL' ? (
          <Form.Item
            name="expertIds"
            label={t('rereview.experts')}
            rules={[{ type: 'array', min: 1, message: t('rereview.expertsRequired') }]}
          >
            <ExpertPicker round={round} unavailable={unavailable} max={ADD_MAX} exclusive={false} />
          </Form.Item>
        ) : (
          <Alert type="warning" showIcon title={t('rereview.returnAllHint')} className="review-block" />
        )}
        <Form.Item
          name="reason"
          label={t('common.reason')}
          required
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const text = (value ?? '').trim();
                if (text === '') throw new Error(t('common.reasonRequired'));
                if (Array.from(text).length > REVIEW_REASON_MAX) throw new Error(t('common.reasonTooLong', { max: REVIEW_REASON_MAX }));
              },
            },
          ]}
        >
          <Input.TextArea rows={3} count={{ show: true, max: REVIEW_REASON_MAX }} placeholder={t('rereview.reasonPlaceholder')} />
        </Form.Item>
      </Form>
      {error && <Alert type="error" showIcon title={error} data-testid="review-dialog-error" />}
    </AppDialog>
  );
}
