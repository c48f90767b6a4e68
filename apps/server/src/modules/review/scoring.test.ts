import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  CONTEST_MSG,
  DEFAULT_RUBRICS,
  REVIEW_MSG as M,
  type ExpertOverview,
  type ExpertProjectDetail,
  type ExpertProjectRow,
  type Page,
  type SheetView,
} from '@contest/shared';
import { messageRecipients, messages, operationRecords, prelimDocs, reviewExtraExperts, scoreSheetRevisions, scoreSheets, statusHistory, teams } from '../../db/schema.js';
import { api, endedWindow, futureWindow, openWindow, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { checkScores } from './scoring.service.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { realm: 'ADMIN', buttons: ['score:return', 'final-score:return'], name: '评审管理员' });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await setSetting(t, 'contest.phases', { prelimReview: openWindow(), finalReview: openWindow() });
  await setSetting(t, 'review.blind', undefined);
});

const db = () => t.database.db;
const base = '/api/expert/review';

const full = { innovation: 20, feasibility: 18.5, value: 25, completeness: 15 };
const fullTotal = 78.5;

const overview = (e: SeededExpert) => api<ExpertOverview>(t, 'GET', `${base}/overview`, { headers: e.headers });
const list = (e: SeededExpert, q = '', slug = 'prelim') => api<Page<ExpertProjectRow>>(t, 'GET', `${base}/${slug}/list${q ? `?${q}` : ''}`, { headers: e.headers });
const detail = (e: SeededExpert, id: string, slug = 'prelim') => api<ExpertProjectDetail>(t, 'GET', `${base}/${slug}/${id}`, { headers: e.headers });
const save = (e: SeededExpert, id: string, body: unknown, slug = 'prelim') => api<ExpertProjectDetail>(t, 'PUT', `${base}/${slug}/${id}/sheet`, { headers: e.headers, body });
const submit = (e: SeededExpert, id: string, body: unknown, slug = 'prelim') => api<ExpertProjectDetail>(t, 'POST', `${base}/${slug}/${id}/sheet/submit`, { headers: e.headers, body });
const returnSheet = (sheetId: string, body: unknown, slug = 'prelim', who: SignedIn = admin) =>
  api<SheetView>(t, 'POST', `/api/admin/review/${slug}/sheets/${sheetId}/return`, { headers: who.headers, body });
const rereview = (id: string, body: unknown, slug = 'prelim', who: SignedIn = admin) =>
  api<{ added: number; returned: number }>(t, 'POST', `/api/admin/review/${slug}/projects/${id}/rereview`, { headers: who.headers, body });

const sheetsOf = (prelimId: string) => db().select().from(scoreSheets).where(eq(scoreSheets.prelimId, prelimId)).orderBy(asc(scoreSheets.createdAt));
const revisionsOf = (sheetId: string) => db().select().from(scoreSheetRevisions).where(eq(scoreSheetRevisions.sheetId, sheetId)).orderBy(asc(scoreSheetRevisions.returnedAt));
const historyOf = (sheetId: string) =>
  db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'SHEET'), eq(statusHistory.subjectId, sheetId))).orderBy(asc(statusHistory.createdAt));
const inbox = (accountId: string) =>
  db()
    .select({ title: messages.title, body: messages.body })
    .from(messageRecipients)
    .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
    .where(eq(messageRecipients.accountId, accountId))
    .orderBy(asc(messages.createdAt));
const operationsOf = (accountId: string) => db().select().from(operationRecords).where(eq(operationRecords.accountId, accountId)).orderBy(asc(operationRecords.createdAt));
const projectOf = async (prelimId: string) =>
  (await db().select({ doc: prelimDocs, team: teams }).from(prelimDocs).innerJoin(teams, eq(teams.id, prelimDocs.teamId)).where(eq(prelimDocs.id, prelimId)))[0]!;
const ownerOf = async (prelimId: string) => (await db().select({ ownerId: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.id, prelimId)))[0]!.ownerId;

/** Two projects (names in list order) in one group of two experts. */
async function setup(round: 'PRELIMINARY' | 'FINAL' = 'PRELIMINARY') {
  const k = Math.random().toString(36).slice(2, 8);
  const projects = await seedProjects(t, [
    { projectName: `${k}-A智能审核`, final: round === 'FINAL' },
    { projectName: `${k}-B医保画像`, final: round === 'FINAL' },
  ]);
  const experts = await seedExperts(t, 2);
  await seedGroup(t, round, experts.map((e) => e.accountId), projects);
  return { projects, experts, k };
}

