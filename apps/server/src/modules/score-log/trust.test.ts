import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gte } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_MSG,
  RESULTS_MSG,
  checkScoreReceipt,
  type MyResults,
  type ScoreLogAnchorList,
  type ScoreLogVerifyAnswer,
  type ScoreReceipt,
} from '@contest/shared';
import { jobs, messageRecipients, messages, news, scoreLog, scoreLogAnchors, scoreSheets } from '../../db/schema.js';
import { api, openWindow, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedGroup, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { promote, seedExperts, seedTeams, split, type SeededTeam } from '../results/results.fixtures.js';
import { SCORE_LOG_VERIFY_JOB, runDailyVerify } from './daily-verify.js';
import { hashedOf, scoreLogHash, verifyScoreLog } from './score-log.js';

/**
 * The score log checked against the live data and its published heads, and the teams' receipts
 * (docs/security.md "Score log: anchors and receipts"). Projects A 77 / B 80 /
 * C 70 scored through the expert calls by three experts, A promoted, the preliminary result
 * published (its notice prints the head).
 */

let t: TestApp;
let admin: SignedIn;
let superAdmin: SignedIn;
let experts: SeededExpert[];
let T: Record<string, SeededTeam>;
const TOTALS = { A: 77, B: 80, C: 70 } as const;

const db = () => t.database.db;
const sha256 = (data: Uint8Array) => new Uint8Array(createHash('sha256').update(data).digest());
const verifyApi = () => api<ScoreLogVerifyAnswer>(t, 'GET', '/api/admin/score-log/verify', { headers: admin.headers });
const receiptApi = (team: SeededTeam, query = '') => api<ScoreReceipt>(t, 'GET', `/api/results/prelim/receipt${query}`, { headers: team.headers });
const sheetOf = async (team: SeededTeam, expert: SeededExpert) =>
  (await db().select().from(scoreSheets).where(and(eq(scoreSheets.prelimId, team.id), eq(scoreSheets.expertId, expert.accountId))))[0]!;
const inbox = async (accountId: string, since: Date) =>
  db()
    .select({ title: messages.title, body: messages.body })
    .from(messageRecipients)
    .innerJoin(messages, eq(messages.id, messageRecipients.messageId))
    .where(and(eq(messageRecipients.accountId, accountId), gte(messages.createdAt, since)))
    .orderBy(desc(messages.createdAt));
/** The root the notice printed (what an outside party reads off the public article). */
const rootInNotice = (body: string) => /默克尔根[^<]*<code>([0-9a-f]{64})<\/code>/.exec(body)?.[1];

/** Runs `change`, then `check`, then puts the sheet back as it was. */
async function withSheetChanged(sheetId: string, change: Partial<typeof scoreSheets.$inferInsert>, check: () => Promise<void>) {
  const [before] = await db().select().from(scoreSheets).where(eq(scoreSheets.id, sheetId));
  await db().update(scoreSheets).set(change).where(eq(scoreSheets.id, sheetId));
  try {
    await check();
  } finally {
    await db().update(scoreSheets).set(before!).where(eq(scoreSheets.id, sheetId));
  }
}

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { realm: 'ADMIN', buttons: ['result:publish', 'final:promote'], menus: ['scoreLog'], name: '发布管理员' });
  superAdmin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN', name: '超级管理员甲' });
  await setSetting(t, 'contest.phases', { prelimReview: openWindow(), finalReview: openWindow() });
  T = await seedTeams(t, ['A', 'B', 'C']);
  experts = await seedExperts(t, 3);
  await seedGroup(t, 'PRELIMINARY', experts.map((e) => e.accountId), Object.values(T).map((x) => x.id));
  for (const [name, total] of Object.entries(TOTALS)) {
    for (const e of experts) {
      const res = await api(t, 'POST', `/api/expert/review/prelim/${T[name]!.id}/sheet/submit`, { headers: e.headers, body: { scores: split(total), comment: `评语${name}` } });
      expect(res.statusCode).toBe(200);
    }
  }
  await promote(t, admin, { mode: 'PICKED', ids: [T.A!.id] });
  const published = await api(t, 'POST', '/api/admin/results/prelim/publish', { headers: admin.headers, body: {} });
  expect(published.statusCode).toBe(200);
}, 120_000);
afterAll(async () => t?.close());

