import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../../test/helpers.js';
import { signIn } from '../../../../test/sign-in.js';
import { api, operationsBy } from '../../../../test/admin-helpers.js';
import { accounts, roles, sessions } from '../../../db/schema.js';
import { verifyPassword } from '../../../lib/password.js';
import { seedAtStartup } from '../../../startup.js';
import { createSessionService } from '../../auth/session.service.js';
import { createSystemAccountRepository } from './system-accounts.repository.js';
import { createSystemAccountService } from './system-accounts.service.js';

let t: TestApp;
let superRoleId: string;
let plainRoleId: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedAtStartup(t.app, false);
  const db = t.database.db;
  superRoleId = (await db.select().from(roles).where(eq(roles.code, 'SUPER_ADMIN')))[0]!.id;
  plainRoleId = (await db.insert(roles).values({ code: 'AUDITOR_T', name: '审计员T' }).returning())[0]!.id;
});

afterAll(async () => {
  await t.close();
});

let seq = 0;
const uniqueName = () => `sys${Date.now().toString(36).slice(-5)}${seq++}`;
const accountRow = async (id: string) => (await t.database.db.select().from(accounts).where(eq(accounts.id, id)))[0]!;

describe('system accounts: create', () => {
  it('creates an account with roles and returns a one-time password that signs in', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    const username = uniqueName();
    const res = await api(t, 'POST', '/api/admin/system/account', {
      headers: admin.headers,
      body: { username, name: '张三', phone: '13800001111', email: `${username}@example.com`, roleIds: [plainRoleId] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe('新增成功');
    const { account, password } = res.body.data;
    // The page reads contacts masked (docs/rules/admin.md, "Personal information"); stored in full.
    expect(account).toMatchObject({ username, name: '张三', phone: '138****1111', roleCode: 'SYSTEM', enabled: true, roles: [{ id: plainRoleId, code: 'AUDITOR_T' }] });
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*?&]).{8,16}$/);
    const row = await accountRow(account.id);
    expect(row).toMatchObject({ realm: 'ADMIN', phone: '13800001111' });
    expect(await verifyPassword(row.passwordHash, password)).toBe(true);
    const login = await api(t, 'POST', '/api/admin/login', { body: { username, password } });
    expect(login.statusCode).toBe(200);

    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'account:create', targetType: 'account', targetId: account.id, realm: 'ADMIN' });
    expect(op!.summary).toContain(username);
    expect(op!.summary).not.toContain(password);
  });

  it('refuses bad input with the field message and writes nothing', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ name: 'A', roleIds: [plainRoleId] }, 'username', '请输入用户名'],
      [{ username: 'AB-1', name: 'A', roleIds: [plainRoleId] }, 'username', '只能输入小写字母或数字'],
      [{ username: uniqueName(), roleIds: [plainRoleId] }, 'name', '请输入姓名'],
      [{ username: uniqueName(), name: 'A', roleIds: [] }, 'roleIds', '请至少选择一个角色'],
      [{ username: uniqueName(), name: 'A', phone: '12345', roleIds: [plainRoleId] }, 'phone', '手机号长度应为 11 位'],
      [{ username: uniqueName(), name: 'A', email: 'nope', roleIds: [plainRoleId] }, 'email', '请输入正确的邮箱格式'],
      [{ username: uniqueName(), name: 'A', roleIds: ['not-a-uuid'] }, 'roleIds.0', '编号格式不正确'],
    ];
    for (const [body, field, message] of cases) {
      const res = await api(t, 'POST', '/api/admin/system/account', { headers: admin.headers, body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_FAILED', message, data: { field } });
    }
    const unknownRole = await api(t, 'POST', '/api/admin/system/account', {
      headers: admin.headers,
      body: { username: uniqueName(), name: 'A', roleIds: ['00000000-0000-4000-8000-000000000000'] },
    });
    expect(unknownRole.body).toMatchObject({ status: 400, message: '所选角色不存在' });
    expect(await operationsBy(t, admin.accountId)).toHaveLength(0);
  });

  it('refuses duplicate username, phone and email', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    const username = uniqueName();
    const first = await api(t, 'POST', '/api/admin/system/account', {
      headers: admin.headers,
      body: { username, name: 'A', phone: '13700002222', email: `${username}@x.cn`, roleIds: [plainRoleId] },
    });
    expect(first.statusCode).toBe(200);
    const dupUser = await api(t, 'POST', '/api/admin/system/account', { headers: admin.headers, body: { username, name: 'B', roleIds: [plainRoleId] } });
    expect(dupUser.body).toMatchObject({ status: 400, message: '该用户名已存在' });
    const dupPhone = await api(t, 'POST', '/api/admin/system/account', { headers: admin.headers, body: { username: uniqueName(), name: 'B', phone: '13700002222', roleIds: [plainRoleId] } });
    expect(dupPhone.body).toMatchObject({ status: 400, message: '该手机号已被其他账号使用' });
    const dupEmail = await api(t, 'POST', '/api/admin/system/account', { headers: admin.headers, body: { username: uniqueName(), name: 'B', email: `${username}@x.cn`, roleIds: [plainRoleId] } });
    expect(dupEmail.body).toMatchObject({ status: 400, message: '该邮箱已被其他账号使用' });
    expect(await operationsBy(t, admin.accountId)).toHaveLength(1);
  });

  it('lets only a super admin grant SUPER_ADMIN', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    const res = await api(t, 'POST', '/api/admin/system/account', { headers: admin.headers, body: { username: uniqueName(), name: 'A', roleIds: [superRoleId] } });
    expect(res.body).toMatchObject({ status: 403, message: '只有超级管理员可以授予、移除或管理超级管理员', data: { reason: 'REACH' } });
    const boss = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const ok = await api(t, 'POST', '/api/admin/system/account', { headers: boss.headers, body: { username: uniqueName(), name: 'A', roleIds: [superRoleId] } });
    expect(ok.body.data.account.roleCode).toBe('SUPER_ADMIN');
  });

  it('needs account:edit (403), an admin session (401)', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['account:disable'] });
    const participant = await signIn(t, { realm: 'USER' });
    const body = { username: uniqueName(), name: 'A', roleIds: [plainRoleId] };
    expect((await api(t, 'POST', '/api/admin/system/account', { headers: viewer.headers, body })).statusCode).toBe(403);
    expect((await api(t, 'POST', '/api/admin/system/account', { headers: participant.headers, body })).statusCode).toBe(401);
    expect((await api(t, 'POST', '/api/admin/system/account', { body })).statusCode).toBe(401);
    // Anonymous callers are refused before their input is looked at.
    expect((await api(t, 'POST', '/api/admin/system/account', { body: {} })).statusCode).toBe(401);
    expect((await t.database.db.select().from(accounts).where(eq(accounts.username, body.username)))).toHaveLength(0);
  });
});

