import { useTranslation } from 'react-i18next';
import { StaffLogin } from '../../../components/StaffLogin';
import { ADMIN_PATHS } from '../routes';

export function AdminLoginPage() {
  const { t } = useTranslation('admin');
  return (
    <StaffLogin
      realm="ADMIN"
      areaName={t('areaName')}
      title={t('titles.login')}
      subtitle={t('loginSubtitle')}
      homePath={ADMIN_PATHS.home}
    />
  );
}
