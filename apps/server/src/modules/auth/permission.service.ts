import type { AuthRepository } from './auth.repository.js';
import type { AuthContext } from './session.service.js';

/**
 * Button permissions (docs/rules/admin.md, "Menus and buttons"): SUPER_ADMIN holds every code; a SYSTEM account holds
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
