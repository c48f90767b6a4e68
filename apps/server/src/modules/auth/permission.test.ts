import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { operationRecords } from '../../db/schema.js';
import { ok } from '../../plugins/envelope.js';
import { actorOf, recordOperation } from '../audit/operation-log.js';
import { createAuthRepository } from './auth.repository.js';
import { requirePermission } from './auth.guard.js';
import { createPermissionService } from './permission.service.js';
import { createSessionService } from './session.service.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({}, { bare: true });
  const db = t.database.db;
  const sessions = createSessionService(db);
  const permissions = createPermissionService(createAuthRepository(db));
  await t.app.register(
    async (api) => {
      api.decorateRequest('auth', null);
      api.post('/probe/role-edit', { preHandler: requirePermission(sessions, permissions, 'role:edit') }, async (request) => {
        await db.transaction((tx) => recordOperation(tx, actorOf(request), { action: 'role:edit', targetType: 'role', targetId: 'r1', summary: 'probe' }));
        return ok(null);
      });
      api.get('/probe/any-admin', { preHandler: requirePermission(sessions, permissions, null) }, async () => ok(null));
    },
    { prefix: '/api' },
  );
});

afterAll(async () => {
  await t.close();
});

const call = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: url.includes('role-edit') ? 'POST' : 'GET', url, headers });

describe('button permissions', () => {
  it('admits SUPER_ADMIN and a role holding the code, and records the write', async () => {
    const superAdmin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['role:edit'] });
    expect((await call('/api/probe/role-edit', superAdmin.headers)).statusCode).toBe(200);
    expect((await call('/api/probe/role-edit', editor.headers)).statusCode).toBe(200);
    const rows = await t.database.db.select().from(operationRecords).where(eq(operationRecords.accountId, editor.accountId));
    expect(rows).toMatchObject([{ realm: 'ADMIN', username: editor.username, action: 'role:edit', targetType: 'role', targetId: 'r1' }]);
  });

  it('refuses an admin without the code (403), other realms and no token (401)', async () => {
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['user:view'] });
    const participant = await signIn(t, { realm: 'USER' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    expect((await call('/api/probe/role-edit', viewer.headers)).json()).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect((await call('/api/probe/role-edit', participant.headers)).statusCode).toBe(401);
    expect((await call('/api/probe/role-edit', expert.headers)).statusCode).toBe(401);
    expect((await call('/api/probe/role-edit')).statusCode).toBe(401);
    expect((await call('/api/probe/any-admin', viewer.headers)).statusCode).toBe(200);
    const rows = await t.database.db.select().from(operationRecords).where(eq(operationRecords.accountId, viewer.accountId));
    expect(rows).toHaveLength(0);
  });
});
