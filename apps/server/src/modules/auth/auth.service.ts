import {
  AUTH_MSG,
  EXPERT_FINAL_MENU_CODE,
  EXPERT_MENUS,
  VALIDATION_MSG,
  type AccountLocale,
  type ChangePasswordInput,
  type FindPasswordInput,
  type LoginInput,
  type Realm,
  type RegisterInput,
  type SmsKey,
  type StaffLoginInput,
  prelimDocStatusOf,
} from '@contest/shared';
import type { Db } from '../../db/client.js';
import { AppError, badRequest, unauthorized } from '../../lib/errors.js';
import { recordOperation } from '../audit/operation-log.js';
import { admitPasswordCheck, hashPassword, verifyPassword } from '../../lib/password.js';
import { captchaSubject } from '../captcha/captcha.service.js';
import { SMS_MSG } from '../sms/sms.service.js';
import { updateAccount } from './account-store.js';
import type { AccountRow, AuthRepository, LoginResult } from './auth.repository.js';
import type { AuthContext, SessionService } from './session.service.js';

/** Five failures within this window lock the account (docs/security.md)... */
export const LOCK_WINDOW_MS = 15 * 60_000;
/** ...for this long from the fifth failure. */
export const LOCK_DURATION_MS = 15 * 60_000;
export const MAX_PASSWORD_FAILURES = 5;

/**
 * The lock as docs/security.md states it: five failures within 15 minutes lock the account for 15
 * minutes from the fifth. `times` are the failures (oldest first) of the last window + lock;
 * answers when the lock ends, or null when there is none at `at`. Failures refused by a lock are
 * recorded as LOCKED, not as failures, so they neither count nor prolong it.
 */
export function lockedUntilOf(times: readonly Date[], at: Date): Date | null {
  let until: Date | null = null;
  for (let k = MAX_PASSWORD_FAILURES - 1; k < times.length; k++) {
    const fifth = times[k]!.getTime();
    if (fifth - times[k - MAX_PASSWORD_FAILURES + 1]!.getTime() >= LOCK_WINDOW_MS) continue;
    const end = fifth + LOCK_DURATION_MS;
    if (end > at.getTime() && (!until || end > until.getTime())) until = new Date(end);
  }
  return until;
}

/** What the auth service needs of the captcha and SMS features. */
export interface CaptchaGate {
  /** `subject`: this login's (captchaSubject), which a nonce passed by a one-time code must match. */
  consumePassed(nonce: string, subject?: string): Promise<boolean>;
}
export interface SmsCodeVerifier {
  verify(input: { phone: string; smsKey: SmsKey; code: string }): Promise<void>;
}

export interface ClientMeta {
  ip: string;
  userAgent?: string;
}

interface Deps {
  db: Db;
  repo: AuthRepository;
  sessions: SessionService;
  captcha: CaptchaGate;
  sms: SmsCodeVerifier;
  now?: () => Date;
}

// Verifying against a real hash when the account does not exist keeps the timing the same,
// so response time does not reveal which usernames are registered.
let dummyHash: Promise<string> | null = null;
const dummy = () => (dummyHash ??= hashPassword('Dummy@password1'));


interface MenuNode {
  code: string;
  name: string;
  nameEn: string;
  path: string;
  icon: string | null;
  children: MenuNode[];
}

