import { useRouteTitle } from '../../lib/route-handle';

/**
 * The h1 of a page whose title shows only in the breadcrumb: read by screen readers and the
 * target of route focus, not drawn twice.
 */
export function HiddenPageHeading({ children }: { children?: string | undefined }) {
  const routeTitle = useRouteTitle();
  return <h1 className="sr-only">{children ?? routeTitle}</h1>;
}
