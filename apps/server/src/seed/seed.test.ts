import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { ADMIN_BUTTONS, ADMIN_MENUS, DICTIONARY_SEED, flattenMenus } from '@contest/shared';
import { createTestDatabase } from '../../test/helpers.js';
import { loadTestConfig } from '../config/test-config.js';
import { verifyPassword } from '../lib/password.js';
import type { Database } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import { accountRoles, accounts, attachments, buttons, dictItems, expertProfiles, menus, news, prelimDocs, roleButtons, roleMenus, roles, settings, siteContent, statusHistory, teams } from '../db/schema.js';
import { createStorage } from '../lib/storage/create-storage.js';
import { seed } from './seed.js';
import { seedContent } from './seed-content.js';
import { verifyScoreLog } from '../modules/score-log/score-log.js';

let database: Database;
let drop: () => Promise<void>;

const count = async (table: PgTable) => {
  const [row] = await database.db.select({ n: sql<number>`count(*)::int` }).from(table);
  return (row as { n: number }).n;
};

beforeAll(async () => {
  ({ database, drop } = await createTestDatabase(loadTestConfig()));
  // Two migrators at once must both succeed and apply each migration once.
  await Promise.all([runMigrations(database), runMigrations(database)]);
});

afterAll(async () => {
  await drop();
});

