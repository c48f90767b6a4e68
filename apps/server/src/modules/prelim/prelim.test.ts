import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONTEST_MSG as M, type PrelimDetail, type PrelimFormInput } from '@contest/shared';
import { finalEntries, messageRecipients, messages, operationRecords, prelimDocs, statusHistory, teams } from '../../db/schema.js';
import { api, endedWindow, makePdf, openWindow, seedDictionary, setSetting, upload, withContest } from '../../../test/contest-helpers.js';
import { fakeFile } from '../../../test/files-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

let t: TestApp;
let auditor: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  await seedDictionary(t);
  auditor = await signIn(t, { realm: 'ADMIN', buttons: ['preliminary:audit'], name: '形式审查员' });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await setSetting(t, 'contest.phases', undefined);
  await setSetting(t, 'prelim.maxApplicationChars', undefined);
});

const db = () => t.database.db;
const docOf = async (accountId: string) => (await db().select().from(prelimDocs).where(eq(prelimDocs.ownerId, accountId)))[0];
const inbox = async (accountId: string) =>
  (await db().select({ title: messages.title }).from(messageRecipients).innerJoin(messages, eq(messages.id, messageRecipients.messageId)).where(eq(messageRecipients.accountId, accountId))).map((m) => m.title);

/** A participant whose sign-up is in `status` (written directly: the team tests cover getting there). */
async function participant(status: 'DRAFT' | 'SUBMITTED' | 'APPROVED' | 'REVISING' | 'REJECTED' | null = 'APPROVED'): Promise<SignedIn> {
  const user = await signIn(t, { realm: 'USER' });
  if (status) await db().insert(teams).values({ ownerId: user.accountId, status, teamName: '智审先锋队', orgName: '示例医院', track: 'DATA_GOVERNANCE' });
  return user;
}

// "Smart review" 10 letters + "page 1" (not counted) + "AI" 2 letters on page 2 + "Page 2 of 2" line (not counted).
const APPLICATION = makePdf([['Smart review', '1'], ['AI', 'Page 2 of 2']]);

async function form(user: SignedIn, overrides: Partial<PrelimFormInput> = {}): Promise<PrelimFormInput> {
  return {
    projectName: '医保智能审核',
    track: 'SMART_SUPERVISION',
    summary: '基于规则与模型的智能审核。',
    keywords: ['智能审核', '医保'],
    application: await upload(t, user, 'PRELIM', '申报书.pdf', APPLICATION),
    presentation: await upload(t, user, 'PRELIM', '演示.pptx', fakeFile.zip(800)),
    video: null,
    others: [],
    ...overrides,
  };
}
const submit = async (user: SignedIn, body: unknown) => api<PrelimDetail>(t, 'POST', '/api/prelim-doc/my/submit', { headers: user.headers, body });
const audit = (id: string, body: unknown, who: SignedIn = auditor) => api<PrelimDetail>(t, 'POST', `/api/admin/prelim-doc/${id}/audit`, { headers: who.headers, body });

