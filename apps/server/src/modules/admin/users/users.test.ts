import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { USER_EXPORT_COLUMNS } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../../test/helpers.js';
import { signIn, TEST_PASSWORD } from '../../../../test/sign-in.js';
import { api, operationsBy } from '../../../../test/admin-helpers.js';
import { accounts, sessions, teams } from '../../../db/schema.js';
import { verifyPassword } from '../../../lib/password.js';
import { seedAtStartup } from '../../../startup.js';
import { createUserRepository } from './users.repository.js';

let t: TestApp;
const tag = `u${Date.now().toString(36).slice(-5)}`;
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  await seedAtStartup(t.app, false);
  const db = t.database.db;
  // Four participants registered on different Beijing days, three with teams.
  const people = [
    { key: 'a', at: '2025-05-01T10:00:00+08:00', team: { orgName: `协和医院${tag}`, teamName: '甲队', status: 'SUBMITTED' as const } },
    { key: 'b', at: '2025-05-02T23:30:00+08:00', team: { orgName: `医保局${tag}`, teamName: '乙队', status: 'APPROVED' as const } },
    { key: 'c', at: '2025-05-03T00:10:00+08:00', team: { orgName: `协和大学${tag}`, teamName: '丙队', status: 'DRAFT' as const } },
    { key: 'd', at: '2025-05-04T09:00:00+08:00', team: null },
  ];
  for (const [i, p] of people.entries()) {
    const user = await signIn(t, { realm: 'USER', username: `${tag}${p.key}` });
    ids[p.key] = user.accountId;
    await db.update(accounts).set({ createdAt: new Date(p.at), phone: `1881000${tag.length}${i}00`.slice(0, 11) }).where(eq(accounts.id, user.accountId));
    if (p.team) {
      await db.insert(teams).values({
        ownerId: user.accountId,
        ...p.team,
        track: 'PAYMENT_REFORM',
        leader: { name: `队长${p.key}`, phone: '13900000000' },
        members: [{ name: 'm1' }, { name: 'm2' }],
      });
    }
  }
});

afterAll(async () => {
  await t.close();
});

const names = (res: { body: { data: { list: Array<{ username: string }> } } }) => res.body.data.list.map((u) => u.username);

