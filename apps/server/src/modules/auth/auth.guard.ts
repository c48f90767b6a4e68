import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Realm } from '@contest/shared';
import { forbidden, unauthorized } from '../../lib/errors.js';
import type { PermissionService } from './permission.service.js';
import type { AuthContext, SessionService } from './session.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/**
 * The token of the Authorization header: `Bearer <token>` or, as the spec puts it ("the
 * Authorization header holds the token"), the bare token. Anything else (another scheme, extra
 * words) is no token at all.
 */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^(?:Bearer\s+)?(\S+)$/i.exec(header.trim());
  return match?.[1];
}

/**
 * What a realm guard admits, kept on the guard function (as admin guards keep theirs) so the API
 * description (plugins/openapi.ts) and route-walking tests can tell who may call a route.
 */
export interface RealmGuardInfo {
  kind: 'realm';
  realms: Realm[];
  /** Experts only: the review agreement must be accepted too (expert.guard.ts `agreed`). */
  agreement?: boolean;
}

export function tagRealmGuard<F extends object>(fn: F, guard: RealmGuardInfo): F & { guard: RealmGuardInfo } {
  return Object.assign(fn, { guard });
}

/**
 * A preHandler that admits only sessions of the given realms (401, or 409 when replaced); a
 * session whose password must be changed first gets 403 PASSWORD_CHANGE_REQUIRED.
 */
export function requireRealm(sessions: SessionService, ...realms: Realm[]): preHandlerAsyncHookHandler {
  return tagRealmGuard(async function guard(request: FastifyRequest, _reply: FastifyReply) {
    request.auth = await sessions.authenticate(bearerToken(request), realms);
  }, { kind: 'realm', realms });
}

/**
 * As requireRealm, but also admits a session whose password must be changed first: for the few
 * calls such a session may make (change the password, log out, who am I; docs/security.md).
 */
export function requireRealmPendingPasswordChange(sessions: SessionService, ...realms: Realm[]): preHandlerAsyncHookHandler {
  return tagRealmGuard(async function guard(request: FastifyRequest, _reply: FastifyReply) {
    request.auth = await sessions.authenticate(bearerToken(request), realms, { pendingPasswordChange: true });
  }, { kind: 'realm', realms });
}

/** For handlers behind a guard: the context is always there. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/**
 * preHandler for an admin call: a live ADMIN session (401/409 otherwise) holding `code` (403
 * otherwise). `code` null admits any admin (calls every operator needs, such as their own profile).
 */
export function requirePermission(
  sessions: SessionService,
  permissions: PermissionService,
  code: string | null,
): preHandlerAsyncHookHandler {
  return async function guard(request: FastifyRequest) {
    const ctx = await sessions.authenticate(bearerToken(request), ['ADMIN']);
    request.auth = ctx;
    if (code !== null && !(await permissions.can(ctx, code))) throw forbidden();
  };
}
