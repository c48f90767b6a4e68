import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  REVIEW_MSG as M,
  projectCodeOf,
  type CalibrationView,
  type CutConfidenceRunView,
  type NormalisationView,
  type PromotionPreview,
} from '@contest/shared';
import { cutConfidenceRuns, messageRecipients, messages, operationRecords, scoreSheets } from '../../db/schema.js';
import { api } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';

/**
 * Judging quality (docs/rules/judging-quality.md) on a preliminary round built to be checked by
 * hand. Four experts; E2 and E3 score alike, E1 is 12 points softer, E4 ranks the other way:
 *
 *            E1   E2   E3   E4    mean
 *   P        92   80   80   50    75.5
 *   Q        82   70   70   60    70.5
 *   R        72   60   60   70    65.5
 *   S        62   50   50   80    60.5
 *   T        74    -    -    -    74     (scored by E1 only: no shared project)
 *
 * Leniency (own - others' mean, averaged over P..S): E1 +12, E2 -4, E3 -4, E4 -4; panel mean 0,
 * sd sqrt(48) = 6.93, so E1 is 1.73 sd out: LENIENT. E4's ranking is the reverse of the others'
 * means: agreement -1, DISAGREES. E1 scored 5 projects: mean 76.4, spread sqrt(101.44) = 10.07.
 *
 * The declared rule is the default trimmed mean (5 scores needed to trim: here the mean). Top 2
 * overall: P, T under the mean, the median and the declared rule; under z-scores T (E1's lowest
 * but one, standardised: -0.24) falls behind Q, which comes in.
 */

let t: TestApp;
let admin: SignedIn;
let reader: SignedIn;
let X: SeededExpert[];
const ID: Record<string, string> = {};
const db = () => t.database.db;

const TOTALS: Record<string, (number | null)[]> = {
  P: [92, 80, 80, 50],
  Q: [82, 70, 70, 60],
  R: [72, 60, 60, 70],
  S: [62, 50, 50, 80],
  T: [74, null, null, null],
};
const split = (total: number) => ({ innovation: 25, feasibility: 25, value: 30, completeness: total - 80 });

const get = <T>(path: string, who: SignedIn = admin) => api<T>(t, 'GET', `/api/admin/review/prelim/${path}`, { headers: who.headers });
const post = <T>(path: string, body: unknown, who: SignedIn = admin) => api<T>(t, 'POST', `/api/admin/review/prelim/${path}`, { headers: who.headers, body });
const rowsOf = async (table: typeof cutConfidenceRuns | typeof messages | typeof operationRecords) => Number((await db().select({ n: count() }).from(table))[0]!.n);

/** Polls the latest run until it is no longer RUNNING (the computation is on another thread). */
async function finished(): Promise<CutConfidenceRunView> {
  for (let i = 0; i < 300; i++) {
    const run = (await get<CutConfidenceRunView>('cut-confidence')).body.data;
    if (run && run.status !== 'RUNNING') return run;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the bootstrap did not finish');
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { realm: 'ADMIN', buttons: ['score:export', 'monitor:remind', 'final:promote', 'score:cut-confidence'], name: '质量管理员' });
  reader = await signIn(t, { realm: 'ADMIN', buttons: [], menus: ['gradeManageGrade'] });
  X = await seedExperts(t, 4);
  const names = Object.keys(TOTALS);
  const ids = await seedProjects(t, names.map((n) => ({ projectName: `项目${n}`, track: n === 'T' || n === 'S' ? 'PUBLIC_SERVICE' : 'SMART_SUPERVISION' })));
  names.forEach((n, i) => (ID[n] = ids[i]!));
  await seedGroup(t, 'PRELIMINARY', X.map((x) => x.accountId), ids);
  const rows = names.flatMap((n) =>
    TOTALS[n]!.flatMap((total, e) =>
      total === null ? [] : [{ round: 'PRELIMINARY' as const, prelimId: ID[n]!, expertId: X[e]!.accountId, status: 'SUBMITTED' as const, scores: split(total), total: total * 2, submittedAt: new Date() }],
    ),
  );
  await db().insert(scoreSheets).values(rows);
});
afterAll(async () => t?.close());

