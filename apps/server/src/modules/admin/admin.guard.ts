import type { FastifyRequest } from 'fastify';
import { PII_VIEW_BUTTON, type ButtonCode, type MenuCode } from '@contest/shared';
import { forbidden } from '../../lib/errors.js';
import { piiOf, type Pii } from '../../lib/pii.js';
import type { MenuAccess } from './menu-access.repository.js';
import { bearerToken } from '../auth/auth.guard.js';
import type { PermissionService } from '../auth/permission.service.js';
import type { AuthContext, SessionService } from '../auth/session.service.js';

export { createMenuAccess, type MenuAccess } from './menu-access.repository.js';

/** What a guard demands, kept on the guard so a test can walk the route table (admin-routes.test.ts). */
export type GuardInfo = { kind: 'button'; code: ButtonCode | null } | { kind: 'menu'; codes: MenuCode[] } | { kind: 'any' };
export type AdminGuard = ((request: FastifyRequest) => Promise<void>) & { guard?: GuardInfo };

const tagged = (fn: (request: FastifyRequest) => Promise<void>, guard: GuardInfo): AdminGuard => Object.assign(fn, { guard });

/**
 * Guards for admin calls, run at onRequest: the caller is identified (401/409) before the
 * query or body is validated, so anonymous callers learn nothing from validation messages.
 */
export function createAdminGuards(sessions: SessionService, permissions: PermissionService, menus: MenuAccess) {
  const authenticate = async (request: FastifyRequest) => {
    const ctx = await sessions.authenticate(bearerToken(request), ['ADMIN']);
    request.auth = ctx;
    return ctx;
  };
  return {
    /** A button code (as `requirePermission`); null admits any signed-in admin. */
    button(code: ButtonCode | null): AdminGuard {
      return tagged(async (request) => {
        const ctx = await authenticate(request);
        if (code !== null && !(await permissions.can(ctx, code))) throw forbidden();
      }, { kind: 'button', code });
    },
    /** Any of the menus. */
    menu(...menuCodes: MenuCode[]): AdminGuard {
      return tagged(async (request) => {
        const ctx = await authenticate(request);
        if (!(await menus.holdsAny(ctx, menuCodes))) throw forbidden();
      }, { kind: 'menu', codes: menuCodes });
    },
    /** Signed in only; the handler checks a menu that depends on the request (audit realm). */
    any: tagged(async (request) => {
      await authenticate(request);
    }, { kind: 'any' }),
    menus,
    /**
     * How personal information leaves in this request's exports: in full for a role holding
     * `pii:view`, masked otherwise (lib/pii.ts). Call it after a guard has identified the caller.
     */
    async pii(request: FastifyRequest): Promise<Pii> {
      if (!request.auth) throw new Error('guards.pii needs an authenticated request');
      return piiOf(await permissions.can(request.auth, PII_VIEW_BUTTON));
    },
  };
}
export type AdminGuards = ReturnType<typeof createAdminGuards>;

/** The caller as services see it: who (with role, for super-admin rules), from where. */
export interface AdminActor {
  auth: Pick<AuthContext, 'accountId' | 'realm' | 'username' | 'roleCode' | 'sessionId'>;
  ip?: string;
  userAgent?: string;
}

export function adminActorOf(request: FastifyRequest): AdminActor {
  if (!request.auth) throw new Error('adminActorOf needs an authenticated request');
  return { auth: request.auth, ip: request.ip, userAgent: request.headers['user-agent'] };
}