describe('the expert journey', () => {
  it('overview, list, detail, draft, submit, locked, returned, rescored and resubmitted; revisions kept', async () => {
    const { projects: [p1, p2], experts: [e1, e2] } = await setup();

    const ov = (await overview(e1!)).body.data;
    expect(ov.agreed).toBe(true);
    expect(ov.rounds.find((r) => r.round === 'PRELIMINARY')).toMatchObject({ open: true, assigned: 2, notStarted: 2, draft: 0, submitted: 0, returned: 0 });
    expect(ov.rounds.find((r) => r.round === 'FINAL')).toMatchObject({ open: true, assigned: 0 });

    const rows = (await list(e1!)).body.data;
    expect(rows.total).toBe(2);
    expect(rows.list.map((r) => [r.id, r.status, r.total])).toEqual([
      [p1, 'NONE', null],
      [p2, 'NONE', null],
    ]);

    const first = (await detail(e1!, p1!)).body.data;
    expect(first).toMatchObject({ id: p1, round: 'PRELIMINARY', sheet: null, editable: true, open: true, prevId: null, nextId: p2, blind: true, team: null });
    expect(first.criteria).toEqual(DEFAULT_RUBRICS.PRELIMINARY);
    expect((await detail(e1!, p2!)).body.data).toMatchObject({ prevId: p1, nextId: null });

    // Draft: some criteria may be missing.
    const drafted = await save(e1!, p1!, { scores: { innovation: 20 }, comment: '初稿' });
    expect(drafted.statusCode).toBe(200);
    expect(drafted.body.message).toBe(M.sheetSaved);
    expect(drafted.body.data.sheet).toMatchObject({ status: 'DRAFT', scores: { innovation: 20 }, total: 20, comment: '初稿', version: 1, submittedAt: null });
    const [row] = await sheetsOf(p1!);
    expect(row).toMatchObject({ status: 'DRAFT', total: 40, expertId: e1!.accountId, round: 'PRELIMINARY' });

    // Another expert never sees it.
    expect((await detail(e2!, p1!)).body.data.sheet).toBeNull();
    expect((await list(e2!)).body.data.list.find((r) => r.id === p1)!.status).toBe('NONE');

    const submitted = await submit(e1!, p1!, { scores: full, comment: '创新性突出', version: 1 });
    expect(submitted.statusCode).toBe(200);
    expect(submitted.body.message).toBe(M.sheetSubmitted);
    expect(submitted.body.data.sheet).toMatchObject({ status: 'SUBMITTED', total: fullTotal, version: 2 });
    expect(submitted.body.data.sheet!.submittedAt).not.toBeNull();
    expect(submitted.body.data.editable).toBe(false);
    expect((await sheetsOf(p1!))[0]!.total).toBe(fullTotal * 2);

    // Locked after submit: neither a draft nor a second submission.
    for (const res of [await save(e1!, p1!, { scores: full, comment: 'x' }), await submit(e1!, p1!, { scores: full, comment: 'x' })]) {
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(M.sheetLocked);
      expect(res.body.data).toMatchObject({ reason: 'NOT_ALLOWED' });
    }
    expect((await overview(e1!)).body.data.rounds[0]).toMatchObject({ assigned: 2, notStarted: 1, submitted: 1 });
    expect((await list(e1!, 'status=SUBMITTED')).body.data.list.map((r) => [r.id, r.total])).toEqual([[p1, fullTotal]]);

    // The admin returns it: the submitted version becomes a revision, the expert is told.
    const sheetId = row!.id;
    const stale = await returnSheet(sheetId, { reason: '分数与评语不一致', version: 1 });
    expect(stale.statusCode).toBe(400);
    expect(stale.body.message).toBe(CONTEST_MSG.stale);
    expect(stale.body.data).toMatchObject({ reason: 'STALE' });
    const returned = await returnSheet(sheetId, { reason: '分数与评语不一致', version: 2 });
    expect(returned.statusCode).toBe(200);
    expect(returned.body.message).toBe(M.sheetReturned);
    expect(returned.body.data).toMatchObject({ status: 'RETURNED', returnReason: '分数与评语不一致', total: fullTotal, version: 3 });
    const [rev] = await revisionsOf(sheetId);
    expect(rev).toMatchObject({ scores: full, total: fullTotal * 2, comment: '创新性突出', reason: '分数与评语不一致', returnedBy: admin.accountId });
    const notes = await inbox(e1!.accountId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.title).toBe('评分被退回');
    expect(notes[0]!.body).toContain('分数与评语不一致');
    expect(notes[0]!.body).toContain(first.projectName);
    // A second return of a sheet not submitted.
    const again = await returnSheet(sheetId, { reason: '再退' });
    expect(again.statusCode).toBe(400);
    expect(again.body.message).toBe(M.sheetNotSubmitted);

    // The expert sees why and scores again.
    const back = (await detail(e1!, p1!)).body.data;
    expect(back.sheet).toMatchObject({ status: 'RETURNED', returnReason: '分数与评语不一致', scores: full });
    expect(back.editable).toBe(true);
    expect((await overview(e1!)).body.data.rounds[0]).toMatchObject({ returned: 1 });
    const rescored = await save(e1!, p1!, { scores: { ...full, innovation: 10 }, comment: '修改后', version: 3 });
    expect(rescored.body.data.sheet).toMatchObject({ status: 'DRAFT', total: fullTotal - 10, returnReason: '分数与评语不一致' });
    const resubmitted = await submit(e1!, p1!, { scores: { ...full, innovation: 10 }, comment: '修改后', version: 4 });
    expect(resubmitted.body.data.sheet).toMatchObject({ status: 'SUBMITTED', total: fullTotal - 10, returnReason: null, version: 5 });

    // Returned once more: both submitted versions are kept.
    expect((await returnSheet(sheetId, { reason: '请复核' })).statusCode).toBe(200);
    expect((await revisionsOf(sheetId)).map((r) => [r.total, r.reason])).toEqual([
      [fullTotal * 2, '分数与评语不一致'],
      [(fullTotal - 10) * 2, '请复核'],
    ]);

    expect((await historyOf(sheetId)).map((h) => [h.fromStatus, h.toStatus, h.actorRealm])).toEqual([
      [null, 'DRAFT', 'EXPERT'],
      ['DRAFT', 'SUBMITTED', 'EXPERT'],
      ['SUBMITTED', 'RETURNED', 'ADMIN'],
      ['RETURNED', 'DRAFT', 'EXPERT'],
      ['DRAFT', 'SUBMITTED', 'EXPERT'],
      ['SUBMITTED', 'RETURNED', 'ADMIN'],
    ]);
    const expertOps = await operationsOf(e1!.accountId);
    expect(expertOps.map((o) => [o.realm, o.action, o.targetType, o.targetId])).toEqual([
      ['EXPERT', 'review:save', 'score_sheet', sheetId],
      ['EXPERT', 'review:submit', 'score_sheet', sheetId],
      ['EXPERT', 'review:save', 'score_sheet', sheetId],
      ['EXPERT', 'review:submit', 'score_sheet', sheetId],
    ]);
    const adminOps = (await operationsOf(admin.accountId)).filter((o) => o.targetId === sheetId);
    expect(adminOps.map((o) => o.action)).toEqual(['score:return', 'score:return']);
    // The participant is never told about scoring.
    expect(await inbox(await ownerOf(p1!))).toEqual([]);
  });

  it('the final round scores against its own rubric and window', async () => {
    const { projects: [p1], experts: [e1] } = await setup('FINAL');
    await setSetting(t, 'contest.phases', { prelimReview: endedWindow(), finalReview: openWindow() });
    const d = (await detail(e1!, p1!, 'final')).body.data;
    expect(d.criteria.map((c) => c.key)).toEqual(DEFAULT_RUBRICS.FINAL.map((c) => c.key));
    // Not in the preliminary round's list: the group is a final one.
    expect((await detail(e1!, p1!)).statusCode).toBe(404);
    const missing = await submit(e1!, p1!, { scores: full, comment: '好' }, 'final');
    expect(missing.body.message).toBe(M.scoreRequired);
    const res = await submit(e1!, p1!, { scores: { ...full, defense: 19.5 }, comment: '好' }, 'final');
    expect(res.statusCode).toBe(200);
    expect(res.body.data.sheet!.total).toBe(fullTotal + 19.5);
    const [sheet] = await sheetsOf(p1!);
    expect(sheet!.round).toBe('FINAL');
    // The final round's return needs the final button.
    const prelimOnly = await signIn(t, { realm: 'ADMIN', buttons: ['score:return'] });
    expect((await returnSheet(sheet!.id, { reason: '复核' }, 'final', prelimOnly)).statusCode).toBe(403);
    expect((await returnSheet(sheet!.id, { reason: '复核' }, 'prelim')).statusCode).toBe(404);
    expect((await returnSheet(sheet!.id, { reason: '复核' }, 'final')).statusCode).toBe(200);
  });
});

