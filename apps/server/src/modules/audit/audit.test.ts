import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { api } from '../../../test/admin-helpers.js';
import { accountRoles, loginRecords, operationRecords, roleMenus } from '../../db/schema.js';
import { seedAtStartup } from '../../startup.js';

let t: TestApp;
const tag = `a${Date.now().toString(36).slice(-5)}`;

beforeAll(async () => {
  t = await createTestApp();
  await seedAtStartup(t.app, false);
  const db = t.database.db;
  const expert = await signIn(t, { realm: 'EXPERT', username: `${tag}exp` });
  await db.insert(loginRecords).values([
    { realm: 'EXPERT', accountId: expert.accountId, identifier: `${tag}exp`, method: 'PASSWORD', result: 'BAD_CREDENTIALS', ip: '10.0.0.1', createdAt: new Date('2025-06-01T09:00:00+08:00') },
    { realm: 'EXPERT', accountId: expert.accountId, identifier: `${tag}exp`, method: 'PASSWORD', result: 'SUCCESS', ip: '10.0.0.1', createdAt: new Date('2025-06-01T09:01:00+08:00') },
    { realm: 'EXPERT', accountId: null, identifier: `${tag}ghost`, method: 'PASSWORD', result: 'UNKNOWN_ACCOUNT', createdAt: new Date('2025-06-02T12:00:00+08:00') },
    { realm: 'USER', accountId: null, identifier: `${tag}user`, method: 'SMS', result: 'BAD_SMS_CODE', createdAt: new Date('2025-06-02T12:00:00+08:00') },
  ]);
  await db.insert(operationRecords).values([
    { realm: 'ADMIN', username: `${tag}op`, action: 'account:disable', targetType: 'account', summary: '禁用', createdAt: new Date('2025-06-03T08:00:00+08:00') },
    { realm: 'ADMIN', username: `${tag}op`, action: 'account:edit', targetType: 'account', summary: '编辑', createdAt: new Date('2025-06-03T09:00:00+08:00') },
    { realm: 'ADMIN', username: `${tag}op`, action: 'role:edit', targetType: 'role', summary: '角色', result: 'FAILURE', createdAt: new Date('2025-06-04T09:00:00+08:00') },
    { realm: 'EXPERT', username: `${tag}exp`, action: 'score:submit', targetType: 'score', summary: '提交评分', createdAt: new Date('2025-06-04T09:00:00+08:00') },
  ]);
});

afterAll(async () => {
  await t.close();
});

const list = (res: { body: { data: { list: Array<Record<string, unknown>> } } }, key: string) => res.body.data.list.map((r) => r[key]);