describe('access', () => {
  it.each([
    ['GET', 'calibration'],
    ['GET', 'calibration/export'],
    ['POST', 'calibration/note'],
    ['GET', 'normalisation?topN=2'],
    ['POST', 'cut-confidence'],
    ['GET', 'cut-confidence'],
  ] as const)('%s %s: 401 for other realms and anonymous, 403 without the menu or button', async (method, path) => {
    const url = `/api/admin/review/prelim/${path}`;
    const user = await signIn(t, { realm: 'USER' });
    const nobody = await signIn(t, { realm: 'ADMIN', buttons: ['qualification:view'] });
    const before = await rowsOf(cutConfidenceRuns);
    expect((await api(t, method, url, { body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: user.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: X[0]!.headers, body: {} })).statusCode).toBe(401);
    expect((await api(t, method, url, { headers: nobody.headers, body: {} })).statusCode).toBe(403);
    expect(await rowsOf(cutConfidenceRuns)).toBe(before);
  });

  it('the score-query menu reads, but neither exports, sends a note nor starts a bootstrap (their buttons)', async () => {
    expect((await get('calibration', reader)).statusCode).toBe(200);
    expect((await get('cut-confidence', reader)).statusCode).toBe(200);
    expect((await post('cut-confidence', { topN: 2 }, reader)).statusCode).toBe(403);
    expect((await get('calibration/export', reader)).statusCode).toBe(403);
    expect((await post('calibration/note', { expertId: X[0]!.accountId, text: 'x' }, reader)).statusCode).toBe(403);
  });
});

describe('calibration', () => {
  it('per expert: the figures of the table above, flags, and the panel', async () => {
    const res = await get<CalibrationView>('calibration');
    expect(res.statusCode).toBe(200);
    const v = res.body.data;
    expect(v.leniencyFactor).toBe(1.5);
    expect(v.panel.leniencyMean).toBeCloseTo(0, 9);
    expect(v.panel.leniencySd).toBeCloseTo(Math.sqrt(48), 9);
    expect(v.panel.experts).toBe(4);
    expect(v.experts.map((e) => e.code)).toEqual(X.map((x) => x.code).sort());
    const of = (i: number) => v.experts.find((e) => e.expertId === X[i]!.accountId)!;
    expect(of(0)).toMatchObject({ code: X[0]!.code, name: X[0]!.name, scored: 5, sharedProjects: 4, flags: ['LENIENT'], agreement: 1 });
    expect(typeof of(0).organization).toBe('string');
    expect(of(0).leniency).toBeCloseTo(12, 9);
    expect(of(0).meanTotal).toBeCloseTo(76.4, 9);
    expect(of(0).spread).toBeCloseTo(Math.sqrt(101.44), 9);
    expect(of(1)).toMatchObject({ scored: 4, sharedProjects: 4, flags: [], agreement: 1 });
    expect(of(1).leniency).toBeCloseTo(-4, 9);
    expect(of(3)).toMatchObject({ flags: ['DISAGREES'], agreement: -1 });
    expect(of(3).leniency).toBeCloseTo(-4, 9);
  });

  it('export: an .xlsx of the experts, with its operation record', async () => {
    const before = await rowsOf(operationRecords);
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/review/prelim/calibration/export', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(res.rawPayload.subarray(0, 2).toString()).toBe('PK');
    expect(await rowsOf(operationRecords)).toBe(before + 1);
  });

  it('a note: an in-site message to that expert only, and an operation record', async () => {
    const before = { messages: await rowsOf(messages), ops: await rowsOf(operationRecords) };
    const res = await post('calibration/note', { expertId: X[0]!.accountId, text: '您的评分整体偏高，请参照评分细则。' });
    expect(res.body).toMatchObject({ status: 200, message: M.calibrationNoteSent });
    expect(await rowsOf(messages)).toBe(before.messages + 1);
    expect(await rowsOf(operationRecords)).toBe(before.ops + 1);
    const [msg] = await db().select().from(messages).orderBy(messages.createdAt).limit(1).offset(before.messages);
    expect(msg!.body).toContain('您的评分整体偏高');
    const to = await db().select({ accountId: messageRecipients.accountId }).from(messageRecipients).where(eq(messageRecipients.messageId, msg!.id));
    expect(to.map((r) => r.accountId)).toEqual([X[0]!.accountId]);
  });

  it('a bad note is refused with its text and writes nothing', async () => {
    const before = { messages: await rowsOf(messages), ops: await rowsOf(operationRecords) };
    expect((await post('calibration/note', { expertId: X[0]!.accountId, text: '  ' })).body).toMatchObject({ status: 400, message: M.calibrationNoteRequired });
    expect((await post('calibration/note', { expertId: X[0]!.accountId })).body).toMatchObject({ status: 400, message: M.calibrationNoteRequired });
    expect((await post('calibration/note', { expertId: X[0]!.accountId, text: '长'.repeat(501) })).body).toMatchObject({ status: 400, message: M.calibrationNoteTooLong });
    expect((await post('calibration/note', { expertId: 'nope', text: 'x' })).statusCode).toBe(400);
    expect((await post('calibration/note', { expertId: admin.accountId, text: 'x' })).body).toMatchObject({ status: 404, message: M.expertNotFound });
    expect({ messages: await rowsOf(messages), ops: await rowsOf(operationRecords) }).toEqual(before);
  });
});