describe('the window', () => {
  it.each([
    ['ended', endedWindow()],
    ['not started', futureWindow()],
    ['unscheduled', null],
  ])('%s: saving and submitting answer reviewClosed; the detail is read-only', async (_, window) => {
    const { projects: [p1], experts: [e1] } = await setup();
    await setSetting(t, 'contest.phases', { prelimReview: window, finalReview: openWindow() });
    for (const res of [await save(e1!, p1!, { scores: { innovation: 1 } }), await submit(e1!, p1!, { scores: full, comment: '好' })]) {
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(M.reviewClosed);
      expect(res.body.data).toMatchObject({ reason: 'CLOSED' });
    }
    expect(await sheetsOf(p1!)).toEqual([]);
    expect((await detail(e1!, p1!)).body.data).toMatchObject({ open: false, editable: false });
    expect((await overview(e1!)).body.data.rounds[0]).toMatchObject({ open: false, assigned: 2 });
  });
});

describe('bad scores', () => {
  it.each([
    ['over the maximum', 'save', { scores: { innovation: 25.5 } }, M.scoreInvalid],
    ['not a half step', 'save', { scores: { innovation: 0.3 } }, M.scoreInvalid],
    ['negative', 'save', { scores: { value: -1 } }, M.scoreInvalid],
    ['not a number', 'save', { scores: { value: '5' } }, M.scoreInvalid],
    ['unknown criterion', 'save', { scores: { beauty: 5 } }, M.scoreUnknownCriterion],
    ['missing criterion on submit', 'submit', { scores: { innovation: 20, feasibility: 20, value: 20 }, comment: '好' }, M.scoreRequired],
    ['no comment on submit', 'submit', { scores: full }, M.commentRequired],
    ['blank comment on submit', 'submit', { scores: full, comment: '   ' }, M.commentRequired],
    ['comment too long', 'save', { scores: {}, comment: '长'.repeat(1001) }, M.commentTooLong],
    ['no scores', 'submit', { comment: '好' }, M.scoreRequired],
  ])('%s -> 400 with the exact text, nothing written', async (_, call, body, message) => {
    const { projects: [p1], experts: [e1] } = await setup();
    const res = call === 'save' ? await save(e1!, p1!, body) : await submit(e1!, p1!, body);
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await sheetsOf(p1!)).toEqual([]);
    expect(await operationsOf(e1!.accountId)).toEqual([]);
  });

  it('a criterion keyed like an Object member is still required (own keys only)', () => {
    const criteria = [{ key: 'constructor', name: '构造', description: '', max: 100 }];
    expect(() => checkScores(criteria, { scores: {}, comment: '好' }, true)).toThrow(M.scoreRequired);
    expect(checkScores(criteria, { scores: {}, comment: '' }, false)).toEqual({});
    expect(checkScores(criteria, { scores: { constructor: 7.5 }, comment: '好' }, true)).toEqual({ constructor: 7.5 });
  });

  it('the edges are accepted: 0, the maximum, a comment of 1000', async () => {
    const { projects: [p1], experts: [e1] } = await setup();
    const res = await submit(e1!, p1!, { scores: { innovation: 0, feasibility: 25, value: 29.5, completeness: 20 }, comment: '长'.repeat(1000) });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.sheet!.total).toBe(74.5);
  });
});

