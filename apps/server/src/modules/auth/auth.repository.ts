import { and, desc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { DEFAULT_ACCOUNT_LOCALE, type AccountLocale, type Realm } from '@contest/shared';
import type { Db } from '../../db/client.js';
import { hasUnreadExpr } from '../messages/messages.repository.js';
import { accounts, loginRecords } from '../../db/schema/auth.js';
import { accountRolesView, buttonsView, menusView, roleButtonsView, roleMenusView, rolesView } from '../admin/admin.read-model.js';
import { prelimDocsView } from '../prelim/prelim.read-model.js';
import { settingsView } from '../settings/settings.read-model.js';
import { teamsView } from '../team/team.read-model.js';

export type AccountRow = typeof accounts.$inferSelect;
export type LoginResult = (typeof loginRecords.$inferInsert)['result'];

export function createAuthRepository(db: Db) {
  // The account calls (every page of the participant centre and of the consoles): prepared once,
  // so no query is rebuilt per request and PostgreSQL parses and plans each once per connection.
  const byId = db.select().from(accounts).where(eq(accounts.id, sql.placeholder('id'))).limit(1).prepare('account_by_id');
  const participantInfo = db
    .select({
      username: accounts.username,
      phone: accounts.phone,
      roleCode: accounts.roleCode,
      agreedAt: accounts.agreedAt,
      mustChangePassword: accounts.mustChangePassword,
      teamId: teamsView.id,
      teamStatus: teamsView.status,
      teamTrack: teamsView.track,
      teamAuditReason: teamsView.auditReason,
      prelimStatus: prelimDocsView.status,
      hasUnread: hasUnreadExpr(accounts.id),
      // As the driver parsed it: drizzle's jsonb decoder would JSON.parse the (already parsed)
      // string again, throwing and catching on every call.
      dataDocMenuName: sql<unknown>`${settingsView.value}`,
    })
    .from(accounts)
    .leftJoin(teamsView, eq(teamsView.ownerId, accounts.id))
    .leftJoin(prelimDocsView, eq(prelimDocsView.ownerId, accounts.id))
    .leftJoin(settingsView, eq(settingsView.key, 'site.dataDocMenuName'))
    .where(eq(accounts.id, sql.placeholder('id')))
    .limit(1)
    .prepare('participant_info');
  const rolesOfAccount = db
    .select({ id: rolesView.id, code: rolesView.code, name: rolesView.name })
    .from(accountRolesView)
    .innerJoin(rolesView, eq(rolesView.id, accountRolesView.roleId))
    .where(eq(accountRolesView.accountId, sql.placeholder('accountId')))
    .prepare('account_roles_of');
  const menusInOrder = db.select().from(menusView).orderBy(menusView.sort).prepare('menus_all');
  const buttonCodes = db.select({ code: buttonsView.code }).from(buttonsView).prepare('buttons_all');

  return {
    findByUsername: async (realm: Realm, username: string, tx: Db = db) =>
      (await tx.select().from(accounts).where(and(eq(accounts.realm, realm), eq(accounts.username, username))).limit(1))[0],

    /** Experts also sign in with their code (any case) or their phone (unique among experts). */
    findExpertByCodeOrPhone: async (identifier: string, tx: Db = db) =>
      (await tx.select().from(accounts).where(and(eq(accounts.realm, 'EXPERT'), or(eq(accounts.code, identifier.toUpperCase()), eq(accounts.phone, identifier)))).limit(1))[0],

    findByPhone: async (realm: Realm, phone: string, tx: Db = db) =>
      (await tx.select().from(accounts).where(and(eq(accounts.realm, realm), eq(accounts.phone, phone))).limit(1))[0],

    findById: async (id: string, tx: Db = db) =>
      (tx === db ? await byId.execute({ id }) : await tx.select().from(accounts).where(eq(accounts.id, id)).limit(1))[0],

    /**
     * What GET /user/account shows, in one round trip: every participant page loads it, so the
     * account, its team status and the data-document menu name come from a single query.
     */
    participantInfoRow: async (id: string) => (await participantInfo.execute({ id }))[0],

    /** Which of username / phone / email are already taken by a participant. */
    findConflicts: async (input: { username: string; phone: string; email: string }) =>
      db
        .select({ username: accounts.username, phone: accounts.phone, email: accounts.email })
        .from(accounts)
        .where(
          and(
            eq(accounts.realm, 'USER'),
            or(eq(accounts.username, input.username), eq(accounts.phone, input.phone), eq(accounts.email, input.email)),
          ),
        ),

    insertParticipant: async (input: { username: string; phone: string; email: string; passwordHash: string; locale?: AccountLocale }, tx: Db = db) =>
      (
        await tx
          .insert(accounts)
          .values({
            realm: 'USER',
            roleCode: 'USER',
            username: input.username,
            phone: input.phone,
            email: input.email,
            name: input.username,
            passwordHash: input.passwordHash,
            locale: input.locale ?? DEFAULT_ACCOUNT_LOCALE,
          })
          .returning()
      )[0]!,

    /** The holder's own new password (change, or recovery by SMS): no change is pending any more. */
    setPassword: async (id: string, passwordHash: string, at: Date, tx: Db = db) => {
      await tx.update(accounts).set({ passwordHash, passwordChangedAt: at, mustChangePassword: false, updatedAt: at }).where(eq(accounts.id, id));
    },

    touchLogin: async (id: string, at: Date, tx: Db = db) => {
      await tx.update(accounts).set({ lastLoginAt: at }).where(eq(accounts.id, id));
    },

    setAgreed: async (id: string, at: Date, tx: Db = db) => {
      await tx.update(accounts).set({ agreedAt: at, updatedAt: at }).where(eq(accounts.id, id));
    },

    recordLogin: async (row: typeof loginRecords.$inferInsert, tx: Db = db) => {
      await tx.insert(loginRecords).values({ ...row, identifier: row.identifier.slice(0, 64), userAgent: row.userAgent?.slice(0, 512) });
    },

    /**
     * When the failed logins since `since` happened, oldest first: of an account (wrong passwords
     * and SMS codes, whatever name it was tried under), or of a name with no account behind it in
     * the realm, so that an unknown name is treated exactly like a real one (docs/security.md).
     */
    failureTimes: async (who: { accountId: string } | { realm: Realm; identifier: string }, since: Date): Promise<Date[]> => {
      const where =
        'accountId' in who
          ? and(eq(loginRecords.accountId, who.accountId), inArray(loginRecords.result, ['BAD_CREDENTIALS', 'BAD_SMS_CODE']))
          : and(
              eq(loginRecords.realm, who.realm),
              eq(loginRecords.identifier, who.identifier.slice(0, 64)),
              isNull(loginRecords.accountId),
              eq(loginRecords.result, 'UNKNOWN_ACCOUNT'),
            );
      // The newest 50 are plenty: a lock needs five, and attempts are limited to 10 a minute.
      const rows = await db
        .select({ at: loginRecords.createdAt })
        .from(loginRecords)
        .where(and(where, gt(loginRecords.createdAt, since)))
        .orderBy(desc(loginRecords.createdAt))
        .limit(50);
      return rows.map((r) => r.at).reverse();
    },

    /** Sign-up and materials statuses of a participant (what the login answer reports). */
    statusesOf: async (accountId: string) =>
      (
        await db
          .select({ teamStatus: teamsView.status, prelimStatus: prelimDocsView.status })
          .from(teamsView)
          .leftJoin(prelimDocsView, eq(prelimDocsView.teamId, teamsView.id))
          .where(eq(teamsView.ownerId, accountId))
          .limit(1)
      )[0] ?? { teamStatus: null, prelimStatus: null },

    setting: async <T>(key: string): Promise<T | undefined> =>
      (await db.select({ value: settingsView.value }).from(settingsView).where(eq(settingsView.key, key)).limit(1))[0]?.value as T | undefined,

    rolesOf: async (accountId: string) => rolesOfAccount.execute({ accountId }),

    allMenus: async () => menusInOrder.execute(),
    allButtonCodes: async () => (await buttonCodes.execute()).map((b) => b.code),

    menuCodesOfRoles: async (roleIds: string[]) =>
      roleIds.length
        ? (await db.selectDistinct({ code: roleMenusView.menuCode }).from(roleMenusView).where(inArray(roleMenusView.roleId, roleIds))).map((r) => r.code)
        : [],

    buttonCodesOfRoles: async (roleIds: string[]) =>
      roleIds.length
        ? (await db.selectDistinct({ code: roleButtonsView.buttonCode }).from(roleButtonsView).where(inArray(roleButtonsView.roleId, roleIds))).map((r) => r.code)
        : [],
  };
}
export type AuthRepository = ReturnType<typeof createAuthRepository>;
