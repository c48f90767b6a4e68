import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app-deps.js';
import { OPENAPI_PATH, openApiDocument } from '../../plugins/openapi.js';
import { createAdminGuards, createMenuAccess } from '../admin/admin.guard.js';
import type { IdentityServices } from '../auth/identity.module.js';

/**
 * GET /api/admin/openapi.json: the live API description, for any signed-in admin only — it lists
 * every call and its permission, which strangers need not learn. Sent as plain OpenAPI JSON (not
 * wrapped in the envelope) so tools read it as it is; failures are envelopes as everywhere.
 */
export async function registerApiDoc(api: FastifyInstance, deps: AppDeps, identity: IdentityServices): Promise<void> {
  const guards = createAdminGuards(identity.sessions, identity.permissions, createMenuAccess(deps.database.db));
  await api.register(async (scope) => {
    if (!scope.hasRequestDecorator('auth')) scope.decorateRequest('auth', null);
    scope.get(OPENAPI_PATH.replace(/^\/api/, ''), { onRequest: guards.any }, async (_request, reply) => {
      reply.type('application/json; charset=utf-8');
      return openApiDocument(scope);
    });
  });
}
