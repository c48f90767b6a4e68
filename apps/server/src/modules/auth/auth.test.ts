import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { and, count, eq } from 'drizzle-orm';
import { AUTH_MSG, MSG, VALIDATION_MSG as V, type SmsKey } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { accounts, loginRecords, messageRecipients, operationRecords, prelimDocs, sessions as sessionsTable, settings, teams } from '../../db/schema.js';
import { deliverMessage } from '../messages/deliver.js';
import { seed } from '../../seed/seed.js';
import { badRequest } from '../../lib/errors.js';
import { createAuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService, lockedUntilOf } from './auth.service.js';
import { createSessionService } from './session.service.js';
import { createLoginLimiter } from './login-limiter.js';
import { signIn } from '../../../test/sign-in.js';

let t: TestApp;
let offsetMs = 0;
const now = () => new Date(Date.now() + offsetMs);
const passedNonces = new Set<string>();
const smsCodes = new Map<string, string>();

const captcha = {
  consumePassed: async (nonce: string) => passedNonces.delete(nonce),
};
const sms = {
  verify: async ({ phone, smsKey, code }: { phone: string; smsKey: SmsKey; code: string }) => {
    const key = `${smsKey}:${phone}`;
    if (smsCodes.get(key) !== code) throw badRequest('验证码错误');
    smsCodes.delete(key);
  },
};
const giveCode = (phone: string, smsKey: SmsKey, code = '123456') => smsCodes.set(`${smsKey}:${phone}`, code);
const passCaptcha = () => {
  const nonce = `nonce-${Math.random().toString(36).slice(2)}`;
  passedNonces.add(nonce);
  return nonce;
};

let seq = 0;
const uniq = () => {
  seq += 1;
  return { username: `user${Date.now().toString(36).slice(-5)}${seq}`, phone: `139${String(10_000_000 + seq * 7919).slice(-8)}`, email: `u${seq}.${Date.now()}@example.com` };
};

async function register(fields: Partial<Record<string, unknown>> = {}) {
  const u = { ...uniq(), password: 'Abc@1234', smsCode: '123456', ...fields } as { username: string; phone: string; email: string; password: string; smsCode: string };
  giveCode(u.phone, 'REGISTER_VERIFY_KEY', u.smsCode);
  const res = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: u, remoteAddress: `10.6.${seq % 250}.${(seq * 7) % 250}` });
  return { res, u };
}

let loginSeq = 0;
/** Each call from its own address unless one is given: the per-IP limit has its own test. */
async function login(payload: Record<string, unknown>, ip = `10.9.${Math.floor(++loginSeq / 250)}.${loginSeq % 250}`) {
  return t.app.inject({ method: 'POST', url: '/api/login', payload, remoteAddress: ip });
}

const countAccounts = async () => (await t.database.db.select({ n: count() }).from(accounts))[0]!.n;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  const db = t.database.db;
  await seed(db, { adminUsername: 'root', adminPassword: 'Root@2025', demo: true });
  const sessions = createSessionService(db, now);
  const auth = createAuthService({ db, repo: createAuthRepository(db), sessions, captcha, sms, now });
  // Generous login limits here: their own tests run through the real wiring (identity-hardening.test.ts).
  const loginLimiter = createLoginLimiter({ kv: t.app.deps.kv, perAccountPerMinute: 1_000, perIpPerMinute: async () => 1_000 });
  await t.app.register(authRoutes, { prefix: '/api', auth, sessions, loginLimiter });
});

afterAll(async () => {
  await t.close();
});

beforeEach(() => {
  offsetMs = 0;
});

