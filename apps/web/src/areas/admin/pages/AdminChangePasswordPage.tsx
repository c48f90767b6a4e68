import { useTranslation } from 'react-i18next';
import { StaffChangePassword } from '../../../components/StaffChangePassword';
import { ADMIN_PATHS } from '../routes';

/** The forced password change of an admin whose password was set by someone else (docs/security.md). */
export function AdminChangePasswordPage() {
  const { t } = useTranslation('admin');
  return <StaffChangePassword realm="ADMIN" areaName={t('areaName')} title={t('titles.changePassword')} homePath={ADMIN_PATHS.home} />;
}