describe('who may fill in materials', () => {
  it.each([null, 'DRAFT', 'SUBMITTED', 'REVISING', 'REJECTED'] as const)('a team in %s sees nothing and may not write', async (status) => {
    const user = await participant(status);
    expect((await api(t, 'GET', '/api/prelim-doc/my', { headers: user.headers })).body.data).toBeNull();
    expect((await api(t, 'GET', '/api/prelim-doc/my-brief', { headers: user.headers })).body.data).toMatchObject({ teamStatus: status, prelimDocStatus: null, editable: false });
    for (const [method, url] of [['PUT', '/api/prelim-doc/my'], ['POST', '/api/prelim-doc/my/submit']] as const) {
      const res = await api(t, method, url, { headers: user.headers, body: await form(user) });
      expect(res.statusCode).toBe(403);
      expect(res.body.message).toBe(M.prelimNeedsApproval);
    }
    expect(await docOf(user.accountId)).toBeUndefined();
  });

  it.each([
    ['GET', '/api/prelim-doc/my-brief'],
    ['GET', '/api/prelim-doc/my'],
    ['PUT', '/api/prelim-doc/my'],
    ['POST', '/api/prelim-doc/my/submit'],
  ] as const)('%s %s: 401 without a participant session', async (method, url) => {
    expect((await api(t, method, url, { body: { keywords: 1 } })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: auditor.headers, body: {} })).statusCode).toBe(401);
  });

  it('an approved team starts NOT_FILLED with the sign-up\'s track', async () => {
    const user = await participant();
    expect((await api(t, 'GET', '/api/prelim-doc/my-brief', { headers: user.headers })).body.data).toMatchObject({
      teamStatus: 'APPROVED',
      prelimDocStatus: 'NOT_FILLED',
      id: null,
      editable: true,
      submissionOpen: true,
      maxApplicationChars: null,
    });
    expect((await api(t, 'GET', '/api/team/my-brief', { headers: user.headers })).body.data.prelimDocStatus).toBe('NOT_FILLED');
    const mine = (await api<PrelimDetail>(t, 'GET', '/api/prelim-doc/my', { headers: user.headers })).body.data!;
    expect(mine).toMatchObject({ id: null, status: 'NOT_FILLED', track: 'DATA_GOVERNANCE', teamName: '智审先锋队', history: [], editable: true, inFinal: false });
  });

  it('shows 晋级决赛 (inFinal) while the project is in the final round', async () => {
    const user = await participant();
    await api(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body: { projectName: '决赛项目' } });
    const doc = await docOf(user.accountId);
    const mine = async () => (await api<PrelimDetail>(t, 'GET', '/api/prelim-doc/my', { headers: user.headers })).body.data!.inFinal;
    expect(await mine()).toBe(false);
    await db().insert(finalEntries).values({ prelimId: doc!.id, status: 'IN' });
    expect(await mine()).toBe(true);
    await db().update(finalEntries).set({ status: 'OUT' }).where(eq(finalEntries.prelimId, doc!.id));
    expect(await mine()).toBe(false);
  });
});

describe('drafts and the character count', () => {
  it('counts the application PDF on the server and ignores a number from the client', async () => {
    const user = await participant();
    const body = { ...(await form(user)), applicationChars: 1 };
    const res = await api<PrelimDetail>(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.draftSaved);
    expect(res.body.data).toMatchObject({ status: 'DRAFT', applicationChars: 13, projectName: '医保智能审核', keywords: ['智能审核', '医保'] });
    expect(res.body.data.application).toMatchObject({ name: '申报书.pdf', extension: 'pdf' });
    expect(res.body.data.history).toMatchObject([{ fromStatus: 'NOT_FILLED', toStatus: 'DRAFT', actorRealm: 'USER' }]);
    expect((await docOf(user.accountId))!.applicationChars).toBe(13);
    expect(await inbox(user.accountId)).toEqual([]);
    expect((await api(t, 'GET', '/api/team/my-brief', { headers: user.headers })).body.data.prelimDocStatus).toBe('DRAFT');
  });

  it('keeps an unreadable PDF in a draft uncounted, and refuses it at submit', async () => {
    const user = await participant();
    const broken = await upload(t, user, 'PRELIM', '坏的.pdf', fakeFile.pdf(3000));
    const body = await form(user, { application: broken });
    const draft = await api<PrelimDetail>(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body });
    expect(draft.statusCode).toBe(200);
    expect(draft.body.data.applicationChars).toBeNull();
    const res = await submit(user, body);
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(M.applicationUnreadable);
    expect((await docOf(user.accountId))!.status).toBe('DRAFT');
  });

  it('enforces the character cap at submit only', async () => {
    const user = await participant();
    await setSetting(t, 'prelim.maxApplicationChars', 12);
    const body = await form(user);
    expect((await api(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body })).statusCode).toBe(200);
    const res = await submit(user, body);
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(M.applicationTooManyChars);
    expect(res.body.data).toMatchObject({ applicationChars: 13, maxApplicationChars: 12 });
    expect((await docOf(user.accountId))!.status).toBe('DRAFT');
    await setSetting(t, 'prelim.maxApplicationChars', 13);
    expect((await submit(user, body)).body.data.status).toBe('SUBMITTED');
  });

  it('stores script text as given', async () => {
    const user = await participant();
    const script = '<script>alert(1)</script>';
    const res = await api<PrelimDetail>(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body: { projectName: script, summary: script, keywords: ['<b>x</b>'] } });
    expect(res.body.data).toMatchObject({ projectName: script, summary: script, keywords: ['<b>x</b>'] });
  });
});

