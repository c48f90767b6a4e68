import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTEST_MSG as M, VALIDATION_MSG as V, type TeamDetail } from '@contest/shared';
import { messageRecipients, messages, operationRecords, statusHistory, teams } from '../../db/schema.js';
import { api, completeTeam, endedWindow, futureWindow, member, openWindow, seedDictionary, setSetting, upload, withContest } from '../../../test/contest-helpers.js';
import { fakeFile } from '../../../test/files-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

let t: TestApp;
let auditor: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  await seedDictionary(t);
  auditor = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:audit'], name: '审核员甲' });
});
afterAll(async () => t?.close());
beforeEach(async () => setSetting(t, 'contest.phases', undefined));

const db = () => t.database.db;
const teamOf = async (accountId: string) => (await db().select().from(teams).where(eq(teams.ownerId, accountId)))[0];
const historyOf = (teamId: string) => db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'TEAM'), eq(statusHistory.subjectId, teamId))).orderBy(statusHistory.createdAt);
const inbox = (accountId: string) =>
  db().select({ title: messages.title, body: messages.body, senderId: messages.senderId }).from(messageRecipients).innerJoin(messages, eq(messages.id, messageRecipients.messageId)).where(eq(messageRecipients.accountId, accountId));

async function submitted(who: SignedIn): Promise<TeamDetail> {
  const res = await api<TeamDetail>(t, 'POST', '/api/team/my/submit', { headers: who.headers, body: await completeTeam(t, who) });
  expect(res.body.message).toBe(M.submitted);
  return res.body.data;
}
const audit = (id: string, body: unknown, who: SignedIn = auditor) => api<TeamDetail>(t, 'POST', `/api/admin/team/${id}/audit`, { headers: who.headers, body });

describe('contest public info', () => {
  it('opens sign-up and submission when no windows are set, and names the contest', async () => {
    await setSetting(t, 'contest.name', undefined);
    const res = await api(t, 'GET', '/api/contest/public');
    expect(res.statusCode).toBe(200);
    expect(res.body.data.name).toBe('2025全国智慧医保大赛');
    expect(res.body.data.phases.map((p: { key: string; state: string }) => `${p.key}:${p.state}`)).toEqual([
      'signUp:OPEN',
      'prelimSubmission:OPEN',
      'prelimReview:UNSCHEDULED',
      'finalReview:UNSCHEDULED',
    ]);
    expect(res.body.data.currentPhase).toBe('prelimSubmission');
  });

  it('shows the stored windows and the current phase', async () => {
    await setSetting(t, 'contest.name', '测试大赛');
    await setSetting(t, 'contest.phases', { signUp: endedWindow(), prelimSubmission: openWindow(), prelimReview: futureWindow(), finalReview: null });
    const { data } = (await api(t, 'GET', '/api/contest/public')).body;
    expect(data.name).toBe('测试大赛');
    expect(data.phases.map((p: { state: string }) => p.state)).toEqual(['ENDED', 'OPEN', 'NOT_STARTED', 'UNSCHEDULED']);
    expect(data.currentPhase).toBe('prelimSubmission');
    expect(data.phases[0].name).toBe('报名');
    await setSetting(t, 'contest.name', undefined);
  });
});

describe('participant calls need a participant session', () => {
  it.each([
    ['GET', '/api/team/my-brief'],
    ['GET', '/api/team/my'],
    ['PUT', '/api/team/my'],
    ['POST', '/api/team/my/submit'],
  ] as const)('%s %s: 401 anonymous or with a staff token, before validation', async (method, url) => {
    expect((await api(t, method, url, { body: { members: 'x' } })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: auditor.headers, body: {} })).statusCode).toBe(401);
  });
});

