import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { ADMIN_BUTTONS, ADMIN_MENUS, ADMIN_MSG, ROLE_REFUSAL, flattenMenus } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../../test/helpers.js';
import { signIn } from '../../../../test/sign-in.js';
import { api, operationsBy } from '../../../../test/admin-helpers.js';
import { accountRoles, roleButtons, roleMenus, roles } from '../../../db/schema.js';
import { seedAtStartup } from '../../../startup.js';

let t: TestApp;
let superRoleId: string;

beforeAll(async () => {
  t = await createTestApp();
  await seedAtStartup(t.app, false);
  superRoleId = (await t.database.db.select().from(roles).where(eq(roles.code, 'SUPER_ADMIN')))[0]!.id;
});

afterAll(async () => {
  await t.close();
});

let seq = 0;
const code = () => `ROLE_${Date.now().toString(36).toUpperCase().slice(-4)}${seq++}`;
const grantsOf = async (roleId: string) => ({
  menus: (await t.database.db.select().from(roleMenus).where(eq(roleMenus.roleId, roleId))).map((r) => r.menuCode).sort(),
  buttons: (await t.database.db.select().from(roleButtons).where(eq(roleButtons.roleId, roleId))).map((r) => r.buttonCode).sort(),
});

describe('roles', () => {
  it('creates a role, completing parent menus and the menus of its buttons', async () => {
    // The editor holds what it grants (docs/rules/admin.md, "Roles").
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['role:edit', 'qualification:audit'], menus: ['AdminManage'] });
    const c = code();
    const res = await api(t, 'POST', '/api/admin/role', {
      headers: editor.headers,
      body: { code: c, name: `审核员${c}`, description: '负责审核', menuCodes: ['AdminManage'], buttonCodes: ['qualification:audit'] },
    });
    expect(res.statusCode).toBe(200);
    const role = res.body.data;
    expect(role).toMatchObject({ code: c, builtin: false, accountCount: 0, description: '负责审核' });
    expect(role.menuCodes.sort()).toEqual(['AdminManage', 'behaviorAuditing', 'competition', 'qualification'].sort());
    expect(role.buttonCodes).toEqual(['qualification:audit']);
    expect(await grantsOf(role.id)).toEqual({ menus: [...role.menuCodes].sort(), buttons: ['qualification:audit'] });
    const [op] = await operationsBy(t, editor.accountId);
    expect(op).toMatchObject({ action: 'role:create', targetType: 'role', targetId: role.id });

    const detail = await api(t, 'GET', `/api/admin/role/list/${role.id}`, { headers: editor.headers });
    expect(detail.body.data).toMatchObject({ id: role.id, code: c, buttonCodes: ['qualification:audit'] });
    const list = await api(t, 'GET', '/api/admin/role/list', { headers: editor.headers });
    expect(list.body.data[0]).toMatchObject({ code: 'SUPER_ADMIN', builtin: true });
    expect(list.body.data.some((r: { id: string }) => r.id === role.id)).toBe(true);
  });

  it('refuses bad input, unknown codes and duplicates, writing nothing', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['role:edit'] });
    const c = code();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'x' }, '请输入角色编码'],
      [{ code: 'lower', name: 'x' }, '角色编码只能包含大写字母、数字和下划线，以字母开头，2-32 位'],
      [{ code: c }, '请输入角色名称'],
      [{ code: c, name: 'x'.repeat(31) }, '角色名称不能超过 30 个字符'],
      [{ code: c, name: 'x', menuCodes: 'home' }, '存在无效的菜单编码'],
    ];
    for (const [body, message] of cases) {
      const res = await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body });
      expect(res.body, JSON.stringify(body)).toMatchObject({ status: 400, message });
    }
    const unknownMenu = await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: c, name: 'x', menuCodes: ['nope'] } });
    expect(unknownMenu.body).toMatchObject({ status: 400, message: '存在无效的菜单编码', data: { codes: ['nope'] } });
    const unknownButton = await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: c, name: 'x', buttonCodes: ['x:y'] } });
    expect(unknownButton.body).toMatchObject({ status: 400, message: '存在无效的按钮编码', data: { codes: ['x:y'] } });
    const dupCode = await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: 'SUPER_ADMIN', name: 'x' } });
    expect(dupCode.body).toMatchObject({ status: 400, message: '该角色编码已存在' });
    const dupName = await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: c, name: '超级管理员' } });
    expect(dupName.body).toMatchObject({ status: 400, message: '该角色名称已存在' });
    expect(await t.database.db.select().from(roles).where(eq(roles.code, c))).toHaveLength(0);
    expect(await operationsBy(t, editor.accountId)).toHaveLength(0);
  });

  it('edits a role, recording the grants added and removed', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['role:edit', 'news:edit', 'doc:edit'] });
    const created = await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: code(), name: `编辑${seq}`, buttonCodes: ['news:edit'] } });
    const id = created.body.data.id;
    const res = await api(t, 'PUT', `/api/admin/role/${id}`, { headers: editor.headers, body: { name: `改名${seq}`, description: '', menuCodes: [], buttonCodes: ['doc:edit'] } });
    expect(res.body.data).toMatchObject({ name: `改名${seq}`, description: null, buttonCodes: ['doc:edit'] });
    expect((await grantsOf(id)).menus).toEqual(['docManage', 'siteContentManage']);
    const [op] = await operationsBy(t, editor.accountId);
    expect(op).toMatchObject({ action: 'role:edit', targetId: id });
    expect(op!.summary).toContain('+doc:edit');
    expect(op!.summary).toContain('-news:edit');
  });

  it('protects built-in roles and roles in use; deletes unused ones', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['role:edit', 'role:delete'] });
    expect((await api(t, 'PUT', `/api/admin/role/${superRoleId}`, { headers: admin.headers, body: { name: 'x' } })).body).toMatchObject({ status: 400, message: '内置角色不能修改或删除' });
    expect((await api(t, 'DELETE', `/api/admin/role/${superRoleId}`, { headers: admin.headers })).body).toMatchObject({ status: 400, message: '内置角色不能修改或删除' });

    const created = await api(t, 'POST', '/api/admin/role', { headers: admin.headers, body: { code: code(), name: `删除${seq}` } });
    const id = created.body.data.id;
    const holder = await signIn(t, { realm: 'ADMIN', buttons: [] });
    await t.database.db.insert(accountRoles).values({ accountId: holder.accountId, roleId: id });
    const inUse = await api(t, 'DELETE', `/api/admin/role/${id}`, { headers: admin.headers });
    expect(inUse.body).toMatchObject({ status: 400, message: '该角色已分配给账号，请先取消分配再删除' });
    expect((await api(t, 'GET', `/api/admin/role/list/${id}`, { headers: admin.headers })).body.data.accountCount).toBe(1);

    await t.database.db.delete(accountRoles).where(eq(accountRoles.roleId, id));
    const del = await api(t, 'DELETE', `/api/admin/role/${id}`, { headers: admin.headers });
    expect(del.body).toMatchObject({ status: 200, message: '删除成功' });
    expect(await t.database.db.select().from(roles).where(eq(roles.id, id))).toHaveLength(0);
    expect((await operationsBy(t, admin.accountId)).map((o) => o.action)).toEqual(['role:delete', 'role:create']);
    expect((await api(t, 'DELETE', `/api/admin/role/${id}`, { headers: admin.headers })).statusCode).toBe(404);
    expect((await api(t, 'GET', `/api/admin/role/list/${id}`, { headers: admin.headers })).statusCode).toBe(404);
  });

  it('serves the whole menu and button tree', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['role:delete'] });
    const res = await api(t, 'GET', '/api/admin/role/tree', { headers: viewer.headers });
    expect(res.statusCode).toBe(200);
    const tree = res.body.data as Array<{ code: string; children: Array<{ code: string; buttons: Array<{ code: string }> }> }>;
    expect(tree.map((n) => n.code)).toEqual(ADMIN_MENUS.map((m) => m.code));
    const flat: Array<{ code: string; buttons: Array<{ code: string }> }> = [];
    const walk = (nodes: typeof tree) => nodes.forEach((n) => { flat.push(n as never); walk((n.children ?? []) as never); });
    walk(tree);
    expect(flat).toHaveLength(flattenMenus(ADMIN_MENUS).length);
    expect(flat.flatMap((n) => n.buttons.map((b) => b.code)).sort()).toEqual(ADMIN_BUTTONS.map((b) => b.code).sort());
  });

  it('guards: role:edit / role:delete buttons, the menus for reading, admins only', async () => {
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    expect((await api(t, 'GET', '/api/admin/role/list', { headers: other.headers })).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/role/tree', { headers: other.headers })).statusCode).toBe(403);
    expect((await api(t, 'POST', '/api/admin/role', { headers: other.headers, body: { code: code(), name: 'x' } })).statusCode).toBe(403);
    const accountsPage = await signIn(t, { realm: 'ADMIN', buttons: ['account:edit'] });
    expect((await api(t, 'GET', '/api/admin/role/list', { headers: accountsPage.headers })).statusCode).toBe(200);
    expect((await api(t, 'DELETE', `/api/admin/role/${superRoleId}`, { headers: accountsPage.headers })).statusCode).toBe(403);
    const participant = await signIn(t, { realm: 'USER' });
    expect((await api(t, 'GET', '/api/admin/role/list', { headers: participant.headers })).statusCode).toBe(401);
  });
});

