import { z } from 'zod';
import type { IsoDateTime } from './common.js';
import { ADMIN_MSG as M } from './messages.js';

export const ROLE_CODE_PATTERN = /^[A-Z][A-Z0-9_]{1,31}$/;

/**
 * Why a role write was refused (403, `data.reason`; docs/rules/admin.md, "Roles"): a role never raises its holder.
 * - ownRole: the caller holds the role (as 不能修改自己的角色 on the accounts page).
 * - grantExceedsOwn: the role would carry menus or buttons the caller lacks (`data.codes` lists them).
 * - roleExceedsOwn: the role already carries more than the caller holds.
 */
export const ROLE_REFUSAL = {
  ownRole: 'OWN_ROLE',
  grantExceedsOwn: 'GRANT_EXCEEDS_OWN',
  roleExceedsOwn: 'ROLE_EXCEEDS_OWN',
} as const;
export type RoleRefusalReason = (typeof ROLE_REFUSAL)[keyof typeof ROLE_REFUSAL];

const codesSchema = z
  .array(z.string({ error: M.unknownMenuCodes }).max(64, M.unknownMenuCodes), { error: M.unknownMenuCodes })
  .max(500, M.codesTooMany);
const buttonCodesSchema = z
  .array(z.string({ error: M.unknownButtonCodes }).max(64, M.unknownButtonCodes), { error: M.unknownButtonCodes })
  .max(500, M.codesTooMany);

const roleFields = {
  name: z.string({ error: M.roleNameRequired }).trim().min(1, M.roleNameRequired).max(30, M.roleNameTooLong),
  description: z.preprocess(
    (v) => (v === undefined || v === '' ? null : v),
    z.string({ error: M.roleDescriptionTooLong }).trim().max(200, M.roleDescriptionTooLong).nullable(),
  ),
  /** Menu codes; the server adds the parents of each, and the menu of each button. */
  menuCodes: codesSchema.default([]),
  buttonCodes: buttonCodesSchema.default([]),
};

export const roleCreateSchema = z.object({
  code: z.string({ error: M.roleCodeRequired }).trim().min(1, M.roleCodeRequired).regex(ROLE_CODE_PATTERN, M.roleCodeFormat),
  ...roleFields,
});
export type RoleCreateInput = z.infer<typeof roleCreateSchema>;

/** The code is fixed once created (accounts and logs refer to it). */
export const roleUpdateSchema = z.object(roleFields);
export type RoleUpdateInput = z.infer<typeof roleUpdateSchema>;

export interface RoleSummary {
  id: string;
  code: string;
  name: string;
  description: string | null;
  /** Built-in roles (SUPER_ADMIN) cannot be edited or deleted. */
  builtin: boolean;
  /** Accounts holding the role: a role in use cannot be deleted. */
  accountCount: number;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}

/** GET /admin/role/list/{id}. */
export interface RoleDetail extends RoleSummary {
  menuCodes: string[];
  buttonCodes: string[];
}

/** One node of the menu + button tree the role form assigns from. */
export interface PermissionTreeNode {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  buttons: Array<{ code: string; name: string }>;
  children: PermissionTreeNode[];
}
