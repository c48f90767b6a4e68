import { and, eq, sql } from 'drizzle-orm';
import {
  ADMIN_BUTTONS,
  ADMIN_MENUS,
  CONTEST_NAME_DEFAULT,
  DICTIONARY_SEED,
  PRELIM_WORKFLOW,
  TEAM_STATUS_LABELS,
  TEAM_WORKFLOW,
  flattenMenus,
} from '@contest/shared';
import { generatePassword, hashPassword } from '../lib/password.js';
import type { Db } from '../db/client.js';
import { createWorkflowService } from '../modules/workflow/workflow.service.js';
import {
  accountRoles,
  accounts,
  buttons,
  dictItems,
  dictTypes,
  expertProfiles,
  menus,
  news,
  prelimDocs,
  roleButtons,
  roleMenus,
  roles,
  settings,
  teams,
} from '../db/schema.js';
import { DEMO_DRAFT_PROJECT, DEMO_EXPERTS, DEMO_NEWS, DEMO_PASSWORD, DEMO_REVIEW_TEAMS, DEMO_TEAMS } from './demo-data.js';

export interface SeedOptions {
  adminUsername: string;
  /** undefined = generate one (only when the super admin is created). */
  adminPassword: string | undefined;
  demo: boolean;
}

export interface SeedResult {
  /** Present only when this run created the super admin: the one time its password is shown. */
  createdAdmin: { username: string; password: string; generated: boolean } | null;
  demo: { password: string; participants: string[]; experts: string[] } | null;
}

/**
 * Phase windows written at first install, counted from that day so a new portal is usable at
 * once: sign-up for 60 days, preliminary submission for 90, then 30 days of preliminary review
 * and, after a 15-day pause, 30 of final review. Admins set the real dates afterwards.
 */
export function defaultPhases(now: Date = new Date()) {
  const DAY = 86_400_000;
  // Whole days in Beijing time: starts at 00:00, ends at 23:59:59 (+08:00).
  const at = (days: number, end = false) => {
    const day = new Date(now.getTime() + 8 * 3600_000 + days * DAY).toISOString().slice(0, 10);
    return `${day}T${end ? '23:59:59' : '00:00:00'}+08:00`;
  };
  return {
    signUp: { start: at(0), end: at(59, true) },
    prelimSubmission: { start: at(0), end: at(89, true) },
    prelimReview: { start: at(90), end: at(119, true) },
    finalReview: { start: at(135), end: at(164, true) },
  };
}

/**
 * Idempotent: safe on every start. Menus and buttons follow the code (upserted); dictionary
 * items and settings are only added when missing, because admins edit them afterwards.
 */
export async function seed(db: Db, opts: SeedOptions): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    const flat = flattenMenus(ADMIN_MENUS);
    // One statement each (not one per row): this runs at every start.
    await tx
      .insert(menus)
      .values(flat.map((m) => ({ code: m.code, parentCode: m.parentCode, name: m.name, nameEn: m.nameEn, path: m.path, icon: m.icon ?? null, sort: m.sort })))
      .onConflictDoUpdate({
        target: menus.code,
        set: {
          parentCode: sql`excluded.parent_code`,
          name: sql`excluded.name`,
          nameEn: sql`excluded.name_en`,
          path: sql`excluded.path`,
          icon: sql`excluded.icon`,
          sort: sql`excluded.sort`,
        },
      });
    await tx
      .insert(buttons)
      .values([...ADMIN_BUTTONS])
      .onConflictDoUpdate({ target: buttons.code, set: { name: sql`excluded.name`, menuCode: sql`excluded.menu_code` } });
    // A button may move to another menu (settings:edit went from system to systemSettings): a role
    // holding the button keeps seeing its page, so it gets the button's menu and that menu's parent.
    await tx.execute(sql`
      insert into role_menus (role_id, menu_code)
      select rb.role_id, m.code from role_buttons rb
        join buttons b on b.code = rb.button_code
        join menus bm on bm.code = b.menu_code
        join menus m on m.code = bm.code or m.code = bm.parent_code
      on conflict do nothing`);

    await tx
      .insert(dictTypes)
      .values(DICTIONARY_SEED.map((type, sort) => ({ code: type.code, name: type.name, nameEn: type.nameEn, sort })))
      .onConflictDoNothing();
    await tx
      .insert(dictItems)
      .values(DICTIONARY_SEED.flatMap((type) => type.items.map((item, sort) => ({ typeCode: type.code, code: item.code, name: item.name, nameEn: item.nameEn, sort }))))
      .onConflictDoNothing();
    await fillDictionaryEnglishNames(tx);


    await tx
      .insert(settings)
      .values([
        { key: 'contest.name', value: CONTEST_NAME_DEFAULT },
        { key: 'contest.phases', value: defaultPhases() },
        { key: 'site.dataDocMenuName', value: '数据文档' },
      ])
      .onConflictDoNothing();

    const [superRole] = await tx
      .insert(roles)
      .values({ code: 'SUPER_ADMIN', name: '超级管理员', description: '拥有全部菜单与按钮权限', builtin: true })
      .onConflictDoUpdate({ target: roles.code, set: { builtin: true } })
      .returning({ id: roles.id });
    // The built-in role always owns every menu and button, including ones added by upgrades.
    await tx
      .insert(roleMenus)
      .values(flat.map((m) => ({ roleId: superRole!.id, menuCode: m.code })))
      .onConflictDoNothing();
    await tx
      .insert(roleButtons)
      .values(ADMIN_BUTTONS.map((b) => ({ roleId: superRole!.id, buttonCode: b.code })))
      .onConflictDoNothing();

    const createdAdmin = await ensureSuperAdmin(tx, superRole!.id, opts);
    const demo = opts.demo ? await seedDemo(tx) : null;
    return { createdAdmin, demo };
  });
}

