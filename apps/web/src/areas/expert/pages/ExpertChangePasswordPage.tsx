import { useTranslation } from 'react-i18next';
import { StaffChangePassword } from '../../../components/StaffChangePassword';
import { EXPERT_PATHS } from '../paths';

/** The forced password change of an expert whose password was generated, imported or reset (docs/security.md). */
export function ExpertChangePasswordPage() {
  const { t } = useTranslation('expert');
  return <StaffChangePassword realm="EXPERT" areaName={t('areaName')} title={t('titles.changePassword')} homePath={EXPERT_PATHS.home} />;
}
