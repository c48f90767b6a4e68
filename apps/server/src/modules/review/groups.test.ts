import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CONTEST_MSG,
  REVIEW_MSG as M,
  type AssignPreview,
  type GroupView,
  type GroupsOverview,
  type Page,
  type ReviewRound,
  type RoundProjectRow,
} from '@contest/shared';
import { accounts, operationRecords, prelimDocs, reviewAssignments, reviewExtraExperts, reviewGroupExperts, reviewGroups, scoreSheets } from '../../db/schema.js';
import { api, seedDictionary, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type ExpertSpec, type ProjectSpec, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import type { AssignApplyResult } from './groups.service.js';

let t: TestApp;
let prelimEditor: SignedIn;
let finalEditor: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  await seedDictionary(t);
  prelimEditor = await signIn(t, { realm: 'ADMIN', buttons: ['group:edit'], name: '初赛分组管理员' });
  finalEditor = await signIn(t, { realm: 'ADMIN', buttons: ['final-group:edit'], name: '决赛分组管理员' });
  viewer = await signIn(t, { realm: 'ADMIN', menus: ['reviewGroup', 'reviewAdminGroup'] });
});
afterAll(async () => t?.close());

const db = () => t.database.db;
const SLUG = { PRELIMINARY: 'prelim', FINAL: 'final' } as const;
const BUTTON = { PRELIMINARY: 'group:edit', FINAL: 'final-group:edit' } as const;
const otherOf = (round: ReviewRound): ReviewRound => (round === 'PRELIMINARY' ? 'FINAL' : 'PRELIMINARY');
const editorOf = (round: ReviewRound) => (round === 'PRELIMINARY' ? prelimEditor : finalEditor);
const NO_ID = '00000000-0000-4000-8000-000000000000';

function calls(round: ReviewRound) {
  const url = (path: string) => `/api/admin/review/${SLUG[round]}${path}`;
  const as = (who?: SignedIn) => (who ?? editorOf(round)).headers;
  return {
    overview: (who?: SignedIn) => api<GroupsOverview>(t, 'GET', url('/groups'), { headers: as(who) }),
    create: (body: unknown, who?: SignedIn) => api<GroupView>(t, 'POST', url('/groups'), { headers: as(who), body }),
    update: (id: string, body: unknown, who?: SignedIn) => api<GroupView>(t, 'PUT', url(`/groups/${id}`), { headers: as(who), body }),
    remove: (id: string, who?: SignedIn) => api<null>(t, 'DELETE', url(`/groups/${id}`), { headers: as(who) }),
    projects: (query = '', who?: SignedIn) => api<Page<RoundProjectRow>>(t, 'GET', url(`/projects?size=100&${query}`), { headers: as(who) }),
    move: (id: string, body: unknown, who?: SignedIn) => api<RoundProjectRow>(t, 'POST', url(`/projects/${id}/move`), { headers: as(who), body }),
    preview: (who?: SignedIn) => api<AssignPreview>(t, 'POST', url('/assign/preview'), { headers: as(who), body: {} }),
    apply: (token: string, who?: SignedIn) => api<AssignApplyResult>(t, 'POST', url('/assign/apply'), { headers: as(who), body: { token } }),
  };
}

/** Projects of the round (final ones get a final entry IN). */
const projectsOf = (round: ReviewRound, specs: ProjectSpec[] | number) =>
  seedProjects(t, (typeof specs === 'number' ? Array.from({ length: specs }, () => ({})) : specs).map((s) => ({ ...s, final: round === 'FINAL' })));

async function addSheet(round: ReviewRound, prelimId: string, expertId: string, status: 'DRAFT' | 'SUBMITTED' = 'DRAFT') {
  await db().insert(scoreSheets).values({ round, prelimId, expertId, status, scores: {}, total: status === 'SUBMITTED' ? 160 : null, submittedAt: status === 'SUBMITTED' ? new Date() : null });
}

const assignmentOf = async (round: ReviewRound, prelimId: string) =>
  (await db().select().from(reviewAssignments).where(and(eq(reviewAssignments.round, round), eq(reviewAssignments.prelimId, prelimId))))[0];
const opsOf = (accountId: string, targetType: string) =>
  db().select().from(operationRecords).where(and(eq(operationRecords.accountId, accountId), eq(operationRecords.targetType, targetType))).orderBy(operationRecords.createdAt);

