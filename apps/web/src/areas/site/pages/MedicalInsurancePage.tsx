import { useTranslation } from 'react-i18next';
import { NewsList } from '../components/NewsList';
import '../site-pages.css';

export function MedicalInsurancePage() {
  const { t } = useTranslation('site');
  return <NewsList category="MEDICAL_INSURANCE" title={t('titles.medicalInsurance')} />;
}