export function createAuthService({ db, repo, sessions, captcha, sms, now = () => new Date() }: Deps) {
  // Stamped with the service's clock (not the database's): the lock is computed from these times.
  const record = (realm: Realm, identifier: string, method: 'PASSWORD' | 'SMS', result: NonNullable<LoginResult>, meta: ClientMeta, accountId?: string) =>
    repo.recordLogin({ realm, identifier, method, result, accountId: accountId ?? null, ip: meta.ip, userAgent: meta.userAgent, createdAt: now() });

  /** `count`: failures in the last window (the slider and the fifth failure); `lockedUntil`: the lock in force, if any. */
  type Failures = { count: number; lockedUntil: Date | null };

  /**
   * Failed attempts of the account, or for a name (or phone) with no account, the failed
   * attempts on that name. Unknown names thus ask for the slider and lock exactly like real
   * ones, so no answer tells whether an account exists (docs/security.md).
   */
  const failuresOf = async (realm: Realm, identifier: string, account: AccountRow | undefined): Promise<Failures> => {
    const at = now();
    const times = await repo.failureTimes(account ? { accountId: account.id } : { realm, identifier }, new Date(at.getTime() - LOCK_WINDOW_MS - LOCK_DURATION_MS));
    const windowStart = at.getTime() - LOCK_WINDOW_MS;
    return { count: times.filter((d) => d.getTime() > windowStart).length, lockedUntil: lockedUntilOf(times, at) };
  };

  const lockedError = (until: Date) => badRequest(AUTH_MSG.locked, { lockedUntil: until.toISOString() });

  /**
   * Desktop clients send a passed captcha nonce; mobile clients may not, unless the account
   * failed recently (docs/rules/identity.md, "Sign-in"), in which case every client must show the slider.
   */
  async function gateCaptcha(realm: Realm, identifier: string, method: 'PASSWORD' | 'SMS', imageKey: string | undefined, account: AccountRow | undefined, failures: Failures, meta: ClientMeta) {
    if (imageKey) {
      // A nonce passed by a code opens only the login it was asked for (docs/security.md, "Captcha code alternative").
      if (await captcha.consumePassed(imageKey, captchaSubject(realm, method === 'SMS' ? 'phone' : 'name', identifier))) return;
      await record(realm, identifier, method, 'CAPTCHA_FAILED', meta, account?.id);
      throw badRequest(AUTH_MSG.captchaFailed, { captchaRequired: true });
    }
    if (failures.count > 0) {
      await record(realm, identifier, method, 'CAPTCHA_REQUIRED', meta, account?.id);
      throw badRequest(VALIDATION_MSG.captchaRequired, { captchaRequired: true });
    }
  }

  /**
   * The lock (docs/rules/identity.md, "Lockout") is the account's, whatever the method: five failed attempts in 15
   * minutes, wrong passwords and wrong SMS codes alike, refuse both password and SMS login.
   */
  async function assertNotLocked(realm: Realm, identifier: string, method: 'PASSWORD' | 'SMS', account: AccountRow | undefined, failures: Failures, meta: ClientMeta) {
    if (!failures.lockedUntil) return;
    await record(realm, identifier, method, 'LOCKED', meta, account?.id);
    throw lockedError(failures.lockedUntil);
  }

  /** Records a failed attempt; the one that reaches the limit answers with the lock, others with `error`. */
  async function failed(realm: Realm, identifier: string, method: 'PASSWORD' | 'SMS', account: AccountRow | undefined, failures: Failures, meta: ClientMeta, error: unknown): Promise<never> {
    const result = !account ? 'UNKNOWN_ACCOUNT' : method === 'PASSWORD' ? 'BAD_CREDENTIALS' : 'BAD_SMS_CODE';
    await record(realm, identifier, method, result, meta, account?.id);
    // This failure is the fifth within the window: the lock runs from now.
    if (failures.count + 1 >= MAX_PASSWORD_FAILURES) throw lockedError(new Date(now().getTime() + LOCK_DURATION_MS));
    throw error;
  }

  async function passwordLogin(realm: Realm, input: { username: string; password: string; imageKey?: string; locale?: AccountLocale }, meta: ClientMeta) {
    const account =
      (await repo.findByUsername(realm, input.username)) ?? (realm === 'EXPERT' ? await repo.findExpertByCodeOrPhone(input.username) : undefined);
    // Before the captcha's nonce is used up: a busy refusal is retried with the same nonce (lib/password.ts).
    admitPasswordCheck();
    const failures = await failuresOf(realm, input.username, account);
    await gateCaptcha(realm, input.username, 'PASSWORD', input.imageKey, account, failures, meta);
    await assertNotLocked(realm, input.username, 'PASSWORD', account, failures, meta);
    // Verifying against a real hash when the account does not exist keeps the timing the same.
    const matches = await verifyPassword(account?.passwordHash ?? (await dummy()), input.password);
    if (!account || !matches) {
      // The same answer for an unknown name and a wrong password: no remaining tries, no hint.
      return failed(realm, input.username, 'PASSWORD', account, failures, meta, badRequest(AUTH_MSG.badCredentials));
    }
    return finishLogin(realm, account, input.username, 'PASSWORD', meta, input.locale);
  }

  /**
   * Participants' phone + SMS code. An unregistered phone goes through the same steps (its code,
   * if one was requested, was stored but never sent), so it answers as a wrong code does.
   */
  async function smsLogin(input: { phone: string; smsCode: string; imageKey?: string; locale?: AccountLocale }, meta: ClientMeta) {
    const account = await repo.findByPhone('USER', input.phone);
    const failures = await failuresOf('USER', input.phone, account);
    await gateCaptcha('USER', input.phone, 'SMS', input.imageKey, account, failures, meta);
    // Checked before the code is used, so a refused login leaves the code for after the lock.
    await assertNotLocked('USER', input.phone, 'SMS', account, failures, meta);
    try {
      await sms.verify({ phone: input.phone, smsKey: 'LOGIN_VERIFY_KEY', code: input.smsCode });
    } catch (err) {
      // A store outage is no wrong code: only the code's own refusals count toward the lock.
      if (!(err instanceof AppError)) throw err;
      return failed('USER', input.phone, 'SMS', account, failures, meta, err);
    }
    // Only a guess can match a code that was never sent: it is a wrong code all the same.
    if (!account) return failed('USER', input.phone, 'SMS', account, failures, meta, badRequest(SMS_MSG.wrongCode));
    return finishLogin('USER', account, input.phone, 'SMS', meta, input.locale);
  }

  /** `locale`: the page's language, which becomes the account's (the language of its notices). */
  async function finishLogin(realm: Realm, account: AccountRow, identifier: string, method: 'PASSWORD' | 'SMS', meta: ClientMeta, locale?: AccountLocale) {
    if (!account.enabled) {
      await record(realm, identifier, method, 'DISABLED', meta, account.id);
      throw badRequest(AUTH_MSG.disabled);
    }
    const at = now();
    const session = await db.transaction(async (tx) => {
      const created = await sessions.create({ realm, accountId: account.id, ip: meta.ip, userAgent: meta.userAgent }, tx);
      await repo.touchLogin(account.id, at, tx);
      if (locale && locale !== account.locale) await updateAccount(tx, account.id, { locale });
      await repo.recordLogin({ realm, identifier, method, result: 'SUCCESS', accountId: account.id, ip: meta.ip, userAgent: meta.userAgent, createdAt: at }, tx);
      return created;
    });
    return { token: session.token, account };
  }

  async function menusFor(ctx: AuthContext, account: AccountRow) {
    if (ctx.realm === 'EXPERT') {
      const visible = EXPERT_MENUS.filter((m) => account.agreedAt || m.code !== EXPERT_FINAL_MENU_CODE);
      return { menus: visible.map((m) => ({ code: m.code, name: m.name, nameEn: m.nameEn, path: m.path, icon: m.icon ?? null, children: [] })), buttons: [] as string[], roles: [] as Array<{ id: string; code: string; name: string }> };
    }
    const roles = await repo.rolesOf(account.id);
    const all = await repo.allMenus();
    const isSuper = account.roleCode === 'SUPER_ADMIN';
    const allowed = new Set(isSuper ? all.map((m) => m.code) : await repo.menuCodesOfRoles(roles.map((r) => r.id)));
    const buttons = isSuper ? await repo.allButtonCodes() : await repo.buttonCodesOfRoles(roles.map((r) => r.id));
    // A granted child implies its parent group is shown; order follows the seeded tree.
    const byParent = new Map<string | null, typeof all>();
    for (const m of all) byParent.set(m.parentCode, [...(byParent.get(m.parentCode) ?? []), m]);
    const build = (parent: string | null): MenuNode[] =>
      (byParent.get(parent) ?? [])
        .map((m) => ({ code: m.code, name: m.name, nameEn: m.nameEn, path: m.path, icon: m.icon, children: build(m.code) }))
        .filter((m) => allowed.has(m.code) || m.children.length > 0);
    return { menus: build(null), buttons, roles };
  }

  return {
    /** POST /login: participants. */
    async login(input: LoginInput, meta: ClientMeta) {
      const result = input.isPhoneLogin ? await smsLogin(input, meta) : await passwordLogin('USER', input, meta);
      const { teamStatus, prelimStatus } = await repo.statusesOf(result.account.id);
      return {
        accessToken: result.token,
        account: result.account.username,
        teamStatus,
        prelimDocStatus: prelimDocStatusOf(teamStatus, prelimStatus),
        // A password set by an admin: the client goes to the change-password page first.
        mustChangePassword: result.account.mustChangePassword,
      };
    },

    /** Admin (realm ADMIN) and expert (realm EXPERT) consoles. */
    async staffLogin(realm: 'ADMIN' | 'EXPERT', input: StaffLoginInput, meta: ClientMeta) {
      const { token, account } = await passwordLogin(realm, input, meta);
      return { accessToken: token, account: account.username, teamStatus: null, prelimDocStatus: null, mustChangePassword: account.mustChangePassword };
    },

    async register(input: RegisterInput) {
      const conflicts = await repo.findConflicts(input);
      if (conflicts.some((c) => c.username === input.username)) throw badRequest(AUTH_MSG.usernameTaken, { field: 'username' });
      if (conflicts.some((c) => c.phone === input.phone)) throw badRequest(AUTH_MSG.phoneTaken, { field: 'phone' });
      if (conflicts.some((c) => c.email === input.email)) throw badRequest(AUTH_MSG.emailTaken, { field: 'email' });
      await sms.verify({ phone: input.phone, smsKey: 'REGISTER_VERIFY_KEY', code: input.smsCode });
      const passwordHash = await hashPassword(input.password);
      try {
        await repo.insertParticipant({ ...input, passwordHash });
      } catch (err) {
        // Two registrations racing for the same name: the unique index decides, the loser gets the same 400.
        const constraint = String((err as { constraint?: string; cause?: { constraint?: string } }).cause?.constraint ?? (err as { constraint?: string }).constraint ?? '');
        if (constraint.includes('username')) throw badRequest(AUTH_MSG.usernameTaken, { field: 'username' });
        if (constraint.includes('phone')) throw badRequest(AUTH_MSG.phoneTaken, { field: 'phone' });
        if (constraint.includes('email')) throw badRequest(AUTH_MSG.emailTaken, { field: 'email' });
        throw err;
      }
    },

    async findPassword(input: FindPasswordInput) {
      const account = await repo.findByPhone('USER', input.phone);
      if (!account) throw badRequest(AUTH_MSG.noAccountForPhone);
      await sms.verify({ phone: input.phone, smsKey: 'FIND_PASSWORD_KEY', code: input.smsCode });
      const passwordHash = await hashPassword(input.password);
      await db.transaction(async (tx) => {
        await repo.setPassword(account.id, passwordHash, now(), tx);
        await sessions.revokeAll(account.id, 'PASSWORD_CHANGED', undefined, tx);
      });
    },

    async changePassword(ctx: AuthContext, input: ChangePasswordInput, meta?: ClientMeta) {
      const account = await repo.findById(ctx.accountId);
      if (!account || !(await verifyPassword(account.passwordHash, input.oldPassword))) {
        throw badRequest(AUTH_MSG.oldPasswordWrong, { field: 'oldPassword' });
      }
      const passwordHash = await hashPassword(input.newPassword);
      await db.transaction(async (tx) => {
        await repo.setPassword(account.id, passwordHash, now(), tx);
        await sessions.revokeAll(account.id, 'PASSWORD_CHANGED', ctx.sessionId, tx);
        // Staff writes are audited; a participant's own password change is in their login history.
        if (ctx.realm !== 'USER') {
          await recordOperation(tx, { auth: ctx, ...meta }, { action: 'password:change', targetType: 'account', targetId: ctx.accountId, summary: '修改本人密码' });
        }
      });
    },

    logout: (ctx: AuthContext) => sessions.revoke(ctx.sessionId, 'LOGOUT'),

    /**
     * PUT /user/locale: the signed-in account's language (the web's language switch), which its
     * notices are sent in from now on (docs/decisions.md, "English"). Any realm.
     */
    async setLocale(ctx: AuthContext, locale: AccountLocale): Promise<{ locale: AccountLocale }> {
      const row = await db.transaction((tx) => updateAccount(tx, ctx.accountId, { locale }));
      if (!row) throw unauthorized();
      return { locale: row.locale };
    },

    async agree(ctx: AuthContext, meta?: ClientMeta) {
      await db.transaction(async (tx) => {
        await repo.setAgreed(ctx.accountId, now(), tx);
        if (ctx.realm !== 'USER') {
          await recordOperation(tx, { auth: ctx, ...meta }, { action: 'agreement:accept', targetType: 'account', targetId: ctx.accountId, summary: '同意评审协议' });
        }
      });
    },

    /** GET /user/account: the participant info (docs/rules/identity.md, "Who am I"). */
    async participantInfo(ctx: AuthContext) {
      const row = await repo.participantInfoRow(ctx.accountId);
      if (!row) throw unauthorized();
      const { teamStatus } = row;
      return {
        account: { name: row.username, permissionCodeList: ['*'], roleCode: row.roleCode },
        teamStatus,
        prelimDocStatus: prelimDocStatusOf(teamStatus, row.prelimStatus),
        hasUnReadMessage: row.hasUnread === true,
        agree: row.agreedAt !== null,
        mustChangePassword: row.mustChangePassword,
        watermark: row.username,
        dataDocMenuName: typeof row.dataDocMenuName === 'string' && row.dataDocMenuName ? row.dataDocMenuName : '数据文档',
        // The spec's user object (docs/rules/identity.md, "Who am I"): participants have no role row, so
        // the role code stands for it (as EXPERT does for experts); the organisation is the team.
        user: {
          roleId: row.roleCode,
          organizationType: row.roleCode,
          organization:
            row.teamId === null
              ? null
              : { id: row.teamId, direction: row.teamTrack, authenticationStatus: teamStatus, reason: teamStatus === 'REVISING' || teamStatus === 'REJECTED' ? row.teamAuditReason : null },
          account: { name: row.username, phone: row.phone },
        },
      };
    },

    /** GET /admin/user/account: the admin/expert info (docs/rules/identity.md, "Who am I"), menus and buttons from the database. */
    async staffInfo(ctx: AuthContext) {
      const account = (await repo.findById(ctx.accountId))!;
      const { menus, buttons, roles } = await menusFor(ctx, account);
      const roleName = ctx.realm === 'EXPERT' ? '评审专家' : account.roleCode === 'SUPER_ADMIN' ? '超级管理员' : (roles[0]?.name ?? '运营人员');
      return {
        account: account.username,
        roles: ctx.realm === 'EXPERT' ? [{ id: 'EXPERT', code: 'EXPERT' }] : roles.map((r) => ({ id: r.id, code: r.code })),
        roleCode: account.roleCode,
        roleName,
        teamStatus: null,
        prelimDocStatus: null,
        hasUnReadMessage: false,
        menus,
        buttons,
        agree: account.agreedAt !== null,
        mustChangePassword: account.mustChangePassword,
        name: account.name ?? account.username,
        code: account.code,
      };
    },
  };
}
export type AuthService = ReturnType<typeof createAuthService>;
