import { useTranslation } from 'react-i18next';
import { AUDIT_REASON_MAX } from '@contest/shared';
import { ReasonDialog as BaseReasonDialog, type ReasonDialogProps as BaseProps } from '../components/ReasonDialog';

export type ReasonDialogProps = Omit<BaseProps, 'max' | 'texts' | 'testIds' | 'required'>;

/** A change of the final-round list: the reason is always required (FINAL workflow), at most 500 characters. */
export function ReasonDialog(props: ReasonDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <BaseReasonDialog
      {...props}
      max={AUDIT_REASON_MAX}
      texts={{
        label: t('pages.prelim.final.reason'),
        placeholder: t('pages.prelim.final.reasonPlaceholder'),
        required: t('pages.prelim.final.reasonRequired'),
        tooLong: t('kit.audit.reasonTooLong', { max: AUDIT_REASON_MAX }),
      }}
      testIds={{ dialog: 'reason-dialog', error: 'reason-error' }}
    />
  );
}
