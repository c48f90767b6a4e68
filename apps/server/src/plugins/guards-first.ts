import type { RouteOptions } from 'fastify';

const hooksOf = (value: unknown): unknown[] => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]);
const isGuard = (hook: unknown): boolean => typeof hook === 'function' && (hook as { guard?: unknown }).guard !== undefined;

/**
 * An onRoute hook: the route's guards (the hooks admin.guard.ts and auth.guard.ts tag with
 * `guard`) leave preHandler for the end of onRequest, so the caller is identified before the body
 * is read and validated. Otherwise Fastify validates first, and an anonymous caller sending a
 * malformed body to a sign-in-only route learns the route's schema from a 400 instead of getting
 * 401. Hooks that need the body (the per-account login limit) stay in preHandler; the upload's
 * admission check, already in onRequest, stays ahead of the guard.
 */
export function guardsFirst(route: RouteOptions): void {
  const pre = hooksOf(route.preHandler);
  const guards = pre.filter(isGuard);
  if (guards.length === 0) return;
  const rest = pre.filter((hook) => !isGuard(hook));
  route.preHandler = rest.length ? (rest as RouteOptions['preHandler']) : undefined;
  route.onRequest = [...hooksOf(route.onRequest), ...guards] as RouteOptions['onRequest'];
}
