import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function ContestDynamicPage() {
  const { t } = useTranslation('site');
  return <PlaceholderPage title={t('titles.contestDynamic')} />;
}
