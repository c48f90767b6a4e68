import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { Realm } from '@contest/shared';
import { unauthorized } from '../../lib/errors.js';
import type { AuthContext, SessionService } from './session.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** A preHandler that admits only sessions of the given realms (401, or 409 when replaced). */
export function requireRealm(sessions: SessionService, ...realms: Realm[]): preHandlerAsyncHookHandler {
  return async function guard(request: FastifyRequest, _reply: FastifyReply) {
    request.auth = await sessions.authenticate(bearerToken(request), realms);
  };
}

/** For handlers behind a guard: the context is always there. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