// Every test starts from a round with no groups and no projects: earlier tests' projects leave the rounds.
beforeEach(async () => {
  await db().delete(scoreSheets);
  await db().delete(reviewExtraExperts);
  await db().delete(reviewAssignments);
  await db().delete(reviewGroups);
  await db().update(prelimDocs).set({ status: 'SUBMITTED' }).where(eq(prelimDocs.status, 'APPROVED'));
  await db().delete(operationRecords).where(inArray(operationRecords.targetType, ['review_group', 'review_assignment']));
  await setSetting(t, 'review.minExpertsPerProject', 2);
});

describe.each(['PRELIMINARY', 'FINAL'] as const)('review groups of %s', (round) => {
  const c = calls(round);

  it('creates a group with experts, lists it with its counts, and records it', async () => {
    const [a, b] = await seedExperts(t, [{ tracks: ['SMART_SUPERVISION', 'PAYMENT_REFORM'] }, { tracks: ['PUBLIC_SERVICE'] }]);
    const res = await c.create({ name: ' 第一组 ', expertIds: [b!.accountId, a!.accountId, a!.accountId] });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.groupSaved);
    expect(res.body.data).toMatchObject({ name: '第一组', version: 1, projectCount: 0, sheetCount: 0 });
    expect(res.body.data.experts.map((e) => e.id).sort()).toEqual([a!.accountId, b!.accountId].sort());
    expect(res.body.data.experts.find((e) => e.id === a!.accountId)).toMatchObject({ code: a!.code, name: a!.name, enabled: true, tracks: ['SMART_SUPERVISION', 'PAYMENT_REFORM'] });
    expect([...res.body.data.tracks].sort()).toEqual(['PAYMENT_REFORM', 'PUBLIC_SERVICE', 'SMART_SUPERVISION']);

    const [p1, p2, p3] = await projectsOf(round, 3);
    await db().insert(reviewAssignments).values([p1!, p2!].map((prelimId) => ({ round, prelimId, groupId: res.body.data.id, source: 'MANUAL' as const })));
    await addSheet(round, p1!, a!.accountId);
    await addSheet(round, p2!, b!.accountId, 'SUBMITTED');
    const overview = await c.overview();
    expect(overview.statusCode).toBe(200);
    expect(overview.body.data).toMatchObject({ round, eligible: 3, unassigned: 1, minExperts: 2 });
    expect(overview.body.data.groups).toHaveLength(1);
    expect(overview.body.data.groups[0]).toMatchObject({ id: res.body.data.id, projectCount: 2, sheetCount: 2 });
    expect(p3).toBeDefined();
    // The other round sees none of its groups (final projects are preliminary ones too).
    expect((await calls(otherOf(round)).overview(editorOf(otherOf(round)))).body.data).toMatchObject({ groups: [], eligible: round === 'FINAL' ? 3 : 0 });

    const [op] = await opsOf(editorOf(round).accountId, 'review_group');
    expect(op).toMatchObject({ action: BUTTON[round], targetId: res.body.data.id });
    expect(op!.summary).toContain('第一组');
    expect(op!.summary).toContain(a!.name);
  });

  it('refuses a taken name, an expert of another group, a disabled or unknown expert, writing nothing', async () => {
    const [a, b, off] = await seedExperts(t, [{}, {}, { enabled: false }]);
    const admin = await signIn(t, { realm: 'ADMIN' });
    const first = await c.create({ name: '甲组', expertIds: [a!.accountId] });
    expect(first.statusCode).toBe(200);
    const groupsBefore = await db().select().from(reviewGroups);

    const taken = await c.create({ name: '甲组', expertIds: [] });
    expect(taken.body).toMatchObject({ status: 400, message: M.groupNameTaken });
    const elsewhere = await c.create({ name: '乙组', expertIds: [b!.accountId, a!.accountId] });
    expect(elsewhere.body).toMatchObject({ status: 400, message: M.groupExpertInOtherGroup, data: { expertIds: [a!.accountId] } });
    expect(elsewhere.body.data).toMatchObject({ experts: [{ id: a!.accountId, name: a!.name, groupName: '甲组' }] });
    const disabled = await c.create({ name: '乙组', expertIds: [off!.accountId] });
    expect(disabled.body).toMatchObject({ status: 400, message: M.groupExpertDisabled, data: { expertIds: [off!.accountId] } });
    const unknown = await c.create({ name: '乙组', expertIds: [NO_ID] });
    expect(unknown.body).toMatchObject({ status: 404, message: M.expertNotFound });
    // An admin account is not an expert.
    expect((await c.create({ name: '乙组', expertIds: [admin.accountId] })).body).toMatchObject({ status: 404, message: M.expertNotFound });
    expect((await c.create({ name: '', expertIds: [] })).body).toMatchObject({ status: 400, message: M.groupNameRequired });
    expect((await c.create({ name: '组'.repeat(31), expertIds: [] })).body).toMatchObject({ status: 400, message: M.groupNameTooLong });
    expect((await c.create({ name: '乙组', expertIds: Array.from({ length: 51 }, () => NO_ID) })).body).toMatchObject({ status: 400, message: M.groupExpertsTooMany });
    expect(await db().select().from(reviewGroups)).toEqual(groupsBefore);
    expect(await opsOf(editorOf(round).accountId, 'review_group')).toHaveLength(1);

    // The same expert may sit in a group of the other round.
    expect((await calls(otherOf(round)).create({ name: '甲组', expertIds: [a!.accountId] }, editorOf(otherOf(round)))).statusCode).toBe(200);
  });

  it('edits name and experts with the version seen; a stale version or a taken name is refused', async () => {
    const [a, b, x] = await seedExperts(t, 3);
    const g = (await c.create({ name: '一组', expertIds: [a!.accountId] })).body.data;
    await c.create({ name: '二组', expertIds: [x!.accountId] });
    const res = await c.update(g.id, { name: '一组（改）', expertIds: [b!.accountId], version: g.version });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ name: '一组（改）', version: 2 });
    expect(res.body.data.experts.map((e) => e.id)).toEqual([b!.accountId]);

    const stale = await c.update(g.id, { name: '一组', expertIds: [], version: 1 });
    expect(stale.body).toMatchObject({ status: 400, message: CONTEST_MSG.stale, data: { reason: 'STALE' } });
    expect((await c.update(g.id, { name: '二组', expertIds: [b!.accountId], version: 2 })).body).toMatchObject({ status: 400, message: M.groupNameTaken });
    expect((await c.update(g.id, { name: '一组', expertIds: [x!.accountId], version: 2 })).body).toMatchObject({ status: 400, message: M.groupExpertInOtherGroup, data: { expertIds: [x!.accountId] } });
    expect((await c.update(NO_ID, { name: '一组', expertIds: [] })).body).toMatchObject({ status: 404, message: M.groupNotFound });
    // A group of the other round is not found through this round.
    const otherGroup = await seedGroup(t, otherOf(round), [], []);
    expect((await c.update(otherGroup, { name: '一组', expertIds: [] })).body).toMatchObject({ status: 404, message: M.groupNotFound });
    const [row] = await db().select().from(reviewGroups).where(eq(reviewGroups.id, g.id));
    expect(row).toMatchObject({ name: '一组（改）', version: 2 });

    const [op] = (await opsOf(editorOf(round).accountId, 'review_group')).filter((o) => o.targetId === g.id && o.summary.startsWith('修改'));
    expect(op!.summary).toContain('名称 一组 -> 一组（改）');
    expect(op!.summary).toContain(`加入专家 ${b!.name}`);
    expect(op!.summary).toContain(`移出专家 ${a!.name}`);
  });

  it('keeps an expert who has a sheet in the group, and keeps a disabled member on an edit', async () => {
    const [a, b] = await seedExperts(t, 2);
    const [p] = await projectsOf(round, 1);
    const g = (await c.create({ name: '评分组', expertIds: [a!.accountId, b!.accountId] })).body.data;
    await db().insert(reviewAssignments).values({ round, prelimId: p!, groupId: g.id, source: 'MANUAL' });
    await addSheet(round, p!, a!.accountId);
    const res = await c.update(g.id, { name: '评分组', expertIds: [b!.accountId], version: g.version });
    expect(res.body).toMatchObject({ status: 400, message: M.groupExpertHasScores, data: { expertIds: [a!.accountId] } });
    expect((await db().select().from(reviewGroupExperts).where(eq(reviewGroupExperts.groupId, g.id))).map((r) => r.expertId).sort()).toEqual([a!.accountId, b!.accountId].sort());

    await db().update(accounts).set({ enabled: false }).where(eq(accounts.id, b!.accountId));
    const renamed = await c.update(g.id, { name: '评分组二', expertIds: [a!.accountId, b!.accountId], version: g.version });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.body.data.experts.find((e) => e.id === b!.accountId)?.enabled).toBe(false);
    // b is removable: b's sheets are none.
    expect((await c.update(g.id, { name: '评分组二', expertIds: [a!.accountId], version: 2 })).statusCode).toBe(200);
  });

  it('deletes a group without sheets (its projects become unassigned), refuses one with sheets', async () => {
    const [a] = await seedExperts(t, 1);
    const [p1, p2] = await projectsOf(round, 2);
    const g = (await c.create({ name: '删组', expertIds: [a!.accountId] })).body.data;
    await db().insert(reviewAssignments).values([p1!, p2!].map((prelimId) => ({ round, prelimId, groupId: g.id, source: 'MANUAL' as const })));
    await addSheet(round, p2!, a!.accountId, 'SUBMITTED');
    const refused = await c.remove(g.id);
    expect(refused.body).toMatchObject({ status: 400, message: M.groupHasScores });
    expect(await assignmentOf(round, p1!)).toBeDefined();

    await db().delete(scoreSheets);
    const res = await c.remove(g.id);
    expect(res.body).toMatchObject({ status: 200, message: M.groupDeleted });
    expect(await db().select().from(reviewGroups).where(eq(reviewGroups.id, g.id))).toEqual([]);
    expect(await db().select().from(reviewGroupExperts).where(eq(reviewGroupExperts.groupId, g.id))).toEqual([]);
    expect(await assignmentOf(round, p1!)).toBeUndefined();
    expect((await c.overview()).body.data).toMatchObject({ groups: [], eligible: 2, unassigned: 2 });
    expect((await c.remove(g.id)).body).toMatchObject({ status: 404, message: M.groupNotFound });
    const ops = await opsOf(editorOf(round).accountId, 'review_group');
    expect(ops.at(-1)!.summary).toContain('删组');
    expect(ops.at(-1)!.summary).toContain('2 个项目回到待分配');
  });

  it('two admins adding one expert to two groups at once: one succeeds, the other is told the expert is taken', async () => {
    const [a] = await seedExperts(t, 1);
    const second = await signIn(t, { realm: 'ADMIN', buttons: [BUTTON[round]] });
    const [r1, r2] = await Promise.all([c.create({ name: '并发一', expertIds: [a!.accountId] }), c.create({ name: '并发二', expertIds: [a!.accountId] }, second)]);
    expect([r1.statusCode, r2.statusCode].sort()).toEqual([200, 400]);
    const loser = r1.statusCode === 400 ? r1 : r2;
    expect(loser.body).toMatchObject({ message: M.groupExpertInOtherGroup, data: { expertIds: [a!.accountId] } });
    expect(await db().select().from(reviewGroupExperts).where(and(eq(reviewGroupExperts.round, round), eq(reviewGroupExperts.expertId, a!.accountId)))).toHaveLength(1);
    expect(await db().select().from(reviewGroups).where(eq(reviewGroups.round, round))).toHaveLength(1);
  });

  it('a unique violation the checks did not see is answered as the expert being taken', async () => {
    // What the round lock prevents, forced: the row appears between the check and the insert.
    const [a] = await seedExperts(t, 1);
    const g = (await c.create({ name: '甲', expertIds: [] })).body.data;
    const other = await seedGroup(t, round, [], []);
    await db().execute(
      sql.raw(`create or replace function test_sneak() returns trigger language plpgsql as $$ begin if new.group_id = '${g.id}' then insert into review_group_experts (group_id, round, expert_id) values ('${other}', new.round, new.expert_id); end if; return new; end $$`),
    );
    await db().execute(sql.raw('create trigger test_sneak before insert on review_group_experts for each row execute function test_sneak()'));
    try {
      const res = await c.update(g.id, { name: '甲', expertIds: [a!.accountId], version: g.version });
      expect(res.body).toMatchObject({ status: 400, message: M.groupExpertInOtherGroup });
      expect(await db().select().from(reviewGroupExperts).where(eq(reviewGroupExperts.expertId, a!.accountId))).toEqual([]);
    } finally {
      await db().execute(sql.raw('drop trigger test_sneak on review_group_experts'));
      await db().execute(sql.raw('drop function test_sneak'));
    }
  });
});