describe('drafts', () => {
  it('starts with no team, then the first save creates a DRAFT with a history row and no message', async () => {
    const user = await signIn(t, { realm: 'USER' });
    expect((await api(t, 'GET', '/api/team/my', { headers: user.headers })).body.data).toBeNull();
    const brief = (await api(t, 'GET', '/api/team/my-brief', { headers: user.headers })).body.data;
    expect(brief).toMatchObject({ teamStatus: null, prelimDocStatus: null, teamId: null, editable: true, signUpOpen: true });

    const res = await api<TeamDetail>(t, 'PUT', '/api/team/my', { headers: user.headers, body: { teamName: '半成品', leader: { phone: '123' } } });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.draftSaved);
    expect(res.body.data).toMatchObject({ status: 'DRAFT', teamName: '半成品', leader: { phone: '123', name: '' }, members: [], editable: true, certificate: null });
    expect(res.body.data.history).toMatchObject([{ fromStatus: null, toStatus: 'DRAFT', actorRealm: 'USER', actorName: user.username }]);
    expect(await inbox(user.accountId)).toEqual([]);

    // A second save updates the same row and adds no history.
    const again = await api<TeamDetail>(t, 'PUT', '/api/team/my', { headers: user.headers, body: { teamName: '第二版', members: [member] } });
    expect(again.body.data).toMatchObject({ id: res.body.data.id, teamName: '第二版', members: [member] });
    expect(await historyOf(res.body.data.id)).toHaveLength(1);
    expect((await api(t, 'GET', '/api/team/my-brief', { headers: user.headers })).body.data).toMatchObject({ teamStatus: 'DRAFT', teamName: '第二版' });
  });

  it.each([
    [{ region: 'NOWHERE' }, M.regionInvalid],
    [{ orgType: 'BANK' }, M.orgTypeInvalid],
    [{ members: [{ ...member, role: 'BOSS' }] }, M.memberRoleInvalid],
    [{ orgName: 'x'.repeat(101) }, M.orgNameTooLong],
    [{ members: Array(10).fill(member) }, M.membersTooMany],
    [{ certificate: 'AAAAAAAAAAAAAAAAAAAAAA' }, M.attachmentInvalid],
  ])('refuses %j in a draft and writes nothing', async (body, message) => {
    const user = await signIn(t, { realm: 'USER' });
    const res = await api(t, 'PUT', '/api/team/my', { headers: user.headers, body });
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await teamOf(user.accountId)).toBeUndefined();
  });

  it('stores HTML and script as plain text and returns it unchanged', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const script = '<script>alert(1)</script><b>x</b>';
    const form = await completeTeam(t, user, { teamName: script, orgName: `${script}单位`, leader: { name: script, phone: '13800000001', email: 'a@b.cn', title: 'SENIOR' } });
    const res = await api<TeamDetail>(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: form });
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('application/json');
    const mine = (await api<TeamDetail>(t, 'GET', '/api/team/my', { headers: user.headers })).body.data!;
    expect(mine.teamName).toBe(script);
    expect(mine.leader.name).toBe(script);
    expect((await teamOf(user.accountId))!.teamName).toBe(script);
    // The notice escapes it: an inbox that renders HTML shows the text.
    const [notice] = await inbox(user.accountId);
    expect(notice!.body).toContain('&lt;script&gt;');
    expect(notice!.body).not.toContain('<script>');
  });
});

