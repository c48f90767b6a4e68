import { accountRoles, buttons, menus, roleButtons, roleMenus, roles } from '../../db/schema/admin.js';
import { readModel } from '../../db/read-model.js';

/**
 * What modules/admin lets the other modules read (docs/architecture.md, "Database"): read-only
 * projections they join like tables, and the row types. Writes go through this module.
 */
export const accountRolesView = readModel(accountRoles, 'account_roles_view');
export const buttonsView = readModel(buttons, 'buttons_view');
export const menusView = readModel(menus, 'menus_view');
export const roleButtonsView = readModel(roleButtons, 'role_buttons_view');
export const roleMenusView = readModel(roleMenus, 'role_menus_view');
export const rolesView = readModel(roles, 'roles_view');
export type AccountRolesRow = typeof accountRoles.$inferSelect;
export type ButtonsRow = typeof buttons.$inferSelect;
export type MenusRow = typeof menus.$inferSelect;
export type RoleButtonsRow = typeof roleButtons.$inferSelect;
export type RoleMenusRow = typeof roleMenus.$inferSelect;
export type RolesRow = typeof roles.$inferSelect;
