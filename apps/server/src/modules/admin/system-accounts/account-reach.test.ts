import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { ACCOUNT_REFUSAL, ADMIN_BUTTONS, AUTH_MSG, PASSWORD_CHANGE_REQUIRED } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../../test/helpers.js';
import { seedDictionary } from '../../../../test/contest-helpers.js';
import { ensureMenusAndButtons, signIn, type SignedIn } from '../../../../test/sign-in.js';
import { api, operationsBy } from '../../../../test/admin-helpers.js';
import { accountRoles, accounts, roleButtons, roleMenus, roles } from '../../../db/schema.js';
import { verifyPassword } from '../../../lib/password.js';

/**
 * The reach rule on accounts and the forced password change (docs/security.md "Accounts and
 * reach"): the two take-overs of the finding, replayed, now fail and write nothing; a password set
 * by someone else opens nothing but its own change.
 */

let t: TestApp;
let superAdmin: SignedIn;
/** Holds the account buttons and user:view, not pii:view. */
let operator: SignedIn;
let smallRole: string;
let piiRole: string;
let ipSeq = 0;
const ip = () => `10.77.${Math.floor(++ipSeq / 250)}.${ipSeq % 250}`;
let seq = 0;
const uniqueName = () => `reach${Date.now().toString(36).slice(-5)}${seq++}`;
const db = () => t.database.db;
const row = async (id: string) => (await db().select().from(accounts).where(eq(accounts.id, id)))[0]!;
const adminCount = async () => (await db().select({ n: count() }).from(accounts).where(eq(accounts.realm, 'ADMIN')))[0]!.n;

async function makeRole(buttons: string[]): Promise<string> {
  const [role] = await db().insert(roles).values({ code: `R_${uniqueName().toUpperCase()}`, name: `角色${uniqueName()}` }).returning({ id: roles.id });
  await db().insert(roleButtons).values(buttons.map((buttonCode) => ({ roleId: role!.id, buttonCode })));
  const menus = [...new Set(ADMIN_BUTTONS.filter((b) => buttons.includes(b.code)).map((b) => b.menuCode))];
  await db().insert(roleMenus).values(menus.map((menuCode) => ({ roleId: role!.id, menuCode })));
  return role!.id;
}

/** A system account made by the super admin, with its one-time password. */
async function account(roleIds: string[]): Promise<{ id: string; username: string; password: string }> {
  const res = await api(t, 'POST', '/api/admin/system/account', { headers: superAdmin.headers, body: { username: uniqueName(), name: '目标', roleIds } });
  expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.data.account.id, username: res.body.data.account.username, password: res.body.data.password };
}

const staffLogin = (realm: 'admin' | 'expert', username: string, password: string) =>
  t.app.inject({ method: 'POST', url: `/api/${realm}/login`, payload: { username, password }, remoteAddress: ip() });

beforeAll(async () => {
  t = await createTestApp();
  await ensureMenusAndButtons(t);
  await seedDictionary(t);
  superAdmin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
  operator = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit', 'account:disable', 'account:reset-password', 'user:view'] });
  smallRole = await makeRole(['user:view']);
  piiRole = await makeRole(['user:view', 'pii:view']);
});
afterAll(async () => t?.close());

const REACH = { status: 403, data: { reason: ACCOUNT_REFUSAL.reach } };