/**
 * Rows seeded before English names existed get them (docs/rules/admin.md, "Data dictionary"). Only where the English name was
 * never set (NULL: an admin who removed one leaves '') and the Chinese name is still the seeded
 * one: a row an admin renamed may no longer mean what the seeded English says. One statement per
 * table, as this runs at every start; a second run changes nothing.
 */
export async function fillDictionaryEnglishNames(tx: Db): Promise<void> {
  const types = DICTIONARY_SEED.map((t) => sql`(${t.code}, ${t.name}, ${t.nameEn})`);
  await tx.execute(sql`
    update dict_types t set name_en = v.name_en
      from (values ${sql.join(types, sql`, `)}) as v(code, name, name_en)
     where t.code = v.code and t.name = v.name and t.name_en is null`);
  const items = DICTIONARY_SEED.flatMap((t) => t.items.map((i) => sql`(${t.code}, ${i.code}, ${i.name}, ${i.nameEn})`));
  await tx.execute(sql`
    update dict_items d set name_en = v.name_en
      from (values ${sql.join(items, sql`, `)}) as v(type_code, code, name, name_en)
     where d.type_code = v.type_code and d.code = v.code and d.name = v.name and d.name_en is null`);
}

async function ensureSuperAdmin(tx: Db, roleId: string, opts: SeedOptions): Promise<SeedResult['createdAdmin']> {
  const [existing] = await tx
    .select({ id: accounts.id })
    .from(accounts)
    .where(and(eq(accounts.realm, 'ADMIN'), eq(accounts.roleCode, 'SUPER_ADMIN')))
    .limit(1);
  if (existing) return null;
  const password = opts.adminPassword ?? generatePassword();
  const [admin] = await tx
    .insert(accounts)
    .values({
      realm: 'ADMIN',
      username: opts.adminUsername,
      name: '超级管理员',
      code: 'A0001',
      roleCode: 'SUPER_ADMIN',
      passwordHash: await hashPassword(password, { bulk: true }),
    })
    .returning({ id: accounts.id });
  await tx.insert(accountRoles).values({ accountId: admin!.id, roleId });
  return { username: opts.adminUsername, password, generated: opts.adminPassword === undefined };
}

/**
 * A demo team walks the real workflow (docs/rules/team.md): saved as a draft, submitted, then decided
 * by the demo reviewer with a reason, so its history, reasons and notices are those a real team
 * would have.
 */
