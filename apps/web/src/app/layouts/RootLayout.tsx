import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ApiBridge } from '../../lib/api';
import { usePageTitleOverride } from '../../lib/page-title';
import { useRouteHandle, useRouteTitle } from '../../lib/route-handle';
import { SessionBridge } from '../../lib/session';

/** Top of every route: keeps document.title in step with the route and the language. */
export function RootLayout() {
  const { t } = useTranslation();
  const { title } = useRouteHandle();
  const appName = t('appName');
  const routeTitle = useRouteTitle();
  const pageTitle = usePageTitleOverride() ?? routeTitle;

  useEffect(() => {
    const isHome = title === 'site:titles.home';
    document.title = pageTitle && !isHome ? `${pageTitle} - ${appName}` : appName;
  }, [appName, pageTitle, title]);

  return (
    <>
      <ApiBridge />
      <SessionBridge />
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