describe('blind review', () => {
  it('on (the default): nothing names the organisation, the team or its people', async () => {
    const { projects: [p1], experts: [e1] } = await setup();
    const res = await detail(e1!, p1!);
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ blind: true, team: null });
    const { team: teamRow } = await projectOf(p1!);
    const json = JSON.stringify(res.body);
    for (const text of [teamRow!.orgName, teamRow!.teamName, teamRow!.leader!.name, ...teamRow!.members.map((m) => m.name), teamRow!.ownerId]) {
      expect(json).not.toContain(text);
    }
  });

  it('off: the team is shown', async () => {
    const { projects: [p1], experts: [e1] } = await setup();
    await setSetting(t, 'review.blind', false);
    const res = await detail(e1!, p1!);
    const { team: teamRow } = await projectOf(p1!);
    expect(res.body.data.blind).toBe(false);
    expect(res.body.data.team).toMatchObject({
      orgName: teamRow!.orgName,
      teamName: teamRow!.teamName,
      leader: { name: teamRow!.leader!.name },
      members: [{ name: teamRow!.members[0]!.name }],
      advisor: null,
    });
    // No contacts either way: neither the leader's nor a member's phone or e-mail is in the answer.
    const json = JSON.stringify(res.body.data);
    for (const value of [teamRow!.leader!.phone, teamRow!.leader!.email, teamRow!.members[0]!.phone, teamRow!.members[0]!.email].filter(Boolean)) {
      expect(json).not.toContain(value);
    }
    expect(res.body.data.team!.leader).not.toHaveProperty('phone');
    expect(res.body.data.team!.members[0]).not.toHaveProperty('email');
  });
});

