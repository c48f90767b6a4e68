import { useState } from 'react';
import { Alert, Button, Card, Checkbox, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

const CLAUSES = ['confidentiality', 'conflicts', 'fairness', 'finality'] as const;

export interface ReviewAgreementProps {
  /** PUT /user/agreement and what follows; the button loads while it runs. */
  onAccept(): Promise<unknown>;
  /** A review page sent the expert here. */
  redirected?: boolean;
}

/**
 * The review agreement (docs/rules/review.md, "Review agreement"): confidentiality, conflicts of interest, fairness, and
 * that a submitted score is final. Nothing of the review opens before it is accepted.
 */
export function ReviewAgreement({ onAccept, redirected = false }: ReviewAgreementProps) {
  const { t } = useTranslation('expert');
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);

  const accept = async () => {
    setBusy(true);
    try {
      await onAccept();
    } catch {
      // The client has already shown why; the expert may try again.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="expert-agreement" data-testid="review-agreement" title={<h3 className="expert-agreement__title">{t('agreement.title')}</h3>}>
      {redirected && <Alert className="expert-agreement__alert" type="warning" showIcon title={t('agreement.required')} data-testid="agreement-required" />}
      <Typography.Paragraph>{t('agreement.intro')}</Typography.Paragraph>
      <ol className="expert-agreement__clauses">
        {CLAUSES.map((clause) => (
          <li key={clause}>
            <Typography.Text strong>{t(`agreement.clauses.${clause}.title`)}</Typography.Text>
            <Typography.Paragraph className="expert-agreement__text">{t(`agreement.clauses.${clause}.text`)}</Typography.Paragraph>
          </li>
        ))}
      </ol>
      <div className="expert-agreement__actions">
        <Checkbox checked={checked} onChange={(e) => setChecked(e.target.checked)} data-testid="agreement-check">
          {t('agreement.check')}
        </Checkbox>
        <Button type="primary" disabled={!checked} loading={busy} onClick={() => void accept()} data-testid="agreement-accept">
          {t('agreement.accept')}
        </Button>
      </div>
    </Card>
  );
}
