import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ReasonDialog, type ReasonDialogProps } from '../components/ReasonDialog';

/** The review calls take reasons of at most 200 characters (api.ts reason200). */
export const REVIEW_REASON_MAX = 200;

export interface ReviewReasonDialogProps extends Omit<ReasonDialogProps, 'max' | 'texts' | 'testIds'> {
  label?: ReactNode;
}

/** A review decision with a reason (退回) or an optional note (调整分组), the refusal shown inside. */
export function ReviewReasonDialog({ label, required = true, ...props }: ReviewReasonDialogProps) {
  const { t } = useTranslation('review');
  return (
    <ReasonDialog
      {...props}
      required={required}
      max={REVIEW_REASON_MAX}
      texts={{
        label: label ?? t('common.reason'),
        placeholder: required ? t('common.reasonPlaceholder') : t('common.optional'),
        required: t('common.reasonRequired'),
        tooLong: t('common.reasonTooLong', { max: REVIEW_REASON_MAX }),
      }}
      testIds={{ dialog: 'review-reason-dialog', error: 'review-dialog-error' }}
    />
  );
}
