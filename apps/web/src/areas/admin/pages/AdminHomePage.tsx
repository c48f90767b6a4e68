import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function AdminHomePage() {
  const { t } = useTranslation('admin');
  return <PlaceholderPage title={t('titles.home')} />;
}
