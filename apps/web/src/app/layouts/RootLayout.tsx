import { useEffect } from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { ApiBridge } from '../../lib/api';
import { useContestName, useLoadContestName } from '../../lib/contest-name';
import { usePageTitleOverride } from '../../lib/page-title';
import { useRouteHandle, useRouteTitle } from '../../lib/route-handle';
import { SessionBridge } from '../../lib/session';

/** Top of every route: keeps document.title in step with the route, the language and the contest name of 大赛设置. */
export function RootLayout() {
  const { title } = useRouteHandle();
  useLoadContestName();
  const appName = useContestName();
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
