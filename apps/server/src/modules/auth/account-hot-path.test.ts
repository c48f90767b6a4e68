import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { sessions, settings } from '../../db/schema.js';

/**
 * The calls every signed-in page makes (docs/performance.md, "Hot path") run prepared statements: same answers as the
 * queries they replaced, the session checks still taking effect at once.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
}, 60_000);
afterAll(async () => t?.close());

const account = async (token: string) => t.app.inject({ method: 'GET', url: '/api/user/account', headers: { authorization: `Bearer ${token}` } });

describe('GET /api/user/account', () => {
  it('shows the data-document menu name as stored, even one that reads as a number', async () => {
    const user = await signIn(t, { realm: 'USER' });
    // The driver has already turned the jsonb into the string "2025"; read again as JSON it became
    // the number 2025, which is no menu name, and the page showed the default instead.
    await t.database.db
      .insert(settings)
      .values({ key: 'site.dataDocMenuName', value: '2025' })
      .onConflictDoUpdate({ target: settings.key, set: { value: sql`excluded.value` } });
    expect((await account(user.token)).json().data.dataDocMenuName).toBe('2025');
    await t.database.db.update(settings).set({ value: '赛题数据' }).where(eq(settings.key, 'site.dataDocMenuName'));
    expect((await account(user.token)).json().data.dataDocMenuName).toBe('赛题数据');
  });

  it('answers each caller with their own account, and a revoked or expired session at once with 401', async () => {
    const [a, b] = await Promise.all([signIn(t, { realm: 'USER' }), signIn(t, { realm: 'USER' })]);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => account(i % 2 ? b.token : a.token)));
    expect(answers.map((r) => r.json().data.account.name)).toEqual(Array.from({ length: 20 }, (_, i) => (i % 2 ? b.username : a.username)));
    await t.database.db.update(sessions).set({ revokedAt: new Date(), revokeReason: 'LOGOUT' }).where(eq(sessions.accountId, a.accountId));
    expect((await account(a.token)).statusCode).toBe(401);
    await t.database.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.accountId, b.accountId));
    expect((await account(b.token)).statusCode).toBe(401);
  });

  it('refreshes the last use and the expiry of a session used after a minute', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const old = new Date(Date.now() - 5 * 60_000);
    await t.database.db.update(sessions).set({ lastUsedAt: old, expiresAt: new Date(Date.now() + 60_000) }).where(eq(sessions.accountId, user.accountId));
    expect((await account(user.token)).statusCode).toBe(200);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.accountId, user.accountId));
    expect(row!.lastUsedAt.getTime()).toBeGreaterThan(old.getTime());
    expect(row!.expiresAt.getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600_000);
  });
});
