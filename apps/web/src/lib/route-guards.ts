/**
 * Login guards (docs/rules/screens.md, "Session and redirects"). Route loaders rather than components, so a guarded
 * page is neither rendered nor has its chunk awaited before the redirect. The layouts' guard on
 * the participant info is useParticipantInfoGuard (./participant-info-guard).
 */
import { redirect, type LoaderFunction, type LoaderFunctionArgs, type RouteObject } from 'react-router';
// Light modules only: the route tables of every area (admin and expert included) import this
// file, so it is part of the first load of every page. No HTTP client, no antd.
import { loginPathOf } from '../api/realm';
import { openAuthModal } from './auth-modal';
import type { RouteHandle } from './route-handle';
import { getToken, saveRedirectPath, type StaffRealm } from './session-store';

function targetOf(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/**
 * Participant pages: without an AccessToken, remember the page, go to / and open the login
 * dialog there; after logging in the dialog brings the user back.
 */
export const requireParticipantLogin: LoaderFunction = ({ request }: LoaderFunctionArgs) => {
  if (getToken('USER')) return null;
  saveRedirectPath(targetOf(request));
  openAuthModal('login');
  return redirect('/');
};

/** Admin and expert pages: without the realm's token, go to its login page. */
export function requireStaffLogin(realm: StaffRealm): LoaderFunction {
  return ({ request }: LoaderFunctionArgs) => {
    if (getToken(realm)) return null;
    saveRedirectPath(targetOf(request));
    return redirect(loginPathOf(realm));
  };
}

function isNoLogin(route: RouteObject): boolean {
  const handle = route.handle as RouteHandle | undefined;
  return handle?.noLogin === true;
}

/**
 * Puts `guard` in front of the loader of every route in the tree not flagged noLogin.
 * Per route rather than once on the layout: a layout's loader cannot see which child
 * matched, and noLogin children must stay open.
 */
export function guardRoutes(routes: RouteObject[], guard: LoaderFunction): RouteObject[] {
  return routes.map((route): RouteObject => {
    if (isNoLogin(route)) return route;
    const own = typeof route.loader === 'function' ? route.loader : null;
    const loader: LoaderFunction = async (args, context) => {
      const blocked: unknown = await guard(args, context);
      if (blocked) return blocked;
      return own ? own(args, context) : null;
    };
    const children = route.children ? guardRoutes(route.children, guard) : undefined;
    return { ...route, loader, ...(children ? { children } : {}) } as RouteObject;
  });
}