describe('the published head', () => {
  it('is kept, printed in the notice (article text) and recorded by the PUBLICATION entry; the log verifies intact', async () => {
    const entries = await db().select().from(scoreLog).orderBy(asc(scoreLog.seq));
    const publication = entries.find((e) => e.kind === 'PUBLICATION')!;
    const headSeq = publication.seq - 1;
    const head = entries[headSeq - 1]!;
    const [anchor] = await db().select().from(scoreLogAnchors);
    expect(anchor).toMatchObject({ round: 'PRELIMINARY', version: 1, seq: headSeq, headHash: head.hash });
    expect(anchor!.merkleRoot).toMatch(/^[0-9a-f]{64}$/);
    expect(publication.payload.anchor).toEqual({ seq: headSeq, hash: head.hash, merkleRoot: anchor!.merkleRoot });
    const [article] = await db().select().from(news).where(eq(news.id, anchor!.newsId!));
    expect(article!.body).toContain(`序号 ${headSeq}`);
    expect(article!.body).toContain(head.hash);
    expect(rootInNotice(article!.body)).toBe(anchor!.merkleRoot);

    const res = await verifyApi();
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, count: entries.length, anchors: { count: 1 }, live: { sheets: 9 } });
    expect(res.body.data.anchors.firstMismatch).toBeUndefined();
    expect(res.body.data.live.firstDifference).toBeUndefined();

    const list = await api<ScoreLogAnchorList>(t, 'GET', '/api/admin/score-log/anchors', { headers: admin.headers });
    expect(list.body.data.list).toMatchObject([{ id: anchor!.id, seq: headSeq, headHash: head.hash, merkleRoot: anchor!.merkleRoot, version: 1 }]);
    const mine = await api<MyResults>(t, 'GET', '/api/results/mine', { headers: T.A!.headers });
    expect(mine.body.data.rounds[0]!.anchor).toEqual({ seq: headSeq, headHash: head.hash, merkleRoot: anchor!.merkleRoot });

    // A refused publication keeps no head (it commits with the version or not at all).
    expect((await api(t, 'POST', '/api/admin/results/prelim/publish', { headers: admin.headers, body: {} })).statusCode).toBe(400);
    expect(await db().select().from(scoreLogAnchors)).toHaveLength(1);
  });

  it('entries are written in form v2: the actor name is stored but not hashed, so anonymising it keeps the log verifiable', async () => {
    const [entry] = await db().select().from(scoreLog).where(eq(scoreLog.kind, 'SCORE_SUBMITTED')).orderBy(asc(scoreLog.seq)).limit(1);
    expect(entry!.v).toBe(2);
    expect(entry!.actorName).toContain(experts[0]!.code);
    await db().update(scoreLog).set({ actorName: '已匿名' }).where(eq(scoreLog.seq, entry!.seq));
    try {
      expect((await verifyScoreLog(db())).ok).toBe(true);
    } finally {
      await db().update(scoreLog).set({ actorName: entry!.actorName }).where(eq(scoreLog.seq, entry!.seq));
    }
  });
});

