import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CertificateStatus } from '@contest/shared';

/** Valid green, superseded orange, revoked red: the same colours as the public verification banner. */
export const CERTIFICATE_STATUS_COLORS: Record<CertificateStatus, string> = {
  VALID: 'success',
  SUPERSEDED: 'warning',
  REVOKED: 'error',
};

export function CertificateStatusTag({ status }: { status: CertificateStatus }) {
  const { t } = useTranslation('certificates');
  return (
    <Tag color={CERTIFICATE_STATUS_COLORS[status]} data-testid="certificate-status" data-status={status}>
      {t(`status.${status}`)}
    </Tag>
  );
}