describe('normalisation effect', () => {
  it('top 2 overall: T and Q cross the cut under z-scores, the declared rule first', async () => {
    const res = await get<NormalisationView>('normalisation?topN=2');
    expect(res.statusCode).toBe(200);
    const v = res.body.data;
    expect(v).toMatchObject({ declared: 'TRIMMED_MEAN', alternatives: ['ZSCORE', 'MEAN', 'MEDIAN'], topN: 2, perTrack: false });
    expect(v.moves.map((m) => m.projectName)).toEqual(['项目T', '项目Q']);
    const [tMove, qMove] = v.moves;
    expect(tMove).toMatchObject({ projectId: ID.T, projectCode: projectCodeOf(ID.T!), track: 'PUBLIC_SERVICE' });
    expect(tMove!.under.map((u) => [u.aggregate, u.inCut])).toEqual([['TRIMMED_MEAN', true], ['ZSCORE', false], ['MEAN', true], ['MEDIAN', true]]);
    expect(tMove!.under[0]).toMatchObject({ score: 74, rank: 2 });
    expect(qMove!.under.map((u) => u.inCut)).toEqual([false, true, false, false]);
    expect(qMove!.under[0]).toMatchObject({ score: 70.5, rank: 3 });
  });

  it('per track: top 1 of each track moves nobody (P and T lead their tracks under every rule)', async () => {
    const v = (await get<NormalisationView>('normalisation?topN=1&perTrack=true')).body.data;
    expect(v).toMatchObject({ perTrack: true, moves: [] });
  });

  it.each([['', M.promoteNInvalid], ['?topN=0', M.promoteNInvalid], ['?topN=1.5', M.promoteNInvalid], ['?topN=1001', M.promoteNInvalid], ['?topN=2&perTrack=yes', M.perTrackInvalid]])(
    'refuses %s',
    async (q, message) => {
      expect((await get(`normalisation${q}`)).body).toMatchObject({ status: 400, message });
    },
  );
});