describe('system accounts: list and view', () => {
  it('pages and filters, for holders of the systemManage menu', async () => {
    const boss = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const tag = uniqueName();
    for (let i = 0; i < 3; i++) {
      await api(t, 'POST', '/api/admin/system/account', { headers: boss.headers, body: { username: `${tag}x${i}`, name: `列表${i}`, roleIds: [plainRoleId] } });
    }
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['account:reset-password'] });
    const page1 = await api(t, 'GET', `/api/admin/system/account?username=${tag}&page=1&size=2`, { headers: viewer.headers });
    expect(page1.statusCode).toBe(200);
    expect(page1.body.data).toMatchObject({ page: 1, size: 2, total: 3 });
    expect(page1.body.data.list.map((a: { username: string }) => a.username)).toEqual([`${tag}x2`, `${tag}x1`]);
    const page2 = await api(t, 'GET', `/api/admin/system/account?username=${tag}&page=2&size=2`, { headers: viewer.headers });
    expect(page2.body.data.list.map((a: { username: string }) => a.username)).toEqual([`${tag}x0`]);
    const byName = await api(t, 'GET', `/api/admin/system/account?name=${encodeURIComponent('列表1')}&username=${tag}&enabled=true&phone=`, { headers: viewer.headers });
    expect(byName.body.data.total).toBe(1);
    const one = await api(t, 'GET', `/api/admin/system/account/${byName.body.data.list[0].id}`, { headers: viewer.headers });
    expect(one.body.data).toMatchObject({ username: `${tag}x1`, roles: [{ code: 'AUDITOR_T' }] });
  });

  it('refuses bad paging, unknown ids and callers without the menu', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    expect((await api(t, 'GET', '/api/admin/system/account?size=500', { headers: viewer.headers })).body).toMatchObject({ status: 400, message: '每页条数应为 1-100 之间的整数' });
    expect((await api(t, 'GET', '/api/admin/system/account?page=0', { headers: viewer.headers })).body).toMatchObject({ status: 400, message: '页码应为正整数' });
    expect((await api(t, 'GET', '/api/admin/system/account?enabled=yes', { headers: viewer.headers })).body).toMatchObject({ status: 400, message: '状态只能是 true 或 false' });
    expect((await api(t, 'GET', '/api/admin/system/account/00000000-0000-4000-8000-000000000000', { headers: viewer.headers })).statusCode).toBe(404);
    const outsider = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    expect((await api(t, 'GET', '/api/admin/system/account', { headers: outsider.headers })).statusCode).toBe(403);
  });
});