describe('submitting', () => {
  it('submits a complete sign-up: SUBMITTED, history, notice, attachments as links', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const form = await completeTeam(t, user, { creditCode: '91350100m000100y43' });
    const res = await api<TeamDetail>(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: form });
    expect(res.statusCode).toBe(200);
    const team = res.body.data;
    expect(team).toMatchObject({ status: 'SUBMITTED', editable: false, creditCode: '91350100M000100Y43', advisor: null, recommendation: null });
    expect(team.submittedAt).not.toBeNull();
    expect(team.certificate).toEqual({ uniqueNo: form.certificate, name: '营业执照.pdf', extension: 'pdf', size: 2000, filePath: `/api/attachment/stream/${form.certificate}` });
    expect(team.history).toMatchObject([{ fromStatus: null, toStatus: 'SUBMITTED', actorRealm: 'USER' }]);
    expect(await inbox(user.accountId)).toMatchObject([{ title: '报名信息已提交', senderId: null }]);
    // The attachment link works for its owner.
    expect((await t.app.inject({ method: 'GET', url: team.certificate!.filePath, headers: user.headers })).statusCode).toBe(200);
  });

  it('submits a saved draft and keeps one row', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const draft = await api<TeamDetail>(t, 'PUT', '/api/team/my', { headers: user.headers, body: { teamName: '草稿' } });
    const res = await api<TeamDetail>(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user) });
    expect(res.body.data.id).toBe(draft.body.data.id);
    expect(res.body.data.history.map((h) => `${h.fromStatus}->${h.toStatus}`)).toEqual(['null->DRAFT', 'DRAFT->SUBMITTED']);
  });

  it('makes a submitted sign-up read-only', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const team = await submitted(user);
    const put = await api(t, 'PUT', '/api/team/my', { headers: user.headers, body: { teamName: '改名' } });
    expect(put.statusCode).toBe(400);
    expect(put.body.message).toBe(M.teamNotEditable);
    const again = await api(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user) });
    expect(again.statusCode).toBe(400);
    expect(again.body.message).toBe(M.teamNotSubmittable);
    expect((await teamOf(user.accountId))!.teamName).toBe(team.teamName);
    expect(await historyOf(team.id)).toHaveLength(1);
  });

  const badPhone = { ...member, phone: '1380000000' };
  it.each([
    ['credit code checksum', { creditCode: '91350100M000100Y44' }, M.creditCodeInvalid],
    ['credit code length', { creditCode: '91350100M000100Y4' }, M.creditCodeLength],
    ['enterprise without credit code', { creditCode: '' }, M.creditCodeRequired],
    ['0 members', { members: [] }, M.membersRequired],
    ['10 members', { members: Array(10).fill(member) }, M.membersTooMany],
    ['leader phone', { leader: { name: '张明', phone: '23800000001', email: 'a@b.cn', title: 'SENIOR' } }, V.phoneFormat],
    ['leader email', { leader: { name: '张明', phone: '13800000001', email: 'a@b', title: 'SENIOR' } }, V.emailFormat],
    ['leader missing', { leader: null }, M.leaderRequired],
    ['member phone', { members: [badPhone] }, V.phoneLength],
    ['member email', { members: [{ ...member, email: 'x@' }] }, V.emailFormat],
    ['org name', { orgName: ' ' }, M.orgNameRequired],
    ['track', { track: '' }, M.trackRequired],
    ['unknown track', { track: 'NOPE' }, M.trackInvalid],
    ['unknown title', { leader: { name: '张明', phone: '13800000001', email: 'a@b.cn', title: 'KING' } }, M.titleInvalid],
    ['city', { city: '' }, M.cityRequired],
    ['certificate', { certificate: null }, M.certificateRequired],
    ['commitment', { commitment: '' }, M.commitmentRequired],
    ['advisor without name', { advisor: { name: '', organization: '示例大学', title: '', phone: '', email: '' } }, M.advisorNameRequired],
  ])('refuses %s and writes nothing', async (_label, change, message) => {
    const user = await signIn(t, { realm: 'USER' });
    const res = await api(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user, change as never) });
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await teamOf(user.accountId)).toBeUndefined();
    expect(await inbox(user.accountId)).toEqual([]);
  });

  it('takes 1 and 9 members, an advisor, and no credit code for non-enterprises', async () => {
    for (const change of [
      { members: Array(9).fill(member), advisor: { name: '王老师', organization: '示例大学', title: 'SENIOR', phone: '', email: '' } },
      { orgType: 'UNIVERSITY', creditCode: '' },
    ]) {
      const user = await signIn(t, { realm: 'USER' });
      const res = await api<TeamDetail>(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user, change) });
      expect(res.statusCode).toBe(200);
      expect(res.body.data.members.length).toBe(change.members?.length ?? 1);
    }
  });

  it('accepts only the participant\'s own TEAM uploads of the right type', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const other = await signIn(t, { realm: 'USER' });
    const foreign = await upload(t, other, 'TEAM', '别人的.pdf', fakeFile.pdf(500));
    const prelimFile = await upload(t, user, 'PRELIM', '申报书.pdf', fakeFile.pdf(500));
    const png = await upload(t, user, 'TEAM', '承诺书.png', fakeFile.png(500));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ certificate: foreign }, M.attachmentInvalid],
      [{ commitment: prelimFile }, M.attachmentInvalid],
      [{ commitment: png }, M.commitmentType],
      [{ recommendation: foreign }, M.attachmentInvalid],
    ];
    for (const [change, message] of cases) {
      for (const [method, url] of [['PUT', '/api/team/my'], ['POST', '/api/team/my/submit']] as const) {
        const res = await api(t, method, url, { headers: user.headers, body: await completeTeam(t, user, change) });
        expect(res.statusCode).toBe(400);
        expect(res.body.message).toBe(message);
      }
    }
    expect(await teamOf(user.accountId)).toBeUndefined();
    // A PNG is fine as the certificate.
    const ok = await api(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user, { certificate: png }) });
    expect(ok.statusCode).toBe(200);
  });

  it('keeps each participant\'s team to themselves', async () => {
    const a = await signIn(t, { realm: 'USER' });
    const b = await signIn(t, { realm: 'USER' });
    await submitted(a);
    expect((await api(t, 'GET', '/api/team/my', { headers: b.headers })).body.data).toBeNull();
    expect((await api(t, 'GET', '/api/team/my-brief', { headers: b.headers })).body.data.teamStatus).toBeNull();
    // b's save creates b's own team, a's stays as it was.
    await api(t, 'PUT', '/api/team/my', { headers: b.headers, body: { teamName: 'B队' } });
    expect((await teamOf(a.accountId))!.status).toBe('SUBMITTED');
    expect((await teamOf(b.accountId))!.teamName).toBe('B队');
  });
});