describe('live data against the log', () => {
  it('a submitted sheet edited in the database (77 -> 100): the call names the sheet, project, expert and field', async () => {
    const sheet = await sheetOf(T.A!, experts[1]!);
    await withSheetChanged(sheet.id, { scores: split(100), total: 200 }, async () => {
      const res = await verifyApi();
      expect(res.statusCode).toBe(200);
      expect(res.body.data.ok).toBe(false);
      // The chain itself is intact: only the comparison with the live data sees it.
      expect(res.body.data.firstBroken).toBeUndefined();
      expect(res.body.data.live.firstDifference).toMatchObject({
        reason: 'SHEET_FIELD_DIFFERS',
        sheetId: sheet.id,
        round: 'PRELIMINARY',
        projectId: T.A!.id,
        projectName: 'A',
        expertId: experts[1]!.accountId,
        expertCode: experts[1]!.code,
        field: 'scores.completeness',
        expected: String(split(77).completeness),
        found: String(split(100).completeness),
      });
    });
    // Only the total (what the ranking reads) changed.
    await withSheetChanged(sheet.id, { total: 200 }, async () => {
      expect((await verifyScoreLog(db())).live.firstDifference).toMatchObject({ reason: 'SHEET_FIELD_DIFFERS', sheetId: sheet.id, field: 'total', expected: '77', found: '100' });
    });
    await withSheetChanged(sheet.id, { comment: '改过的评语' }, async () => {
      expect((await verifyScoreLog(db())).live.firstDifference).toMatchObject({ field: 'comment', sheetId: sheet.id });
    });
    expect((await verifyScoreLog(db())).ok).toBe(true);
  });

  it('a state changed behind the log, and a submitted sheet with no entry, are named', async () => {
    const sheet = await sheetOf(T.B!, experts[0]!);
    await withSheetChanged(sheet.id, { status: 'DRAFT' }, async () => {
      expect((await verifyScoreLog(db())).live.firstDifference).toMatchObject({ reason: 'SHEET_STATE_DIFFERS', sheetId: sheet.id, field: 'status', expected: 'SUBMITTED', found: 'DRAFT' });
    });
    // A sheet slipped in as submitted: it would count in the ranking with no entry.
    const [extra] = await seedExperts(t, 1);
    const [added] = await db()
      .insert(scoreSheets)
      .values({ round: 'PRELIMINARY', prelimId: T.C!.id, expertId: extra!.accountId, status: 'SUBMITTED', scores: split(100), total: 200, submittedAt: new Date() })
      .returning();
    try {
      expect((await verifyScoreLog(db())).live.firstDifference).toMatchObject({ reason: 'SHEET_NOT_LOGGED', sheetId: added!.id, projectId: T.C!.id, expertId: extra!.accountId, field: 'entry' });
    } finally {
      await db().delete(scoreSheets).where(eq(scoreSheets.id, added!.id));
    }
    expect((await verifyScoreLog(db())).ok).toBe(true);
  });
});

