import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  LIVE_MSG as M,
  REVIEW_MSG,
  type LiveChairState,
  type LiveDisplayLink,
  type LiveDisplayState,
  type LiveJudgeState,
  type LiveSessionDetail,
} from '@contest/shared';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.js';
import { registerIdentity } from '../auth/identity.module.js';
import { registerReview } from '../review/review.module.js';
import { liveSessionJudges, liveSessionProjects, liveSessions, liveSubmitKeys, operationRecords, scoreLog, scoreSheets, statusHistory } from '../../db/schema.js';
import { api, type Reply } from '../../../test/admin-helpers.js';
import { openWindow, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, createTestDatabase, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { loadTestConfig } from '../../config/test-config.js';
import { registerLiveFinal } from './live-final.module.js';
import { listen, openSse, rawGet, split } from './live-final.fixtures.js';

/**
 * The live final (docs/live-final.md): planning, the chair, the judges' phones, the big screen,
 * sealing, idempotent submits, races, the event streams and a restart (two instances, the
 * feeds and the ranking beside desk scores: live-final.instances.test.ts).
 */

let t: TestApp;
let admin: SignedIn;
let chair2: SignedIn;
let viewer: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { realm: 'ADMIN', buttons: ['live:plan', 'live:chair', 'live:display'], name: '答辩主持' });
  chair2 = await signIn(t, { realm: 'ADMIN', buttons: ['live:chair'], name: '第二主持' });
  viewer = await signIn(t, { realm: 'ADMIN', menus: ['liveFinal'], name: '只读' });
});
afterAll(async () => t?.close());
beforeEach(async () => {
  await setSetting(t, 'contest.phases', { finalReview: openWindow() });
});

const db = () => t.database.db;
const A = '/api/admin/live';
const E = '/api/expert/live';

interface World {
  projects: string[];
  judges: SeededExpert[];
  conflicted: SeededExpert;
  groupId: string;
  sessionId: string;
  detail: LiveSessionDetail;
}

/** Three final projects in one final group of four experts, one of them from project 0's organisation. */
async function world(opts: { judges?: number } = {}): Promise<World> {
  const k = Math.random().toString(36).slice(2, 8);
  const org = `冲突单位${k}`;
  const projects = await seedProjects(t, [
    { projectName: `${k}-A甲`, orgName: org, final: true },
    { projectName: `${k}-B乙`, final: true },
    { projectName: `${k}-C丙`, final: true },
  ]);
  const judges = await seedExperts(t, opts.judges ?? 3);
  const [conflicted] = await seedExperts(t, [{ organization: org }]);
  const groupId = await seedGroup(t, 'FINAL', [...judges, conflicted!].map((e) => e.accountId), projects);
  const created = await api<LiveSessionDetail>(t, 'POST', `${A}/sessions`, {
    headers: admin.headers,
    body: { name: `第一场${k}`, venue: '一号会议室', date: '2026-12-01', startTime: '09:00', presentationMinutes: 8, qaMinutes: 5, judgeIds: [...judges, conflicted!].map((e) => e.accountId) },
  });
  expect(created.statusCode).toBe(200);
  const imported = await api<LiveSessionDetail>(t, 'POST', `${A}/sessions/${created.body.data.id}/projects/import`, { headers: admin.headers, body: { groupId } });
  expect(imported.statusCode).toBe(200);
  return { projects, judges, conflicted: conflicted!, groupId, sessionId: created.body.data.id, detail: imported.body.data };
}

const chairState = (w: { sessionId: string }, who: SignedIn = admin) => api<LiveChairState>(t, 'GET', `${A}/sessions/${w.sessionId}/chair`, { headers: who.headers });
async function act(w: { sessionId: string }, body: Record<string, unknown>, who: SignedIn = admin): Promise<Reply<any>> {
  const version = body.version ?? (await chairState(w, who)).body.data.session.version;
  return api<LiveChairState>(t, 'POST', `${A}/sessions/${w.sessionId}/actions`, { headers: who.headers, body: { ...body, version } });
}
async function actOk(w: { sessionId: string }, body: Record<string, unknown>): Promise<LiveChairState> {
  const r = await act(w, body);
  expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
}
const judgeState = (w: { sessionId: string }, e: SeededExpert) => api<LiveJudgeState>(t, 'GET', `${E}/sessions/${w.sessionId}`, { headers: e.headers });
const submit = (w: { sessionId: string }, e: SeededExpert, projectId: string, total: number, key: string = randomUUID(), comment = '陈述清楚') =>
    api<any>(t, 'POST', `${E}/sessions/${w.sessionId}/projects/${projectId}/score`, { headers: e.headers, body: { scores: split(total), comment, key } });
async function newLink(w: { sessionId: string }): Promise<LiveDisplayLink> {
  const r = await api<LiveDisplayLink>(t, 'POST', `${A}/sessions/${w.sessionId}/displays`, { headers: admin.headers, body: { name: '主屏' } });
  expect(r.statusCode).toBe(200);
  return r.body.data;
}
const display = (token: string) => api<LiveDisplayState>(t, 'GET', `/api/live/display/${token}`);
const sheetsOf = (prelimId: string) => db().select().from(scoreSheets).where(and(eq(scoreSheets.prelimId, prelimId), eq(scoreSheets.round, 'FINAL')));
const historyOf = (subjectId: string) => db().select().from(statusHistory).where(eq(statusHistory.subjectId, subjectId)).orderBy(asc(statusHistory.createdAt));
const sessionRow = async (id: string) => (await db().select().from(liveSessions).where(eq(liveSessions.id, id)))[0]!;
const projectRow = async (sessionId: string, prelimId: string) =>
  (await db().select().from(liveSessionProjects).where(and(eq(liveSessionProjects.sessionId, sessionId), eq(liveSessionProjects.prelimId, prelimId))))[0]!;