describe('POST /api/login/register', () => {
  it('creates the participant with a hashed password and answers 注册成功', async () => {
    const { res, u } = await register();
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 200, code: 'OK', message: MSG.registerSuccess, data: null });
    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.username, u.username));
    expect(row).toMatchObject({ realm: 'USER', roleCode: 'USER', phone: u.phone, email: u.email, enabled: true });
    expect(row!.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it.each([
    [{ username: '' }, V.usernameRequired, 'username'],
    [{ username: 'Team_01' }, V.usernameFormat, 'username'],
    [{ username: 'abc' }, V.usernameLength, 'username'],
    [{ username: "x' or 1=1 --" }, V.usernameFormat, 'username'],
    [{ username: '<script>' }, V.usernameFormat, 'username'],
    [{ password: '' }, V.loginPasswordRequired, 'password'],
    [{ password: 'abcdefgh' }, V.passwordRule, 'password'],
    [{ password: 'Abc@123' }, V.passwordRule, 'password'],
    [{ password: 'Abcdefg@123456789' }, V.passwordRule, 'password'],
    [{ email: '' }, V.emailRequired, 'email'],
    [{ email: 'not-an-email' }, V.emailFormat, 'email'],
    [{ email: '<img src=x>@a.cn' }, V.emailFormat, 'email'],
    [{ phone: '' }, V.phoneRequired, 'phone'],
    [{ phone: '1380000000' }, V.phoneLength, 'phone'],
    [{ phone: '12800000000' }, V.phoneFormat, 'phone'],
    [{ smsCode: '' }, V.codeRequired, 'smsCode'],
    [{ smsCode: 12 }, V.codeFormat, 'smsCode'],
    [{ username: ['a'] }, V.usernameRequired, 'username'],
    [{ unexpected: true, username: 1 }, V.usernameRequired, 'username'],
  ])('%o -> 400 %s, nothing written', async (fields, message, field) => {
    const before = await countAccounts();
    const { res } = await register(fields);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, message, data: { field } });
    expect(await countAccounts()).toBe(before);
  });

  it('a huge string is refused before it reaches the service', async () => {
    const before = await countAccounts();
    const { res } = await register({ email: `${'a'.repeat(2_000_000)}@x.cn` });
    expect(res.statusCode).toBe(413);
    expect(await countAccounts()).toBe(before);
  });

  it('names the duplicate: username, phone, email', async () => {
    const { u } = await register();
    const before = await countAccounts();
    const dupUser = await register({ username: u.username });
    expect(dupUser.res.json()).toMatchObject({ status: 400, message: AUTH_MSG.usernameTaken, data: { field: 'username' } });
    const dupPhone = await register({ phone: u.phone });
    expect(dupPhone.res.json()).toMatchObject({ status: 400, message: AUTH_MSG.phoneTaken, data: { field: 'phone' } });
    const dupEmail = await register({ email: u.email });
    expect(dupEmail.res.json()).toMatchObject({ status: 400, message: AUTH_MSG.emailTaken, data: { field: 'email' } });
    expect(await countAccounts()).toBe(before);
  });

  it('a wrong SMS code writes nothing', async () => {
    const before = await countAccounts();
    const u = { ...uniq(), password: 'Abc@1234', smsCode: '654321' };
    giveCode(u.phone, 'REGISTER_VERIFY_KEY', '111111');
    const res = await t.app.inject({ method: 'POST', url: '/api/login/register', payload: u });
    expect(res.json()).toMatchObject({ status: 400, message: '验证码错误' });
    expect(await countAccounts()).toBe(before);
  });
});

