import { useTranslation } from 'react-i18next';
import { NewsList } from '../components/NewsList';
import '../site-pages.css';

export function ContestDynamicPage() {
  const { t } = useTranslation('site');
  return <NewsList category="CONTEST_DYNAMIC" title={t('titles.contestDynamic')} />;
}