describe.each(['PRELIMINARY', 'FINAL'] as const)('projects of %s', (round) => {
  const c = calls(round);

  it('lists projects with group, expected scorers, scores in and conflicts with their cause', async () => {
    const [p1, p2, p3] = await projectsOf(round, [
      { projectName: '甲项目', orgName: '某某医院有限公司', creditCode: '91110000MA00000001', track: 'SMART_SUPERVISION' },
      { projectName: '乙项目', orgName: '乙单位', track: 'PAYMENT_REFORM' },
      { projectName: '丙项目', orgName: '丙单位', track: 'PUBLIC_SERVICE' },
    ]);
    const [sameName, sameCode, plain, off] = await seedExperts(t, [
      { organization: '某某医院（有限公司）' },
      { organization: '别的名字', orgCreditCode: '91110000ma00000001' },
      {},
      { enabled: false },
    ] satisfies ExpertSpec[]);
    const g = await seedGroup(t, round, [sameName, sameCode, plain, off].map((e) => e!.accountId), [p1!, p2!], '一组');
    await addSheet(round, p2!, plain!.accountId, 'SUBMITTED');
    await addSheet(round, p2!, sameName!.accountId, 'DRAFT');

    const res = await c.projects();
    expect(res.statusCode).toBe(200);
    expect(res.body.data.total).toBe(3);
    const byId = new Map(res.body.data.list.map((r) => [r.id, r]));
    const row1 = byId.get(p1!)!;
    expect(row1).toMatchObject({ projectName: '甲项目', orgName: '某某医院有限公司', track: 'SMART_SUPERVISION', groupId: g, groupName: '一组', source: 'MANUAL', reason: 'test' });
    // Two experts in conflict and one disabled: one scorer left.
    expect(row1.expected).toBe(1);
    expect(row1.conflicts.map((x) => [x.expertId, x.cause.kind]).sort()).toEqual(
      [
        [sameName!.accountId, 'NAME'],
        [sameCode!.accountId, 'CREDIT_CODE'],
      ].sort(),
    );
    expect(row1.conflicts.find((x) => x.expertId === sameName!.accountId)).toMatchObject({ expertCode: sameName!.code, expertName: sameName!.name, cause: { via: 'OWN', teamOrg: '某某医院有限公司' } });
    expect(row1).toMatchObject({ scoresIn: 0, hasSheets: false });
    expect(byId.get(p2!)).toMatchObject({ expected: 3, conflicts: [], scoresIn: 1, hasSheets: true });
    expect(byId.get(p3!)).toMatchObject({ groupId: null, groupName: null, source: null, reason: null, expected: 0, conflicts: [], scoresIn: 0, hasSheets: false });

    const ids = async (q: string) => (await c.projects(q)).body.data.list.map((r) => r.id).sort();
    expect(await ids(`groupId=${g}`)).toEqual([p1!, p2!].sort());
    expect(await ids('groupId=none')).toEqual([p3!]);
    expect(await ids('track=PAYMENT_REFORM')).toEqual([p2!]);
    expect(await ids(`keyword=${encodeURIComponent('丙单')}`)).toEqual([p3!]);
    expect(await ids(`keyword=${encodeURIComponent('乙项')}`)).toEqual([p2!]);
    const page2 = (await api<Page<RoundProjectRow>>(t, 'GET', `/api/admin/review/${SLUG[round]}/projects?size=2&page=2`, { headers: viewer.headers })).body.data;
    expect(page2).toMatchObject({ page: 2, size: 2, total: 3 });
    expect(page2.list).toHaveLength(1);
    expect((await c.projects('groupId=abc')).statusCode).toBe(400);
  });

  it('re-review experts count in expected; a project outside the round is not listed', async () => {
    const [inRound] = await projectsOf(round, 1);
    const [outside] = await seedProjects(t, [{ final: false }]);
    const [a, extra] = await seedExperts(t, 2);
    await seedGroup(t, round, [a!.accountId], [inRound!]);
    await db().insert(reviewExtraExperts).values({ round, prelimId: inRound!, expertId: extra!.accountId, reason: '复评' });
    const list = (await c.projects()).body.data.list;
    expect(list.find((r) => r.id === inRound)?.expected).toBe(2);
    if (round === 'FINAL') expect(list.map((r) => r.id)).not.toContain(outside);
    else expect(list.map((r) => r.id)).toContain(outside);
  });

  it('moves a project into a group, to another and out, with the reason; records each move', async () => {
    const [p] = await projectsOf(round, [{ projectName: '移动项目' }]);
    const [a, b] = await seedExperts(t, 2);
    const g1 = await seedGroup(t, round, [a!.accountId], [], '一组');
    const g2 = await seedGroup(t, round, [b!.accountId], [], '二组');
    const into = await c.move(p!, { groupId: g1 });
    expect(into.body).toMatchObject({ status: 200, message: M.projectMoved, data: { id: p, groupId: g1, groupName: '一组', source: 'MANUAL', reason: '手动调整', expected: 1 } });
    expect(await assignmentOf(round, p!)).toMatchObject({ groupId: g1, source: 'MANUAL', reason: '手动调整', actorId: editorOf(round).accountId });
    const across = await c.move(p!, { groupId: g2, reason: ' 专业更匹配 ' });
    expect(across.body.data).toMatchObject({ groupId: g2, reason: '专业更匹配' });
    const out = await c.move(p!, { groupId: null });
    expect(out.body.data).toMatchObject({ groupId: null, source: null, expected: 0 });
    expect(await assignmentOf(round, p!)).toBeUndefined();
    const summaries = (await opsOf(editorOf(round).accountId, 'review_assignment')).map((o) => o.summary);
    expect(summaries).toHaveLength(3);
    expect(summaries[0]).toContain('「移动项目」分组：未分组 -> 一组；原因：手动调整');
    expect(summaries[1]).toContain('一组 -> 二组；原因：专业更匹配');
    expect(summaries[2]).toContain('二组 -> 未分组');
  });

  it('refuses to move a project with a sheet, an unknown project or group, or a group of the other round', async () => {
    const [p, q] = await projectsOf(round, 2);
    const [a] = await seedExperts(t, 1);
    const g1 = await seedGroup(t, round, [a!.accountId], [p!], '一组');
    const g2 = await seedGroup(t, round, [], [], '二组');
    await addSheet(round, p!, a!.accountId);
    expect((await c.move(p!, { groupId: g2 })).body).toMatchObject({ status: 400, message: M.projectHasScores });
    expect((await c.move(p!, { groupId: null })).body).toMatchObject({ status: 400, message: M.projectHasScores });
    expect(await assignmentOf(round, p!)).toMatchObject({ groupId: g1 });

    expect((await c.move(NO_ID, { groupId: g2 })).body).toMatchObject({ status: 404, message: M.projectNotFound });
    const [notInRound] = await seedProjects(t, [{}]);
    await db().update(prelimDocs).set({ status: 'REVISING' }).where(eq(prelimDocs.id, notInRound!));
    expect((await c.move(notInRound!, { groupId: g2 })).body).toMatchObject({ status: 404, message: M.projectNotFound });
    if (round === 'FINAL') {
      const [prelimOnly] = await seedProjects(t, [{}]);
      expect((await c.move(prelimOnly!, { groupId: g2 })).body).toMatchObject({ status: 404, message: M.projectNotFound });
    }
    expect((await c.move(q!, { groupId: NO_ID })).body).toMatchObject({ status: 404, message: M.groupNotFound });
    const foreign = await seedGroup(t, otherOf(round), [], []);
    expect((await c.move(q!, { groupId: foreign })).body).toMatchObject({ status: 404, message: M.groupNotFound });
    expect((await c.move(q!, { groupId: g2, reason: '因'.repeat(201) })).body).toMatchObject({ status: 400, message: M.reasonTooLong });
    expect(await assignmentOf(round, q!)).toBeUndefined();
    expect(await opsOf(editorOf(round).accountId, 'review_assignment')).toEqual([]);
  });
});