describe('reach: the take-overs of the finding fail', () => {
  it('an operator cannot create an account with a role holding pii:view: 403, nothing written', async () => {
    const before = await adminCount();
    const username = uniqueName();
    const res = await api(t, 'POST', '/api/admin/system/account', { headers: operator.headers, body: { username, name: '冒名', roleIds: [piiRole] } });
    expect(res.body).toMatchObject({ ...REACH, message: '该账号拥有或将拥有您没有的权限，不能进行此操作' });
    expect(await adminCount()).toBe(before);
    expect(await db().select().from(accounts).where(eq(accounts.username, username))).toHaveLength(0);
    expect(await operationsBy(t, operator.accountId)).toHaveLength(0);
    // Within reach it works, and the holder must change the generated password first.
    const ok = await api(t, 'POST', '/api/admin/system/account', { headers: operator.headers, body: { username: uniqueName(), name: '新人', roleIds: [smallRole] } });
    expect(ok.statusCode).toBe(200);
    expect((await row(ok.body.data.account.id)).mustChangePassword).toBe(true);
  });

  it('an operator cannot reset a bigger admin\u2019s password: 403, the password unchanged', async () => {
    const boss = await account([piiRole]);
    const hashBefore = (await row(boss.id)).passwordHash;
    const res = await api(t, 'POST', `/api/admin/system/account/${boss.id}/reset-password`, { headers: operator.headers });
    expect(res.body).toMatchObject(REACH);
    expect(res.body.data).not.toHaveProperty('password');
    expect((await row(boss.id)).passwordHash).toBe(hashBefore);
    expect(await verifyPassword((await row(boss.id)).passwordHash, boss.password)).toBe(true);
    expect((await operationsBy(t, operator.accountId)).filter((o) => o.targetId === boss.id)).toHaveLength(0);
  });

  it('every other account call on a bigger account is refused too, and changes nothing', async () => {
    const boss = await account([piiRole]);
    const small = await account([smallRole]);
    const calls: Array<[string, string, unknown]> = [
      ['PUT', `/api/admin/system/account/${boss.id}`, { name: '改名', roleIds: [smallRole] }],
      ['PUT', `/api/admin/system/account/${boss.id}/roles`, { roleIds: [smallRole] }],
      ['PUT', `/api/admin/system/account/${boss.id}/status`, { enabled: false }],
      // Would hold: raising a small account to the pii role.
      ['PUT', `/api/admin/system/account/${small.id}`, { name: '目标', roleIds: [piiRole] }],
      ['PUT', `/api/admin/system/account/${small.id}/roles`, { roleIds: [smallRole, piiRole] }],
    ];
    for (const [method, url, body] of calls) {
      expect((await api(t, method as 'PUT', url, { headers: operator.headers, body })).body, `${method} ${url}`).toMatchObject(REACH);
    }
    const rolesOf = async (id: string) => (await db().select({ id: accountRoles.roleId }).from(accountRoles).where(eq(accountRoles.accountId, id))).map((r) => r.id);
    expect(await rolesOf(boss.id)).toEqual([piiRole]);
    expect(await rolesOf(small.id)).toEqual([smallRole]);
    expect(await row(boss.id)).toMatchObject({ name: '目标', enabled: true });
    // The same calls within reach go through.
    expect((await api(t, 'PUT', `/api/admin/system/account/${small.id}`, { headers: operator.headers, body: { name: '改名', roleIds: [smallRole] } })).statusCode).toBe(200);
    expect((await api(t, 'PUT', `/api/admin/system/account/${small.id}/status`, { headers: operator.headers, body: { enabled: false } })).statusCode).toBe(200);
    expect((await api(t, 'PUT', `/api/admin/system/account/${small.id}/status`, { headers: operator.headers, body: { enabled: true } })).statusCode).toBe(200);
    expect((await api(t, 'POST', `/api/admin/system/account/${small.id}/reset-password`, { headers: operator.headers })).statusCode).toBe(200);
    // The super admin passes everything.
    expect((await api(t, 'POST', `/api/admin/system/account/${boss.id}/reset-password`, { headers: superAdmin.headers })).statusCode).toBe(200);
  });
});