describe('seed', () => {
  it('creates the super admin once, with a hashed generated password', async () => {
    const first = await seed(database.db, { adminUsername: 'root1', adminPassword: undefined, demo: false });
    expect(first.createdAdmin?.username).toBe('root1');
    expect(first.createdAdmin?.generated).toBe(true);
    const password = first.createdAdmin!.password;
    expect(password).toMatch(/^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*?&])[A-Za-z\d@$!%*?&]{8,16}$/);

    const [admin] = await database.db.select().from(accounts).where(eq(accounts.username, 'root1'));
    expect(admin).toMatchObject({ realm: 'ADMIN', roleCode: 'SUPER_ADMIN', enabled: true });
    expect(admin!.passwordHash).toMatch(/^\$argon2id\$/);
    expect(admin!.passwordHash).not.toContain(password);
    expect(await verifyPassword(admin!.passwordHash, password)).toBe(true);
    expect(await verifyPassword(admin!.passwordHash, 'wrong@123')).toBe(false);

    const links = await database.db.select().from(accountRoles).where(eq(accountRoles.accountId, admin!.id));
    expect(links).toHaveLength(1);

    const again = await seed(database.db, { adminUsername: 'root1', adminPassword: undefined, demo: false });
    expect(again.createdAdmin).toBeNull();
    expect(await count(accounts)).toBe(1);
  });

  it('seeds every menu and button, all granted to the built-in SUPER_ADMIN role', async () => {
    const flat = flattenMenus(ADMIN_MENUS);
    expect(await count(menus)).toBe(flat.length);
    expect(await count(buttons)).toBe(ADMIN_BUTTONS.length);
    const [role] = await database.db.select().from(roles).where(eq(roles.code, 'SUPER_ADMIN'));
    expect(role!.builtin).toBe(true);
    const granted = await database.db.select().from(roleMenus).where(eq(roleMenus.roleId, role!.id));
    expect(granted).toHaveLength(flat.length);
    const grantedButtons = await database.db.select().from(roleButtons).where(eq(roleButtons.roleId, role!.id));
    expect(grantedButtons).toHaveLength(ADMIN_BUTTONS.length);
    const [child] = await database.db.select().from(menus).where(eq(menus.code, 'qualification'));
    expect(child).toMatchObject({ parentCode: 'competition', path: '/admin/competition/qualification' });
  });

  it('a later start puts menus and buttons back as the code defines them', async () => {
    await database.db.update(menus).set({ name: '改过的名字', path: '/admin/x', sort: 99 }).where(eq(menus.code, 'qualification'));
    await database.db.update(buttons).set({ name: '改过的按钮' }).where(eq(buttons.code, 'role:edit'));
    await seed(database.db, { adminUsername: 'root1', adminPassword: undefined, demo: false });
    const [menu] = await database.db.select().from(menus).where(eq(menus.code, 'qualification'));
    expect(menu).toMatchObject({ name: '资格管理', path: '/admin/competition/qualification', sort: 1, parentCode: 'competition' });
    const [button] = await database.db.select().from(buttons).where(eq(buttons.code, 'role:edit'));
    expect(button).toMatchObject({ name: '新增/编辑角色', menuCode: 'roleManage' });
  });

  it('seeds the dictionary without overwriting an admin edit', async () => {
    const total = DICTIONARY_SEED.reduce((n, t) => n + t.items.length, 0);
    expect(await count(dictItems)).toBe(total);
    await database.db
      .update(dictItems)
      .set({ name: '企业（已改）', enabled: false })
      .where(and(eq(dictItems.typeCode, 'ORG_TYPE'), eq(dictItems.code, 'ENTERPRISE')));
    await seed(database.db, { adminUsername: 'root1', adminPassword: undefined, demo: false });
    const [item] = await database.db
      .select()
      .from(dictItems)
      .where(and(eq(dictItems.typeCode, 'ORG_TYPE'), eq(dictItems.code, 'ENTERPRISE')));
    expect(item).toMatchObject({ name: '企业（已改）', enabled: false });
    expect(await count(dictItems)).toBe(total);
    const [name] = await database.db.select().from(settings).where(eq(settings.key, 'contest.name'));
    expect(name!.value).toBe('2025全国智慧医保大赛');
  });

  it('--demo adds news, teams and experts once', async () => {
    const result = await seed(database.db, { adminUsername: 'root1', adminPassword: undefined, demo: true });
    expect(result.demo?.participants).toContain('demo1');
    expect(result.demo?.experts).toEqual(['e0001', 'e0002', 'e0003']);
    // Demo teams walk the real workflow: a returned team has its reason and its whole history.
    const [demo3] = await database.db.select().from(teams).innerJoin(accounts, eq(accounts.id, teams.ownerId)).where(eq(accounts.username, 'demo3'));
    expect(demo3!.teams).toMatchObject({ status: 'REVISING', version: 3 });
    expect(demo3!.teams.auditReason).toBeTruthy();
    const trail = await database.db.select().from(statusHistory).where(eq(statusHistory.subjectId, demo3!.teams.id)).orderBy(statusHistory.createdAt);
    expect(trail.map((h) => `${h.fromStatus}->${h.toStatus}`)).toEqual(['null->DRAFT', 'DRAFT->SUBMITTED', 'SUBMITTED->REVISING']);
    expect(trail[2]!.reason).toBe(demo3!.teams.auditReason);
    expect(trail[2]!.actorRealm).toBe('ADMIN');
    const published = await database.db.select().from(news).where(eq(news.status, 'PUBLISHED'));
    expect(new Set(published.map((n) => n.category))).toEqual(new Set(['MEDICAL_INSURANCE', 'CONTEST_DYNAMIC']));
    expect(published.filter((n) => n.pinned).length).toBe(2);
    const teamRows = await database.db.select().from(teams);
    expect(new Set(teamRows.map((r) => r.status))).toEqual(new Set(['APPROVED', 'SUBMITTED', 'REVISING', 'DRAFT']));
    expect(await count(expertProfiles)).toBe(3);

    const before = { news: await count(news), teams: await count(teams), accounts: await count(accounts) };
    await seed(database.db, { adminUsername: 'root1', adminPassword: undefined, demo: true });
    expect({ news: await count(news), teams: await count(teams), accounts: await count(accounts) }).toEqual(before);
  });

  it('--demo content gives every submitted or approved demo project an application PDF with its count, once', async () => {
    const config = loadTestConfig();
    const storage = createStorage(config.files.storage);
    await seedContent(database.db, storage, { demo: true });
    const reviewed = await database.db.select().from(prelimDocs).where(sql`${prelimDocs.status} in ('SUBMITTED', 'APPROVED')`);
    expect(reviewed.length).toBeGreaterThan(5);
    for (const doc of reviewed) {
      expect(doc.applicationFileId, doc.projectName).not.toBeNull();
      expect(doc.applicationChars, doc.projectName).toBeGreaterThan(50);
    }
    const [file] = await database.db.select().from(attachments).where(eq(attachments.id, reviewed[0]!.applicationFileId!));
    expect(file).toMatchObject({ origin: 'PRELIM', ownerId: reviewed[0]!.ownerId, isPublic: false, originalName: '项目申报书.pdf' });
    // The home page's track block names every track of the dictionary.
    const [tracksBlock] = await database.db.select().from(siteContent).where(eq(siteContent.key, 'home-tracks'));
    const trackNames = DICTIONARY_SEED.find((d) => d.code === 'TRACK')!.items.map((i) => i.name);
    expect(trackNames.filter((name) => !tracksBlock!.body.includes(name))).toEqual([]);
    const files = await count(attachments);
    await seedContent(database.db, storage, { demo: true });
    expect(await count(attachments)).toBe(files);
  });

  it('--demo content gives every demo team past its draft its sign-up files (单位证明, 参赛承诺书), owned by the team', async () => {
    const rows = await database.db.select().from(teams);
    const pastDraft = rows.filter((t) => t.status !== 'DRAFT');
    expect(pastDraft.length).toBeGreaterThan(8);
    for (const team of pastDraft) {
      expect(team.certificateFileId, team.teamName).not.toBeNull();
      expect(team.commitmentFileId, team.teamName).not.toBeNull();
      const files = await database.db.select().from(attachments).where(sql`${attachments.id} in (${team.certificateFileId}, ${team.commitmentFileId})`);
      expect(files.map((f) => [f.origin, f.ownerId, f.isPublic])).toEqual([
        ['TEAM', team.ownerId, false],
        ['TEAM', team.ownerId, false],
      ]);
    }
    for (const team of rows.filter((t) => t.status === 'DRAFT')) expect([team.certificateFileId, team.commitmentFileId]).toEqual([null, null]);
  });

  it('--demo has a team whose preliminary materials are a saved draft (demo14), with its history', async () => {
    const [draft] = await database.db.select().from(prelimDocs).innerJoin(accounts, eq(accounts.id, prelimDocs.ownerId)).where(eq(accounts.username, 'demo14'));
    expect(draft!.prelim_docs).toMatchObject({ status: 'DRAFT', submittedAt: null, applicationFileId: null });
    const [team] = await database.db.select().from(teams).where(eq(teams.id, draft!.prelim_docs.teamId));
    expect(team!.status).toBe('APPROVED');
    const trail = await database.db.select().from(statusHistory).where(eq(statusHistory.subjectId, draft!.prelim_docs.id));
    expect(trail.map((h) => `${h.subjectType} ${h.fromStatus}->${h.toStatus} ${h.actorRealm}`)).toEqual(['PRELIM NOT_FILLED->DRAFT USER']);
    // The other demo teams keep their states: demo1 has not started its materials.
    const demo1 = await database.db.select().from(prelimDocs).innerJoin(accounts, eq(accounts.id, prelimDocs.ownerId)).where(eq(accounts.username, 'demo1'));
    expect(demo1).toEqual([]);
  });

  it('--demo experts carry their 职称 as text, never a dictionary code', async () => {
    const codes = new Set(DICTIONARY_SEED.find((d) => d.code === 'PROFESSIONAL_TITLE')!.items.map((i) => i.code));
    const profiles = await database.db.select().from(expertProfiles);
    expect(profiles.length).toBe(3);
    for (const p of profiles) expect(codes.has(p.title ?? ''), p.title ?? '').toBe(false);
  });

  it('the score log verifies after the demo seed', async () => {
    const result = await verifyScoreLog(database.db);
    expect(result.ok).toBe(true);
  });
});

describe('seed with an admin password from the environment', () => {
  it('uses it and never reports it as generated', async () => {
    const { database: fresh, drop: dropFresh } = await createTestDatabase(loadTestConfig());
    try {
      await runMigrations(fresh);
      const result = await seed(fresh.db, { adminUsername: 'boss', adminPassword: 'Boss@2025x', demo: false });
      expect(result.createdAdmin).toEqual({ username: 'boss', password: 'Boss@2025x', generated: false });
      const [admin] = await fresh.db.select().from(accounts).where(eq(accounts.username, 'boss'));
      expect(await verifyPassword(admin!.passwordHash, 'Boss@2025x')).toBe(true);
    } finally {
      await dropFresh();
    }
  });
});