describe('registered users: list and detail', () => {
  it('pages newest first and filters by username, organisation, status and registration dates', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    const q = (query: string) => api(t, 'GET', `/api/admin/user/list?username=${tag}&${query}`, { headers: viewer.headers });
    const all = await q('');
    expect(all.body.data).toMatchObject({ total: 4, page: 1, size: 10 });
    expect(names(all)).toEqual([`${tag}d`, `${tag}c`, `${tag}b`, `${tag}a`]);
    expect(all.body.data.list[1]).toMatchObject({ team: { orgName: `协和大学${tag}`, teamName: '丙队', status: 'DRAFT', track: 'PAYMENT_REFORM' } });
    expect(all.body.data.list[0].team).toBeNull();
    expect(names(await q('size=2&page=2'))).toEqual([`${tag}b`, `${tag}a`]);
    expect(names(await q(`orgName=${encodeURIComponent('协和')}`))).toEqual([`${tag}c`, `${tag}a`]);
    expect(names(await q('teamStatus=APPROVED'))).toEqual([`${tag}b`]);
    expect(names(await q('teamStatus=NONE'))).toEqual([`${tag}d`]);
    // Beijing days: b registered late on May 2 (UTC May 2 15:30), c just after midnight May 3.
    expect(names(await q('from=2025-05-02&to=2025-05-02'))).toEqual([`${tag}b`]);
    expect(names(await q('from=2025-05-03'))).toEqual([`${tag}d`, `${tag}c`]);
    expect(names(await q('to=2025-05-01&teamStatus=&orgName='))).toEqual([`${tag}a`]);
  });

  it('refuses bad filters', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    const cases: Array<[string, string]> = [
      ['teamStatus=GONE', '报名状态不正确'],
      ['from=2025/05/01', '日期格式应为 YYYY-MM-DD'],
      ['from=2025-05-03&to=2025-05-01', '开始时间不能晚于结束时间'],
      ['size=0', '每页条数应为 1-100 之间的整数'],
      [`username=${'x'.repeat(51)}`, '搜索内容不能超过 50 个字符'],
    ];
    for (const [query, message] of cases) {
      expect((await api(t, 'GET', `/api/admin/user/list?${query}`, { headers: viewer.headers })).body, query).toMatchObject({ status: 400, message });
    }
  });

  it('sorts by a declared key in either direction, with paging; unknown keys are refused', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    const q = (query: string) => api(t, 'GET', `/api/admin/user/list?username=${tag}&${query}`, { headers: viewer.headers });
    expect(names(await q('sort=username&order=asc'))).toEqual([`${tag}a`, `${tag}b`, `${tag}c`, `${tag}d`]);
    expect(names(await q('sort=username&order=desc&size=3&page=2'))).toEqual([`${tag}a`]);
    expect(names(await q('sort=createdAt&order=asc&teamStatus='))).toEqual([`${tag}a`, `${tag}b`, `${tag}c`, `${tag}d`]);
    expect(names(await q('sort=&order='))).toEqual([`${tag}d`, `${tag}c`, `${tag}b`, `${tag}a`]);
    // Never-logged-in accounts come last in both directions, newest first among them.
    const db = t.database.db;
    await db.update(accounts).set({ lastLoginAt: new Date('2025-06-01T08:00:00Z') }).where(eq(accounts.id, ids.a!));
    await db.update(accounts).set({ lastLoginAt: new Date('2025-06-02T08:00:00Z') }).where(eq(accounts.id, ids.c!));
    try {
      expect(names(await q('sort=lastLoginAt&order=desc'))).toEqual([`${tag}c`, `${tag}a`, `${tag}d`, `${tag}b`]);
      expect(names(await q('sort=lastLoginAt&order=asc'))).toEqual([`${tag}a`, `${tag}c`, `${tag}d`, `${tag}b`]);
    } finally {
      await db.update(accounts).set({ lastLoginAt: null }).where(eq(accounts.id, ids.a!));
      await db.update(accounts).set({ lastLoginAt: null }).where(eq(accounts.id, ids.c!));
    }
    for (const [query, field] of [
      ['sort=passwordHash', 'sort'],
      ['sort=created_at', 'sort'],
      ['sort=username&order=up', 'order'],
    ]) {
      expect((await q(query!)).body, query).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', data: { field } });
    }
  });

  it('shows the account with its team summary', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    const res = await api(t, 'GET', `/api/admin/user/detail/${ids.a}`, { headers: viewer.headers });
    expect(res.body.data).toMatchObject({ id: ids.a, username: `${tag}a`, enabled: true, team: { teamName: '甲队', status: 'SUBMITTED', leaderName: '队长a', memberCount: 2 } });
    expect(res.body.data).not.toHaveProperty('passwordHash');
    expect((await api(t, 'GET', '/api/admin/user/detail/00000000-0000-4000-8000-000000000000', { headers: viewer.headers })).statusCode).toBe(404);
    // An admin account id is not a registered user.
    expect((await api(t, 'GET', `/api/admin/user/detail/${viewer.accountId}`, { headers: viewer.headers })).statusCode).toBe(404);
  });

  it('needs user:view; other realms get 401', async () => {
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['user:export'] });
    expect((await api(t, 'GET', '/api/admin/user/list', { headers: other.headers })).statusCode).toBe(403);
    const participant = await signIn(t, { realm: 'USER' });
    expect((await api(t, 'GET', '/api/admin/user/list', { headers: participant.headers })).statusCode).toBe(401);
  });
});