describe.each(['PRELIMINARY', 'FINAL'] as const)('automatic assignment of %s', (round) => {
  const c = calls(round);

  it('previews placements by track and balance, with conflicts out of expected; apply places them', async () => {
    const [s1, s2, s3, pay1, pay2] = await seedExperts(t, [
      { tracks: ['SMART_SUPERVISION'], organization: '冲突医院' },
      { tracks: ['SMART_SUPERVISION'] },
      { tracks: ['SMART_SUPERVISION'] },
      { tracks: ['PAYMENT_REFORM'] },
      { tracks: ['PAYMENT_REFORM'] },
    ]);
    const g1 = await seedGroup(t, round, [s1!.accountId, s2!.accountId, s3!.accountId], [], '监管一组');
    const g2 = await seedGroup(t, round, [pay1!.accountId, pay2!.accountId], [], '支付组');
    const projects = await projectsOf(round, [
      { track: 'SMART_SUPERVISION', orgName: '冲突医院' },
      { track: 'SMART_SUPERVISION' },
      { track: 'PAYMENT_REFORM' },
      { track: 'PAYMENT_REFORM' },
    ]);
    const preview = await c.preview();
    expect(preview.statusCode).toBe(200);
    const { token, placements, problems, loads, minExperts } = preview.body.data;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    // The setting the placements had to meet, so the page can say where a refusal comes from.
    expect(minExperts).toBe(2);
    expect(problems).toEqual([]);
    const placed = new Map(placements.map((x) => [x.projectId, x]));
    expect(placed.get(projects[0]!)).toMatchObject({ groupId: g1, groupName: '监管一组', expected: 2, track: 'SMART_SUPERVISION' });
    expect(placed.get(projects[0]!)!.conflicts).toMatchObject([{ expertId: s1!.accountId, cause: { kind: 'NAME' } }]);
    expect(placed.get(projects[0]!)!.reason).toContain('智能监管与基金安全');
    expect(placed.get(projects[1]!)).toMatchObject({ groupId: g1, expected: 3 });
    expect(placed.get(projects[2]!)).toMatchObject({ groupId: g2, expected: 2, groupName: '支付组' });
    // In the round's group order (sort, creation time, id): two groups seeded in the same
    // millisecond fall back to their random ids, so the order is not part of this check.
    expect([...loads].sort((x, y) => x.name.localeCompare(y.name, 'zh'))).toEqual(
      [
        { groupId: g1, name: '监管一组', before: 0, after: 2 },
        { groupId: g2, name: '支付组', before: 0, after: 2 },
      ].sort((x, y) => x.name.localeCompare(y.name, 'zh')),
    );
    // A preview writes nothing.
    expect(await db().select().from(reviewAssignments).where(eq(reviewAssignments.round, round))).toEqual([]);

    const applied = await c.apply(token);
    expect(applied.body).toMatchObject({ status: 200, message: M.assignApplied, data: { assigned: 4, problems: [] } });
    const a0 = await assignmentOf(round, projects[0]!);
    expect(a0).toMatchObject({ groupId: g1, source: 'AUTO', actorId: editorOf(round).accountId });
    expect(a0!.reason).toBe(placed.get(projects[0]!)!.reason);
    expect((await c.overview()).body.data).toMatchObject({ eligible: 4, unassigned: 0 });
    const row = (await c.projects()).body.data.list.find((r) => r.id === projects[0]);
    expect(row).toMatchObject({ source: 'AUTO', expected: 2 });
    const ops = await opsOf(editorOf(round).accountId, 'review_assignment');
    expect(ops).toHaveLength(1);
    expect(ops[0]!.summary).toContain('分配 4 个，0 个未能分配');

    // Applying the same preview again: stale, nothing placed twice.
    expect((await c.apply(token)).body).toMatchObject({ status: 400, message: M.assignStale, data: { reason: 'STALE' } });
    expect((await c.preview()).body).toMatchObject({ status: 400, message: M.assignNothing });
  });

  it('reports projects that would have too few experts and leaves them unassigned', async () => {
    await setSetting(t, 'review.minExpertsPerProject', 3);
    const [a, b, x] = await seedExperts(t, [{ organization: '回避单位' }, {}, {}]);
    const g = await seedGroup(t, round, [a!.accountId, b!.accountId, x!.accountId], [], '唯一组');
    const [ok, short] = await projectsOf(round, [{}, { orgName: '回避单位' }]);
    const preview = (await c.preview()).body.data;
    expect(preview.placements.map((p) => p.projectId)).toEqual([ok]);
    expect(preview.problems).toMatchObject([{ projectId: short, code: 'TOO_FEW_EXPERTS' }]);
    expect(preview.problems[0]!.projectName).toMatch(/^项目/);
    const applied = (await c.apply(preview.token)).body.data;
    expect(applied).toMatchObject({ assigned: 1, problems: [{ projectId: short, code: 'TOO_FEW_EXPERTS' }] });
    expect(await assignmentOf(round, ok!)).toMatchObject({ groupId: g });
    expect(await assignmentOf(round, short!)).toBeUndefined();
  });

  it('only enabled experts count; a disabled expert after the preview makes it stale', async () => {
    const [a, b, c3] = await seedExperts(t, [{}, {}, {}]);
    await seedGroup(t, round, [a!.accountId, b!.accountId, c3!.accountId], []);
    await projectsOf(round, 2);
    const preview = (await c.preview()).body.data;
    expect(preview.placements.every((p) => p.expected === 3)).toBe(true);
    await db().update(accounts).set({ enabled: false }).where(eq(accounts.id, c3!.accountId));
    expect((await c.apply(preview.token)).body).toMatchObject({ status: 400, message: M.assignStale, data: { reason: 'STALE' } });
    const again = (await c.preview()).body.data;
    expect(again.placements.every((p) => p.expected === 2)).toBe(true);
    expect(await db().select().from(reviewAssignments).where(eq(reviewAssignments.round, round))).toEqual([]);
  });

  it('apply after a change (a project moved, a group edited, a project added) is stale and writes nothing', async () => {
    const [a, b] = await seedExperts(t, 2);
    const g = await seedGroup(t, round, [a!.accountId, b!.accountId], [], '组');
    const [p1] = await projectsOf(round, 2);
    const first = (await c.preview()).body.data;
    await c.move(p1!, { groupId: g });
    expect((await c.apply(first.token)).body).toMatchObject({ status: 400, message: M.assignStale });

    const second = (await c.preview()).body.data;
    const view = (await c.overview()).body.data.groups[0]!;
    await c.update(g, { name: '组（改名）', expertIds: [a!.accountId, b!.accountId], version: view.version });
    expect((await c.apply(second.token)).body).toMatchObject({ status: 400, message: M.assignStale });

    const third = (await c.preview()).body.data;
    await projectsOf(round, 1);
    expect((await c.apply(third.token)).body).toMatchObject({ status: 400, message: M.assignStale });

    await setSetting(t, 'review.minExpertsPerProject', 1);
    expect((await c.apply((await c.preview()).body.data.token)).body.data.assigned).toBe(2);
    expect(await opsOf(editorOf(round).accountId, 'review_assignment')).toHaveLength(2);
  });

  it('two applies of one preview: one places, the other is stale; no project is placed twice', async () => {
    const [a, b] = await seedExperts(t, 2);
    await seedGroup(t, round, [a!.accountId], [], '甲');
    await seedGroup(t, round, [b!.accountId], [], '乙');
    await setSetting(t, 'review.minExpertsPerProject', 1);
    const projects = await projectsOf(round, 6);
    const { token } = (await c.preview()).body.data;
    const second = await signIn(t, { realm: 'ADMIN', buttons: [BUTTON[round]] });
    const [r1, r2] = await Promise.all([c.apply(token), c.apply(token, second)]);
    const results = [r1, r2].map((r) => (r.statusCode === 200 ? r.body.data.assigned : r.body.message));
    expect(results.sort()).toEqual([6, M.assignStale].sort());
    const rows = await db().select().from(reviewAssignments).where(and(eq(reviewAssignments.round, round), inArray(reviewAssignments.prelimId, projects)));
    expect(rows).toHaveLength(6);
  });

  it('refuses a preview with no groups, or with nothing to place', async () => {
    await projectsOf(round, 1);
    expect((await c.preview()).body).toMatchObject({ status: 400, message: M.assignNoGroups });
    expect((await c.apply('x'.repeat(64))).body).toMatchObject({ status: 400, message: M.assignStale });
    await db().update(prelimDocs).set({ status: 'SUBMITTED' }).where(eq(prelimDocs.status, 'APPROVED'));
    await seedGroup(t, round, [], []);
    expect((await c.preview()).body).toMatchObject({ status: 400, message: M.assignNothing });
    expect((await c.apply('')).statusCode).toBe(400);
  });
});

