import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';

export interface FormAlertsProps {
  /** The record was returned for changes: the reviewer's reason shows above the form. */
  revising: boolean;
  auditReason?: string | null;
  /** Outside the phase window: why saving is disabled. */
  closedText: string | null;
  /** The server's refusal of the last save or submit. */
  refusal: string | null;
  onCloseRefusal(): void;
}

/** The notices above the sign-up and materials forms: returned for changes, window closed, refused. */
export function FormAlerts({ revising, auditReason, closedText, refusal, onCloseRefusal }: FormAlertsProps) {
  const { t } = useTranslation('signup');
  return (
    <>
      {revising && (
        <Alert
          className="contest-page__alert"
          type="warning"
          showIcon
          title={t('common.revisingTitle')}
          description={auditReason ? `${t('common.reason')}：${auditReason}` : undefined}
          data-testid="revising-reason"
        />
      )}
      {closedText && <Alert className="contest-page__alert" type="info" showIcon title={closedText} />}
      {refusal && (
        <Alert
          className="contest-page__alert"
          type="error"
          showIcon
          closable={{ onClose: onCloseRefusal }}
          title={t('common.refused', { message: refusal })}
          data-testid="form-refusal"
        />
      )}
    </>
  );
}