describe('sign-up window', () => {
  it.each([
    ['ended', endedWindow],
    ['not started', futureWindow],
    ['unscheduled', () => null],
  ])('refuses drafts and submits when %s', async (_label, window) => {
    await setSetting(t, 'contest.phases', { signUp: window(), prelimSubmission: openWindow() });
    const user = await signIn(t, { realm: 'USER' });
    const form = await completeTeam(t, user);
    for (const [method, url] of [['PUT', '/api/team/my'], ['POST', '/api/team/my/submit']] as const) {
      const res = await api(t, method, url, { headers: user.headers, body: form });
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(M.signUpClosed);
    }
    expect(await teamOf(user.accountId)).toBeUndefined();
    expect((await api(t, 'GET', '/api/team/my-brief', { headers: user.headers })).body.data.signUpOpen).toBe(false);
  });

  it('accepts writes inside the window', async () => {
    await setSetting(t, 'contest.phases', { signUp: openWindow() });
    const user = await signIn(t, { realm: 'USER' });
    expect((await submitted(user)).status).toBe('SUBMITTED');
  });
});

describe('admin audit', () => {
  it('needs an admin with qualification:audit', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const team = await submitted(user);
    const viewer = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view', 'preliminary:audit'] });
    expect((await api(t, 'POST', `/api/admin/team/${team.id}/audit`, { body: { outcome: 'APPROVED' } })).statusCode).toBe(401);
    expect((await audit(team.id, { outcome: 'APPROVED' }, user)).statusCode).toBe(401);
    expect((await audit(team.id, { outcome: 'APPROVED' }, viewer)).statusCode).toBe(403);
    expect((await teamOf(user.accountId))!.status).toBe('SUBMITTED');
  });

  it('answers 404 for unknown teams and 400 for bad input', async () => {
    const missing = await audit('00000000-0000-4000-8000-000000000000', { outcome: 'APPROVED' });
    expect(missing.statusCode).toBe(404);
    expect(missing.body.message).toBe(M.teamNotFound);
    expect((await audit('not-a-uuid', { outcome: 'APPROVED' })).statusCode).toBe(400);
    const user = await signIn(t, { realm: 'USER' });
    const team = await submitted(user);
    for (const [body, message] of [
      [{ outcome: 'REVISING' }, M.reasonRequired],
      [{ outcome: 'REJECTED', reason: '  ' }, M.reasonRequired],
      [{ outcome: 'SUBMITTED', reason: 'x' }, M.outcomeInvalid],
      [{ outcome: 'REVISING', reason: 'x'.repeat(501) }, M.reasonTooLong],
    ] as const) {
      const res = await audit(team.id, body);
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await teamOf(user.accountId))!.status).toBe('SUBMITTED');
    expect(await historyOf(team.id)).toHaveLength(1);
  });

  it('runs the whole machine: REVISING -> edit -> SUBMITTED -> APPROVED, with history, notices and operation records', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const team = await submitted(user);

    const revising = await audit(team.id, { outcome: 'REVISING', reason: '请补充<b>盖章</b>承诺书' });
    expect(revising.statusCode).toBe(200);
    expect(revising.body.message).toBe(M.audited);
    expect(revising.body.data).toMatchObject({ status: 'REVISING', auditReason: '请补充<b>盖章</b>承诺书', editable: true, owner: { id: user.accountId } });
    expect(revising.body.data.history.at(-1)).toMatchObject({ fromStatus: 'SUBMITTED', toStatus: 'REVISING', actorRealm: 'ADMIN', actorName: '审核员甲' });

    // The participant sees the reason, staff as the organising committee, and a notice.
    const mine = (await api<TeamDetail>(t, 'GET', '/api/team/my', { headers: user.headers })).body.data!;
    expect(mine).toMatchObject({ status: 'REVISING', auditReason: '请补充<b>盖章</b>承诺书', editable: true });
    expect(mine.history.at(-1)!.actorName).toBe('大赛组委会');
    const notices = await inbox(user.accountId);
    expect(notices.map((n) => n.title)).toEqual(['报名信息已提交', '报名信息需修改']);
    expect(notices[1]!.body).toContain('请补充&lt;b&gt;盖章&lt;/b&gt;承诺书');
    expect(notices[1]!.senderId).toBe(auditor.accountId);
    const [op] = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, auditor.accountId), eq(operationRecords.targetId, team.id)));
    expect(op).toMatchObject({ action: 'qualification:audit', targetType: 'team', result: 'SUCCESS' });
    expect(op!.summary).toContain('退回修改');

    // Auditing twice is refused: only SUBMITTED can be audited.
    expect((await audit(team.id, { outcome: 'APPROVED' })).body.message).toBe(M.auditOnlySubmitted);

    // A draft save keeps REVISING; the resubmission clears the reason.
    const draft = await api<TeamDetail>(t, 'PUT', '/api/team/my', { headers: user.headers, body: await completeTeam(t, user, { teamName: '修改后' }) });
    expect(draft.body.data).toMatchObject({ status: 'REVISING', teamName: '修改后' });
    const resubmit = await api<TeamDetail>(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user, { teamName: '修改后' }) });
    expect(resubmit.body.data).toMatchObject({ status: 'SUBMITTED', auditReason: null });

    const approved = await audit(team.id, { outcome: 'APPROVED' });
    expect(approved.body.data).toMatchObject({ status: 'APPROVED', auditReason: null, editable: false });
    expect(approved.body.data.auditedAt).not.toBeNull();
    expect(approved.body.data.history.map((h) => `${h.fromStatus}->${h.toStatus}`)).toEqual([
      'null->SUBMITTED',
      'SUBMITTED->REVISING',
      'REVISING->SUBMITTED',
      'SUBMITTED->APPROVED',
    ]);
    expect((await inbox(user.accountId)).map((n) => n.title)).toEqual(['报名信息已提交', '报名信息需修改', '报名信息已提交', '报名审核通过']);
    expect((await api(t, 'GET', '/api/team/my-brief', { headers: user.headers })).body.data).toMatchObject({ teamStatus: 'APPROVED', prelimDocStatus: 'NOT_FILLED', editable: false });

    // APPROVED is final for the participant and for auditors.
    expect((await api(t, 'PUT', '/api/team/my', { headers: user.headers, body: {} })).body.message).toBe(M.teamNotEditable);
    for (const outcome of ['APPROVED', 'REVISING', 'REJECTED']) {
      expect((await audit(team.id, { outcome, reason: '再审' })).statusCode).toBe(400);
    }
  });

  it('rejects for good: no more edits or audits', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const team = await submitted(user);
    const rejected = await audit(team.id, { outcome: 'REJECTED', reason: '不符合参赛条件' });
    expect(rejected.body.data).toMatchObject({ status: 'REJECTED', auditReason: '不符合参赛条件' });
    expect((await inbox(user.accountId)).at(-1)!.title).toBe('报名审核未通过');
    expect((await api(t, 'PUT', '/api/team/my', { headers: user.headers, body: {} })).body.message).toBe(M.teamNotEditable);
    expect((await api(t, 'POST', '/api/team/my/submit', { headers: user.headers, body: await completeTeam(t, user) })).body.message).toBe(M.teamNotSubmittable);
    expect((await audit(team.id, { outcome: 'APPROVED' })).statusCode).toBe(400);
  });

  it('refuses to audit a draft', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const draft = (await api<TeamDetail>(t, 'PUT', '/api/team/my', { headers: user.headers, body: {} })).body.data;
    const res = await audit(draft.id, { outcome: 'APPROVED' });
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(M.auditOnlySubmitted);
    expect((await teamOf(user.accountId))!.status).toBe('DRAFT');
  });
});
