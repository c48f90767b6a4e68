import { PlaceholderPage } from '../../../components/PlaceholderPage';
import { useRouteTitle } from '../../../lib/route-handle';

/** Menu pages whose feature lands in a later issue: the page title and a notice. */
export function AdminPlaceholderPage() {
  return <PlaceholderPage title={useRouteTitle()} />;
}

/** Detail pages, reached from a list: the same, with a back button. */
export function AdminDetailPlaceholderPage() {
  return <PlaceholderPage title={useRouteTitle()} back />;
}
