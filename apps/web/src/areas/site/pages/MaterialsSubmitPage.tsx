import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/PlaceholderPage';

export function MaterialsSubmitPage() {
  const { t } = useTranslation('site');
  return <PlaceholderPage title={t('titles.materialsSubmit')} />;
}