describe('races', () => {
  it('two first saves of one sheet: one row, never a 500; then two saves of one version: one STALE', async () => {
    const { projects: [p1], experts: [e1] } = await setup();
    const firsts = await Promise.all([save(e1!, p1!, { scores: { innovation: 1 } }), save(e1!, p1!, { scores: { innovation: 2 } })]);
    for (const r of firsts) expect([200, 400]).toContain(r.statusCode);
    expect(firsts.some((r) => r.statusCode === 200)).toBe(true);
    const rows = await sheetsOf(p1!);
    expect(rows).toHaveLength(1);
    const version = rows[0]!.version;
    const seconds = await Promise.all([save(e1!, p1!, { scores: { innovation: 3 }, version }), save(e1!, p1!, { scores: { innovation: 4 }, version })]);
    expect(seconds.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const loser = seconds.find((r) => r.statusCode === 400)!;
    expect(loser.body.message).toBe(CONTEST_MSG.stale);
    expect(loser.body.data).toMatchObject({ reason: 'STALE' });
    const [after] = await sheetsOf(p1!);
    expect(after!.version).toBe(version + 1);
  });

  it('a submit racing a return: either the return sees the submission, or it answers sheetNotSubmitted', async () => {
    for (let i = 0; i < 3; i++) {
      const { projects: [p1], experts: [e1] } = await setup();
      await save(e1!, p1!, { scores: full, comment: '草稿' });
      const [sheet] = await sheetsOf(p1!);
      const [sub, ret] = await Promise.all([submit(e1!, p1!, { scores: full, comment: '提交', version: sheet!.version }), returnSheet(sheet!.id, { reason: '复核' })]);
      expect(sub.statusCode).toBe(200);
      const [after] = await sheetsOf(p1!);
      const revisions = await revisionsOf(sheet!.id);
      if (ret.statusCode === 200) {
        expect(after!.status).toBe('RETURNED');
        expect(revisions).toHaveLength(1);
        expect(revisions[0]!.comment).toBe('提交');
      } else {
        expect(ret.statusCode).toBe(400);
        expect(ret.body.message).toBe(M.sheetNotSubmitted);
        expect(after!.status).toBe('SUBMITTED');
        expect(revisions).toEqual([]);
      }
    }
  });
});

describe('re-review (复评)', () => {
  it('adds experts: checked, notified, then scoring; refused when in conflict, already scoring, unknown or disabled', async () => {
    const { projects: [p1], experts: [e1] } = await setup();
    const { doc, team: teamRow } = await projectOf(p1!);
    const [extra, conflicted, disabled] = await seedExperts(t, [{}, { organization: teamRow!.orgName }, { enabled: false }]);

    const refuse = async (expertIds: string[], message: string) => {
      const res = await rereview(p1!, { mode: 'ADD_EXPERTS', expertIds, reason: '分歧较大' });
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(message);
    };
    await refuse([conflicted!.accountId], M.rereviewExpertConflict);
    await refuse([e1!.accountId], M.rereviewExpertAlready);
    await refuse([disabled!.accountId], M.expertNotFound);
    await refuse(['00000000-0000-4000-8000-000000000000'], M.expertNotFound);
    await refuse([admin.accountId], M.expertNotFound);
    // All or nothing: a good expert beside a bad one is not added.
    await refuse([extra!.accountId, conflicted!.accountId], M.rereviewExpertConflict);
    expect(await db().select().from(reviewExtraExperts).where(eq(reviewExtraExperts.prelimId, p1!))).toEqual([]);
    expect((await rereview(p1!, { mode: 'ADD_EXPERTS', expertIds: [], reason: 'x' })).body.message).toBe(M.rereviewExpertsRequired);
    expect((await rereview(p1!, { mode: 'ADD_EXPERTS', expertIds: [extra!.accountId], reason: ' ' })).body.message).toBe(M.returnReasonRequired);

    expect((await detail(extra!, p1!)).statusCode).toBe(404);
    const ok = await rereview(p1!, { mode: 'ADD_EXPERTS', expertIds: [extra!.accountId, extra!.accountId], reason: '分歧较大' });
    expect(ok.statusCode).toBe(200);
    expect(ok.body.message).toBe(M.rereviewDone);
    expect(ok.body.data).toEqual({ added: 1, returned: 0 });
    const [row] = await db().select().from(reviewExtraExperts).where(eq(reviewExtraExperts.prelimId, p1!));
    expect(row).toMatchObject({ round: 'PRELIMINARY', expertId: extra!.accountId, reason: '分歧较大', actorId: admin.accountId });
    const notes = await inbox(extra!.accountId);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.body).toContain(doc.projectName);
    expect(notes[0]!.body).toContain('分歧较大');
    const ops = (await operationsOf(admin.accountId)).filter((o) => o.targetId === p1);
    expect(ops.map((o) => [o.action, o.targetType])).toEqual([['score:return', 'prelim_doc']]);

    // The added expert now scores it; adding them again is refused.
    expect((await list(extra!)).body.data.list.map((r) => r.id)).toEqual([p1]);
    expect((await submit(extra!, p1!, { scores: full, comment: '复评意见' })).statusCode).toBe(200);
    await refuse([extra!.accountId], M.rereviewExpertAlready);
  });

  it('returns every submitted sheet (revisions kept, each expert told); none submitted -> sheetNotSubmitted', async () => {
    const { projects: [p1, p2], experts: [e1, e2] } = await setup();
    const none = await rereview(p1!, { mode: 'RETURN_ALL', reason: '分歧较大' });
    expect(none.statusCode).toBe(400);
    expect(none.body.message).toBe(M.sheetNotSubmitted);

    await submit(e1!, p1!, { scores: full, comment: '一' });
    await submit(e2!, p1!, { scores: { ...full, value: 5 }, comment: '二' });
    await submit(e1!, p2!, { scores: full, comment: '另一个项目' });
    const res = await rereview(p1!, { mode: 'RETURN_ALL', reason: '分歧较大' });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toEqual({ added: 0, returned: 2 });
    const sheets = await sheetsOf(p1!);
    expect(sheets.map((s) => s.status)).toEqual(['RETURNED', 'RETURNED']);
    for (const s of sheets) {
      const [rev] = await revisionsOf(s.id);
      expect(rev).toMatchObject({ total: s.total, comment: s.comment, reason: '分歧较大' });
    }
    expect((await sheetsOf(p2!))[0]!.status).toBe('SUBMITTED');
    for (const e of [e1!, e2!]) expect((await inbox(e.accountId)).map((n) => n.title)).toEqual(['评分被退回']);
    // One operation record for the whole re-review.
    expect((await operationsOf(admin.accountId)).filter((o) => o.targetId === p1 || sheets.some((s) => s.id === o.targetId))).toHaveLength(1);
  });

  it('a project not in the round -> 404 projectNotFound', async () => {
    const [outside] = await seedProjects(t, 1);
    const { experts: [e1] } = await setup();
    for (const [id, slug] of [
      [outside!, 'final'],
      ['00000000-0000-4000-8000-000000000000', 'prelim'],
    ] as const) {
      const res = await rereview(id, { mode: 'ADD_EXPERTS', expertIds: [e1!.accountId], reason: 'x' }, slug);
      expect(res.statusCode).toBe(404);
      expect(res.body.message).toBe(M.projectNotFound);
    }
    const unknownSheet = await returnSheet('00000000-0000-4000-8000-000000000000', { reason: 'x' });
    expect(unknownSheet.statusCode).toBe(404);
    expect(unknownSheet.body.message).toBe(M.sheetNotFound);
    expect((await returnSheet('00000000-0000-4000-8000-000000000000', {})).body.message).toBe(M.returnReasonRequired);
  });
});