describe('participant login and sessions', () => {
  it('password login answers the token and the statuses; the token opens /user/account', async () => {
    const { u } = await register();
    const res = await login({ username: u.username, password: 'Abc@1234', imageKey: passCaptcha(), slidingDistance: 120 });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ account: u.username, teamStatus: null, prelimDocStatus: null });
    expect(data.accessToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(res.body).not.toContain('passwordHash');

    const info = await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(data.accessToken) });
    expect(info.statusCode).toBe(200);
    expect(info.json().data).toMatchObject({
      account: { name: u.username, roleCode: 'USER' },
      teamStatus: null,
      hasUnReadMessage: false,
      user: { roleId: 'USER', organizationType: 'USER', organization: null, account: { name: u.username, phone: u.phone } },
    });
    // The one field naming a password is the flag of a pending change; nothing else may.
    expect(info.json().data.mustChangePassword).toBe(false);
    expect(info.body.replace('"mustChangePassword":false', '')).not.toMatch(/argon2|password/i);

    // Only the hash of the token is stored.
    const stored = await t.database.db.select().from(sessionsTable);
    expect(stored.some((s) => s.tokenHash === data.accessToken)).toBe(false);
  });

  it('a demo team owner sees their team status, and the data-document menu name from settings', async () => {
    const res = await login({ username: 'demo1', password: 'Demo@2025', imageKey: passCaptcha() });
    expect(res.json().data).toMatchObject({ teamStatus: 'APPROVED', prelimDocStatus: 'NOT_FILLED' });
    const token = res.json().data.accessToken;
    const info = async () => (await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(token) })).json().data;
    await t.database.db.delete(settings).where(eq(settings.key, 'site.dataDocMenuName'));
    expect(await info()).toMatchObject({ teamStatus: 'APPROVED', dataDocMenuName: '数据文档', agree: true });
    // The user object names the account kind and the team as its organisation.
    const [own] = await t.database.db.select().from(teams).innerJoin(accounts, eq(accounts.id, teams.ownerId)).where(eq(accounts.username, 'demo1'));
    expect((await info()).user).toEqual({
      roleId: 'USER',
      organizationType: 'USER',
      organization: { id: own!.teams.id, direction: own!.teams.track, authenticationStatus: 'APPROVED', reason: null },
      account: { name: 'demo1', phone: own!.accounts.phone },
    });
    await t.database.db.insert(settings).values({ key: 'site.dataDocMenuName', value: '赛题数据' });
    expect((await info()).dataDocMenuName).toBe('赛题数据');

    // Once materials exist, their own status is reported (NOT_FILLED only while there are none).
    const [team] = await t.database.db.select().from(teams).innerJoin(accounts, eq(accounts.id, teams.ownerId)).where(eq(accounts.username, 'demo1'));
    await t.database.db.insert(prelimDocs).values({ teamId: team!.teams.id, ownerId: team!.accounts.id, status: 'REVISING' });
    expect(await info()).toMatchObject({ teamStatus: 'APPROVED', prelimDocStatus: 'REVISING' });
    const again = await login({ username: 'demo1', password: 'Demo@2025', imageKey: passCaptcha() });
    expect(again.json().data).toMatchObject({ teamStatus: 'APPROVED', prelimDocStatus: 'REVISING' });
    await t.database.db.delete(prelimDocs).where(eq(prelimDocs.teamId, team!.teams.id));

    // The unread dot follows the inbox (the demo team's own notices read first).
    await t.database.db.update(messageRecipients).set({ readAt: new Date() }).where(eq(messageRecipients.accountId, team!.accounts.id));
    expect((await info()).hasUnReadMessage).toBe(false);
    const messageId = await deliverMessage(t.database.db, { title: '审核通知', body: '通过', accountIds: [team!.accounts.id] });
    expect((await info()).hasUnReadMessage).toBe(true);
    await t.database.db.update(messageRecipients).set({ readAt: new Date() }).where(eq(messageRecipients.messageId, messageId));
    expect((await info()).hasUnReadMessage).toBe(false);
  });

  it.each([
    [undefined, 401],
    ['Bearer nope', 401],
    ['Basic abc', 401],
    [`Bearer ${'x'.repeat(500)}`, 401],
  ])('GET /user/account with %s -> %d', async (authorization, status) => {
    const res = await t.app.inject({ method: 'GET', url: '/api/user/account', headers: authorization ? { authorization } : {} });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ status, code: 'UNAUTHORIZED' });
  });

  it('login validation uses the spec messages', async () => {
    expect((await login({ username: '', password: 'x' })).json().message).toBe(V.usernameRequired);
    // A sign-in name is a username, phone, email or code: past 64 characters it cannot be an account,
    // and the register form's 4-20 rule would be the wrong thing to say.
    expect((await login({ username: 'a'.repeat(65), password: 'x' })).json()).toMatchObject({ status: 400, message: V.loginNameLength });
    expect((await login({ username: 'someone', password: '' })).json().message).toBe(V.passwordRequired);
    expect((await login({ isPhoneLogin: true, phone: '1234', smsCode: '123456' })).json().message).toBe(V.phoneLength);
    expect((await login({ isPhoneLogin: true, phone: '13800000000', smsCode: '' })).json().message).toBe(V.codeRequired);
  });

  it('a wrong password is 400 without saying which part was wrong, and is recorded', async () => {
    const { u } = await register();
    const unknown = await login({ username: `${u.username}x`, password: 'Abc@1234' });
    const wrong = await login({ username: u.username, password: 'Wrong@1234' });
    // The very same answer whether the account exists or not (no remaining tries).
    expect(unknown.json()).toEqual({ status: 400, code: 'BAD_REQUEST', message: AUTH_MSG.badCredentials, data: null });
    expect(wrong.json()).toEqual(unknown.json());
    const rows = await t.database.db.select().from(loginRecords).where(eq(loginRecords.identifier, u.username));
    expect(rows.map((r) => r.result)).toEqual(['BAD_CREDENTIALS']);
    expect(rows[0]).toMatchObject({ realm: 'USER', method: 'PASSWORD' });
    expect(rows[0]!.ip).toMatch(/^10\.9\./);
  });

  it('after a failure the captcha is required; a used or unknown nonce is refused', async () => {
    const { u } = await register();
    await login({ username: u.username, password: 'Wrong@1234' });
    const noCaptcha = await login({ username: u.username, password: 'Abc@1234' });
    expect(noCaptcha.json()).toMatchObject({ status: 400, message: V.captchaRequired, data: { captchaRequired: true } });
    const bogus = await login({ username: u.username, password: 'Abc@1234', imageKey: 'never-issued' });
    expect(bogus.json()).toMatchObject({ status: 400, message: AUTH_MSG.captchaFailed });
    const nonce = passCaptcha();
    expect((await login({ username: u.username, password: 'Abc@1234', imageKey: nonce })).statusCode).toBe(200);
    expect((await login({ username: u.username, password: 'Abc@1234', imageKey: nonce })).json().message).toBe(AUTH_MSG.captchaFailed);
  });

  it('five wrong passwords in 15 minutes lock the account for 15 minutes', async () => {
    const { u } = await register();
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      messages.push((await login({ username: u.username, password: `Wrong@${i}000`, imageKey: passCaptcha() })).json().message);
    }
    expect(messages).toEqual([...Array(4).fill(AUTH_MSG.badCredentials), AUTH_MSG.locked]);
    const locked = await login({ username: u.username, password: 'Abc@1234', imageKey: passCaptcha() });
    expect(locked.json()).toMatchObject({ status: 400, message: AUTH_MSG.locked });
    expect(Date.parse(locked.json().data.lockedUntil)).toBeGreaterThan(Date.now() + 14 * 60_000);
    offsetMs = 15 * 60_000 + 5000;
    expect((await login({ username: u.username, password: 'Abc@1234', imageKey: passCaptcha() })).statusCode).toBe(200);
  });

  it('the lock runs 15 minutes from the fifth failure: failures at 0, 1, 2, 3 and 14 min lock until 29 min', async () => {
    const { u } = await register();
    const attempt = async (minutes: number, password: string) => {
      offsetMs = minutes * 60_000;
      return login({ username: u.username, password, imageKey: passCaptcha() });
    };
    for (const m of [0, 1, 2, 3]) expect((await attempt(m, `Wrong@${m}000`)).json().message).toBe(AUTH_MSG.badCredentials);
    const fifth = await attempt(14, 'Wrong@14000');
    expect(fifth.json().message).toBe(AUTH_MSG.locked);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.username, u.username));
    const failures = await t.database.db.select().from(loginRecords).where(and(eq(loginRecords.accountId, account!.id), eq(loginRecords.result, 'BAD_CREDENTIALS')));
    const fifthAt = Math.max(...failures.map((r) => r.createdAt.getTime()));
    const until = new Date(fifthAt + 15 * 60_000).toISOString();
    // What the fifth failure says is what holds: the first failure leaving the window at 15 min ends nothing.
    expect(Math.abs(Date.parse(fifth.json().data.lockedUntil) - Date.parse(until))).toBeLessThan(1000);
    for (const m of [15, 16, 28]) {
      const locked = await attempt(m, 'Abc@1234');
      expect(locked.json(), `${m} min`).toMatchObject({ status: 400, message: AUTH_MSG.locked, data: { lockedUntil: until } });
    }
    expect((await attempt(29 + 1 / 60, 'Abc@1234')).statusCode).toBe(200);
  });

  it('lockedUntilOf: five failures within 15 minutes, 15 minutes from the fifth', () => {
    const min = (m: number) => new Date(Date.UTC(2025, 5, 1, 2, 0) + m * 60_000);
    const times = [0, 1, 2, 3, 14].map(min);
    expect(lockedUntilOf(times, min(14))).toEqual(min(29));
    expect(lockedUntilOf(times, min(28.99))).toEqual(min(29));
    expect(lockedUntilOf(times, min(29))).toBeNull();
    // Five spread over 15 minutes or more are no lock; four are none at all.
    expect(lockedUntilOf([0, 1, 2, 3, 15].map(min), min(15))).toBeNull();
    expect(lockedUntilOf([0, 1, 2, 3].map(min), min(3))).toBeNull();
    // A later run of five locks from its own fifth.
    expect(lockedUntilOf([0, 10, 20, 21, 22, 23, 24].map(min), min(30))).toEqual(min(39));
  });

  it('SMS login: right code signs in once; wrong code and unknown phone are 400', async () => {
    const { u } = await register();
    giveCode(u.phone, 'LOGIN_VERIFY_KEY', '222333');
    const wrong = await login({ isPhoneLogin: true, phone: u.phone, smsCode: '999999' });
    expect(wrong.json()).toMatchObject({ status: 400, message: '验证码错误' });
    const right = await login({ isPhoneLogin: true, phone: u.phone, smsCode: '222333', imageKey: passCaptcha() });
    expect(right.statusCode).toBe(200);
    expect(right.json().data.account).toBe(u.username);
    const reused = await login({ isPhoneLogin: true, phone: u.phone, smsCode: '222333', imageKey: passCaptcha() });
    expect(reused.statusCode).toBe(400);
    // An unregistered phone answers as a wrong code does, not 该手机号尚未注册.
    const unknown = await login({ isPhoneLogin: true, phone: uniq().phone, smsCode: '999999' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('a locked account cannot sign in by SMS either; the lock ends after 15 minutes', async () => {
    const { u } = await register();
    for (let i = 0; i < 5; i++) await login({ username: u.username, password: `Wrong@${i}000`, imageKey: passCaptcha() });
    giveCode(u.phone, 'LOGIN_VERIFY_KEY', '246810');
    const bySms = await login({ isPhoneLogin: true, phone: u.phone, smsCode: '246810', imageKey: passCaptcha() });
    expect(bySms.json()).toMatchObject({ status: 400, message: AUTH_MSG.locked });
    expect(Date.parse(bySms.json().data.lockedUntil)).toBeGreaterThan(Date.now() + 14 * 60_000);
    const rows = await t.database.db.select().from(loginRecords).where(eq(loginRecords.identifier, u.phone));
    expect(rows.map((r) => r.result)).toEqual(['LOCKED']);
    // The refusal did not use up the code: once the lock ends it signs in.
    offsetMs = 15 * 60_000 + 5000;
    expect((await login({ isPhoneLogin: true, phone: u.phone, smsCode: '246810', imageKey: passCaptcha() })).statusCode).toBe(200);
  });

  it('wrong SMS codes count toward the same lock as wrong passwords', async () => {
    const { u } = await register();
    giveCode(u.phone, 'LOGIN_VERIFY_KEY', '135790');
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      messages.push((await login({ isPhoneLogin: true, phone: u.phone, smsCode: `00000${i}`, imageKey: passCaptcha() })).json().message);
    }
    expect(messages).toEqual([...Array(4).fill('验证码错误'), AUTH_MSG.locked]);
    expect((await login({ username: u.username, password: 'Abc@1234', imageKey: passCaptcha() })).json()).toMatchObject({ status: 400, message: AUTH_MSG.locked });
    expect((await login({ isPhoneLogin: true, phone: u.phone, smsCode: '135790', imageKey: passCaptcha() })).json()).toMatchObject({ status: 400, message: AUTH_MSG.locked });
  });

  it('participant sessions slide for 7 days', async () => {
    const { u } = await register();
    const token = (await login({ username: u.username, password: 'Abc@1234' })).json().data.accessToken;
    const call = () => t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(token) });
    offsetMs = 6 * 86_400_000;
    expect((await call()).statusCode).toBe(200);
    offsetMs = 12 * 86_400_000;
    expect((await call()).statusCode).toBe(200);
    offsetMs = 19 * 86_400_000 + 60_000;
    expect((await call()).statusCode).toBe(401);
  });

  it('logout ends the session', async () => {
    const { u } = await register();
    const token = (await login({ username: u.username, password: 'Abc@1234' })).json().data.accessToken;
    expect((await t.app.inject({ method: 'POST', url: '/api/logout', headers: bearer(token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('a disabled account cannot sign in and its sessions end at once', async () => {
    const { u } = await register();
    const token = (await login({ username: u.username, password: 'Abc@1234' })).json().data.accessToken;
    await t.database.db.update(accounts).set({ enabled: false }).where(eq(accounts.username, u.username));
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(token) })).statusCode).toBe(401);
    expect((await login({ username: u.username, password: 'Abc@1234' })).json().message).toBe(AUTH_MSG.disabled);
  });
});

describe('passwords', () => {
  it('change password keeps this session, ends the others, and needs the old password', async () => {
    const { u } = await register();
    const a = (await login({ username: u.username, password: 'Abc@1234' })).json().data.accessToken;
    const b = (await login({ username: u.username, password: 'Abc@1234' })).json().data.accessToken;
    const change = (payload: object) => t.app.inject({ method: 'POST', url: '/api/login/change/password', headers: bearer(a), payload });
    expect((await change({ oldPassword: 'Nope@1234', newPassword: 'New@12345' })).json()).toMatchObject({ status: 400, message: AUTH_MSG.oldPasswordWrong });
    expect((await change({ oldPassword: 'Abc@1234', newPassword: 'Abc@1234' })).json()).toMatchObject({ status: 400, message: V.passwordSame });
    expect((await change({ oldPassword: 'Abc@1234', newPassword: 'weak' })).json()).toMatchObject({ status: 400, message: V.passwordRule });
    expect((await change({ oldPassword: 'Abc@1234', newPassword: 'New@12345' })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(a) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(b) })).statusCode).toBe(401);
    expect((await login({ username: u.username, password: 'New@12345', imageKey: passCaptcha() })).statusCode).toBe(200);
    // A participant's own change is not an operator action: nothing in the operation log.
    const account = (await t.database.db.select().from(accounts).where(eq(accounts.username, u.username)))[0]!;
    expect(await t.database.db.select().from(operationRecords).where(eq(operationRecords.accountId, account.id))).toHaveLength(0);
  });

  it('change password needs a session', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/login/change/password', payload: { oldPassword: 'Abc@1234', newPassword: 'New@12345' } });
    expect(res.statusCode).toBe(401);
  });

  it('find password by SMS resets it and ends every session', async () => {
    const { u } = await register();
    const token = (await login({ username: u.username, password: 'Abc@1234' })).json().data.accessToken;
    const wrong = await t.app.inject({ method: 'POST', url: '/api/login/find/password', payload: { phone: u.phone, smsCode: '000000', password: 'Reset@2025' } });
    expect(wrong.statusCode).toBe(400);
    giveCode(u.phone, 'FIND_PASSWORD_KEY', '445566');
    const reset = await t.app.inject({ method: 'POST', url: '/api/login/find/password', payload: { phone: u.phone, smsCode: '445566', password: 'Reset@2025' } });
    expect(reset.json()).toMatchObject({ status: 200, message: AUTH_MSG.passwordReset });
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(token) })).statusCode).toBe(401);
    expect((await login({ username: u.username, password: 'Abc@1234', imageKey: passCaptcha() })).statusCode).toBe(400);
    expect((await login({ username: u.username, password: 'Reset@2025', imageKey: passCaptcha() })).statusCode).toBe(200);
  });
});