describe('system accounts: edit, roles, status, password', () => {
  async function makeAccount(roleIds = [plainRoleId]) {
    const boss = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const res = await api(t, 'POST', '/api/admin/system/account', { headers: boss.headers, body: { username: uniqueName(), name: '原名', roleIds } });
    return res.body.data as { account: { id: string; username: string }; password: string };
  }

  it('edits profile fields and roles and records what changed', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    const { account } = await makeAccount();
    const other = (await t.database.db.insert(roles).values({ code: `R2_${seq++}`, name: `其他${seq}` }).returning())[0]!;
    const res = await api(t, 'PUT', `/api/admin/system/account/${account.id}`, {
      headers: admin.headers,
      body: { name: '新名', phone: '13611112222', email: '', roleIds: [plainRoleId, other.id] },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ name: '新名', phone: '136****2222', email: null });
    expect(await accountRow(account.id)).toMatchObject({ phone: '13611112222' });
    expect(res.body.data.roles).toHaveLength(2);
    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'account:edit', targetId: account.id });
    expect(op!.summary).toContain('姓名 原名 -> 新名');

    const assign = await api(t, 'PUT', `/api/admin/system/account/${account.id}/roles`, { headers: admin.headers, body: { roleIds: [other.id] } });
    expect(assign.body.data.roles.map((r: { id: string }) => r.id)).toEqual([other.id]);
    expect((await operationsBy(t, admin.accountId))[0]).toMatchObject({ action: 'account:roles' });
    expect((await api(t, 'PUT', '/api/admin/system/account/00000000-0000-4000-8000-000000000000', { headers: admin.headers, body: { name: 'x', roleIds: [plainRoleId] } })).statusCode).toBe(404);
  });

  it('refuses changing your own roles, and non-super admins managing a super admin', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit', 'account:disable', 'account:reset-password'] });
    const self = await api(t, 'PUT', `/api/admin/system/account/${admin.accountId}/roles`, { headers: admin.headers, body: { roleIds: [plainRoleId] } });
    expect(self.body).toMatchObject({ status: 400, message: '不能修改自己的角色' });
    const { account: superAcc } = await makeAccount([superRoleId]);
    for (const [method, url, body] of [
      ['PUT', `/api/admin/system/account/${superAcc.id}`, { name: 'x', roleIds: [superRoleId] }],
      ['PUT', `/api/admin/system/account/${superAcc.id}/status`, { enabled: false }],
      ['POST', `/api/admin/system/account/${superAcc.id}/reset-password`, undefined],
    ] as const) {
      const res = await api(t, method, url, { headers: admin.headers, body });
      expect(res.body, url).toMatchObject({ status: 403, message: '只有超级管理员可以授予、移除或管理超级管理员', data: { reason: 'REACH' } });
    }
    expect(await operationsBy(t, admin.accountId)).toHaveLength(0);
  });

  it('disabling ends the sessions at once; enabling restores sign-in', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:disable'] });
    const { account, password } = await makeAccount();
    const login = await api(t, 'POST', '/api/admin/login', { body: { username: account.username, password } });
    const victim = { authorization: `Bearer ${login.body.data.accessToken}` };
    expect((await api(t, 'GET', '/api/admin/user/account', { headers: victim })).statusCode).toBe(200);

    const off = await api(t, 'PUT', `/api/admin/system/account/${account.id}/status`, { headers: admin.headers, body: { enabled: false } });
    expect(off.body).toMatchObject({ status: 200, message: '已禁用', data: { enabled: false } });
    const live = await t.database.db.select().from(sessions).where(eq(sessions.accountId, account.id));
    expect(live.every((s) => s.revokedAt !== null && s.revokeReason === 'DISABLED')).toBe(true);
    expect((await api(t, 'GET', '/api/admin/user/account', { headers: victim })).statusCode).toBe(401);
    expect((await api(t, 'POST', '/api/admin/login', { body: { username: account.username, password } })).statusCode).toBe(400);
    expect((await operationsBy(t, admin.accountId))[0]).toMatchObject({ action: 'account:disable', targetId: account.id });

    const on = await api(t, 'PUT', `/api/admin/system/account/${account.id}/status`, { headers: admin.headers, body: { enabled: true } });
    expect(on.body.data.enabled).toBe(true);
    expect((await api(t, 'POST', '/api/admin/login', { body: { username: account.username, password } })).statusCode).toBe(200);
    expect((await operationsBy(t, admin.accountId))[0]).toMatchObject({ action: 'account:enable' });

    expect((await api(t, 'PUT', `/api/admin/system/account/${account.id}/status`, { headers: admin.headers, body: { enabled: 'no' } })).body).toMatchObject({ status: 400, message: '状态只能是 true 或 false' });
    expect((await api(t, 'PUT', `/api/admin/system/account/${admin.accountId}/status`, { headers: admin.headers, body: { enabled: false } })).body).toMatchObject({ status: 400, message: '不能禁用自己的账号' });
    const editorOnly = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    expect((await api(t, 'PUT', `/api/admin/system/account/${account.id}/status`, { headers: editorOnly.headers, body: { enabled: false } })).statusCode).toBe(403);
    expect((await accountRow(account.id)).enabled).toBe(true);
  });

  it('reset password returns a new one once, ends sessions and records no password', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['account:reset-password'] });
    const { account, password: oldPassword } = await makeAccount();
    const login = await api(t, 'POST', '/api/admin/login', { body: { username: account.username, password: oldPassword } });
    const res = await api(t, 'POST', `/api/admin/system/account/${account.id}/reset-password`, { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const { password } = res.body.data;
    expect(password).not.toBe(oldPassword);
    expect(await verifyPassword((await accountRow(account.id)).passwordHash, password)).toBe(true);
    expect((await api(t, 'GET', '/api/admin/user/account', { headers: { authorization: `Bearer ${login.body.data.accessToken}` } })).statusCode).toBe(401);
    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'account:reset-password', targetId: account.id });
    expect(JSON.stringify(op)).not.toContain(password);
    expect((await api(t, 'POST', `/api/admin/system/account/${admin.accountId}/reset-password`, { headers: admin.headers })).body.status).toBe(400);
    expect((await api(t, 'POST', '/api/admin/system/account/00000000-0000-4000-8000-000000000000/reset-password', { headers: admin.headers })).statusCode).toBe(404);
  });

  it('keeps the last enabled super admin, even against a concurrent change', async () => {
    // Through the API an acting super admin is itself enabled, so the rule bites when two
    // super admins act on each other at once: the second transaction finds no one else left.
    // That second transaction is played here by calling the service as an actor whose row
    // the first one has just disabled.
    const db = t.database.db;
    const { account: target } = await makeAccount([superRoleId]);
    const { account: actorRow } = await makeAccount([superRoleId]);
    const before = await db.select({ id: accounts.id, enabled: accounts.enabled }).from(accounts).where(eq(accounts.roleCode, 'SUPER_ADMIN'));
    try {
      for (const s of before) if (s.id !== target.id) await db.update(accounts).set({ enabled: false }).where(eq(accounts.id, s.id));
      const service = createSystemAccountService({ db, repo: createSystemAccountRepository(db), sessions: createSessionService(db) });
      const actor = { auth: { accountId: actorRow.id, realm: 'ADMIN' as const, username: actorRow.username, roleCode: 'SUPER_ADMIN' as const, sessionId: 'x' } };
      await expect(service.setEnabled(actor, target.id, false)).rejects.toMatchObject({ status: 400, message: '至少需要保留一个启用的超级管理员' });
      await expect(service.assignRoles(actor, target.id, [plainRoleId])).rejects.toMatchObject({ status: 400, message: '至少需要保留一个启用的超级管理员' });
      const row = await accountRow(target.id);
      expect(row).toMatchObject({ enabled: true, roleCode: 'SUPER_ADMIN' });
      expect(await operationsBy(t, actorRow.id)).toHaveLength(0);
    } finally {
      for (const s of before) await db.update(accounts).set({ enabled: s.enabled }).where(eq(accounts.id, s.id));
    }
  });

  it('lets a super admin demote or disable another super admin while one stays', async () => {
    const boss = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const { account: second } = await makeAccount([superRoleId]);
    const demote = await api(t, 'PUT', `/api/admin/system/account/${second.id}/roles`, { headers: boss.headers, body: { roleIds: [plainRoleId] } });
    expect(demote.body.data).toMatchObject({ roleCode: 'SYSTEM', roles: [{ code: 'AUDITOR_T' }] });
    expect((await accountRow(second.id)).roleCode).toBe('SYSTEM');
    const promote = await api(t, 'PUT', `/api/admin/system/account/${second.id}/roles`, { headers: boss.headers, body: { roleIds: [superRoleId] } });
    expect(promote.body.data.roleCode).toBe('SUPER_ADMIN');
    const off = await api(t, 'PUT', `/api/admin/system/account/${second.id}/status`, { headers: boss.headers, body: { enabled: false } });
    expect(off.body.data.enabled).toBe(false);
    expect((await operationsBy(t, boss.accountId)).map((o) => o.action)).toEqual(['account:disable', 'account:roles', 'account:roles']);
  });
});

