import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function ExpertHomePage() {
  const { t } = useTranslation('expert');
  return <PlaceholderPage title={t('titles.home')} />;
}