async function demoTeamThroughWorkflow(
  tx: Db,
  owner: { accountId: string; username: string },
  t: (typeof DEMO_TEAMS)[number],
  reviewer: { accountId: string; username: string } | undefined,
): Promise<void> {
  const team = t.team!;
  const workflow = createWorkflowService({});
  const participant = { auth: { accountId: owner.accountId, realm: 'USER' as const, username: owner.username } };
  const { status, ...fields } = team;
  // Days apart, as a real team's steps would be (and so the history has a stable order).
  const day = (n: number) => new Date(Date.now() - n * 86_400_000);
  const [row] = await tx.insert(teams).values({ ownerId: owner.accountId, ...fields, leader: t.leader, status: 'DRAFT' }).returning();
  await workflow.record(tx, { workflow: TEAM_WORKFLOW, subjectId: row!.id, from: null, to: 'DRAFT', actor: participant, at: day(5) });
  if (status === 'DRAFT') return;
  await tx.update(teams).set({ status: 'SUBMITTED', submittedAt: day(4), version: sql`${teams.version} + 1` }).where(eq(teams.id, row!.id));
  await workflow.record(tx, {
    workflow: TEAM_WORKFLOW,
    subjectId: row!.id,
    from: 'DRAFT',
    to: 'SUBMITTED',
    actor: participant,
    at: day(4),
    // Demo data never sends SMS or email.
    notice: { code: 'TEAM_SUBMITTED', ownerId: owner.accountId, vars: { teamName: team.teamName }, sms: false, email: false },
  });
  if (status === 'SUBMITTED' || !reviewer) return;
  const reason = DEMO_AUDIT_REASONS[status] ?? null;
  await tx
    .update(teams)
    .set({ status, auditReason: reason, auditedAt: day(2), version: sql`${teams.version} + 1` })
    .where(eq(teams.id, row!.id));
  await workflow.record(tx, {
    workflow: TEAM_WORKFLOW,
    subjectId: row!.id,
    from: 'SUBMITTED',
    to: status,
    reason,
    at: day(2),
    actor: { auth: { accountId: reviewer.accountId, realm: 'ADMIN', username: reviewer.username } },
    notice: {
      code: status === 'APPROVED' ? 'TEAM_APPROVED' : status === 'REVISING' ? 'TEAM_REVISING' : 'TEAM_REJECTED',
      ownerId: owner.accountId,
      vars: { teamName: team.teamName, status: TEAM_STATUS_LABELS[status], reason: reason ?? '' },
      sms: false,
      email: false,
    },
    operation: { action: 'qualification:audit', targetType: 'team', targetId: row!.id, summary: `审核报名「${team.teamName}」：${TEAM_STATUS_LABELS[status]}（演示数据）` },
  });
}

const DEMO_AUDIT_REASONS: Partial<Record<string, string>> = {
  REVISING: '单位证明材料不清晰，请重新上传加盖公章的扫描件。',
  REJECTED: '参赛单位不符合本届大赛参赛条件。',
};

async function seedDemo(tx: Db): Promise<NonNullable<SeedResult['demo']>> {
  const passwordHash = await hashPassword(DEMO_PASSWORD, { bulk: true });
  // The super admin stands in as the reviewer of the demo decisions.
  const [reviewer] = await tx
    .select({ accountId: accounts.id, username: accounts.username })
    .from(accounts)
    .where(and(eq(accounts.realm, 'ADMIN'), eq(accounts.roleCode, 'SUPER_ADMIN')))
    .limit(1);
  const [{ count }] = (await tx.select({ count: sql<number>`count(*)::int` }).from(news)) as [{ count: number }];
  if (count === 0) {
    const now = Date.now();
    await tx.insert(news).values(
      DEMO_NEWS.map((n, i) => ({
        ...n,
        status: 'PUBLISHED' as const,
        publishAt: new Date(now - (i + 1) * 86_400_000 * 3),
      })),
    );
  }

  const participants: string[] = [];
  for (const t of DEMO_TEAMS) {
    const [account] = await tx
      .insert(accounts)
      .values({ realm: 'USER', username: t.username, phone: t.phone, email: t.email, name: t.leader.name, roleCode: 'USER', passwordHash, agreedAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: accounts.id });
    participants.push(t.username);
    if (!account || !t.team) continue;
    await demoTeamThroughWorkflow(tx, { accountId: account.id, username: t.username }, t, reviewer);
  }

  for (const [i, r] of DEMO_REVIEW_TEAMS.entries()) {
    const phone = `138000001${String(i).padStart(2, '0')}`;
    const [account] = await tx
      .insert(accounts)
      .values({ realm: 'USER', username: r.username, phone, email: `${r.username}@example.com`, name: `${r.teamName}负责人`, roleCode: 'USER', passwordHash, agreedAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: accounts.id });
    participants.push(r.username);
    if (!account) continue;
    await demoReviewProject(tx, { accountId: account.id, username: r.username }, r, phone, reviewer);
  }

  {
    const d = DEMO_DRAFT_PROJECT;
    const [account] = await tx
      .insert(accounts)
      .values({ realm: 'USER', username: d.username, phone: d.phone, email: `${d.username}@example.com`, name: `${d.teamName}负责人`, roleCode: 'USER', passwordHash, agreedAt: new Date() })
      .onConflictDoNothing()
      .returning({ id: accounts.id });
    participants.push(d.username);
    if (account) {
      const team = await demoApprovedTeam(tx, { accountId: account.id, username: d.username }, d, d.phone, reviewer);
      await demoDraftMaterials(tx, { accountId: account.id, username: d.username }, team, d);
    }
  }

  const experts: string[] = [];
  for (const e of DEMO_EXPERTS) {
    const [account] = await tx
      .insert(accounts)
      .values({ realm: 'EXPERT', username: e.code.toLowerCase(), code: e.code, name: e.name, phone: e.phone, roleCode: 'EXPERT', passwordHash })
      .onConflictDoNothing()
      .returning({ id: accounts.id });
    experts.push(e.code.toLowerCase());
    if (account) await tx.insert(expertProfiles).values({ accountId: account.id, organization: e.organization, title: e.title, tracks: e.tracks });
  }
  return { password: DEMO_PASSWORD, participants, experts };
}

