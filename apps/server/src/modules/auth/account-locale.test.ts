import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { VALIDATION_MSG as V, type SmsKey } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { accounts } from '../../db/schema.js';
import { badRequest } from '../../lib/errors.js';
import { seed } from '../../seed/seed.js';
import { createAuthRepository } from './auth.repository.js';
import { authRoutes } from './auth.routes.js';
import { createAuthService } from './auth.service.js';
import { createLoginLimiter } from './login-limiter.js';
import { createSessionService } from './session.service.js';

/**
 * An account's language (docs/decisions.md, "English"): the web's language, stored at sign-in and
 * registration and by PUT /user/locale, is the language its notices are sent in.
 */

let t: TestApp;
const passed = new Set<string>();
const codes = new Map<string, string>();
const captcha = { consumePassed: async (nonce: string) => passed.delete(nonce) };
const sms = {
  verify: async ({ phone, smsKey, code }: { phone: string; smsKey: SmsKey; code: string }) => {
    if (codes.get(`${smsKey}:${phone}`) !== code) throw badRequest('验证码错误');
  },
};
const passCaptcha = () => {
  const nonce = `nonce-${Math.random().toString(36).slice(2)}`;
  passed.add(nonce);
  return nonce;
};
let seq = 0;
const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload: payload as object, headers, remoteAddress: `10.44.0.${++seq % 250}` });
const putLocale = (payload: unknown, headers: Record<string, string> = {}) => t.app.inject({ method: 'PUT', url: '/api/user/locale', payload: payload as object, headers });
const localeOf = async (username: string) => (await t.database.db.select({ locale: accounts.locale }).from(accounts).where(eq(accounts.username, username)))[0]?.locale;

beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  const db = t.database.db;
  await seed(db, { adminUsername: 'root', adminPassword: 'Root@2025', demo: true });
  const sessions = createSessionService(db);
  const auth = createAuthService({ db, repo: createAuthRepository(db), sessions, captcha, sms });
  const loginLimiter = createLoginLimiter({ kv: t.app.deps.kv, perAccountPerMinute: 1_000, perIpPerMinute: async () => 1_000 });
  await t.app.register(authRoutes, { prefix: '/api', auth, sessions, loginLimiter });
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function register(locale?: string) {
  seq += 1;
  const u = { username: `loc${Date.now().toString(36).slice(-5)}${seq}`, phone: `137${String(20_000_000 + seq * 7919).slice(-8)}`, email: `loc${seq}.${Date.now()}@example.com`, password: 'Abc@1234', smsCode: '123456' };
  codes.set(`REGISTER_VERIFY_KEY:${u.phone}`, '123456');
  const res = await post('/api/login/register', locale === undefined ? u : { ...u, locale });
  return { res, u };
}

describe('the account language', () => {
  it('registration stores the page language (Chinese when none is sent)', async () => {
    const en = await register('en');
    expect(en.res.statusCode).toBe(200);
    expect(await localeOf(en.u.username)).toBe('en');
    const plain = await register();
    expect(plain.res.statusCode).toBe(200);
    expect(await localeOf(plain.u.username)).toBe('zh-CN');
  });

  it('a sign-in sets it to the page language; a sign-in without one leaves it', async () => {
    const { u } = await register();
    const login = (locale?: string) => post('/api/login', { username: u.username, password: u.password, imageKey: passCaptcha(), ...(locale ? { locale } : {}) });
    expect((await login('en')).statusCode).toBe(200);
    expect(await localeOf(u.username)).toBe('en');
    expect((await login()).statusCode).toBe(200);
    expect(await localeOf(u.username)).toBe('en');
    expect((await login('zh-CN')).statusCode).toBe(200);
    expect(await localeOf(u.username)).toBe('zh-CN');
    // Staff too: the console's language is that of the staff's notices.
    expect((await post('/api/admin/login', { username: 'root', password: 'Root@2025', imageKey: passCaptcha(), locale: 'en' })).statusCode).toBe(200);
    expect(await localeOf('root')).toBe('en');
  });

  it('PUT /user/locale needs a session (401), refuses an unknown language (400, nothing written) and stores a known one', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const anonymous = await putLocale({ locale: 'en' });
    expect(anonymous.statusCode).toBe(401);
    expect(await localeOf(user.username)).toBe('zh-CN');

    for (const locale of ['fr', 'EN', '', null, 1]) {
      const bad = await putLocale({ locale }, user.headers);
      expect(bad.statusCode, String(locale)).toBe(400);
      expect(bad.json().message, String(locale)).toBe(V.localeInvalid);
    }
    expect(await localeOf(user.username)).toBe('zh-CN');

    const ok = await putLocale({ locale: 'en' }, user.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data).toEqual({ locale: 'en' });
    expect(await localeOf(user.username)).toBe('en');

    // Experts (and admins) keep theirs the same way.
    const expert = await signIn(t, { realm: 'EXPERT' });
    expect((await putLocale({ locale: 'en' }, expert.headers)).statusCode).toBe(200);
    expect(await localeOf(expert.username)).toBe('en');
  });

  it("one account cannot set another's: whatever the body names, the session's own account is the one written", async () => {
    const a = await signIn(t, { realm: 'USER' });
    const b = await signIn(t, { realm: 'USER' });
    const naming = { accountId: b.accountId, id: b.accountId, username: b.username };
    const res = await putLocale({ locale: 'en', ...naming }, a.headers);
    expect(res.statusCode).toBe(200);
    expect(await localeOf(a.username)).toBe('en');
    expect(await localeOf(b.username)).toBe('zh-CN');

    // Nor a console session, even a super admin's: the language is the account holder's own choice.
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    expect((await putLocale({ locale: 'en', ...naming }, admin.headers)).statusCode).toBe(200);
    expect(await localeOf(admin.username)).toBe('en');
    expect(await localeOf(b.username)).toBe('zh-CN');
  });

  it('the stored language is one of the two: en-US, zh and the like are 400, whichever sign-in route they come with', async () => {
    const user = await signIn(t, { realm: 'USER' });
    for (const locale of ['en-US', 'zh', 'zh-cn', ' en']) {
      const bad = await putLocale({ locale }, user.headers);
      expect(bad.statusCode, locale).toBe(400);
      expect(bad.json().message, locale).toBe(V.localeInvalid);
    }
    const { u } = await register();
    const login = await post('/api/login', { username: u.username, password: u.password, imageKey: passCaptcha(), locale: 'fr' });
    expect(login.statusCode).toBe(400);
    expect(await localeOf(u.username)).toBe('zh-CN');
    expect(await localeOf(user.username)).toBe('zh-CN');
  });
});
