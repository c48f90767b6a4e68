import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/client.js';
import { accountRoles, roleMenus } from '../../db/schema/admin.js';

/** Who asks: the signed-in account (AuthContext of the session service has these fields). */
interface Ctx {
  accountId: string;
  realm: string;
  roleCode: string;
}

/**
 * Reading pages has no button codes of its own (ADMIN_BUTTONS has none for listing system
 * accounts, roles, the dictionary or the audit pages): holding the page's menu grants reading
 * it. SUPER_ADMIN holds every menu.
 */
export function createMenuAccess(db: Db) {
  return {
    async holdsAny(ctx: Ctx, menuCodes: readonly string[]): Promise<boolean> {
      if (ctx.realm !== 'ADMIN') return false;
      if (ctx.roleCode === 'SUPER_ADMIN') return true;
      if (menuCodes.length === 0) return false;
      const rows = await db
        .select({ code: roleMenus.menuCode })
        .from(accountRoles)
        .innerJoin(roleMenus, eq(roleMenus.roleId, accountRoles.roleId))
        .where(and(eq(accountRoles.accountId, ctx.accountId), inArray(roleMenus.menuCode, [...menuCodes])))
        .limit(1);
      return rows.length > 0;
    },
  };
}
export type MenuAccess = ReturnType<typeof createMenuAccess>;