describe('a change after publication, with the whole chain recomputed', () => {
  /** Raises A's sheet of expert 1 to 100 in the sheet and its entry, and recomputes every hash from there on. */
  async function rewrite(): Promise<() => Promise<void>> {
    const rows = await db().select().from(scoreLog).orderBy(asc(scoreLog.seq));
    const sheet = await sheetOf(T.A!, experts[1]!);
    const target = rows.find((r) => r.kind === 'SCORE_SUBMITTED' && r.payload.sheetId === sheet.id)!;
    const [sheetBefore] = await db().select().from(scoreSheets).where(eq(scoreSheets.id, sheet.id));
    await db().update(scoreSheets).set({ scores: split(100), total: 200 }).where(eq(scoreSheets.id, sheet.id));
    let prevHash = rows[target.seq - 2]!.hash;
    for (const r of rows.filter((x) => x.seq >= target.seq)) {
      const payload = r.seq === target.seq ? { ...r.payload, scores: split(100), total: 100 } : r.payload;
      const hash = scoreLogHash(hashedOf({ ...r, payload, prevHash }));
      await db().update(scoreLog).set({ payload, prevHash, hash }).where(eq(scoreLog.seq, r.seq));
      prevHash = hash;
    }
    return async () => {
      for (const r of rows.filter((x) => x.seq >= target.seq)) await db().update(scoreLog).set({ payload: r.payload, prevHash: r.prevHash, hash: r.hash }).where(eq(scoreLog.seq, r.seq));
      await db().update(scoreSheets).set(sheetBefore!).where(eq(scoreSheets.id, sheet.id));
    };
  }

  it('no longer matches the published head: verification says so, the chain and the sheets alone would not', async () => {
    const [anchor] = await db().select().from(scoreLogAnchors);
    const restore = await rewrite();
    try {
      const res = await verifyApi();
      expect(res.body.data.ok).toBe(false);
      expect(res.body.data.firstBroken).toBeUndefined();
      expect(res.body.data.live.firstDifference).toBeUndefined();
      expect(res.body.data.anchors.firstMismatch).toMatchObject({ reason: 'ANCHOR_HEAD_MISMATCH', anchorId: anchor!.id, round: 'PRELIMINARY', version: 1, seq: anchor!.seq, expected: anchor!.headHash });
    } finally {
      await restore();
    }
    expect((await verifyScoreLog(db())).ok).toBe(true);
  });

  it('the team receipt checks out against the root printed in the notice, and fails once the log was changed', async () => {
    const [anchor] = await db().select().from(scoreLogAnchors);
    const [article] = await db().select().from(news).where(eq(news.id, anchor!.newsId!));
    const published = rootInNotice(article!.body)!;
    const res = await receiptApi(T.A!);
    expect(res.statusCode).toBe(200);
    const receipt = res.body.data;
    expect(receipt).toMatchObject({ format: 'contest-score-receipt', publication: { anchorId: anchor!.id, round: 'PRELIMINARY', version: 1 }, head: { seq: anchor!.seq, hash: anchor!.headHash }, merkle: { size: anchor!.seq, root: published }, project: { id: T.A!.id, name: 'A' } });
    // A's three scores, each with the text as hashed (no expert name in it).
    expect(receipt.entries).toHaveLength(3);
    for (const e of receipt.entries) {
      const entry = JSON.parse(e.canonical!) as Record<string, unknown>;
      expect(entry).toMatchObject({ v: 2, kind: 'SCORE_SUBMITTED', subjectId: T.A!.id });
      expect(e.canonical).not.toContain('专家');
    }
    expect(checkScoreReceipt(sha256, receipt, published)).toEqual({ ok: true, checked: 3, inclusionOnly: 0, problems: [] });

    const restore = await rewrite();
    try {
      const after = (await receiptApi(T.A!)).body.data;
      const check = checkScoreReceipt(sha256, after, published);
      expect(check.ok).toBe(false);
      expect(check.problems.map((p) => p.problem)).toContain('ENTRY_NOT_IN_TREE');
    } finally {
      await restore();
    }
  });

  it('a team gets only its own entries: another project id answers 404, other realms 401, a bad id 400', async () => {
    const a = (await receiptApi(T.A!)).body.data;
    const b = await receiptApi(T.B!);
    expect(b.statusCode).toBe(200);
    expect(b.body.data.entries).toHaveLength(3);
    expect(b.body.data.entries.every((e) => (JSON.parse(e.canonical!) as { subjectId: string }).subjectId === T.B!.id)).toBe(true);
    expect(b.body.data.entries.some((e) => a.entries.some((x) => x.seq === e.seq))).toBe(false);
    expect((await receiptApi(T.B!, `?projectId=${T.B!.id}`)).statusCode).toBe(200);

    const other = await receiptApi(T.B!, `?projectId=${T.A!.id}`);
    expect(other.statusCode).toBe(404);
    expect(other.body).toMatchObject({ message: RESULTS_MSG.receiptNotFound, data: { reason: 'NOT_FOUND' } });
    const bad = await receiptApi(T.B!, '?projectId=x');
    expect(bad.statusCode).toBe(400);
    expect(bad.body.message).toBe(ADMIN_MSG.idInvalid);
    expect((await api(t, 'GET', '/api/results/prelim/receipt')).statusCode).toBe(401);
    expect((await api(t, 'GET', '/api/results/prelim/receipt', { headers: admin.headers })).statusCode).toBe(401);
    expect((await api(t, 'GET', '/api/results/prelim/receipt', { headers: experts[0]!.headers })).statusCode).toBe(401);
    // The final is not published: nothing to give.
    expect((await api(t, 'GET', '/api/results/final/receipt', { headers: T.A!.headers })).statusCode).toBe(400);
  });
});

describe('the daily verification job', () => {
  it('is a scheduled durable job', async () => {
    const [job] = await db().select().from(jobs).where(eq(jobs.kind, SCORE_LOG_VERIFY_JOB)).limit(1);
    expect(job).toBeDefined();
  });

  it('tells the super admins (in-site message) on a difference, and nobody when intact', async () => {
    const since = new Date(Date.now() - 1000);
    expect(await runDailyVerify(db())).toEqual({ ok: true, notified: 0 });
    expect(await inbox(superAdmin.accountId, since)).toEqual([]);

    const sheet = await sheetOf(T.A!, experts[2]!);
    await withSheetChanged(sheet.id, { total: 200 }, async () => {
      const run = await runDailyVerify(db());
      expect(run.ok).toBe(false);
      expect(run.notified).toBeGreaterThanOrEqual(1);
    });
    const [message] = await inbox(superAdmin.accountId, since);
    expect(message!.title).toBe('评分存证校验发现异常');
    expect(message!.body).toContain(sheet.id);
    expect(message!.body).toContain(experts[2]!.code);
    expect(message!.body).toContain('total');
    // Not to other staff.
    expect(await inbox(admin.accountId, since)).toEqual([]);
  });
});
