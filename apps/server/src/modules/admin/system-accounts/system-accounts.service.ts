import { ADMIN_MSG, type Page, type ProfileUpdateInput, type SystemAccount, type SystemAccountCreateInput, type SystemAccountCreated, type SystemAccountListQuery, type SystemAccountUpdateInput } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import { generatePassword, hashPassword } from '../../../lib/password.js';
import { FULL_PII, MASKED_PII, unmaskInput, type Pii } from '../../../lib/pii.js';
import { recordOperation } from '../../audit/operation-log.js';
import type { SessionService } from '../../auth/session.service.js';
import type { AdminActor } from '../admin.guard.js';
import { createAccountReach, type AccountReach, type Reach } from '../roles/account-reach.js';
import { createRoleRepository } from '../roles/roles.repository.js';
import { iso, isoOrNull, isUniqueViolation } from '../admin-util.js';
import type { AdminAccountRow, RoleRow, SystemAccountRepository } from './system-accounts.repository.js';

const SUPER_ADMIN = 'SUPER_ADMIN';

/** `pii`: masked on the system accounts page (lib/pii.ts); in full for one's own account (my account). */
export function toSystemAccount(row: AdminAccountRow, roles: RoleRow[], pii: Pii = MASKED_PII): SystemAccount {
  return {
    id: row.id,
    username: row.username,
    name: row.name,
    phone: pii.phone(row.phone),
    email: pii.email(row.email),
    code: row.code,
    roleCode: row.roleCode === SUPER_ADMIN ? 'SUPER_ADMIN' : 'SYSTEM',
    enabled: row.enabled,
    roles,
    lastLoginAt: isoOrNull(row.lastLoginAt),
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

const describeRoles = (roles: RoleRow[]) => roles.map((r) => r.code).sort().join(',') || '无';

interface Deps {
  db: Db;
  repo: SystemAccountRepository;
  sessions: SessionService;
  /** The reach rule (roles/account-reach.ts); by default over the roles of `db`. */
  reach?: AccountReach;
  now?: () => Date;
}

/**
 * System (admin-realm) accounts. Super-admin rules: holding the SUPER_ADMIN role is what makes
 * an account's roleCode SUPER_ADMIN; only a super admin grants, removes or manages that; the
 * last enabled super admin stays; nobody disables themselves or changes their own roles.
 */
export function createSystemAccountService({ db, repo, sessions, reach: accountReach = createAccountReach(createRoleRepository(db)), now = () => new Date() }: Deps) {
  async function view(id: string, tx: Db = db, pii: Pii = MASKED_PII): Promise<SystemAccount> {
    const row = await repo.findById(id, tx);
    if (!row) throw notFound(ADMIN_MSG.accountNotFound);
    return toSystemAccount(row, (await repo.rolesOf([id], tx)).get(id) ?? [], pii);
  }

  async function checkUnique(input: { username?: string; phone: string | null; email: string | null }, excludeId: string | undefined, tx: Db) {
    for (const c of await repo.conflicts(input, excludeId, tx)) {
      if (input.username && c.username === input.username) throw badRequest(ADMIN_MSG.usernameTaken, { field: 'username' });
      if (input.phone && c.phone === input.phone) throw badRequest(ADMIN_MSG.phoneTaken, { field: 'phone' });
      if (input.email && c.email === input.email) throw badRequest(ADMIN_MSG.emailTaken, { field: 'email' });
    }
  }

  async function resolveRoles(roleIds: string[], tx: Db): Promise<RoleRow[]> {
    const unique = [...new Set(roleIds)];
    const found = await repo.rolesByIds(unique, tx);
    if (found.length !== unique.length) throw badRequest(ADMIN_MSG.roleNotFoundInList, { field: 'roleIds' });
    return found;
  }

  /**
   * The reach rule (docs/security.md "Accounts and reach"): what the roles give, a super admin
   * everything. Refused (403 REACH) unless all of it lies within the caller's reach.
   */
  async function assertHeldWithin(actor: AdminActor, reach: Reach, roles: readonly RoleRow[], isSuperAccount: boolean, tx: Db) {
    if (isSuperAccount || roles.some((r) => r.code === SUPER_ADMIN)) return accountReach.assertMayTouchSuper(actor);
    accountReach.assertWithin(reach, await accountReach.heldByRoles(roles.map((r) => r.id), tx));
  }

  /** The target as it is: a super admin, or its roles' codes, within the caller's reach. */
  async function assertTargetWithin(actor: AdminActor, target: AdminAccountRow, tx: Db, current?: RoleRow[]) {
    const roles = current ?? (await repo.rolesOf([target.id], tx)).get(target.id) ?? [];
    await assertHeldWithin(actor, await accountReach.reachOf(actor, tx), roles, target.roleCode === SUPER_ADMIN, tx);
  }

  /** Guards a change of `target`'s roles to `next`; returns the new roleCode. */
  async function checkRoleChange(actor: AdminActor, target: AdminAccountRow, current: RoleRow[], next: RoleRow[], tx: Db) {
    const grantsSuper = next.some((r) => r.code === SUPER_ADMIN);
    const wasSuper = target.roleCode === SUPER_ADMIN;
    const changed = describeRoles(current) !== describeRoles(next);
    if (changed && target.id === actor.auth.accountId) throw badRequest(ADMIN_MSG.cannotChangeOwnRoles, { field: 'roleIds' });
    // What the account holds now, and what it would hold: both within the caller's reach.
    const reach = await accountReach.reachOf(actor, tx);
    await assertHeldWithin(actor, reach, current, wasSuper, tx);
    await assertHeldWithin(actor, reach, next, grantsSuper, tx);
    if (wasSuper && !grantsSuper && target.enabled) {
      const others = (await repo.enabledSuperAdminIds(tx)).filter((id) => id !== target.id);
      if (others.length === 0) throw badRequest(ADMIN_MSG.lastSuperAdmin);
    }
    return grantsSuper ? SUPER_ADMIN : 'SYSTEM';
  }

  /** Wraps a write: unique-index races answer like the pre-check would. */
  async function write<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await db.transaction(fn);
    } catch (err) {
      if (isUniqueViolation(err)) {
        const text = String((err as { cause?: { constraint?: string }; constraint?: string }).cause?.constraint ?? (err as { constraint?: string }).constraint ?? err);
        if (text.includes('phone')) throw badRequest(ADMIN_MSG.phoneTaken, { field: 'phone' });
        if (text.includes('email')) throw badRequest(ADMIN_MSG.emailTaken, { field: 'email' });
        throw badRequest(ADMIN_MSG.usernameTaken, { field: 'username' });
      }
      throw err;
    }
  }

  return {
    view: (id: string) => view(id),
    /** My account: one's own contact details, in full. */
    profile: (id: string) => view(id, db, FULL_PII),

    /** `pii`: the caller's view of personal information; rows are masked either way, it decides how phones are searched. */
    async list(q: SystemAccountListQuery, pii: Pii): Promise<Page<SystemAccount>> {
      const { rows, total } = await repo.list(q, pii.full);
      const roles = await repo.rolesOf(rows.map((r) => r.id));
      return { list: rows.map((r) => toSystemAccount(r, roles.get(r.id) ?? [])), page: q.page, size: q.size, total };
    },

    async create(actor: AdminActor, input: SystemAccountCreateInput): Promise<SystemAccountCreated> {
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      const id = await write(async (tx) => {
        await checkUnique(input, undefined, tx);
        const roles = await resolveRoles(input.roleIds, tx);
        const grantsSuper = roles.some((r) => r.code === SUPER_ADMIN);
        // Nobody creates an account holding more than they do (signing in as it would grant it).
        await assertHeldWithin(actor, await accountReach.reachOf(actor, tx), roles, grantsSuper, tx);
        const at = now();
        // The password is generated here and shown to the creator: the holder changes it first.
        const row = await repo.insert(
          { realm: 'ADMIN', username: input.username, name: input.name, phone: input.phone, email: input.email, roleCode: grantsSuper ? 'SUPER_ADMIN' : 'SYSTEM', passwordHash, mustChangePassword: true, createdAt: at, updatedAt: at },
          tx,
        );
        await repo.setRoles(row.id, roles.map((r) => r.id), tx);
        await recordOperation(tx, actor, {
          action: 'account:create',
          targetType: 'account',
          targetId: row.id,
          summary: `新增系统账号 ${input.username}（${input.name}），角色 ${describeRoles(roles)}`,
        });
        return row.id;
      });
      return { account: await view(id), password };
    },

    async update(actor: AdminActor, id: string, sent: SystemAccountUpdateInput): Promise<SystemAccount> {
      await write(async (tx) => {
        const target = await repo.lockById(id, tx);
        if (!target) throw notFound(ADMIN_MSG.accountNotFound);
        // The page shows phone and e-mail masked: sent back unchanged they keep the stored values.
        const input = {
          ...sent,
          phone: unmaskInput(sent.phone, target.phone, MASKED_PII.phone, 'phone'),
          email: unmaskInput(sent.email, target.email, MASKED_PII.email, 'email'),
        };
        await checkUnique({ phone: input.phone, email: input.email }, id, tx);
        const current = (await repo.rolesOf([id], tx)).get(id) ?? [];
        const next = await resolveRoles(input.roleIds, tx);
        const roleCode = await checkRoleChange(actor, target, current, next, tx);
        const changes: string[] = [];
        if (target.name !== input.name) changes.push(`姓名 ${target.name ?? ''} -> ${input.name}`);
        // Masked in the record too: auditors read it, not only pii:view holders.
        if (target.phone !== input.phone) changes.push(`手机号 ${MASKED_PII.phone(target.phone) ?? '无'} -> ${MASKED_PII.phone(input.phone) ?? '无'}`);
        if (target.email !== input.email) changes.push(`邮箱 ${MASKED_PII.email(target.email) ?? '无'} -> ${MASKED_PII.email(input.email) ?? '无'}`);
        if (describeRoles(current) !== describeRoles(next)) changes.push(`角色 ${describeRoles(current)} -> ${describeRoles(next)}`);
        await repo.update(id, { name: input.name, phone: input.phone, email: input.email, roleCode, updatedAt: now() }, tx);
        await repo.setRoles(id, next.map((r) => r.id), tx);
        await recordOperation(tx, actor, {
          action: 'account:edit',
          targetType: 'account',
          targetId: id,
          summary: `编辑系统账号 ${target.username}：${changes.join('；') || '无变化'}`,
        });
      });
      return view(id);
    },

    async assignRoles(actor: AdminActor, id: string, roleIds: string[]): Promise<SystemAccount> {
      await write(async (tx) => {
        const target = await repo.lockById(id, tx);
        if (!target) throw notFound(ADMIN_MSG.accountNotFound);
        const current = (await repo.rolesOf([id], tx)).get(id) ?? [];
        const next = await resolveRoles(roleIds, tx);
        const roleCode = await checkRoleChange(actor, target, current, next, tx);
        await repo.update(id, { roleCode, updatedAt: now() }, tx);
        await repo.setRoles(id, next.map((r) => r.id), tx);
        await recordOperation(tx, actor, {
          action: 'account:roles',
          targetType: 'account',
          targetId: id,
          summary: `分配角色 ${target.username}：${describeRoles(current)} -> ${describeRoles(next)}`,
        });
      });
      return view(id);
    },

    async setEnabled(actor: AdminActor, id: string, enabled: boolean): Promise<SystemAccount> {
      await write(async (tx) => {
        const target = await repo.lockById(id, tx);
        if (!target) throw notFound(ADMIN_MSG.accountNotFound);
        if (!enabled && target.id === actor.auth.accountId) throw badRequest(ADMIN_MSG.cannotDisableSelf);
        // Enabling hands the account back to whoever knows its password: the same rule both ways.
        await assertTargetWithin(actor, target, tx);
        if (!enabled && target.roleCode === SUPER_ADMIN && target.enabled) {
          const others = (await repo.enabledSuperAdminIds(tx)).filter((x) => x !== id);
          if (others.length === 0) throw badRequest(ADMIN_MSG.lastSuperAdmin);
        }
        await repo.update(id, { enabled, updatedAt: now() }, tx);
        // Disabling takes effect now, not when the session would have expired.
        if (!enabled) await sessions.revokeAll(id, 'DISABLED', undefined, tx);
        await recordOperation(tx, actor, {
          action: enabled ? 'account:enable' : 'account:disable',
          targetType: 'account',
          targetId: id,
          summary: `${enabled ? '启用' : '禁用'}系统账号 ${target.username}`,
        });
      });
      return view(id);
    },

    async resetPassword(actor: AdminActor, id: string): Promise<{ password: string }> {
      const password = generatePassword();
      const passwordHash = await hashPassword(password);
      await write(async (tx) => {
        const target = await repo.lockById(id, tx);
        if (!target) throw notFound(ADMIN_MSG.accountNotFound);
        if (target.id === actor.auth.accountId) throw badRequest(ADMIN_MSG.cannotResetSelf);
        // Whoever resets a password can sign in with it: only accounts within the caller's reach.
        await assertTargetWithin(actor, target, tx);
        const at = now();
        // Known to the operator who reset it: changed at the holder's next login before anything else.
        await repo.update(id, { passwordHash, passwordChangedAt: at, mustChangePassword: true, updatedAt: at }, tx);
        await sessions.revokeAll(id, 'PASSWORD_CHANGED', undefined, tx);
        await recordOperation(tx, actor, {
          action: 'account:reset-password',
          targetType: 'account',
          targetId: id,
          summary: `重置系统账号 ${target.username} 的密码`,
        });
      });
      return { password };
    },

    /** My account: the signed-in admin edits their own contact details (roles stay as they are). */
    async updateProfile(actor: AdminActor, input: ProfileUpdateInput): Promise<SystemAccount> {
      const id = actor.auth.accountId;
      await write(async (tx) => {
        const target = await repo.lockById(id, tx);
        if (!target) throw notFound(ADMIN_MSG.accountNotFound);
        await checkUnique({ phone: input.phone, email: input.email }, id, tx);
        const changes: string[] = [];
        if (target.name !== input.name) changes.push(`姓名 ${target.name ?? ''} -> ${input.name}`);
        if (target.phone !== input.phone) changes.push(`手机号 ${MASKED_PII.phone(target.phone) ?? '无'} -> ${MASKED_PII.phone(input.phone) ?? '无'}`);
        if (target.email !== input.email) changes.push(`邮箱 ${MASKED_PII.email(target.email) ?? '无'} -> ${MASKED_PII.email(input.email) ?? '无'}`);
        await repo.update(id, { name: input.name, phone: input.phone, email: input.email, updatedAt: now() }, tx);
        await recordOperation(tx, actor, {
          action: 'profile:edit',
          targetType: 'account',
          targetId: id,
          summary: `修改个人资料：${changes.join('；') || '无变化'}`,
        });
      });
      return view(id, db, FULL_PII);
    },
  };
}
export type SystemAccountService = ReturnType<typeof createSystemAccountService>;
