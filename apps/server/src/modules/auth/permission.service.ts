import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { AuthRepository } from './auth.repository.js';
import { forbidden } from '../../lib/errors.js';
import type { AuthContext, SessionService } from './session.service.js';
import { bearerToken } from './auth.guard.js';

/**
 * Button permissions (product.md section 7): SUPER_ADMIN holds every code; a SYSTEM account holds
 * the codes its roles grant. Checked on the server for every admin call, whatever the page shows.
 */
export function createPermissionService(repo: AuthRepository) {
  return {
    async buttonsOf(ctx: Pick<AuthContext, 'accountId' | 'realm' | 'roleCode'>): Promise<Set<string>> {
      if (ctx.realm !== 'ADMIN') return new Set();
      if (ctx.roleCode === 'SUPER_ADMIN') return new Set(await repo.allButtonCodes());
      const roles = await repo.rolesOf(ctx.accountId);
      return new Set(await repo.buttonCodesOfRoles(roles.map((r) => r.id)));
    },

    async can(ctx: Pick<AuthContext, 'accountId' | 'realm' | 'roleCode'>, code: string): Promise<boolean> {
      if (ctx.realm !== 'ADMIN') return false;
      if (ctx.roleCode === 'SUPER_ADMIN') return true;
      return (await this.buttonsOf(ctx)).has(code);
    },
  };
}
export type PermissionService = ReturnType<typeof createPermissionService>;

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
