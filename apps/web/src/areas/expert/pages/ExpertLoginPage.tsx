import { useTranslation } from 'react-i18next';
import { LoginPlaceholder } from '../../../components/LoginPlaceholder';

export function ExpertLoginPage() {
  const { t } = useTranslation('expert');
  return (
    <LoginPlaceholder
      areaName={t('areaName')}
      title={t('titles.login')}
      description={t('loginPlaceholder')}
    />
  );
}