describe('my account', () => {
  it('reads and edits the caller own profile, any admin', async () => {
    const me = await signIn(t, { realm: 'ADMIN', buttons: [] });
    const got = await api(t, 'GET', '/api/admin/account/profile', { headers: me.headers });
    expect(got.body.data).toMatchObject({ id: me.accountId, username: me.username });
    const put = await api(t, 'PUT', '/api/admin/account/profile', { headers: me.headers, body: { name: '我自己', phone: '13512345678', email: 'me@example.com' } });
    expect(put.body).toMatchObject({ status: 200, message: '保存成功', data: { name: '我自己', phone: '13512345678', email: 'me@example.com' } });
    expect((await operationsBy(t, me.accountId))[0]).toMatchObject({ action: 'profile:edit', targetId: me.accountId });
    const bad = await api(t, 'PUT', '/api/admin/account/profile', { headers: me.headers, body: { name: '', phone: null } });
    expect(bad.body).toMatchObject({ status: 400, message: '请输入姓名', data: { field: 'name' } });
    expect((await accountRow(me.accountId)).name).toBe('我自己');
    const expert = await signIn(t, { realm: 'EXPERT' });
    expect((await api(t, 'GET', '/api/admin/account/profile', { headers: expert.headers })).statusCode).toBe(401);
  });
});

describe('console tracking', () => {
  it('accepts page views from any admin and writes nothing', async () => {
    const me = await signIn(t, { realm: 'ADMIN', buttons: [] });
    const res = await api(t, 'GET', '/api/admin/track?path=/admin/home', { headers: me.headers });
    expect(res.body).toMatchObject({ status: 200, data: null });
    expect(await operationsBy(t, me.accountId)).toHaveLength(0);
    expect((await api(t, 'GET', '/api/admin/track?path=/admin/home')).statusCode).toBe(401);
    expect((await api(t, 'GET', `/api/admin/track?path=${'x'.repeat(301)}`, { headers: me.headers })).statusCode).toBe(400);
  });
});