describe('admin and expert consoles', () => {
  const adminLogin = (ip = '10.8.0.1') =>
    t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'root', password: 'Root@2025', imageKey: passCaptcha() }, remoteAddress: ip });

  it('admin login gives the menus and buttons from the database', async () => {
    const res = await adminLogin();
    expect(res.statusCode).toBe(200);
    const token = res.json().data.accessToken;
    const info = await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(token) });
    const data = info.json().data;
    expect(data).toMatchObject({ account: 'root', roleCode: 'SUPER_ADMIN', roleName: '超级管理员', code: 'A0001' });
    expect(data.roles.map((r: { code: string }) => r.code)).toEqual(['SUPER_ADMIN']);
    expect(data.menus.map((m: { code: string }) => m.code)).toContain('system');
    const system = data.menus.find((m: { code: string }) => m.code === 'system');
    expect(system.children.map((m: { code: string }) => m.code)).toEqual(['systemManage', 'roleManage', 'dataField', 'systemSettings', 'dataRetention', 'dataRequests']);
    expect(data.buttons).toContain('qualification:audit');
  });

  it('realms do not mix: an admin token is no participant token and vice versa', async () => {
    const admin = (await adminLogin()).json().data.accessToken;
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account', headers: bearer(admin) })).statusCode).toBe(401);
    const user = (await login({ username: 'demo2', password: 'Demo@2025', imageKey: passCaptcha() })).json().data.accessToken;
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(user) })).statusCode).toBe(401);
    const participantAsAdmin = await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: 'demo2', password: 'Demo@2025' } });
    expect(participantAsAdmin.json()).toMatchObject({ status: 400, message: AUTH_MSG.badCredentials });
  });

  it('a second admin login ends the first session with 409', async () => {
    const first = (await adminLogin()).json().data.accessToken;
    const second = (await adminLogin('10.8.0.2')).json().data.accessToken;
    const old = await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(first) });
    expect(old.statusCode).toBe(409);
    expect(old.json()).toMatchObject({ status: 409, code: 'SESSION_REPLACED', message: MSG.sessionReplaced });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(second) })).statusCode).toBe(200);
  });

  it('admin sessions end after 2 hours idle', async () => {
    const token = (await adminLogin()).json().data.accessToken;
    offsetMs = 119 * 60_000;
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(token) })).statusCode).toBe(200);
    offsetMs = 119 * 60_000 + 2 * 3600_000 + 1000;
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(token) })).statusCode).toBe(401);
  });

  it('expert login; the final-review menu appears only after the agreement', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/expert/login', payload: { username: 'e0001', password: 'Demo@2025', imageKey: passCaptcha() } });
    expect(res.statusCode).toBe(200);
    const token = res.json().data.accessToken;
    const before = (await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(token) })).json().data;
    expect(before).toMatchObject({ roleCode: 'EXPERT', agree: false, code: 'E0001', roles: [{ code: 'EXPERT' }] });
    expect(before.menus.map((m: { code: string }) => m.code)).toEqual(['expertIndex', 'reviewManage']);
    expect((await t.app.inject({ method: 'PUT', url: '/api/user/agreement', headers: bearer(token) })).statusCode).toBe(200);
    const after = (await t.app.inject({ method: 'GET', url: '/api/admin/user/account', headers: bearer(token) })).json().data;
    expect(after.agree).toBe(true);
    expect(after.menus.map((m: { code: string }) => m.code)).toEqual(['expertIndex', 'reviewManage', 'reviewAdminManage']);
    const expert = (await t.database.db.select().from(accounts).where(eq(accounts.username, 'e0001')))[0]!;
    const records = await t.database.db.select().from(operationRecords).where(eq(operationRecords.accountId, expert.id));
    expect(records).toMatchObject([{ realm: 'EXPERT', action: 'agreement:accept', targetType: 'account', targetId: expert.id }]);
  });

  it('an admin changing their own password leaves an operation record, never the password', async () => {
    const token = (await adminLogin()).json().data.accessToken;
    const admin = (await t.database.db.select().from(accounts).where(and(eq(accounts.realm, 'ADMIN'), eq(accounts.username, 'root'))))[0]!;
    const change = (newPassword: string, oldPassword: string) =>
      t.app.inject({ method: 'POST', url: '/api/login/change/password', headers: bearer(token), payload: { oldPassword, newPassword } });
    expect((await change('Root@2026', 'Wrong@2025')).statusCode).toBe(400);
    // (The demo data's decisions are the super admin's too: only password records count here.)
    const passwordRecords = () => t.database.db.select().from(operationRecords).where(and(eq(operationRecords.accountId, admin.id), eq(operationRecords.action, 'password:change')));
    expect(await passwordRecords()).toHaveLength(0);
    expect((await change('Root@2026', 'Root@2025')).statusCode).toBe(200);
    const records = await passwordRecords();
    expect(records).toMatchObject([{ realm: 'ADMIN', username: 'root', action: 'password:change', targetId: admin.id }]);
    expect(JSON.stringify(records)).not.toContain('Root@2026');
    expect((await change('Root@2025', 'Root@2026')).statusCode).toBe(200);
  });

  it('every attempt in every realm is recorded', async () => {
    await t.app.inject({ method: 'POST', url: '/api/expert/login', payload: { username: 'e0002', password: 'Bad@12345' } });
    const rows = await t.database.db
      .select()
      .from(loginRecords)
      .where(and(eq(loginRecords.realm, 'EXPERT'), eq(loginRecords.identifier, 'e0002')));
    expect(rows.map((r) => r.result)).toEqual(['BAD_CREDENTIALS']);
    const admins = await t.database.db.select().from(loginRecords).where(eq(loginRecords.realm, 'ADMIN'));
    expect(admins.filter((r) => r.identifier === 'root').every((r) => r.result === 'SUCCESS')).toBe(true);
    expect(admins.filter((r) => r.identifier === 'root').length).toBeGreaterThan(3);
    // A participant trying the admin console is recorded there, without an account link.
    expect(admins.find((r) => r.identifier === 'demo2')).toMatchObject({ result: 'UNKNOWN_ACCOUNT', accountId: null });
  });
});

