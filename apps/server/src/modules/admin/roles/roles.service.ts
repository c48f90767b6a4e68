import { ADMIN_MSG, ROLE_REFUSAL, type PermissionTreeNode, type RoleCreateInput, type RoleDetail, type RoleSummary, type RoleUpdateInput } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { badRequest, forbidden, notFound } from '../../../lib/errors.js';
import { recordOperation } from '../../audit/operation-log.js';
import type { AdminActor } from '../admin.guard.js';
import { iso, isUniqueViolation } from '../admin-util.js';
import { completeGrants, createAccountReach, type Reach } from './account-reach.js';
import type { RoleRepository } from './roles.repository.js';

interface Deps {
  db: Db;
  repo: RoleRepository;
  now?: () => Date;
}

const diff = (before: string[], after: string[]) => {
  const b = new Set(before);
  const a = new Set(after);
  const added = after.filter((c) => !b.has(c));
  const removed = before.filter((c) => !a.has(c));
  return [added.length ? `+${added.join(',')}` : '', removed.length ? `-${removed.join(',')}` : ''].filter(Boolean).join(' ') || '无变化';
};

/** Roles bundle menus and buttons (docs/rules/admin.md, "Roles"). Built-in roles are fixed. */
export function createRoleService({ db, repo, now = () => new Date() }: Deps) {
  const complete = completeGrants;
  const accountReach = createAccountReach(repo);

  /**
   * Checks every code exists, then completes the set: a button brings its menu, a menu its
   * parents, so whatever is granted also shows in the console's menu tree.
   */
  async function normalise(menuCodes: string[], buttonCodes: string[], tx: Db) {
    const [menus, buttons] = await Promise.all([repo.allMenus(tx), repo.allButtons(tx)]);
    const menuByCode = new Map(menus.map((m) => [m.code, m]));
    const buttonByCode = new Map(buttons.map((b) => [b.code, b]));
    const unknownMenus = [...new Set(menuCodes.filter((c) => !menuByCode.has(c)))];
    if (unknownMenus.length) throw badRequest(ADMIN_MSG.unknownMenuCodes, { field: 'menuCodes', codes: unknownMenus });
    const unknownButtons = [...new Set(buttonCodes.filter((c) => !buttonByCode.has(c)))];
    if (unknownButtons.length) throw badRequest(ADMIN_MSG.unknownButtonCodes, { field: 'buttonCodes', codes: unknownButtons });
    return complete(menuCodes, buttonCodes, menus, buttons);
  }

  /**
   * A role never raises its holder (docs/rules/admin.md, "Roles"). The caller's reach: every code for the super
   * admin (null), else what its roles grant, completed as a role is (a granted child shows its
   * parent group), so a role built from the caller's own grants always fits (account-reach.ts).
   */
  const reachOf = accountReach.reachOf;
  const beyond = accountReach.beyond;

  /** An existing role the caller may change or delete: not one it holds, nor one holding more than it does. */
  async function assertManageable(reach: Reach, roleId: string, tx: Db) {
    // As on the accounts page (不能修改自己的角色): otherwise role:edit alone would grant everything.
    if (reach.roleIds.has(roleId)) throw forbidden(ADMIN_MSG.roleHeldBySelf, { reason: ROLE_REFUSAL.ownRole });
    const [menus, buttons] = await Promise.all([repo.menuCodesOf(roleId, tx), repo.buttonCodesOf(roleId, tx)]);
    if (beyond(reach, [...menus, ...buttons]).length) throw forbidden(ADMIN_MSG.roleExceedsOwn, { reason: ROLE_REFUSAL.roleExceedsOwn });
  }

  /** The grants asked for must lie within the caller's reach; the refusal lists what does not. */
  function assertGrantable(reach: Reach, menuCodes: readonly string[], buttonCodes: readonly string[]) {
    const codes = beyond(reach, [...menuCodes, ...buttonCodes]);
    if (codes.length) throw forbidden(ADMIN_MSG.roleGrantExceedsOwn, { reason: ROLE_REFUSAL.grantExceedsOwn, codes });
  }

  async function detail(id: string, tx: Db = db): Promise<RoleDetail> {
    const summary = (await repo.listWithCounts(tx)).find((r) => r.id === id);
    if (!summary) throw notFound(ADMIN_MSG.roleNotFound);
    const [menuCodes, buttonCodes] = await Promise.all([repo.menuCodesOf(id, tx), repo.buttonCodesOf(id, tx)]);
    return { ...toSummary(summary), menuCodes, buttonCodes };
  }

  async function write<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(fn);
    } catch (err) {
      if (isUniqueViolation(err)) throw badRequest(ADMIN_MSG.roleCodeTaken, { field: 'code' });
      throw err;
    }
  }

  return {
    async list(): Promise<RoleSummary[]> {
      return (await repo.listWithCounts()).map(toSummary);
    },

    detail,

    async tree(): Promise<PermissionTreeNode[]> {
      const [menus, buttons] = await Promise.all([repo.allMenus(), repo.allButtons()]);
      const nodes = new Map<string, PermissionTreeNode>(
        menus.map((m) => [m.code, { code: m.code, name: m.name, nameEn: m.nameEn, path: m.path, buttons: [], children: [] }]),
      );
      for (const b of buttons) nodes.get(b.menuCode)?.buttons.push({ code: b.code, name: b.name });
      const roots: PermissionTreeNode[] = [];
      for (const m of menus) {
        const node = nodes.get(m.code)!;
        const parent = m.parentCode ? nodes.get(m.parentCode) : undefined;
        (parent ? parent.children : roots).push(node);
      }
      return roots;
    },

    async create(actor: AdminActor, input: RoleCreateInput): Promise<RoleDetail> {
      const id = await write(async (tx) => {
        if (await repo.findByCode(input.code, tx)) throw badRequest(ADMIN_MSG.roleCodeTaken, { field: 'code' });
        if (await repo.findByName(input.name, undefined, tx)) throw badRequest(ADMIN_MSG.roleNameTaken, { field: 'name' });
        const grants = await normalise(input.menuCodes, input.buttonCodes, tx);
        assertGrantable(await reachOf(actor, tx), input.menuCodes, input.buttonCodes);
        const at = now();
        const role = await repo.insert({ code: input.code, name: input.name, description: input.description, builtin: false, createdAt: at, updatedAt: at }, tx);
        await repo.setGrants(role.id, grants.menuCodes, grants.buttonCodes, tx);
        await recordOperation(tx, actor, {
          action: 'role:create',
          targetType: 'role',
          targetId: role.id,
          summary: `新增角色 ${input.code}（${input.name}），菜单 ${grants.menuCodes.join(',') || '无'}，按钮 ${grants.buttonCodes.join(',') || '无'}`,
        });
        return role.id;
      });
      return detail(id);
    },

    async update(actor: AdminActor, id: string, input: RoleUpdateInput): Promise<RoleDetail> {
      await write(async (tx) => {
        const role = await repo.lockById(id, tx);
        if (!role) throw notFound(ADMIN_MSG.roleNotFound);
        if (role.builtin) throw badRequest(ADMIN_MSG.roleBuiltin);
        const reach = await reachOf(actor, tx);
        await assertManageable(reach, id, tx);
        if (await repo.findByName(input.name, id, tx)) throw badRequest(ADMIN_MSG.roleNameTaken, { field: 'name' });
        const grants = await normalise(input.menuCodes, input.buttonCodes, tx);
        assertGrantable(reach, input.menuCodes, input.buttonCodes);
        const [menusBefore, buttonsBefore] = await Promise.all([repo.menuCodesOf(id, tx), repo.buttonCodesOf(id, tx)]);
        await repo.update(id, { name: input.name, description: input.description, updatedAt: now() }, tx);
        await repo.setGrants(id, grants.menuCodes, grants.buttonCodes, tx);
        const changes = [
          role.name !== input.name ? `名称 ${role.name} -> ${input.name}` : '',
          (role.description ?? null) !== input.description ? '描述已修改' : '',
          `菜单 ${diff(menusBefore, grants.menuCodes)}`,
          `按钮 ${diff(buttonsBefore, grants.buttonCodes)}`,
        ].filter(Boolean);
        await recordOperation(tx, actor, { action: 'role:edit', targetType: 'role', targetId: id, summary: `编辑角色 ${role.code}：${changes.join('；')}` });
      });
      return detail(id);
    },

    async remove(actor: AdminActor, id: string): Promise<void> {
      await write(async (tx) => {
        const role = await repo.lockById(id, tx);
        if (!role) throw notFound(ADMIN_MSG.roleNotFound);
        if (role.builtin) throw badRequest(ADMIN_MSG.roleBuiltin);
        await assertManageable(await reachOf(actor, tx), id, tx);
        if ((await repo.countAccounts(id, tx)) > 0) throw badRequest(ADMIN_MSG.roleInUse);
        await repo.remove(id, tx);
        await recordOperation(tx, actor, { action: 'role:delete', targetType: 'role', targetId: id, summary: `删除角色 ${role.code}（${role.name}）` });
      });
    },
  };
}
export type RoleService = ReturnType<typeof createRoleService>;

function toSummary(r: { id: string; code: string; name: string; description: string | null; builtin: boolean; accountCount: number; createdAt: Date; updatedAt: Date }): RoleSummary {
  return { id: r.id, code: r.code, name: r.name, description: r.description, builtin: r.builtin, accountCount: Number(r.accountCount), createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}
