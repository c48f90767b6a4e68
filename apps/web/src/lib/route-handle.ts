import { useMatches } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { NAMESPACES, type Namespace } from '../i18n/namespaces';

/** A translation key written with its namespace, e.g. 'site:titles.home'. */
export type TitleKey = { [N in Namespace]: `${N}:${ParseKeys<N> & string}` }[Namespace];

/**
 * Static metadata on a route object's `handle`. It lives outside `lazy` so layouts can
 * read it before (and regardless of) the page chunk.
 */
export interface RouteHandle {
  /** Page title, used for document.title and breadcrumbs. */
  title?: TitleKey;
  /** Open without login (spec: noLogin); opening the login dialog then stays on the page. */
  noLogin?: boolean;
  /** Gateway layout: hide the footer. */
  hideFooter?: boolean;
  /** Gateway layout: hide the user-info / login block of the header. */
  hideUserInfo?: boolean;
}

function isRouteHandle(value: unknown): value is RouteHandle {
  return typeof value === 'object' && value !== null;
}

/** Handles of all matched routes merged, the deepest route winning. */
export function useRouteHandle(): RouteHandle {
  const merged: RouteHandle = {};
  for (const match of useMatches()) {
    if (isRouteHandle(match.handle)) Object.assign(merged, match.handle);
  }
  return merged;
}

/** The current route's title, translated; '' when the route has none. */
export function useRouteTitle(): string {
  const { t } = useTranslation(NAMESPACES);
  const { title } = useRouteHandle();
  return title ? t(title) : '';
}
