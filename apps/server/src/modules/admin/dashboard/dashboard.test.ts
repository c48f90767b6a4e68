import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { DASHBOARD_DAYS } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../../test/helpers.js';
import { signIn } from '../../../../test/sign-in.js';
import { api } from '../../../../test/admin-helpers.js';
import { accounts, prelimDocs, teams } from '../../../db/schema.js';
import { seedAtStartup } from '../../../startup.js';

let t: TestApp;
const DAY = 86_400_000;
/** Beijing calendar day of an instant. */
const beijing = (d: Date) => new Date(d.getTime() + 8 * 3_600_000).toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  await seedAtStartup(t.app, false);
  const db = t.database.db;
  const now = Date.now();
  // Six participants: two today, one three days ago, two 10 days ago, one long before the window.
  const ages = [0, 0, 3, 10, 10, 400];
  const teamOf: Array<{ status: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REVISING'; track: string | null } | null> = [
    { status: 'DRAFT', track: null },
    { status: 'SUBMITTED', track: 'PAYMENT_REFORM' },
    { status: 'APPROVED', track: 'PAYMENT_REFORM' },
    { status: 'APPROVED', track: 'SMART_SUPERVISION' },
    { status: 'APPROVED', track: 'PAYMENT_REFORM' },
    null,
  ];
  const teamIds: string[] = [];
  for (const [i, age] of ages.entries()) {
    const user = await signIn(t, { realm: 'USER' });
    await db.update(accounts).set({ createdAt: new Date(now - age * DAY) }).where(eq(accounts.id, user.accountId));
    const team = teamOf[i];
    if (team) {
      const [row] = await db.insert(teams).values({ ownerId: user.accountId, ...team }).returning({ id: teams.id, ownerId: teams.ownerId });
      teamIds.push(row!.id);
      // Two of the three approved teams have saved materials: one draft, one submitted.
      if (i === 2) await db.insert(prelimDocs).values({ teamId: row!.id, ownerId: row!.ownerId, status: 'DRAFT' });
      if (i === 3) await db.insert(prelimDocs).values({ teamId: row!.id, ownerId: row!.ownerId, status: 'SUBMITTED' });
    }
  }
});

afterAll(async () => {
  await t.close();
});

describe('GET /api/admin/dashboard', () => {
  it('counts registrations per Beijing day, teams by status and track, materials by status', async () => {
    // Any signed-in admin, without a single button.
    const admin = await signIn(t, { realm: 'ADMIN', buttons: [] });
    const res = await api(t, 'GET', '/api/admin/dashboard', { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    const d = res.body.data;
    expect(d.totals).toEqual({ users: 6, usersToday: 2, teams: 5, teamsSubmitted: 4, prelimSubmitted: 1 });

    expect(d.registrationsPerDay).toHaveLength(DASHBOARD_DAYS);
    expect(d.registrationsPerDay.at(-1)).toEqual({ date: beijing(new Date()), count: 2 });
    expect(d.registrationsPerDay[0].date).toBe(beijing(new Date(Date.now() - (DASHBOARD_DAYS - 1) * DAY)));
    const byDate = Object.fromEntries(d.registrationsPerDay.map((r: { date: string; count: number }) => [r.date, r.count]));
    expect(byDate[beijing(new Date(Date.now() - 3 * DAY))]).toBe(1);
    expect(byDate[beijing(new Date(Date.now() - 10 * DAY))]).toBe(2);
    expect(d.registrationsPerDay.reduce((n: number, r: { count: number }) => n + r.count, 0)).toBe(5);

    expect(d.teamsByStatus).toEqual([
      { key: 'DRAFT', count: 1 },
      { key: 'SUBMITTED', count: 1 },
      { key: 'APPROVED', count: 3 },
      { key: 'REVISING', count: 0 },
      { key: 'REJECTED', count: 0 },
    ]);
    expect(d.teamsByTrack).toEqual([
      { key: 'PAYMENT_REFORM', name: '支付方式改革', nameEn: 'Payment method reform', count: 3 },
      { key: 'SMART_SUPERVISION', name: '智能监管与基金安全', nameEn: 'Smart supervision and fund security', count: 1 },
      { key: null, name: null, nameEn: null, count: 1 },
    ]);
    expect(d.prelimByStatus).toEqual([
      { key: 'NOT_FILLED', count: 1 },
      { key: 'DRAFT', count: 1 },
      { key: 'SUBMITTED', count: 1 },
      { key: 'APPROVED', count: 0 },
      { key: 'REVISING', count: 0 },
      { key: 'REJECTED', count: 0 },
    ]);
  });

  it('needs an admin token: none, or another realm token, is 401', async () => {
    expect((await api(t, 'GET', '/api/admin/dashboard')).body).toMatchObject({ status: 401 });
    const participant = await signIn(t, { realm: 'USER' });
    expect((await api(t, 'GET', '/api/admin/dashboard', { headers: participant.headers })).body).toMatchObject({ status: 401 });
    const expert = await signIn(t, { realm: 'EXPERT' });
    expect((await api(t, 'GET', '/api/admin/dashboard', { headers: expert.headers })).statusCode).toBe(401);
  });
});
