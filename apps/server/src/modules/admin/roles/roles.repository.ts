import { and, asc, count, desc, eq, inArray, ne } from 'drizzle-orm';
import type { Db } from '../../../db/client.js';
import { accountRoles, buttons, menus, roleButtons, roleMenus, roles } from '../../../db/schema/admin.js';

export type RoleRecord = typeof roles.$inferSelect;

export function createRoleRepository(db: Db) {
  return {
    async listWithCounts(tx: Db = db) {
      return tx
        .select({
          id: roles.id,
          code: roles.code,
          name: roles.name,
          description: roles.description,
          builtin: roles.builtin,
          createdAt: roles.createdAt,
          updatedAt: roles.updatedAt,
          accountCount: count(accountRoles.accountId),
        })
        .from(roles)
        .leftJoin(accountRoles, eq(accountRoles.roleId, roles.id))
        .groupBy(roles.id)
        .orderBy(desc(roles.builtin), asc(roles.name), asc(roles.code));
    },

    findById: async (id: string, tx: Db = db) => (await tx.select().from(roles).where(eq(roles.id, id)).limit(1))[0],
    lockById: async (id: string, tx: Db) => (await tx.select().from(roles).where(eq(roles.id, id)).for('update').limit(1))[0],
    findByCode: async (code: string, tx: Db = db) => (await tx.select().from(roles).where(eq(roles.code, code)).limit(1))[0],
    findByName: async (name: string, excludeId: string | undefined, tx: Db = db) =>
      (await tx.select({ id: roles.id }).from(roles).where(excludeId ? and(eq(roles.name, name), ne(roles.id, excludeId)) : eq(roles.name, name)).limit(1))[0],

    countAccounts: async (roleId: string, tx: Db = db) =>
      (await tx.select({ n: count() }).from(accountRoles).where(eq(accountRoles.roleId, roleId)))[0]?.n ?? 0,

    menuCodesOf: async (roleId: string, tx: Db = db) =>
      (await tx.select({ code: roleMenus.menuCode }).from(roleMenus).where(eq(roleMenus.roleId, roleId))).map((r) => r.code),
    buttonCodesOf: async (roleId: string, tx: Db = db) =>
      (await tx.select({ code: roleButtons.buttonCode }).from(roleButtons).where(eq(roleButtons.roleId, roleId))).map((r) => r.code),

    /** The roles an account holds, and what they grant together (the caller's own reach). */
    roleIdsOf: async (accountId: string, tx: Db = db) =>
      (await tx.select({ id: accountRoles.roleId }).from(accountRoles).where(eq(accountRoles.accountId, accountId))).map((r) => r.id),
    async grantsOfRoles(roleIds: string[], tx: Db = db) {
      if (roleIds.length === 0) return { menuCodes: [] as string[], buttonCodes: [] as string[] };
      const [menuRows, buttonRows] = await Promise.all([
        tx.selectDistinct({ code: roleMenus.menuCode }).from(roleMenus).where(inArray(roleMenus.roleId, roleIds)),
        tx.selectDistinct({ code: roleButtons.buttonCode }).from(roleButtons).where(inArray(roleButtons.roleId, roleIds)),
      ]);
      return { menuCodes: menuRows.map((r) => r.code), buttonCodes: buttonRows.map((r) => r.code) };
    },

    allMenus: async (tx: Db = db) =>
      tx.select({ code: menus.code, parentCode: menus.parentCode, name: menus.name, nameEn: menus.nameEn, path: menus.path, sort: menus.sort }).from(menus).orderBy(asc(menus.sort)),
    allButtons: async (tx: Db = db) =>
      tx.select({ code: buttons.code, name: buttons.name, menuCode: buttons.menuCode }).from(buttons).orderBy(asc(buttons.code)),

    insert: async (values: typeof roles.$inferInsert, tx: Db) => (await tx.insert(roles).values(values).returning())[0]!,
    update: async (id: string, values: Partial<typeof roles.$inferInsert>, tx: Db) => {
      await tx.update(roles).set(values).where(eq(roles.id, id));
    },
    remove: async (id: string, tx: Db) => {
      await tx.delete(roles).where(eq(roles.id, id));
    },

    async setGrants(roleId: string, menuCodes: string[], buttonCodes: string[], tx: Db) {
      await tx.delete(roleMenus).where(eq(roleMenus.roleId, roleId));
      await tx.delete(roleButtons).where(eq(roleButtons.roleId, roleId));
      if (menuCodes.length) await tx.insert(roleMenus).values(menuCodes.map((menuCode) => ({ roleId, menuCode })));
      if (buttonCodes.length) await tx.insert(roleButtons).values(buttonCodes.map((buttonCode) => ({ roleId, buttonCode })));
    },
  };
}
export type RoleRepository = ReturnType<typeof createRoleRepository>;
