import { ACCOUNT_REFUSAL, ADMIN_MSG } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { forbidden } from '../../../lib/errors.js';
import type { AdminActor } from '../admin.guard.js';
import type { RoleRepository } from './roles.repository.js';

const SUPER_ADMIN = 'SUPER_ADMIN';

/**
 * What a caller may hand out (docs/security.md "Accounts and reach"): the menus and buttons its
 * roles grant, completed as a role is (a button brings its menu, a menu its parents); `codes`
 * null for the super admin, who holds every code, present and future.
 */
export interface Reach {
  roleIds: Set<string>;
  codes: Set<string> | null;
}

/** A button brings its menu, a menu its parents; unknown codes are dropped. Order follows the seed. */
export function completeGrants(
  menuCodes: readonly string[],
  buttonCodes: readonly string[],
  menus: ReadonlyArray<{ code: string; parentCode: string | null }>,
  buttons: ReadonlyArray<{ code: string; menuCode: string }>,
) {
  const menuByCode = new Map(menus.map((m) => [m.code, m]));
  const buttonByCode = new Map(buttons.map((b) => [b.code, b]));
  const menuSet = new Set<string>();
  const addWithParents = (code: string | null) => {
    for (let c = code; c && !menuSet.has(c); c = menuByCode.get(c)?.parentCode ?? null) menuSet.add(c);
  };
  menuCodes.forEach(addWithParents);
  const buttonSet = new Set(buttonCodes.filter((b) => buttonByCode.has(b)));
  buttonSet.forEach((b) => addWithParents(buttonByCode.get(b)!.menuCode));
  return {
    menuCodes: menus.map((m) => m.code).filter((c) => menuSet.has(c)),
    buttonCodes: buttons.map((b) => b.code).filter((c) => buttonSet.has(c)),
  };
}

/**
 * The reach rule, one place for roles, system accounts and expert accounts: a caller never
 * creates, changes, enables, disables or resets the password of an account that holds, or would
 * hold, a code the caller lacks; only a super admin touches a super admin.
 */
export function createAccountReach(repo: RoleRepository) {
  async function reachOf(actor: AdminActor, tx: Db): Promise<Reach> {
    const roleIds = await repo.roleIdsOf(actor.auth.accountId, tx);
    if (actor.auth.roleCode === SUPER_ADMIN) return { roleIds: new Set(roleIds), codes: null };
    const [held, menus, buttons] = await Promise.all([repo.grantsOfRoles(roleIds, tx), repo.allMenus(tx), repo.allButtons(tx)]);
    const reach = completeGrants(held.menuCodes, held.buttonCodes, menus, buttons);
    return { roleIds: new Set(roleIds), codes: new Set([...reach.menuCodes, ...reach.buttonCodes]) };
  }

  /** Codes of `codes` outside the reach (none for the super admin). */
  const beyond = (reach: Reach, codes: readonly string[]) => (reach.codes === null ? [] : [...new Set(codes)].filter((c) => !reach.codes!.has(c)));

  /** The menus and buttons a set of roles grants together, as stored. */
  async function heldByRoles(roleIds: readonly string[], tx: Db): Promise<string[]> {
    const held = await repo.grantsOfRoles([...roleIds], tx);
    return [...held.menuCodes, ...held.buttonCodes];
  }

  const refuse = (message: string = ADMIN_MSG.accountOutOfReach) => forbidden(message, { reason: ACCOUNT_REFUSAL.reach });

  return {
    reachOf,
    beyond,
    heldByRoles,
    /** 403 REACH unless every code lies within the caller's reach. */
    assertWithin(reach: Reach, codes: readonly string[]) {
      if (beyond(reach, codes).length) throw refuse();
    },
    /** 403 REACH: only a super admin touches (or creates) a super admin. */
    assertMayTouchSuper(actor: AdminActor) {
      if (actor.auth.roleCode !== SUPER_ADMIN) throw refuse(ADMIN_MSG.superAdminOnly);
    },
  };
}
export type AccountReach = ReturnType<typeof createAccountReach>;