describe('login answers do not tell which accounts exist', () => {
  const realms = [
    ['USER', '/api/login'],
    ['ADMIN', '/api/admin/login'],
    ['EXPERT', '/api/expert/login'],
  ] as const;

  it.each(realms)('%s: a wrong password for an existing account answers exactly as an unknown name, up to the lock', async (realm, url) => {
    const existing = realm === 'USER' ? (await register()).u.username : (await signIn(t, { realm })).username;
    const unknown = `${existing}zz`;
    const attempt = (username: string, withCaptcha = true) =>
      t.app.inject({
        method: 'POST',
        url,
        payload: { username, password: 'Wrong@1234', ...(withCaptcha ? { imageKey: passCaptcha() } : {}) },
        remoteAddress: `10.5.${Math.floor(++loginSeq / 250) % 250}.${loginSeq % 250}`,
      });
    for (let i = 0; i < 4; i++) {
      const [a, b] = [await attempt(existing), await attempt(unknown)];
      expect(a.json(), `attempt ${i + 1}`).toEqual({ status: 400, code: 'BAD_REQUEST', message: AUTH_MSG.badCredentials, data: null });
      expect(b.statusCode).toBe(a.statusCode);
      expect(b.json(), `attempt ${i + 1}`).toEqual(a.json());
    }
    // After a failure a client without the slider is asked for it, whoever the name belongs to.
    const [a, b] = [await attempt(existing, false), await attempt(unknown, false)];
    expect(a.json()).toEqual({ status: 400, code: 'BAD_REQUEST', message: V.captchaRequired, data: { captchaRequired: true } });
    expect(b.json()).toEqual(a.json());
    // The fifth wrong password locks; an unknown name answers the same lock (only the time may differ by milliseconds).
    const [la, lb] = [(await attempt(existing)).json(), (await attempt(unknown)).json()];
    expect(la).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: AUTH_MSG.locked });
    expect(lb).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: AUTH_MSG.locked });
    expect(Object.keys(lb.data)).toEqual(Object.keys(la.data));
    expect(Math.abs(Date.parse(lb.data.lockedUntil) - Date.parse(la.data.lockedUntil))).toBeLessThan(10_000);
  });
});

