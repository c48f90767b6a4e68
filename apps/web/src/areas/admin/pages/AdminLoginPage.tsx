import { useTranslation } from 'react-i18next';
import { LoginPlaceholder } from '../../../components/LoginPlaceholder';

export function AdminLoginPage() {
  const { t } = useTranslation('admin');
  return (
    <LoginPlaceholder
      areaName={t('areaName')}
      title={t('titles.login')}
      description={t('loginPlaceholder')}
    />
  );
}