describe('who may call', () => {
  const routes = (round: ReviewRound, write: boolean) => {
    const base = `/api/admin/review/${SLUG[round]}`;
    return write
      ? ([
          ['PUT', `${base}/rubric`, { criteria: [{ name: '唯一', max: 100 }] }],
          ['POST', `${base}/groups`, { name: '权限组', expertIds: [] }],
          ['PUT', `${base}/groups/${NO_ID}`, { name: '权限组', expertIds: [] }],
          ['DELETE', `${base}/groups/${NO_ID}`, undefined],
          ['POST', `${base}/projects/${NO_ID}/move`, { groupId: null }],
          ['POST', `${base}/assign/preview`, {}],
          ['POST', `${base}/assign/apply`, { token: 'x' }],
        ] as const)
      : ([
          ['GET', `${base}/rubric`, undefined],
          ['GET', `${base}/groups`, undefined],
          ['GET', `${base}/projects`, undefined],
        ] as const);
  };

  it.each(['PRELIMINARY', 'FINAL'] as const)('%s: 401 anonymous or expert; 403 with only the other round; the menu reads but cannot write', async (round) => {
    const expert = (await seedExperts(t, 1))[0] as SeededExpert;
    const other = editorOf(otherOf(round));
    const otherMenu = await signIn(t, { realm: 'ADMIN', menus: [round === 'PRELIMINARY' ? 'reviewAdminGroup' : 'reviewGroup'] });
    for (const [method, url, body] of [...routes(round, false), ...routes(round, true)]) {
      expect((await api(t, method, url, { body })).statusCode, `${method} ${url}`).toBe(401);
      expect((await api(t, method, url, { headers: expert.headers, body })).statusCode, `${method} ${url}`).toBe(401);
      expect((await api(t, method, url, { headers: other.headers, body })).statusCode, `${method} ${url}`).toBe(403);
      expect((await api(t, method, url, { headers: otherMenu.headers, body })).statusCode, `${method} ${url}`).toBe(403);
    }
    for (const [method, url] of routes(round, false)) expect((await api(t, method, url, { headers: viewer.headers })).statusCode, url).toBe(200);
    for (const [method, url, body] of routes(round, true)) expect((await api(t, method, url, { headers: viewer.headers, body })).statusCode, `${method} ${url}`).toBe(403);
    expect(await db().select().from(reviewGroups)).toEqual([]);
  });
});