describe('submitting', () => {
  it('submits: SUBMITTED, history, notice; then read-only', async () => {
    const user = await participant();
    const res = await submit(user, await form(user));
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'SUBMITTED', applicationChars: 13, editable: false });
    expect(res.body.data.history).toMatchObject([{ fromStatus: 'NOT_FILLED', toStatus: 'SUBMITTED' }]);
    expect(await inbox(user.accountId)).toEqual(['初赛材料已提交']);
    const put = await api(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body: {} });
    expect(put.statusCode).toBe(400);
    expect(put.body.message).toBe(M.prelimNotEditable);
    const again = await submit(user, await form(user));
    expect(again.body.message).toBe(M.prelimNotSubmittable);
  });

  it.each([
    ['no project name', { projectName: '' }, M.projectNameRequired],
    ['summary over 500', { summary: '字'.repeat(501) }, M.summaryTooLong],
    ['no keywords', { keywords: [] }, M.keywordsRequired],
    ['6 keywords', { keywords: ['a', 'b', 'c', 'd', 'e', 'f'] }, M.keywordsTooMany],
    ['no application', { application: null }, M.applicationRequired],
    ['no presentation', { presentation: null }, M.presentationRequired],
    ['unknown track', { track: 'NOPE' }, M.trackInvalid],
  ])('refuses %s and writes nothing', async (_label, change, message) => {
    const user = await participant();
    const res = await submit(user, await form(user, change));
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(message);
    expect(await docOf(user.accountId)).toBeUndefined();
  });

  it('checks each attachment\'s owner, origin, type and count', async () => {
    const user = await participant();
    const other = await participant();
    const png = await upload(t, user, 'PRELIM', '图.png', fakeFile.png(400));
    const teamPdf = await upload(t, user, 'TEAM', '证明.pdf', APPLICATION);
    const foreignPdf = await upload(t, other, 'PRELIM', '别人的.pdf', APPLICATION);
    const cases: Array<[Partial<PrelimFormInput>, string]> = [
      [{ application: png }, M.applicationType],
      [{ application: teamPdf }, M.attachmentInvalid],
      [{ application: foreignPdf }, M.attachmentInvalid],
      [{ presentation: png }, M.presentationType],
      [{ video: png }, M.videoType],
      [{ others: [foreignPdf] }, M.attachmentInvalid],
      [{ others: [png, png, png, png, png, png] }, M.othersTooMany],
    ];
    for (const [change, message] of cases) {
      const res = await submit(user, await form(user, change));
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await docOf(user.accountId)).toBeUndefined();
    const ok = await submit(user, await form(user, { others: [png] }));
    expect(ok.body.data.others).toHaveLength(1);
  });

  it('refuses writes outside the submission window', async () => {
    const user = await participant();
    await setSetting(t, 'contest.phases', { signUp: openWindow(), prelimSubmission: endedWindow() });
    for (const [method, url] of [['PUT', '/api/prelim-doc/my'], ['POST', '/api/prelim-doc/my/submit']] as const) {
      const res = await api(t, method, url, { headers: user.headers, body: await form(user) });
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(M.prelimClosed);
    }
    expect((await api(t, 'GET', '/api/prelim-doc/my-brief', { headers: user.headers })).body.data.submissionOpen).toBe(false);
    expect(await docOf(user.accountId)).toBeUndefined();
  });

  it('keeps materials to their owner', async () => {
    const a = await participant();
    const b = await participant();
    await submit(a, await form(a));
    expect((await api<PrelimDetail>(t, 'GET', '/api/prelim-doc/my', { headers: b.headers })).body.data).toMatchObject({ id: null, status: 'NOT_FILLED' });
  });
});