describe('planning', () => {
  it('creates a session, imports a final group, shows the conflict excluded with its cause, reorders, prints the running order', async () => {
    const w = await world();
    const [p0, p1, p2] = w.projects;
    expect(w.detail.judgeList).toHaveLength(4);
    expect(w.detail.projectList.map((p) => p.projectId)).toEqual([p0, p1, p2]);
    const first = w.detail.projectList[0]!;
    // The judge from the team's organisation is left out of project 0 automatically, and only of it.
    expect(first.expectedJudgeIds).toHaveLength(3);
    expect(first.expectedJudgeIds).not.toContain(w.conflicted.accountId);
    expect(first.excluded).toEqual([expect.objectContaining({ expertId: w.conflicted.accountId, why: 'CONFLICT', cause: expect.anything() })]);
    expect(w.detail.projectList[1]!.expectedJudgeIds).toContain(w.conflicted.accountId);

    const reordered = await api<LiveSessionDetail>(t, 'PUT', `${A}/sessions/${w.sessionId}/projects`, { headers: admin.headers, body: { projectIds: [p2, p0, p1] } });
    expect(reordered.statusCode).toBe(200);
    expect(reordered.body.data.projectList.map((p) => [p.projectId, p.order])).toEqual([[p2, 1], [p0, 2], [p1, 3]]);
    const order = await api(t, 'GET', `${A}/sessions/${w.sessionId}/running-order`, { headers: viewer.headers });
    expect(order.statusCode).toBe(200);
    expect(order.body.data.rows.map((r: { slot: string }) => r.slot)).toEqual(['09:00', '09:13', '09:26']);
    expect(order.body.data.rows[1].excludedJudges).toEqual([expect.any(String)]);
    const list = await api(t, 'GET', `${A}/sessions?keyword=${encodeURIComponent(w.detail.name)}`, { headers: viewer.headers });
    expect(list.body.data.list).toEqual([expect.objectContaining({ id: w.sessionId, judges: 4, projects: 3, status: 'PLANNED' })]);
    const cand = await api(t, 'GET', `${A}/candidates`, { headers: viewer.headers });
    expect(cand.body.data.projects.find((p: { projectId: string }) => p.projectId === p0).sessionId).toBe(w.sessionId);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const [judge] = await seedExperts(t, 1);
    const [outsider] = await seedExperts(t, 1);
    await seedGroup(t, 'FINAL', [judge!.accountId], []);
    const good = { name: '场次', venue: '会场', date: '2026-12-01', presentationMinutes: 8, qaMinutes: 5, judgeIds: [judge!.accountId] };
    const before = (await db().select().from(liveSessions)).length;
    const cases: [Record<string, unknown>, string][] = [
      [{ ...good, name: ' ' }, M.sessionNameRequired],
      [{ ...good, name: 'x'.repeat(51) }, M.sessionNameTooLong],
      [{ ...good, venue: '' }, M.venueRequired],
      [{ ...good, date: '2026-13-01' }, M.dateInvalid],
      [{ ...good, startTime: '25:00' }, M.startTimeInvalid],
      [{ ...good, presentationMinutes: 0 }, M.presentationMinutesInvalid],
      [{ ...good, presentationMinutes: 2.5 }, M.presentationMinutesInvalid],
      [{ ...good, qaMinutes: 61 }, M.qaMinutesInvalid],
      [{ ...good, judgeIds: [] }, M.judgesRequired],
      [{ ...good, judgeIds: ['nope'] }, expect.any(String) as unknown as string],
      [{ ...good, judgeIds: [outsider!.accountId] }, M.judgeNotFinal],
    ];
    for (const [body, message] of cases) {
      const r = await api(t, 'POST', `${A}/sessions`, { headers: admin.headers, body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toEqual(message);
    }
    expect((await db().select().from(liveSessions)).length).toBe(before);

    const w = await world();
    const bad: [unknown, string][] = [
      [{ projectIds: [w.projects[0], w.projects[0]] }, M.projectDuplicate],
      [{ projectIds: [randomUUID()] }, M.projectNotFinal],
    ];
    for (const [body, message] of bad) {
      const r = await api(t, 'PUT', `${A}/sessions/${w.sessionId}/projects`, { headers: admin.headers, body });
      expect(r.statusCode).toBe(400);
      expect(r.body.message).toBe(message);
    }
    // A project already in another session.
    const other = await api<LiveSessionDetail>(t, 'POST', `${A}/sessions`, { headers: admin.headers, body: { ...good, judgeIds: [w.judges[0]!.accountId] } });
    const taken = await api(t, 'PUT', `${A}/sessions/${other.body.data.id}/projects`, { headers: admin.headers, body: { projectIds: [w.projects[1]] } });
    expect(taken.statusCode).toBe(400);
    expect(taken.body.data.reason).toBe('IN_OTHER_SESSION');
    expect(await db().select().from(liveSessionProjects).where(eq(liveSessionProjects.sessionId, other.body.data.id))).toHaveLength(0);
    // Chair actions: bad bodies.
    for (const body of [{ action: 'FLY', version: 1 }, { action: 'OPEN' }, { action: 'START', version: 'x' }, { action: 'CLOSE', version: 1, reason: 'x'.repeat(201) }]) {
      const r = await api(t, 'POST', `${A}/sessions/${w.sessionId}/actions`, { headers: admin.headers, body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
    }
    // Judges: bad score bodies.
    await actOk(w, { action: 'OPEN' });
    await actOk(w, { action: 'START', projectId: w.projects[1] });
    const judge1 = w.judges[0]!;
    const badScores: [unknown, string][] = [
      [{ scores: { ...split(80), defense: 20.3 }, comment: 'c', key: randomUUID() }, REVIEW_MSG.scoreInvalid],
      [{ scores: { ...split(80), defense: 21 }, comment: 'c', key: randomUUID() }, REVIEW_MSG.scoreInvalid],
      [{ scores: { innovation: 10 }, comment: 'c', key: randomUUID() }, REVIEW_MSG.scoreRequired],
      [{ scores: { ...split(80), nope: 1 }, comment: 'c', key: randomUUID() }, REVIEW_MSG.scoreUnknownCriterion],
      [{ scores: split(80), comment: ' ', key: randomUUID() }, REVIEW_MSG.commentRequired],
      [{ scores: split(80), comment: 'c', key: 'not-a-uuid' }, M.keyInvalid],
    ];
    for (const [body, message] of badScores) {
      const r = await api(t, 'POST', `${E}/sessions/${w.sessionId}/projects/${w.projects[1]}/score`, { headers: judge1.headers, body });
      expect(r.statusCode, JSON.stringify(body)).toBe(400);
      expect(r.body.message).toBe(message);
    }
    expect(await sheetsOf(w.projects[1]!)).toHaveLength(0);
    expect(await db().select().from(liveSubmitKeys).where(eq(liveSubmitKeys.expertId, judge1.accountId))).toHaveLength(0);
  });

  it('deletes only a planned session; judges are fixed once it is live', async () => {
    const w = await world();
    await actOk(w, { action: 'OPEN' });
    const del = await api(t, 'DELETE', `${A}/sessions/${w.sessionId}`, { headers: admin.headers });
    expect(del.statusCode).toBe(400);
    expect(del.body.data.reason).toBe('NOT_PLANNED');
    const detail = w.detail;
    const put = await api(t, 'PUT', `${A}/sessions/${w.sessionId}`, {
      headers: admin.headers,
      body: { name: detail.name, venue: detail.venue, date: detail.date, presentationMinutes: 8, qaMinutes: 5, judgeIds: [w.judges[0]!.accountId] },
    });
    expect(put.statusCode).toBe(400);
    expect(put.body.data.reason).toBe('JUDGES_LOCKED');
    expect(await db().select().from(liveSessionJudges).where(eq(liveSessionJudges.sessionId, w.sessionId))).toHaveLength(4);
  });
});

describe('a session, start to end', () => {
  it('runs: open, start, timer, pause, Q&A, sealed scoring, automatic close, reveal, ranking, next; history and operation records', async () => {
    const w = await world();
    const [p0, p1] = w.projects;
    const link = await newLink(w);
    let s = await actOk(w, { action: 'OPEN' });
    expect(s.session.status).toBe('LIVE');
    expect(s.current?.projectId).toBe(p0);
    expect(s.current?.state).toBe('WAITING');
    expect((await display(link.token)).body.data.current?.projectName).toBe(s.current?.projectName);

    s = await actOk(w, { action: 'START', projectId: p0 });
    expect(s.current).toMatchObject({ state: 'PRESENTING', expected: 3, submitted: 0, timer: { phase: 'PRESENTATION', limitSeconds: 480, running: true } });
    s = await actOk(w, { action: 'PAUSE', projectId: p0 });
    expect(s.current?.timer?.running).toBe(false);
    const paused = (await act(w, { action: 'PAUSE', projectId: p0 })).body;
    expect(paused.data).toMatchObject({ reason: 'PAUSED' });
    s = await actOk(w, { action: 'RESUME', projectId: p0 });
    s = await actOk(w, { action: 'QA', projectId: p0 });
    expect(s.current?.timer).toMatchObject({ phase: 'QA', limitSeconds: 300, running: true });

    // The conflicted judge is told so and cannot score; the others can, while presenting or in Q&A.
    const conflicted = (await judgeState(w, w.conflicted)).body.data;
    expect(conflicted.current).toMatchObject({ projectId: p0, judging: false, conflict: true, canScore: false });
    const refused = await submit(w, w.conflicted, p0!, 80);
    expect(refused.statusCode).toBe(400);
    expect(refused.body.data.reason).toBe('CONFLICT');

    const [j1, j2, j3] = w.judges;
    expect((await submit(w, j1!, p0!, 83.5)).statusCode).toBe(200);
    expect((await submit(w, j2!, p0!, 71)).statusCode).toBe(200);
    s = await actOk(w, { action: 'SCORE', projectId: p0 });
    expect(s.current).toMatchObject({ state: 'SCORING', submitted: 2, timer: null });
    // A submitted score is locked.
    const again = await submit(w, j1!, p0!, 90);
    expect(again.statusCode).toBe(400);
    expect(again.body.message).toBe(REVIEW_MSG.sheetLocked);
    // The last expected judge: CLOSED at once.
    const last = await submit(w, j3!, p0!, 77);
    expect(last.body.data.state.current?.state).toBe('CLOSED');
    s = (await chairState(w)).body.data;
    expect(s.current?.judges.map((j) => j.total).sort()).toEqual([71, 77, 83.5]);
    expect(s.current?.result).toBeNull();
    s = await actOk(w, { action: 'REVEAL', projectId: p0 });
    expect(s.current?.result).toEqual({ score: expect.any(Number), rank: 1 });
    const screen = (await display(link.token)).body.data;
    expect(screen.current?.result?.score).toBeCloseTo((83.5 + 71 + 77) / 3, 1);
    expect(screen.ranking).toEqual([expect.objectContaining({ projectId: p0, rank: 1 })]);
    // The screen never shows a judge's marks, even revealed.
    expect(JSON.stringify(screen)).not.toMatch(/83\.5|"total"|"scores"|"judges"/);

    s = await actOk(w, { action: 'NEXT' });
    expect(s.current?.projectId).toBe(p1);
    // Live scores are final-round sheets: the score query shows them.
    const scores = await api(t, 'GET', `/api/admin/review/final/scores/${p0}`, { headers: (await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' })).headers });
    expect(scores.statusCode).toBe(200);
    expect(scores.body.data.aggregate.count).toBe(3);
    // History rows (a state kept by pause/resume too) and the chair's operation records.
    const row = await projectRow(w.sessionId, p0!);
    expect((await historyOf(row.id)).map((h) => `${h.fromStatus}>${h.toStatus}`)).toEqual([
      'WAITING>PRESENTING',
      'PRESENTING>PRESENTING',
      'PRESENTING>PRESENTING',
      'PRESENTING>QA',
      'QA>SCORING',
      'SCORING>CLOSED',
      'CLOSED>REVEALED',
    ]);
    const ops = await db().select().from(operationRecords).where(and(eq(operationRecords.accountId, admin.accountId), eq(operationRecords.action, 'live:chair')));
    expect(ops.length).toBeGreaterThanOrEqual(8);
    const log = await db().select().from(scoreLog);
    expect(log.filter((l) => (l.payload as { projectId?: string }).projectId === p0).length).toBe(3);
  });

  it('closes with a reason when a judge is missing; returns a score with a reason; absent, skip, requeue, end', async () => {
    const w = await world();
    const [p0, p1, p2] = w.projects;
    const [j1, j2] = w.judges;
    await actOk(w, { action: 'OPEN' });
    await actOk(w, { action: 'START', projectId: p0 });
    // Another project cannot start while one is on stage.
    const busy = await act(w, { action: 'START', projectId: p1 });
    expect(busy.body.data).toMatchObject({ reason: 'ANOTHER_ACTIVE' });
    await submit(w, j1!, p0!, 80);
    const noReason = await act(w, { action: 'CLOSE', projectId: p0 });
    expect(noReason.statusCode).toBe(400);
    expect(noReason.body).toMatchObject({ message: M.closeReasonRequired, data: { reason: 'JUDGE_MISSING' } });
    expect((await projectRow(w.sessionId, p0!)).status).toBe('PRESENTING');
    const noNext = await act(w, { action: 'NEXT' });
    expect(noNext.body.data.reason).toBe('ANOTHER_ACTIVE');
    let s = await actOk(w, { action: 'CLOSE', projectId: p0, reason: '评委临时离场' });
    expect(s.current).toMatchObject({ state: 'CLOSED', closeReason: '评委临时离场' });
    expect((await act(w, { action: 'NEXT' })).body.data.reason).toBe('REVEAL_FIRST');
    // Return the one score: back to SCORING; the judge resubmits.
    const noWhy = await act(w, { action: 'RETURN_SCORE', projectId: p0, expertId: j1!.accountId });
    expect(noWhy.body.message).toBe(M.returnReasonRequired);
    const notIn = await act(w, { action: 'RETURN_SCORE', projectId: p0, expertId: j2!.accountId, reason: '误操作' });
    expect(notIn.body.data.reason).toBe('NOT_SUBMITTED');
    s = await actOk(w, { action: 'RETURN_SCORE', projectId: p0, expertId: j1!.accountId, reason: '分项录入有误' });
    expect(s.current?.state).toBe('SCORING');
    const mine = (await judgeState(w, j1!)).body.data.current;
    expect(mine).toMatchObject({ canScore: true, own: { status: 'RETURNED', returnReason: '分项录入有误' } });
    expect((await submit(w, j1!, p0!, 82)).statusCode).toBe(200);
    await actOk(w, { action: 'CLOSE', projectId: p0, reason: '评委临时离场' });
    await actOk(w, { action: 'REVEAL', projectId: p0 });
    s = await actOk(w, { action: 'ABSENT', projectId: p1, reason: '团队未到场' });
    s = await actOk(w, { action: 'SKIP', projectId: p2 });
    expect((await act(w, { action: 'NEXT' })).body.data.reason).toBe('NO_NEXT');
    s = await actOk(w, { action: 'REQUEUE', projectId: p1 });
    s = await actOk(w, { action: 'NEXT' });
    expect(s.current?.projectId).toBe(p1);
    s = await actOk(w, { action: 'END' });
    expect(s.session.status).toBe('ENDED');
    expect((await act(w, { action: 'START', projectId: p1 })).body.data.reason).toBe('ENDED');
    // A workflow refusal from this state.
    s = await actOk(w, { action: 'REOPEN', reason: '补充答辩' });
    const wrong = await act(w, { action: 'REVEAL', projectId: p1 });
    expect(wrong.body.data.reason).toBe('NOT_ALLOWED');
  });
});

describe('sealing', () => {
  it('no single score leaves through any call or stream before the project is closed', async () => {
    const w = await world();
    const [p0] = w.projects;
    const [j1, j2, j3] = w.judges;
    const link = await newLink(w);
    await actOk(w, { action: 'OPEN' });
    await actOk(w, { action: 'START', projectId: p0 });
    const server = await listen(t);
    const screenStream = await openSse(server, `/api/live/display/${link.token}/events`);
    const judgeStream = await openSse(server, `${E}/sessions/${w.sessionId}/events`, j2!.headers);
    const chairStream = await openSse(server, `${A}/sessions/${w.sessionId}/events`, admin.headers);
    try {
      // A distinctive total and comment: neither may appear anywhere but in the judge's own answers.
      const r = await submit(w, j1!, p0!, 93.5, randomUUID(), '独特评语ZX');
      expect(r.body.data.state.current?.own?.total).toBe(93.5);
      await submit(w, j2!, p0!, 61.5);
      await chairStream.next((e) => e.data.current?.submitted === 2);
      await screenStream.next((e) => e.data.current?.submitted === 2);
      await judgeStream.next((e) => e.data.current?.submitted === 2);
      // The score query, its list and monitoring keep the seal too (the review module asks the live final).
      const boss = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
      const detail = await api(t, 'GET', `/api/admin/review/final/scores/${p0}`, { headers: boss.headers });
      expect(detail.body.data).toMatchObject({ sealed: true, aggregate: { count: 0, ruleScore: null } });
      const scoreList = await api(t, 'GET', `/api/admin/review/final/scores?keyword=${encodeURIComponent(w.detail.projectList[0]!.projectName)}`, { headers: boss.headers });
      const monitor = await api(t, 'GET', `/api/admin/review/final/monitor/experts/${j1!.accountId}`, { headers: boss.headers });
      expect(monitor.statusCode).toBe(200);
      const seen = [
        JSON.stringify(detail.body),
        JSON.stringify(scoreList.body),
        JSON.stringify(monitor.body),
        JSON.stringify((await chairState(w)).body),
        JSON.stringify((await chairState(w, chair2)).body),
        JSON.stringify((await display(link.token)).body),
        JSON.stringify((await judgeState(w, j2!)).body),
        JSON.stringify((await judgeState(w, j3!)).body),
        JSON.stringify((await judgeState(w, w.conflicted)).body),
        JSON.stringify(chairStream.events),
        JSON.stringify(screenStream.events),
        JSON.stringify(judgeStream.events),
      ];
      for (const text of seen) {
        expect(text).not.toContain('93.5');
        expect(text).not.toContain('独特评语ZX');
      }
      // Judge 2 sees their own sheet only (61.5), never judge 1's.
      expect(seen[6]).toContain('61.5');
      const chairJudges = (await chairState(w)).body.data.current!.judges;
      expect(chairJudges.every((j) => j.total === null)).toBe(true);
      expect(chairJudges.filter((j) => j.status === 'SUBMITTED')).toHaveLength(2);
      // Closed (with a reason): unsealed for the chair; the screen still shows no single mark.
      await actOk(w, { action: 'CLOSE', projectId: p0, reason: '一位评委未到' });
      const closed = await chairStream.next((e) => e.data.current?.state === 'CLOSED');
      expect(JSON.stringify(closed.data)).toContain('93.5');
      const unsealed = await api(t, 'GET', `/api/admin/review/final/scores/${p0}`, { headers: boss.headers });
      expect(unsealed.body.data).toMatchObject({ sealed: false, aggregate: { count: 2 } });
      expect(JSON.stringify(unsealed.body)).toContain('93.5');
      const screen = await screenStream.next((e) => e.data.current?.state === 'CLOSED');
      expect(JSON.stringify(screen.data)).not.toContain('93.5');
      await actOk(w, { action: 'REVEAL', projectId: p0 });
      const revealed = await screenStream.next((e) => e.data.current?.state === 'REVEALED');
      expect(revealed.data.current?.result?.score).toBeCloseTo((93.5 + 61.5) / 2, 1);
      expect(JSON.stringify(revealed.data)).not.toContain('93.5');
      const judgeView = await judgeStream.next((e) => e.data.current?.state === 'REVEALED');
      expect(JSON.stringify(judgeView.data)).not.toContain('93.5');
    } finally {
      chairStream.close();
      screenStream.close();
      judgeStream.close();
      await server.close();
    }
  });
});

describe('one set of rules', () => {
  it('a project scored live and one scored at a desk rank together in the score query, under the round\'s rule', async () => {
    const k = Math.random().toString(36).slice(2, 8);
    const [live, desk] = await seedProjects(t, [
      { projectName: `${k}-现场`, final: true },
      { projectName: `${k}-书面`, final: true },
    ]);
    const experts = await seedExperts(t, 5);
    await seedGroup(t, 'FINAL', experts.map((e) => e.accountId), [live!, desk!]);
    const boss = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const rule = (aggregate: 'TRIMMED_MEAN' | 'MEAN') => ({ aggregate, minScoresForTrim: 5, tieBreak: ['RULE_SCORE', 'TRIMMED_MEAN', 'CRITERIA', 'RAW_MEAN'] });
    const rules = (aggregate: 'TRIMMED_MEAN' | 'MEAN') => setSetting(t, 'review.rules', { PRELIMINARY: rule('TRIMMED_MEAN'), FINAL: rule(aggregate) });
    await rules('TRIMMED_MEAN');
    try {
      // Live: five judges on the phone; the trimmed mean drops 95 and 40 (70), the mean does not (69).
      const created = await api<LiveSessionDetail>(t, 'POST', `${A}/sessions`, {
        headers: admin.headers,
        body: { name: `规则${k}`, venue: '会场', date: '2026-12-01', presentationMinutes: 8, qaMinutes: 5, judgeIds: experts.map((e) => e.accountId) },
      });
      const w = { sessionId: created.body.data.id };
      expect((await api(t, 'PUT', `${A}/sessions/${w.sessionId}/projects`, { headers: admin.headers, body: { projectIds: [live] } })).statusCode).toBe(200);
      const link = await newLink(w);
      await actOk(w, { action: 'OPEN' });
      await actOk(w, { action: 'START', projectId: live });
      for (const [i, total] of [95, 70, 70, 70, 40].entries()) expect((await submit(w, experts[i]!, live!, total)).statusCode).toBe(200);
      expect((await actOk(w, { action: 'SCORE', projectId: live })).current?.state).toBe('CLOSED');
      await actOk(w, { action: 'REVEAL', projectId: live });
      // At a desk: the same experts through the review module's own submit, 69.5 each (mean = trimmed mean = 69.5).
      for (const e of experts) {
        const r = await api(t, 'POST', `/api/expert/review/final/${desk}/sheet/submit`, { headers: e.headers, body: { scores: split(69.5), comment: '书面评审' } });
        expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
      }
      const ranked = async () => {
        const r = await api(t, 'GET', `/api/admin/review/final/scores?keyword=${k}&size=100`, { headers: boss.headers });
        expect(r.statusCode).toBe(200);
        const rows = r.body.data.list as { projectId: string; ruleScore: number | null; rank: number | null; count: number }[];
        return { live: rows.find((x) => x.projectId === live)!, desk: rows.find((x) => x.projectId === desk)!, order: rows.map((x) => x.projectId) };
      };
      // Trimmed mean: live 70 ahead of desk 69.5, both counted with five sheets.
      let q = await ranked();
      expect(q.live).toMatchObject({ ruleScore: 70, count: 5 });
      expect(q.desk).toMatchObject({ ruleScore: 69.5, count: 5 });
      expect(q.order).toEqual([live, desk]);
      expect(q.live.rank! + 1).toBe(q.desk.rank);
      // The screen shows the same figure the score query ranks by.
      expect((await display(link.token)).body.data).toMatchObject({ rule: 'TRIMMED_MEAN', current: { projectId: live, result: { score: 70 } } });
      // The same rule change moves both: by the mean, desk 69.5 is ahead of live 69.
      await rules('MEAN');
      q = await ranked();
      expect(q.live.ruleScore).toBe(69);
      expect(q.desk.ruleScore).toBe(69.5);
      expect(q.order).toEqual([desk, live]);
      expect(q.desk.rank! + 1).toBe(q.live.rank);
      expect((await display(link.token)).body.data).toMatchObject({ rule: 'MEAN', current: { projectId: live, result: { score: 69 } } });
    } finally {
      await setSetting(t, 'review.rules', undefined);
    }
  });
});

describe('judges: idempotent submits and access', () => {
  it('the same key twice, and twice at once, records one sheet, one history row, one log entry', async () => {
    const w = await world();
    const [p0, p1] = w.projects;
    const [j1, j2] = w.judges;
    await actOk(w, { action: 'OPEN' });
    await actOk(w, { action: 'START', projectId: p0 });
    const key = randomUUID();
    const a = await submit(w, j1!, p0!, 80, key);
    const b = await submit(w, j1!, p0!, 80, key);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    expect([a.body.data.duplicate, b.body.data.duplicate]).toEqual([false, true]);
    const key2 = randomUUID();
    const both = await Promise.all([submit(w, j2!, p0!, 70, key2), submit(w, j2!, p0!, 70, key2)]);
    expect(both.map((x) => x.statusCode)).toEqual([200, 200]);
    expect(both.map((x) => x.body.data.duplicate).sort()).toEqual([false, true]);
    const sheets = await sheetsOf(p0!);
    expect(sheets).toHaveLength(2);
    for (const s of sheets) expect((await historyOf(s.id)).filter((h) => h.toStatus === 'SUBMITTED')).toHaveLength(1);
    const log = (await db().select().from(scoreLog)).filter((l) => (l.payload as { projectId?: string }).projectId === p0);
    expect(log).toHaveLength(2);
    // A key reused for another project is refused.
    const reuse = await submit(w, j1!, p1!, 80, key);
    expect(reuse.statusCode).toBe(400);
    expect(reuse.body.message).toBe(M.keyInvalid);
  });

  it('who may call what: a judge not on the session, an expert without the agreement, a participant, a chair without the button, a revoked screen', async () => {
    const w = await world();
    const [p0] = w.projects;
    const [stranger] = await seedExperts(t, 1);
    const [unagreed] = await seedExperts(t, [{ agreed: false }]);
    const participant = await signIn(t, { realm: 'USER' });
    await actOk(w, { action: 'OPEN' });
    await actOk(w, { action: 'START', projectId: p0 });
    expect((await judgeState(w, stranger!)).statusCode).toBe(404);
    expect((await submit(w, stranger!, p0!, 80)).statusCode).toBe(404);
    expect((await judgeState(w, unagreed!)).statusCode).toBe(403);
    expect((await api(t, 'GET', `${E}/sessions/${w.sessionId}`, { headers: participant.headers })).statusCode).toBe(401);
    expect((await api(t, 'GET', `${E}/sessions/${w.sessionId}`)).statusCode).toBe(401);
    expect((await api(t, 'GET', `${A}/sessions/${w.sessionId}/chair`, { headers: viewer.headers })).statusCode).toBe(403);
    expect((await api(t, 'POST', `${A}/sessions/${w.sessionId}/actions`, { headers: viewer.headers, body: { action: 'NEXT', version: 1 } })).statusCode).toBe(403);
    expect((await api(t, 'GET', `${A}/sessions/${w.sessionId}/chair`, { headers: w.judges[0]!.headers })).statusCode).toBe(401);
    expect((await api(t, 'GET', `${A}/sessions/${randomUUID()}/chair`, { headers: admin.headers })).statusCode).toBe(404);
    expect((await api(t, 'POST', `${A}/sessions/${w.sessionId}/actions`, { headers: admin.headers, body: { action: 'START', projectId: randomUUID(), version: (await sessionRow(w.sessionId)).version } })).statusCode).toBe(404);
    const link = await newLink(w);
    expect((await display(link.token)).statusCode).toBe(200);
    const links = await api<LiveDisplayLink[]>(t, 'GET', `${A}/sessions/${w.sessionId}/displays`, { headers: viewer.headers });
    expect(links.body.data[0]!.token).not.toBe(link.token);
    expect((await api(t, 'DELETE', `${A}/sessions/${w.sessionId}/displays/${link.id}`, { headers: viewer.headers })).statusCode).toBe(403);
    expect((await api(t, 'DELETE', `${A}/sessions/${w.sessionId}/displays/${link.id}`, { headers: admin.headers })).statusCode).toBe(200);
    const revoked = await display(link.token);
    expect(revoked.statusCode).toBe(404);
    expect(revoked.body.message).toBe(M.displayNotFound);
    expect((await display('x'.repeat(43))).statusCode).toBe(404);
  });
});

describe('two chairs at once', () => {
  it('both press NEXT on the same version: one moves the session, the other gets STALE and nothing changes', async () => {
    const w = await world();
    const [p0, p1] = w.projects;
    await actOk(w, { action: 'OPEN' });
    await actOk(w, { action: 'ABSENT', projectId: p0 });
    const { version } = (await sessionRow(w.sessionId));
    const [a, b] = await Promise.all([act(w, { action: 'NEXT', version }, admin), act(w, { action: 'NEXT', version }, chair2)]);
    const codes = [a.statusCode, b.statusCode].sort();
    expect(codes).toEqual([200, 400]);
    const loser = a.statusCode === 400 ? a : b;
    expect(loser.body).toMatchObject({ message: M.stale, data: { reason: 'STALE', version: version + 1 } });
    const after = await sessionRow(w.sessionId);
    expect(after.version).toBe(version + 1);
    expect(after.currentPrelimId).toBe(p1);
    const nexts = (await historyOf(w.sessionId)).filter((h) => h.fromStatus === 'LIVE' && h.toStatus === 'LIVE');
    expect(nexts).toHaveLength(1);
  });
});

describe('state lives in the database', () => {
  it('a restarted app resumes the session where it was, the timer from stored timestamps', async () => {
    const config = loadTestConfig({ REDIS_PREFIX: `test:${randomUUID().slice(0, 8)}:` });
    const { database, drop } = await createTestDatabase(config, { migrated: true });
    // The module's clock (review's `now`: the workflow's step times and each snapshot's time), moved by hand.
    let clock = Date.now();
    const tick = (ms: number) => (clock += ms);
    const start = async () => {
      const built = await buildApp(config, { database, bare: true });
      await built.register(
        async (scope: FastifyInstance) => {
          const identity = await registerIdentity(scope, built.deps);
          await registerLiveFinal(scope, built.deps, await registerReview(scope, built.deps, identity, { now: () => new Date(clock) }));
        },
        { prefix: '/api' },
      );
      await built.ready();
      return built;
    };
    let app = await start();
    const local: TestApp = { app, config, database, close: async () => {} };
    const saved = t;
    t = local;
    try {
      const boss = await signIn(t, { realm: 'ADMIN', buttons: ['live:plan', 'live:chair', 'live:display'] });
      await setSetting(t, 'contest.phases', { finalReview: openWindow() });
      const projects = await seedProjects(t, [{ final: true }, { final: true }]);
      const judges = await seedExperts(t, 2);
      const groupId = await seedGroup(t, 'FINAL', judges.map((j) => j.accountId), projects);
      const created = await api<LiveSessionDetail>(t, 'POST', `${A}/sessions`, { headers: boss.headers, body: { name: '重启', venue: '会场', date: '2026-12-01', presentationMinutes: 8, qaMinutes: 5, judgeIds: judges.map((j) => j.accountId) } });
      const w = { sessionId: created.body.data.id };
      await api(t, 'POST', `${A}/sessions/${w.sessionId}/projects/import`, { headers: boss.headers, body: { groupId } });
      const go = async (body: Record<string, unknown>) => {
        const version = (await api<LiveChairState>(t, 'GET', `${A}/sessions/${w.sessionId}/chair`, { headers: boss.headers })).body.data.session.version;
        const r = await api<LiveChairState>(t, 'POST', `${A}/sessions/${w.sessionId}/actions`, { headers: boss.headers, body: { ...body, version } });
        expect(r.statusCode, JSON.stringify(r.body)).toBe(200);
        return r.body.data;
      };
      await go({ action: 'OPEN' });
      await go({ action: 'START', projectId: projects[0] });
      tick(90_000);
      const pausedState = await go({ action: 'PAUSE', projectId: projects[0] });
      expect(pausedState.current?.timer).toMatchObject({ phase: 'PRESENTATION', running: false, elapsedMs: 90_000, at: new Date(clock).toISOString() });
      await submit(w, judges[0]!, projects[0]!, 75);
      const before = (await api<LiveChairState>(t, 'GET', `${A}/sessions/${w.sessionId}/chair`, { headers: boss.headers })).body.data;

      // An open stream does not hold the close (the module ends streams first).
      const stream = await openSse(await listen(t), `${A}/sessions/${w.sessionId}/events`, boss.headers);
      await stream.next(() => true);
      await app.close();
      await stream.ended;
      // Paused time does not count, across the restart.
      tick(30_000);
      app = await start();
      t = { ...local, app };
      const after = (await api<LiveChairState>(t, 'GET', `${A}/sessions/${w.sessionId}/chair`, { headers: boss.headers })).body.data;
      expect(after.session).toEqual(before.session);
      expect(after.current).toMatchObject({ projectId: projects[0], state: 'PRESENTING', submitted: 1, expected: 2 });
      expect(after.current?.timer).toMatchObject({ phase: 'PRESENTATION', running: false, elapsedMs: 90_000 });
      // And it carries on: resumed after 30 s of pause, then 10 s more on the clock.
      const resumed = await go({ action: 'RESUME', projectId: projects[0] });
      expect(resumed.current?.timer).toMatchObject({ running: true, elapsedMs: 90_000 });
      tick(10_000);
      const later = (await api<LiveChairState>(t, 'GET', `${A}/sessions/${w.sessionId}/chair`, { headers: boss.headers })).body.data;
      expect(later.current?.timer).toMatchObject({ running: true, elapsedMs: 100_000, limitSeconds: 480 });
    } finally {
      t = saved;
      await app.close();
      await drop();
    }
  });
});

describe('event streams', () => {
  it('a (re)connecting client first gets the full state; a change sends a new one; a revoked screen gets gone and the stream ends', async () => {
    const w = await world();
    const link = await newLink(w);
    const server = await listen(t);
    try {
      const first = await openSse(server, `/api/live/display/${link.token}/events`);
      const snap = await first.next(() => true);
      expect(snap.event).toBe('state');
      expect(snap.data).toMatchObject({ session: { id: w.sessionId, status: 'PLANNED' }, current: null, ranking: [] });
      await actOk(w, { action: 'OPEN' });
      const moved = await first.next((e) => e.data.session?.status === 'LIVE');
      expect(moved.data.current?.projectId).toBe(w.projects[0]);
      first.close();
      // Reconnect: the full current state at once.
      const again = await openSse(server, `/api/live/display/${link.token}/events`);
      const snap2 = await again.next(() => true);
      expect(snap2.data).toMatchObject({ session: { status: 'LIVE' }, current: { projectId: w.projects[0] } });
      expect(first.response.headers['content-type']).toContain('text/event-stream');
      await api(t, 'DELETE', `${A}/sessions/${w.sessionId}/displays/${link.id}`, { headers: admin.headers });
      const gone = await again.next((e) => e.event === 'gone');
      expect(gone.data).toMatchObject({ reason: 'REVOKED', message: M.displayNotFound });
      await again.ended;
      // Refused before the stream: the usual envelope.
      const refused = await rawGet(server, `/api/live/display/${link.token}/events`);
      expect(refused.status).toBe(404);
      const judgeOff = await rawGet(server, `${E}/sessions/${w.sessionId}/events`, (await seedExperts(t, 1))[0]!.headers);
      expect(judgeOff.status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