describe('registered users: disable and reset password', () => {
  it('disabling ends the participant sessions at once and is recorded', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['user:disable'] });
    const user = await signIn(t, { realm: 'USER' });
    expect((await api(t, 'GET', '/api/user/account', { headers: user.headers })).statusCode).toBe(200);
    const off = await api(t, 'PUT', `/api/admin/user/${user.accountId}/status`, { headers: admin.headers, body: { enabled: false } });
    expect(off.body).toMatchObject({ status: 200, message: '已禁用', data: { id: user.accountId, enabled: false, team: null } });
    expect((await api(t, 'GET', '/api/user/account', { headers: user.headers })).statusCode).toBe(401);
    const rows = await t.database.db.select().from(sessions).where(eq(sessions.accountId, user.accountId));
    expect(rows.every((s) => s.revokeReason === 'DISABLED')).toBe(true);
    expect((await operationsBy(t, admin.accountId))[0]).toMatchObject({ action: 'user:disable', targetId: user.accountId });
    const on = await api(t, 'PUT', `/api/admin/user/${user.accountId}/status`, { headers: admin.headers, body: { enabled: true } });
    expect(on.body.data.enabled).toBe(true);
    expect((await operationsBy(t, admin.accountId))[0]).toMatchObject({ action: 'user:enable' });

    expect((await api(t, 'PUT', `/api/admin/user/${user.accountId}/status`, { headers: admin.headers, body: {} })).body).toMatchObject({ status: 400, message: '状态只能是 true 或 false' });
    expect((await api(t, 'PUT', '/api/admin/user/00000000-0000-4000-8000-000000000000/status', { headers: admin.headers, body: { enabled: false } })).statusCode).toBe(404);
    expect((await api(t, 'PUT', `/api/admin/user/${admin.accountId}/status`, { headers: admin.headers, body: { enabled: false } })).statusCode).toBe(404);
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    expect((await api(t, 'PUT', `/api/admin/user/${user.accountId}/status`, { headers: viewer.headers, body: { enabled: false } })).statusCode).toBe(403);
    expect((await t.database.db.select().from(accounts).where(eq(accounts.id, user.accountId)))[0]!.enabled).toBe(true);
  });

  it('reset password returns the new password once and ends sessions', async () => {
    // Signing in as the participant shows their team in full: the reset needs those codes too (PARTICIPANT_ACCOUNT_HOLDS).
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['user:reset-password', 'pii:view', 'qualification:view', 'preliminary:view', 'file:read'] });
    const user = await signIn(t, { realm: 'USER' });
    const res = await api(t, 'POST', `/api/admin/user/${user.accountId}/reset-password`, { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const { password } = res.body.data;
    const row = (await t.database.db.select().from(accounts).where(eq(accounts.id, user.accountId)))[0]!;
    expect(await verifyPassword(row.passwordHash, password)).toBe(true);
    expect(await verifyPassword(row.passwordHash, TEST_PASSWORD)).toBe(false);
    expect((await api(t, 'GET', '/api/user/account', { headers: user.headers })).statusCode).toBe(401);
    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'user:reset-password', targetId: user.accountId });
    expect(op!.summary).not.toContain(password);
    expect((await api(t, 'POST', '/api/admin/user/00000000-0000-4000-8000-000000000000/reset-password', { headers: admin.headers })).statusCode).toBe(404);
  });
});

describe('registered users: export', () => {
  it('reads the rows in keyset batches, each continuing after the previous batch', async () => {
    const repo = createUserRepository(t.database.db);
    const filter = { username: tag };
    const first = await repo.batch(filter, true, 0, 3);
    // The offset is ignored once a last row is given: the keyset alone places the batch.
    const rest = await repo.batch(filter, true, 999, 3, first.at(-1));
    expect([...first, ...rest].map((r) => r.username)).toEqual([`${tag}d`, `${tag}c`, `${tag}b`, `${tag}a`]);
    expect(await repo.batch({ ...filter, teamStatus: 'NONE' }, true, 0, 3, first[0])).toEqual([]);
  });

  it('streams an xlsx with Chinese headers and the filtered rows, and records the export', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['user:export'] });
    const res = await api(t, 'GET', `/api/admin/user/export?username=${tag}&orgName=${encodeURIComponent('协和')}`, { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(res.headers['content-disposition'])).toContain(`filename*=UTF-8''${encodeURIComponent('注册用户_')}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.raw as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    expect(header).toEqual(USER_EXPORT_COLUMNS.map((c) => c.header));
    const rows = [2, 3].map((n) => (sheet.getRow(n).values as unknown[]).slice(1));
    expect(rows.map((r) => r[0])).toEqual([`${tag}c`, `${tag}a`]);
    expect(rows[0]).toContain('草稿');
    expect(rows[1]).toContain('2025-05-01 10:00:00');
    expect(sheet.rowCount).toBe(3);
    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'user:export' });
    expect(op!.summary).toContain('2 条');

    expect((await api(t, 'GET', '/api/admin/user/export?teamStatus=BAD', { headers: admin.headers })).body).toMatchObject({ status: 400, message: '报名状态不正确' });
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    expect((await api(t, 'GET', '/api/admin/user/export', { headers: viewer.headers })).statusCode).toBe(403);
  });
});