describe('formal check (admin)', () => {
  it('needs preliminary:audit, a known id and a SUBMITTED record', async () => {
    const user = await participant();
    const doc = (await submit(user, await form(user))).body.data;
    const wrong = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:audit'] });
    expect((await audit(doc.id!, { outcome: 'APPROVED' }, wrong)).statusCode).toBe(403);
    expect((await audit(doc.id!, { outcome: 'APPROVED' }, user)).statusCode).toBe(401);
    expect((await audit('00000000-0000-4000-8000-000000000000', { outcome: 'APPROVED' })).statusCode).toBe(404);
    expect((await audit(doc.id!, { outcome: 'REJECTED' })).body.message).toBe(M.reasonRequired);
    expect((await docOf(user.accountId))!.status).toBe('SUBMITTED');

    const draftUser = await participant();
    const draft = (await api<PrelimDetail>(t, 'PUT', '/api/prelim-doc/my', { headers: draftUser.headers, body: {} })).body.data;
    expect((await audit(draft.id!, { outcome: 'APPROVED' })).body.message).toBe(M.auditOnlySubmitted);
  });

  it('REVISING -> edit -> SUBMITTED -> APPROVED with history, notices and operation records', async () => {
    const user = await participant();
    const doc = (await submit(user, await form(user))).body.data;
    const revising = await audit(doc.id!, { outcome: 'REVISING', reason: '申报书缺少预算' });
    expect(revising.body.data).toMatchObject({ status: 'REVISING', auditReason: '申报书缺少预算', owner: { id: user.accountId } });
    const mine = (await api<PrelimDetail>(t, 'GET', '/api/prelim-doc/my', { headers: user.headers })).body.data!;
    expect(mine).toMatchObject({ status: 'REVISING', editable: true });
    expect(mine.history.at(-1)).toMatchObject({ fromStatus: 'SUBMITTED', toStatus: 'REVISING', actorName: '大赛组委会', reason: '申报书缺少预算' });

    const saved = await api<PrelimDetail>(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body: await form(user, { projectName: '第二版' }) });
    expect(saved.body.data).toMatchObject({ status: 'REVISING', projectName: '第二版' });
    expect((await submit(user, await form(user, { projectName: '第二版' }))).body.data).toMatchObject({ status: 'SUBMITTED', auditReason: null });

    const approved = await audit(doc.id!, { outcome: 'APPROVED' });
    expect(approved.body.data.status).toBe('APPROVED');
    expect(approved.body.data.history.map((h) => `${h.fromStatus}->${h.toStatus}:${h.actorRealm}`)).toEqual([
      'NOT_FILLED->SUBMITTED:USER',
      'SUBMITTED->REVISING:ADMIN',
      'REVISING->SUBMITTED:USER',
      'SUBMITTED->APPROVED:ADMIN',
    ]);
    expect(approved.body.data.history[1]!.actorName).toBe('形式审查员');
    expect(await inbox(user.accountId)).toEqual(['初赛材料已提交', '初赛材料需修改', '初赛材料已提交', '初赛材料形式审查通过']);
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, auditor.accountId), eq(operationRecords.targetId, doc.id!)));
    expect(ops.map((o) => o.action)).toEqual(['preliminary:audit', 'preliminary:audit']);
    expect((await api(t, 'GET', '/api/team/my-brief', { headers: user.headers })).body.data.prelimDocStatus).toBe('APPROVED');
    expect((await api(t, 'PUT', '/api/prelim-doc/my', { headers: user.headers, body: {} })).statusCode).toBe(400);
    expect((await audit(doc.id!, { outcome: 'REJECTED', reason: 'x' })).statusCode).toBe(400);
    const rows = await db().select().from(statusHistory).where(and(eq(statusHistory.subjectType, 'PRELIM'), eq(statusHistory.subjectId, doc.id!)));
    expect(rows).toHaveLength(4);
  });

  it('REJECTED closes the materials', async () => {
    const user = await participant();
    const doc = (await submit(user, await form(user))).body.data;
    expect((await audit(doc.id!, { outcome: 'REJECTED', reason: '材料不完整' })).body.data.status).toBe('REJECTED');
    expect((await submit(user, await form(user))).body.message).toBe(M.prelimNotSubmittable);
    expect((await inbox(user.accountId)).at(-1)).toBe('初赛材料形式审查未通过');
  });
});