describe('behaviour auditing', () => {
  it('lists a realm login records newest first, with filters', async () => {
    const auditor = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const q = (query: string) => api(t, 'GET', `/api/admin/audit/login-records?realm=EXPERT&username=${tag}&${query}`, { headers: auditor.headers });
    const all = await q('');
    expect(all.body.data).toMatchObject({ total: 3, page: 1, size: 10 });
    expect(list(all, 'result')).toEqual(['UNKNOWN_ACCOUNT', 'SUCCESS', 'BAD_CREDENTIALS']);
    expect(all.body.data.list[1]).toMatchObject({ realm: 'EXPERT', identifier: `${tag}exp`, username: `${tag}exp`, method: 'PASSWORD', ip: '10.0.0.1' });
    expect(list(await q('result=SUCCESS'), 'result')).toEqual(['SUCCESS']);
    expect(list(await q('from=2025-06-01 09:00:30&to=2025-06-01'), 'result')).toEqual(['SUCCESS']);
    expect(list(await q('from=2025-06-02'), 'identifier')).toEqual([`${tag}ghost`]);
    expect(list(await q('size=1&page=2'), 'result')).toEqual(['SUCCESS']);
    const user = await api(t, 'GET', `/api/admin/audit/login-records?realm=USER&username=${tag}&method=SMS`, { headers: auditor.headers });
    expect(list(user, 'identifier')).toEqual([`${tag}user`]);
  });

  it('lists operation records by realm, account, action (exact or prefix), result and time', async () => {
    const auditor = await signIn(t, { realm: 'ADMIN', buttons: [] });
    // Holding the operator-audit menu, and nothing else.
    const [link] = await t.database.db.select().from(accountRoles).where(eq(accountRoles.accountId, auditor.accountId));
    await t.database.db.insert(roleMenus).values({ roleId: link!.roleId, menuCode: 'AdminManage' });

    const q = (query: string) => api(t, 'GET', `/api/admin/audit/operation-records?realm=ADMIN&username=${tag}&${query}`, { headers: auditor.headers });
    expect(list(await q(''), 'action')).toEqual(['role:edit', 'account:edit', 'account:disable']);
    expect(list(await q('action=account:'), 'action')).toEqual(['account:edit', 'account:disable']);
    expect(list(await q('action=account:edit'), 'action')).toEqual(['account:edit']);
    expect(list(await q('action=account'), 'action')).toEqual([]);
    expect(list(await q('result=FAILURE'), 'action')).toEqual(['role:edit']);
    expect(list(await q('from=2025-06-03 08:30:00&to=2025-06-03 23:59:59'), 'action')).toEqual(['account:edit']);

    // The menu covers operator records only.
    expect((await api(t, 'GET', '/api/admin/audit/operation-records?realm=EXPERT', { headers: auditor.headers })).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/audit/login-records?realm=USER', { headers: auditor.headers })).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/audit/login-records?realm=ADMIN', { headers: auditor.headers })).statusCode).toBe(200);
  });

  it('lists oldest first with order=asc; time is the only sort key', async () => {
    const auditor = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const logins = (query: string) => api(t, 'GET', `/api/admin/audit/login-records?realm=EXPERT&username=${tag}&${query}`, { headers: auditor.headers });
    expect(list(await logins('sort=createdAt&order=asc'), 'result')).toEqual(['BAD_CREDENTIALS', 'SUCCESS', 'UNKNOWN_ACCOUNT']);
    expect(list(await logins('sort=createdAt&order=desc&size=1&page=3'), 'result')).toEqual(['BAD_CREDENTIALS']);
    const operations = (query: string) => api(t, 'GET', `/api/admin/audit/operation-records?realm=ADMIN&username=${tag}&${query}`, { headers: auditor.headers });
    expect(list(await operations('sort=createdAt&order=asc&action=account:'), 'action')).toEqual(['account:disable', 'account:edit']);
    for (const query of ['sort=username', 'sort=createdAt&order=random']) {
      expect((await operations(query)).body, query).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', data: { field: query.includes('order') ? 'order' : 'sort' } });
    }
  });

  it('refuses bad filters, other realms and anonymous callers; has no way to change records', async () => {
    const auditor = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const cases: Array<[string, string]> = [
      ['', '账号类型不正确'],
      ['realm=ROOT', '账号类型不正确'],
      ['realm=ADMIN&from=2025-06-01T10:00', '时间格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss'],
      ['realm=ADMIN&from=2025-06-05&to=2025-06-01', '开始时间不能晚于结束时间'],
      ['realm=ADMIN&result=MAYBE', '结果筛选不正确'],
    ];
    for (const [query, message] of cases) {
      expect((await api(t, 'GET', `/api/admin/audit/operation-records?${query}`, { headers: auditor.headers })).body, query).toMatchObject({ status: 400, message });
    }
    const expert = await signIn(t, { realm: 'EXPERT' });
    expect((await api(t, 'GET', '/api/admin/audit/login-records?realm=ADMIN', { headers: expert.headers })).statusCode).toBe(401);
    expect((await api(t, 'GET', '/api/admin/audit/login-records?realm=ADMIN')).statusCode).toBe(401);
    const before = (await t.database.db.select({ n: count() }).from(operationRecords))[0]!.n;
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      expect((await api(t, method, '/api/admin/audit/operation-records', { headers: auditor.headers })).statusCode).toBe(404);
    }
    expect((await t.database.db.select({ n: count() }).from(operationRecords))[0]!.n).toBe(before);
  });
});