describe('a role never raises its holder', () => {
  const everything = () => ({ menuCodes: flattenMenus(ADMIN_MENUS).map((m) => m.code), buttonCodes: ADMIN_BUTTONS.map((b) => b.code) });

  it('an operator cannot edit or delete a role it holds, so cannot give itself every button', async () => {
    const root = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const c = code();
    const created = await api(t, 'POST', '/api/admin/role', {
      headers: root.headers,
      body: { code: c, name: `角色运营${c}`, menuCodes: ['roleManage'], buttonCodes: ['role:edit', 'role:delete'] },
    });
    expect(created.statusCode).toBe(200);
    const roleId = created.body.data.id;
    const operator = await signIn(t, { realm: 'ADMIN', buttons: [] });
    await t.database.db.insert(accountRoles).values({ accountId: operator.accountId, roleId });
    const before = await grantsOf(roleId);

    const raised = await api(t, 'PUT', `/api/admin/role/${roleId}`, { headers: operator.headers, body: { name: `角色运营${c}`, ...everything() } });
    expect(raised.statusCode).toBe(403);
    expect(raised.body).toEqual({ status: 403, code: 'FORBIDDEN', message: ADMIN_MSG.roleHeldBySelf, data: { reason: ROLE_REFUSAL.ownRole } });
    // Even a rename of one's own role, and deleting it, are refused.
    const renamed = await api(t, 'PUT', `/api/admin/role/${roleId}`, { headers: operator.headers, body: { name: '改名', menuCodes: ['roleManage'], buttonCodes: ['role:edit'] } });
    expect(renamed.body).toMatchObject({ status: 403, data: { reason: ROLE_REFUSAL.ownRole } });
    const removed = await api(t, 'DELETE', `/api/admin/role/${roleId}`, { headers: operator.headers });
    expect(removed.body).toMatchObject({ status: 403, message: ADMIN_MSG.roleHeldBySelf, data: { reason: ROLE_REFUSAL.ownRole } });

    expect(await grantsOf(roleId)).toEqual(before);
    expect(await operationsBy(t, operator.accountId)).toHaveLength(0);
    // Nothing was gained: listing users and resetting passwords stay closed.
    expect((await api(t, 'GET', '/api/admin/user/list', { headers: operator.headers })).statusCode).toBe(403);
    expect((await api(t, 'POST', `/api/admin/user/${root.accountId}/reset-password`, { headers: operator.headers })).statusCode).toBe(403);
    const info = await api(t, 'GET', '/api/admin/user/account', { headers: operator.headers });
    expect([...info.body.data.buttons].sort()).toEqual(['role:delete', 'role:edit']);
  });

  it('a role may carry only menus and buttons the caller holds; the super admin holds them all', async () => {
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['role:edit', 'role:delete', 'news:edit'] });
    const exceeds = async (res: Awaited<ReturnType<typeof api>>, codes: string[]) => {
      expect(res.statusCode).toBe(403);
      expect(res.body).toEqual({ status: 403, code: 'FORBIDDEN', message: ADMIN_MSG.roleGrantExceedsOwn, data: { reason: ROLE_REFUSAL.grantExceedsOwn, codes } });
    };
    const c1 = code();
    await exceeds(await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: c1, name: `越权${c1}`, buttonCodes: ['news:edit', 'user:reset-password'] } }), ['user:reset-password']);
    await exceeds(await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: c1, name: `越权${c1}`, menuCodes: ['systemManage'] } }), ['systemManage']);
    expect(await t.database.db.select().from(roles).where(eq(roles.code, c1))).toHaveLength(0);

    // Within its own grants (the parents of its menus included) it may create and edit.
    const ok = await api(t, 'POST', '/api/admin/role', { headers: editor.headers, body: { code: c1, name: `新闻${c1}`, buttonCodes: ['news:edit'] } });
    expect(ok.statusCode).toBe(200);
    const id = ok.body.data.id;
    await exceeds(await api(t, 'PUT', `/api/admin/role/${id}`, { headers: editor.headers, body: { name: `新闻${c1}`, ...everything() } }), expect.arrayContaining(['user:reset-password', 'systemManage']) as never);
    expect(await grantsOf(id)).toEqual({ menus: [...ok.body.data.menuCodes].sort(), buttons: ['news:edit'] });

    // A role holding more than the editor (made by the super admin) is out of its reach.
    const root = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const c2 = code();
    const big = await api(t, 'POST', '/api/admin/role', { headers: root.headers, body: { code: c2, name: `全部${c2}`, ...everything() } });
    expect(big.statusCode).toBe(200);
    expect(big.body.data.buttonCodes).toHaveLength(ADMIN_BUTTONS.length);
    const shrink = await api(t, 'PUT', `/api/admin/role/${big.body.data.id}`, { headers: editor.headers, body: { name: `全部${c2}`, buttonCodes: ['news:edit'] } });
    expect(shrink.body).toMatchObject({ status: 403, message: ADMIN_MSG.roleExceedsOwn, data: { reason: ROLE_REFUSAL.roleExceedsOwn } });
    const drop = await api(t, 'DELETE', `/api/admin/role/${big.body.data.id}`, { headers: editor.headers });
    expect(drop.body).toMatchObject({ status: 403, data: { reason: ROLE_REFUSAL.roleExceedsOwn } });
    expect((await grantsOf(big.body.data.id)).buttons).toHaveLength(ADMIN_BUTTONS.length);
    expect((await api(t, 'DELETE', `/api/admin/role/${big.body.data.id}`, { headers: root.headers })).statusCode).toBe(200);
  });
});
