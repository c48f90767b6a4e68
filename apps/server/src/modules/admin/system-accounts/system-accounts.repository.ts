import { and, asc, count, desc, eq, ilike, inArray, ne, or, type SQL } from 'drizzle-orm';
import type { SystemAccountListQuery } from '@contest/shared';
import type { Db } from '../../../db/client.js';
import { accountRoles, roles } from '../../../db/schema/admin.js';
import { insertAccount, updateAccount, type AccountPatch, type NewAccount } from '../../auth/account-store.js';
import { accountsView, type AccountsRow } from '../../auth/auth.read-model.js';
import { containsPattern } from '../../../lib/filter-values.js';
import { piiSearch } from '../../../lib/pii.js';

export type AdminAccountRow = AccountsRow;
export interface RoleRow {
  id: string;
  code: string;
  name: string;
}

/** Admin-realm accounts and their role assignments. */
export function createSystemAccountRepository(db: Db) {
  return {
    /** `fullPii`: the caller may see phones in full, so part of one finds the account (lib/pii.ts); otherwise only the whole number. */
    async list(q: SystemAccountListQuery, fullPii: boolean) {
      const where: SQL[] = [eq(accountsView.realm, 'ADMIN')];
      if (q.username) where.push(ilike(accountsView.username, containsPattern(q.username)));
      if (q.name) where.push(ilike(accountsView.name, containsPattern(q.name)));
      if (q.phone) where.push(piiSearch(accountsView.phone, q.phone, fullPii)!);
      if (q.enabled !== undefined) where.push(eq(accountsView.enabled, q.enabled));
      if (q.roleId) {
        where.push(inArray(accountsView.id, db.select({ id: accountRoles.accountId }).from(accountRoles).where(eq(accountRoles.roleId, q.roleId))));
      }
      const cond = and(...where);
      const [rows, [total]] = await Promise.all([
        db.select().from(accountsView).where(cond).orderBy(desc(accountsView.createdAt), asc(accountsView.id)).limit(q.size).offset((q.page - 1) * q.size),
        db.select({ n: count() }).from(accountsView).where(cond),
      ]);
      return { rows, total: total?.n ?? 0 };
    },

    findById: async (id: string, tx: Db = db) =>
      (await tx.select().from(accountsView).where(and(eq(accountsView.id, id), eq(accountsView.realm, 'ADMIN'))).limit(1))[0],

    /** Locks the row for the rest of the transaction (status and role changes race otherwise). */
    lockById: async (id: string, tx: Db) =>
      (await tx.select().from(accountsView).where(and(eq(accountsView.id, id), eq(accountsView.realm, 'ADMIN'))).for('update').limit(1))[0],

    async rolesOf(accountIds: string[], tx: Db = db): Promise<Map<string, RoleRow[]>> {
      const out = new Map<string, RoleRow[]>();
      if (!accountIds.length) return out;
      const rows = await tx
        .select({ accountId: accountRoles.accountId, id: roles.id, code: roles.code, name: roles.name })
        .from(accountRoles)
        .innerJoin(roles, eq(roles.id, accountRoles.roleId))
        .where(inArray(accountRoles.accountId, accountIds))
        .orderBy(asc(roles.code));
      for (const { accountId, ...role } of rows) {
        const list = out.get(accountId) ?? [];
        list.push(role);
        out.set(accountId, list);
      }
      return out;
    },

    rolesByIds: async (ids: string[], tx: Db = db): Promise<RoleRow[]> =>
      ids.length ? tx.select({ id: roles.id, code: roles.code, name: roles.name }).from(roles).where(inArray(roles.id, ids)) : [],

    /** Which of username / phone / email another admin account already uses. */
    async conflicts(input: { username?: string; phone: string | null; email: string | null }, excludeId?: string, tx: Db = db) {
      const any: SQL[] = [];
      if (input.username) any.push(eq(accountsView.username, input.username));
      if (input.phone) any.push(eq(accountsView.phone, input.phone));
      if (input.email) any.push(eq(accountsView.email, input.email));
      if (!any.length) return [];
      const where = [eq(accountsView.realm, 'ADMIN'), or(...any)!];
      if (excludeId) where.push(ne(accountsView.id, excludeId));
      return tx.select({ username: accountsView.username, phone: accountsView.phone, email: accountsView.email }).from(accountsView).where(and(...where));
    },

    /** Enabled super admins, locked so two concurrent demotions cannot both see "another one left". */
    enabledSuperAdminIds: async (tx: Db) =>
      (
        await tx
          .select({ id: accountsView.id })
          .from(accountsView)
          .where(and(eq(accountsView.realm, 'ADMIN'), eq(accountsView.roleCode, 'SUPER_ADMIN'), eq(accountsView.enabled, true)))
          .for('update')
      ).map((r) => r.id),

    insert: async (values: NewAccount, tx: Db) => insertAccount(tx, values),

    update: async (id: string, values: AccountPatch, tx: Db) => (await updateAccount(tx, id, values))!,

    async setRoles(accountId: string, roleIds: string[], tx: Db) {
      await tx.delete(accountRoles).where(eq(accountRoles.accountId, accountId));
      if (roleIds.length) await tx.insert(accountRoles).values(roleIds.map((roleId) => ({ accountId, roleId })));
    },
  };
}
export type SystemAccountRepository = ReturnType<typeof createSystemAccountRepository>;
