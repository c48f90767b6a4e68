import { z } from 'zod';
import { emailSchema, phoneSchema, usernameSchema } from '../schemas/auth.js';
import { enabledQuery, keywordQuery, optionalQuery, pageQueryFields, uuidSchema, type IsoDateTime } from './common.js';
import { ADMIN_MSG as M } from './messages.js';
import { orMasked } from './pii.js';

/** Optional contact fields: absent, null or '' clear them; anything else must be valid. */
const nullable = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (v === undefined || (typeof v === 'string' && v.trim() === '') ? null : v), schema.nullable());

export const optionalPhoneSchema = nullable(phoneSchema);
export const optionalEmailSchema = nullable(emailSchema);

export const personNameSchema = z
  .string({ error: M.nameRequired })
  .trim()
  .min(1, M.nameRequired)
  .max(50, M.nameTooLong);

const roleIdsSchema = z
  .array(uuidSchema, { error: M.rolesRequired })
  .min(1, M.rolesRequired)
  .max(50, M.rolesTooMany);

// ---- System accounts (/admin/system/systemManage) ----

export const systemAccountListQuerySchema = z.object({
  ...pageQueryFields,
  username: keywordQuery,
  name: keywordQuery,
  phone: keywordQuery,
  enabled: enabledQuery,
  roleId: optionalQuery(uuidSchema),
});
export type SystemAccountListQuery = z.infer<typeof systemAccountListQuerySchema>;

export const systemAccountCreateSchema = z.object({
  username: usernameSchema,
  name: personNameSchema,
  phone: optionalPhoneSchema,
  email: optionalEmailSchema,
  roleIds: roleIdsSchema,
});
export type SystemAccountCreateInput = z.infer<typeof systemAccountCreateSchema>;

/**
 * Edit: profile fields and the full set of roles (the username never changes). The page shows
 * phone and e-mail masked; sent back unchanged they keep the stored values (orMasked).
 */
export const systemAccountUpdateSchema = z.object({
  name: personNameSchema,
  phone: nullable(orMasked(phoneSchema)),
  email: nullable(orMasked(emailSchema)),
  roleIds: roleIdsSchema,
});
export type SystemAccountUpdateInput = z.infer<typeof systemAccountUpdateSchema>;

export const systemAccountRolesSchema = z.object({ roleIds: roleIdsSchema });
export type SystemAccountRolesInput = z.infer<typeof systemAccountRolesSchema>;

export interface RoleRef {
  id: string;
  code: string;
  name: string;
}

export interface SystemAccount {
  id: string;
  username: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  /** Staff code (A0001 for the seeded super admin), null when none was given. */
  code: string | null;
  roleCode: 'SUPER_ADMIN' | 'SYSTEM';
  enabled: boolean;
  roles: RoleRef[];
  lastLoginAt: IsoDateTime | null;
  createdAt: IsoDateTime;
  updatedAt: IsoDateTime;
}

/** Answer of create: the account and its initial password, shown this once. */
export interface SystemAccountCreated {
  account: SystemAccount;
  password: string;
}

// ---- My account (/admin/account/accountManage) ----

export const profileUpdateSchema = z.object({
  name: personNameSchema,
  phone: optionalPhoneSchema,
  email: optionalEmailSchema,
});
export type ProfileUpdateInput = z.infer<typeof profileUpdateSchema>;

export type AdminProfile = SystemAccount;