describe('a password set by someone else must be changed first', () => {
  it('a freshly reset account can do nothing but change its password, log out and say who it is', async () => {
    const target = await account([smallRole]);
    const reset = await api(t, 'POST', `/api/admin/system/account/${target.id}/reset-password`, { headers: operator.headers });
    const password = reset.body.data.password as string;
    expect((await row(target.id)).mustChangePassword).toBe(true);

    const login = await staffLogin('admin', target.username, password);
    expect(login.statusCode).toBe(200);
    expect(login.json().data.mustChangePassword).toBe(true);
    const headers = { authorization: `Bearer ${login.json().data.accessToken}` };
    // Anything else: 403 with the reason, whatever the roles allow.
    for (const url of ['/api/admin/user/list', '/api/admin/account/profile', '/api/admin/dashboard', '/api/news']) {
      const res = await api(t, 'GET', url, { headers });
      if (url === '/api/news') expect(res.statusCode, url).toBe(200); // public pages answer as to the public
      else expect(res.body, url).toMatchObject({ status: 403, message: AUTH_MSG.passwordChangeRequired, data: { reason: PASSWORD_CHANGE_REQUIRED } });
    }
    const who = await api(t, 'GET', '/api/admin/user/account', { headers });
    expect(who.statusCode).toBe(200);
    expect(who.body.data.mustChangePassword).toBe(true);

    const wrongOld = await api(t, 'POST', '/api/login/change/password', { headers, body: { oldPassword: 'Wrong@2025x', newPassword: 'Mine@2025x' } });
    expect(wrongOld.statusCode).toBe(400);
    expect((await row(target.id)).mustChangePassword).toBe(true);
    const changed = await api(t, 'POST', '/api/login/change/password', { headers, body: { oldPassword: password, newPassword: 'Mine@2025x' } });
    expect(changed.statusCode).toBe(200);
    // The same session now works.
    expect((await api(t, 'GET', '/api/admin/user/list', { headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/admin/user/account', { headers })).body.data.mustChangePassword).toBe(false);
    expect((await staffLogin('admin', target.username, 'Mine@2025x')).json().data.mustChangePassword).toBe(false);
  });

  it('logout stays open to such a session', async () => {
    const target = await account([smallRole]);
    const login = await staffLogin('admin', target.username, target.password);
    expect(login.json().data.mustChangePassword).toBe(true);
    const headers = { authorization: `Bearer ${login.json().data.accessToken}` };
    expect((await api(t, 'POST', '/api/logout', { headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/admin/user/account', { headers })).statusCode).toBe(401);
  });

  it('participants reset by an admin change their password first; the reset needs the participant\u2019s reach', async () => {
    const participant = await signIn(t, { realm: 'USER' });
    const resetter = await signIn(t, { realm: 'ADMIN', buttons: ['user:reset-password'] });
    const refused = await api(t, 'POST', `/api/admin/user/${participant.accountId}/reset-password`, { headers: resetter.headers });
    expect(refused.body).toMatchObject(REACH);
    expect((await row(participant.accountId)).mustChangePassword).toBe(false);

    const full = await signIn(t, { realm: 'ADMIN', buttons: ['user:reset-password', 'pii:view', 'qualification:view', 'preliminary:view', 'file:read'] });
    const reset = await api(t, 'POST', `/api/admin/user/${participant.accountId}/reset-password`, { headers: full.headers });
    expect(reset.statusCode).toBe(200);
    const login = await t.app.inject({ method: 'POST', url: '/api/login', payload: { username: participant.username, password: reset.body.data.password }, remoteAddress: ip() });
    expect(login.json().data.mustChangePassword).toBe(true);
    const headers = { authorization: `Bearer ${login.json().data.accessToken}` };
    expect((await api(t, 'GET', '/api/messages', { headers })).body).toMatchObject({ status: 403, data: { reason: PASSWORD_CHANGE_REQUIRED } });
    expect((await api(t, 'GET', '/api/user/account', { headers })).body.data.mustChangePassword).toBe(true);
    expect((await api(t, 'POST', '/api/login/change/password', { headers, body: { oldPassword: reset.body.data.password, newPassword: 'Mine@2025x' } })).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/messages', { headers })).statusCode).toBe(200);
  });
});

describe('reach: expert accounts', () => {
  const expertBody = () => ({ name: '专家', phone: `137${String(Date.now() + seq++).slice(-8)}`, organization: '示例单位', tracks: ['OTHER_INNOVATION'], declaredOrgs: [] });

  it('managing experts needs what an expert reads (projects and files); reset and import force the change', async () => {
    const full = await signIn(t, { realm: 'ADMIN', buttons: ['expert:edit', 'expert:import', 'expert:disable', 'expert:reset-password', 'preliminary:view', 'file:read'], menus: ['preliminaryAdminSearch'] });
    const created = await api(t, 'POST', '/api/admin/expert', { headers: full.headers, body: expertBody() });
    expect(created.statusCode, JSON.stringify(created.body)).toBe(200);
    const expert = created.body.data as { id: string; code: string; password: string };
    expect((await row(expert.id)).mustChangePassword).toBe(true);

    // The 专家库 buttons alone: every account call on an expert is out of reach.
    const narrow = await signIn(t, { realm: 'ADMIN', buttons: ['expert:edit', 'expert:import', 'expert:disable', 'expert:reset-password'] });
    const hashBefore = (await row(expert.id)).passwordHash;
    for (const [method, url, body] of [
      ['POST', '/api/admin/expert', expertBody()],
      ['PUT', `/api/admin/expert/${expert.id}`, { ...expertBody(), name: '改名' }],
      ['PUT', `/api/admin/expert/${expert.id}/enabled`, { enabled: false }],
      ['POST', `/api/admin/expert/${expert.id}/reset-password`, undefined],
    ] as const) {
      expect((await api(t, method, url, { headers: narrow.headers, body })).body, `${method} ${url}`).toMatchObject(REACH);
    }
    expect(await row(expert.id)).toMatchObject({ name: '专家', enabled: true, passwordHash: hashBefore });
    expect(await operationsBy(t, narrow.accountId)).toHaveLength(0);

    const reset = await api(t, 'POST', `/api/admin/expert/${expert.id}/reset-password`, { headers: full.headers });
    expect(reset.statusCode).toBe(200);
    const login = await staffLogin('expert', expert.code, reset.body.data.password);
    expect(login.json().data.mustChangePassword).toBe(true);
    const headers = { authorization: `Bearer ${login.json().data.accessToken}` };
    expect((await api(t, 'GET', '/api/expert/review/overview', { headers })).body).toMatchObject({ status: 403, data: { reason: PASSWORD_CHANGE_REQUIRED } });
    expect((await api(t, 'POST', '/api/login/change/password', { headers, body: { oldPassword: reset.body.data.password, newPassword: 'Mine@2025x' } })).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/admin/user/account', { headers })).body.data.mustChangePassword).toBe(false);
  });
});