describe('confidence on the cut', () => {
  it('refuses bad input with its text and writes nothing', async () => {
    const before = [await rowsOf(cutConfidenceRuns), await rowsOf(operationRecords)];
    const cases: [unknown, string][] = [
      [{}, M.promoteNInvalid],
      [{ topN: 0 }, M.promoteNInvalid],
      [{ topN: 2, rounds: 99 }, M.bootstrapRoundsInvalid],
      [{ topN: 2, rounds: 10_001 }, M.bootstrapRoundsInvalid],
      [{ topN: 2, rounds: 500.5 }, M.bootstrapRoundsInvalid],
      [{ topN: 2, seed: -1 }, M.seedInvalid],
      [{ topN: 2, seed: 2 ** 32 }, M.seedInvalid],
      [{ topN: 2, seed: 'x' }, M.seedInvalid],
      [{ topN: 2, perTrack: 'yes' }, M.perTrackInvalid],
    ];
    for (const [body, message] of cases) expect((await post('cut-confidence', body)).body, JSON.stringify(body)).toMatchObject({ status: 400, message });
    expect([await rowsOf(cutConfidenceRuns), await rowsOf(operationRecords)]).toEqual(before);
  });

  it('none yet: null', async () => {
    expect((await get('cut-confidence')).body).toMatchObject({ status: 200, data: null });
  });

  it('runs off the request path: answered RUNNING at once, requests during it answered, then DONE with the figures', async () => {
    const started = Date.now();
    const ops = await rowsOf(operationRecords);
    const res = await post<CutConfidenceRunView>('cut-confidence', { topN: 2, seed: 12345, rounds: 2000 });
    expect(await rowsOf(operationRecords)).toBe(ops + 1);
    expect(res.body).toMatchObject({ status: 200, message: M.cutConfidenceStarted });
    expect(res.body.data).toMatchObject({ status: 'RUNNING', topN: 2, seed: 12345, rounds: 2000, aggregate: 'TRIMMED_MEAN', stale: false, startedBy: '质量管理员', projects: [] });
    // The thread is still starting (it loads its code), and the instance answers meanwhile.
    const during = await get<CutConfidenceRunView>('cut-confidence');
    expect(during.body.data?.status).toBe('RUNNING');
    expect((await get<CalibrationView>('calibration')).statusCode).toBe(200);
    expect(Date.now() - started).toBeLessThan(5000);

    const run = await finished();
    expect(run).toMatchObject({ status: 'DONE', stale: false, error: null });
    expect(run.finishedAt).not.toBeNull();
    // Named by id (what POST .../projects/:id/rereview takes), in the declared ranking's order.
    expect(run.projects.map((p) => p.projectId)).toEqual([ID.P, ID.T, ID.Q, ID.R, ID.S]);
    const byName = new Map(run.projects.map((p) => [p.projectName, p]));
    // T has one score: every draw is 74, never below 2nd (only a draw of P could pass it).
    expect(byName.get('项目T')).toMatchObject({ count: 1, projectCode: projectCodeOf(ID.T!), rankLow: 1 });
    expect(byName.get('项目T')!.pOverall).toBeGreaterThan(0.8);
    // S can reach the top 2 only by drawing E4's 80 three or four times.
    expect(byName.get('项目S')!.pOverall).toBeLessThan(0.2);
    for (const p of run.projects) {
      expect(p.pOverall).toBeGreaterThanOrEqual(0);
      expect(p.pOverall).toBeLessThanOrEqual(1);
      expect(p.onCutOverall).toBe(p.pOverall >= 0.2 && p.pOverall <= 0.8);
    }
  });

  it('the same seed gives the same figures; no seed draws one and records it', async () => {
    const first = await finished();
    await post('cut-confidence', { topN: 2, seed: 12345, rounds: 2000 });
    const again = await finished();
    expect(again.id).not.toBe(first.id);
    expect(again.projects).toEqual(first.projects);
    const random = (await post<CutConfidenceRunView>('cut-confidence', { topN: 2, rounds: 100 })).body.data;
    expect(Number.isInteger(random.seed)).toBe(true);
    expect(random.seed).toBeGreaterThanOrEqual(0);
    expect(random.seed).toBeLessThan(2 ** 32);
    expect((await finished()).seed).toBe(random.seed);
  });

  it('the promotion preview carries the fresh figures for its N, none for another N', async () => {
    await post('cut-confidence', { topN: 2, seed: 7, rounds: 500 });
    const run = await finished();
    const preview = (await api<PromotionPreview>(t, 'POST', '/api/admin/final/promotion/preview', { headers: admin.headers, body: { mode: 'TOP_OVERALL', n: 2 } })).body.data;
    for (const row of preview.ranking) {
      const p = run.projects.find((x) => x.projectId === row.id)!;
      expect(row).toMatchObject({ pInCut: p.pOverall, onCut: p.onCutOverall });
    }
    const other = (await api<PromotionPreview>(t, 'POST', '/api/admin/final/promotion/preview', { headers: admin.headers, body: { mode: 'TOP_OVERALL', n: 3 } })).body.data;
    expect(other.ranking.every((r) => r.pInCut === null && r.onCut === null)).toBe(true);
  });

  it('stale after a new submit, and the preview no longer shows it', async () => {
    expect((await finished()).stale).toBe(false);
    await db().insert(scoreSheets).values({ round: 'PRELIMINARY', prelimId: ID.T!, expertId: X[1]!.accountId, status: 'SUBMITTED', scores: split(60), total: 120, submittedAt: new Date() });
    expect((await finished()).stale).toBe(true);
    const preview = (await api<PromotionPreview>(t, 'POST', '/api/admin/final/promotion/preview', { headers: admin.headers, body: { mode: 'TOP_OVERALL', n: 2 } })).body.data;
    expect(preview.ranking.every((r) => r.pInCut === null)).toBe(true);
  });
});
