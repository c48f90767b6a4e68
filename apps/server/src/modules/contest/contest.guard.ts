import type { FastifyRequest } from 'fastify';
import { bearerToken, tagRealmGuard } from '../auth/auth.guard.js';
import type { SessionService } from '../auth/session.service.js';

/**
 * A participant session, checked at onRequest like the admin guards: an anonymous caller gets
 * 401 before its body is validated, so validation messages tell strangers nothing.
 */
export function participantGuard(sessions: SessionService) {
  return tagRealmGuard(async (request: FastifyRequest) => {
    request.auth = await sessions.authenticate(bearerToken(request), ['USER']);
  }, { kind: 'realm', realms: ['USER'] });
}