describe('the Authorization header', () => {
  it.each(['USER', 'ADMIN', 'EXPERT'] as const)('%s: holds the bare token or "Bearer <token>"', async (realm) => {
    const who = await signIn(t, { realm });
    const url = realm === 'USER' ? '/api/user/account' : '/api/admin/user/account';
    const call = (authorization: string) => t.app.inject({ method: 'GET', url, headers: { authorization } });
    for (const authorization of [`Bearer ${who.token}`, who.token, `bearer ${who.token}`, ` ${who.token} `]) {
      expect((await call(authorization)).statusCode, authorization).toBe(200);
    }
    for (const authorization of ['Bearer', 'Bearer ', `Token ${who.token}`, `${who.token} x`, `Bearer ${who.token} x`, 'nope']) {
      expect((await call(authorization)).statusCode, authorization).toBe(401);
    }
  });
});


describe('hostile input on every identity call', () => {
  const hostile: unknown[] = [
    "x' OR 1=1; DROP TABLE accounts; --",
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    12345,
    true,
    null,
    ['a', 'b'],
    { $ne: '' },
    'a'.repeat(100_000),
    '\u0000\u0001',
  ];
  const calls: Array<{ url: string; fields: string[]; auth?: boolean; admin?: boolean }> = [
    { url: '/api/login', fields: ['username', 'password', 'phone', 'smsCode', 'imageKey', 'slidingDistance', 'isPhoneLogin'] },
    { url: '/api/admin/login', fields: ['username', 'password', 'imageKey'] },
    { url: '/api/expert/login', fields: ['username', 'password', 'imageKey'] },
    { url: '/api/login/register', fields: ['username', 'password', 'email', 'phone', 'smsCode'] },
    { url: '/api/login/find/password', fields: ['phone', 'smsCode', 'password'] },
    { url: '/api/login/change/password', fields: ['oldPassword', 'newPassword'], auth: true },
  ];
  const valid: Record<string, unknown> = {
    username: 'demo1',
    password: 'Demo@2025',
    phone: '13800000001',
    smsCode: '123456',
    email: 'x@example.com',
    oldPassword: 'Demo@2025',
    newPassword: 'Other@2025',
    isPhoneLogin: false,
  };

  const snapshot = async () => {
    const db = t.database.db;
    const [a] = await db.select({ n: count() }).from(accounts);
    const [s] = await db.select({ n: count() }).from(sessionsTable);
    const [demo] = await db.select({ hash: accounts.passwordHash }).from(accounts).where(eq(accounts.username, 'demo1'));
    return { accounts: a!.n, sessions: s!.n, demoHash: demo!.hash };
  };

  it('SQL, HTML, wrong types, control characters and 100 KB strings answer 400 and write nothing', async () => {
    // A session of demo1 for the change-password call; taken before the snapshot.
    const token = (await login({ username: 'demo1', password: 'Demo@2025', imageKey: passCaptcha() })).json().data.accessToken as string;
    const before = await snapshot();
    for (const call of calls) {
      for (const field of call.fields) {
        for (const value of hostile) {
          const payload = { ...valid, [field]: value };
          const res = await t.app.inject({
            method: 'POST',
            url: call.url,
            payload,
            headers: call.auth ? bearer(token) : {},
            remoteAddress: `10.77.${Math.floor(++loginSeq / 250) % 250}.${loginSeq % 250}`,
          });
          const what = `${call.url} ${field}=${JSON.stringify(value).slice(0, 40)}`;
          expect(res.statusCode, what).toBe(400);
          const body = res.json();
          expect(body.status, what).toBe(400);
          expect(typeof body.message, what).toBe('string');
          // No internals: no SQL, stack or driver text in the answer.
          expect(res.body, what).not.toMatch(/DROP TABLE|stack|drizzle|postgres|at \w+ \(/i);
        }
      }
    }
    expect(await snapshot()).toEqual(before);
  }, 120_000);

  it('a 10 MB body is refused as too large (413) before it is parsed, and nothing is written', async () => {
    const before = await snapshot();
    for (const call of calls) {
      const res = await t.app.inject({ method: 'POST', url: call.url, payload: { ...valid, username: 'a'.repeat(10 * 1024 * 1024) } });
      // Anonymous on a signed-in call: refused as unknown before the body is read (guards-first.ts).
      const expected = call.auth ? 401 : 413;
      expect(res.statusCode, call.url).toBe(expected);
      expect(res.json()).toMatchObject({ status: expected });
    }
    expect(await snapshot()).toEqual(before);
    // Each call serialises and parses a 10 MB payload in process: slow on a loaded machine.
  }, 120_000);
});
