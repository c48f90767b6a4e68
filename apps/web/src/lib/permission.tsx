/**
 * The permission directive (docs/rules/screens.md, "Permission directive") as a component and a hook: an element stays
 * only when the user may use it. Codes come from the server (admin/expert `buttons`,
 * participant `permissionCodeList`), so hiding is a convenience; the server checks again.
 */
import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import type { ButtonCode, MenuCode } from '@contest/shared';
import { realmOfPath } from '../api';
import { useStaffInfo, useUserInfo } from './session';

/** '*' in either list grants everything. */
export const ALLOW_ALL = '*';

/**
 * A code a page may require: the console's menu and button codes, typed from the shared menu tree
 * (packages/shared/src/admin-menus.ts), so a misspelt code does not compile, as on the server.
 */
export type RequiredCode = ButtonCode | MenuCode | typeof ALLOW_ALL;

export interface PermissionRequirement {
  /** The user's role must be one of these. */
  roles?: readonly string[];
  /** The user's permission code list must contain one of these. */
  codes?: readonly RequiredCode[];
}

export interface PermissionSubject {
  /** The user's role codes (its roleCode and the codes of its roles). */
  roles: readonly string[];
  /** The user's permission codes (`buttons` for staff). */
  codes: readonly string[];
}

function matches(required: readonly string[] | undefined, owned: readonly string[]): boolean {
  // No list, or an empty one, removes nothing (spec: "if no list exists nothing is removed").
  if (!required || required.length === 0) return true;
  if (required.includes(ALLOW_ALL) || owned.includes(ALLOW_ALL)) return true;
  return required.some((code) => owned.includes(code));
}

/**
 * True when `subject` satisfies both lists. While the user is not known yet (null) a
 * guarded element stays hidden, so a button never flashes in and out.
 */
export function hasPermission(
  subject: PermissionSubject | null | undefined,
  required: PermissionRequirement = {},
): boolean {
  const noRoles = !required.roles || required.roles.length === 0;
  const noCodes = !required.codes || required.codes.length === 0;
  if (noRoles && noCodes) return true;
  if (!subject) return false;
  return matches(required.roles, subject.roles) && matches(required.codes, subject.codes);
}

/** The signed-in user of the page's realm (decided by the URL, like the token). */
export function usePermissionSubject(): PermissionSubject | null {
  const realm = realmOfPath(useLocation().pathname);
  // Hooks run unconditionally; those of other realms stay idle here (see useUserInfo and
  // useStaffInfo: info is loaded only on pages of its own realm, whose token the client sends).
  const admin = useStaffInfo('ADMIN');
  const expert = useStaffInfo('EXPERT');
  const user = useUserInfo();
  if (realm === 'USER') {
    const info = user.data;
    if (!info) return null;
    return { roles: [String(info.account.roleCode)], codes: info.account.permissionCodeList };
  }
  const info = (realm === 'ADMIN' ? admin : expert).data;
  if (!info) return null;
  return { roles: [info.roleCode, ...info.roles.map((r) => r.code)], codes: info.buttons };
}

/** `can({ codes: ['user:export'] })` for the current user. */
export function usePermission(): (required?: PermissionRequirement) => boolean {
  const subject = usePermissionSubject();
  return (required) => hasPermission(subject, required);
}

export interface PermissionProps extends PermissionRequirement {
  children: ReactNode;
  /** Rendered instead of the children when not allowed; nothing by default. */
  fallback?: ReactNode;
}

/** Renders its children only for users allowed by `roles` and `codes`. */
export function Permission({ roles, codes, children, fallback = null }: PermissionProps) {
  const can = usePermission();
  const required: PermissionRequirement = {};
  if (roles) required.roles = roles;
  if (codes) required.codes = codes;
  return <>{can(required) ? children : fallback}</>;
}
