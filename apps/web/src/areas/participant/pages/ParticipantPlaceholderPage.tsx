import { PlaceholderPage } from '../../../components/PlaceholderPage';
import { useRouteTitle } from '../../../lib/route-handle';

/** One stand-in for every participant page: the title comes from the route handle. */
export function ParticipantPlaceholderPage() {
  return <PlaceholderPage title={useRouteTitle()} />;
}
