import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/PlaceholderPage';
import { useRouteHandle } from '../../../lib/route-handle';

/** One stand-in for every participant page: the title comes from the route handle. */
export function ParticipantPlaceholderPage() {
  const { t } = useTranslation();
  const { title } = useRouteHandle();
  return <PlaceholderPage title={title ? t(title) : ''} />;
}