type DemoOwner = { accountId: string; username: string };
type DemoProject = { orgName: string; track: string; teamName: string; projectName: string };

const demoActors = (owner: DemoOwner, reviewer: DemoOwner | undefined) => {
  const participant = { auth: { accountId: owner.accountId, realm: 'USER' as const, username: owner.username } };
  const admin = reviewer ? { auth: { accountId: reviewer.accountId, realm: 'ADMIN' as const, username: reviewer.username } } : participant;
  return { participant, admin };
};
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000);

/** A demo team approved at sign-up whose materials passed the formal check (both through the workflow records). */
async function demoReviewProject(tx: Db, owner: DemoOwner, r: DemoProject, phone: string, reviewer: DemoOwner | undefined): Promise<void> {
  const workflow = createWorkflowService({});
  const { participant, admin } = demoActors(owner, reviewer);
  const day = daysAgo;
  const team = await demoApprovedTeam(tx, owner, r, phone, reviewer);
  const [doc] = await tx
    .insert(prelimDocs)
    .values({
      teamId: team.id,
      ownerId: owner.accountId,
      status: 'APPROVED',
      projectName: r.projectName,
      track: r.track,
      summary: `${r.projectName}：面向医保业务的创新应用，包含需求分析、技术方案、实施计划与预期成效。`,
      keywords: ['智慧医保', '数据应用'],
      submittedAt: day(10),
      auditedAt: day(8),
    })
    .returning();
  await workflow.record(tx, { workflow: PRELIM_WORKFLOW, subjectId: doc!.id, from: null, historyFrom: 'NOT_FILLED', to: 'SUBMITTED', actor: participant, at: day(10) });
  await workflow.record(tx, { workflow: PRELIM_WORKFLOW, subjectId: doc!.id, from: 'SUBMITTED', to: 'APPROVED', actor: admin, at: day(8) });
}

/**
 * Preliminary materials saved and not submitted (初赛材料草稿), recorded as the participant's SAVE
 * (docs/rules/prelim.md): no application file yet, as a real draft may be.
 */
async function demoDraftMaterials(tx: Db, owner: DemoOwner, team: { id: string }, r: DemoProject): Promise<void> {
  const workflow = createWorkflowService({});
  const { participant } = demoActors(owner, undefined);
  const [doc] = await tx
    .insert(prelimDocs)
    .values({
      teamId: team.id,
      ownerId: owner.accountId,
      status: 'DRAFT',
      projectName: r.projectName,
      track: r.track,
      summary: `${r.projectName}：梳理医疗服务价格项目的成本与使用数据，辅助价格动态调整的测算与评估（草稿）。`,
      keywords: ['价格治理'],
    })
    .returning();
  await workflow.record(tx, { workflow: PRELIM_WORKFLOW, subjectId: doc!.id, from: null, historyFrom: 'NOT_FILLED', to: 'DRAFT', actor: participant, at: daysAgo(3) });
}

/** A demo team submitted and approved at sign-up (through the workflow records); answers the team row. */
async function demoApprovedTeam(tx: Db, owner: DemoOwner, r: DemoProject, phone: string, reviewer: DemoOwner | undefined): Promise<{ id: string }> {
  const workflow = createWorkflowService({});
  const { participant, admin } = demoActors(owner, reviewer);
  const day = daysAgo;
  const leader = { name: `${r.teamName}负责人`, phone, email: `${owner.username}@example.com`, title: 'SENIOR' };
  const [team] = await tx
    .insert(teams)
    .values({
      ownerId: owner.accountId,
      orgName: r.orgName,
      orgType: 'MEDICAL_INSTITUTION',
      region: 'P01',
      city: '示例市',
      track: r.track,
      teamName: r.teamName,
      leader,
      members: [{ name: `${r.teamName}成员`, organization: r.orgName, title: 'INTERMEDIATE', role: 'DEVELOPER' }],
      status: 'APPROVED',
      submittedAt: day(20),
      auditedAt: day(18),
    })
    .returning();
  await workflow.record(tx, { workflow: TEAM_WORKFLOW, subjectId: team!.id, from: null, to: 'SUBMITTED', actor: participant, at: day(20) });
  await workflow.record(tx, { workflow: TEAM_WORKFLOW, subjectId: team!.id, from: 'SUBMITTED', to: 'APPROVED', actor: admin, at: day(18) });
  return team!;
}
