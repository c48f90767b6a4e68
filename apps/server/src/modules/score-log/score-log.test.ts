import { execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { asc, eq, sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_MSG,
  SCORE_LOG_GENESIS,
  SCORE_LOG_MSG as M,
  canonicalJson,
  scoreLogCanonical,
  type Page,
  type PromotionPreview,
  type ScoreLogEntryView,
  type ScoreLogVerifyAnswer,
} from '@contest/shared';
import { openDatabase } from '../../db/client.js';
import { runMigrations } from '../../db/migrate.js';
import { accounts, operationRecords, prelimDocs, promotions, scoreLog, scoreLogAnchors, scoreSheets, teams } from '../../db/schema.js';
import { api, openWindow, setSetting } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup, seedProjects, type SeededExpert } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { createPostgresDatabase, dropPostgresDatabase, withDatabaseName } from '../../../test/test-database.js';
import { appendScoreLog, scoreLogHash, verifyScoreLog, type ScoreLogRow } from './score-log.js';

let t: TestApp;
let admin: SignedIn;
let viewer: SignedIn;

const db = () => t.database.db;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

const entries = () => db().select().from(scoreLog).orderBy(asc(scoreLog.seq));
const lastSeq = async () => (await entries()).at(-1)?.seq ?? 0;
const verifyApi = (who: SignedIn = viewer) => api<ScoreLogVerifyAnswer>(t, 'GET', '/api/admin/score-log/verify', { headers: who.headers });
const listApi = (q = '', who: SignedIn = viewer) => api<Page<ScoreLogEntryView>>(t, 'GET', `/api/admin/score-log${q ? `?${q}` : ''}`, { headers: who.headers });

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { realm: 'ADMIN', buttons: ['score:return', 'final:promote', 'score-log:export'], name: '存证管理员' });
  viewer = await signIn(t, { realm: 'ADMIN', menus: ['scoreLog'], name: '存证查看员' });
  await setSetting(t, 'contest.phases', { prelimReview: openWindow(), finalReview: openWindow() });
});
afterAll(async () => t?.close());

describe('the canonical form', () => {
  it('is RFC 8785 JSON: sorted keys, no spaces, numbers as JavaScript writes them (a golden vector computed with Python json.dumps(sort_keys))', () => {
    const entry = {
      seq: 1,
      kind: 'SCORE_SUBMITTED',
      round: 'PRELIMINARY',
      subjectType: 'prelim_doc',
      subjectId: '5b0c8f4e-2d7a-4c51-9a43-0f6e1d2c3b4a',
      actorId: 'a1b2c3d4-0000-4000-8000-000000000001',
      actorName: '张三（E0001）',
      payload: { total: 38.5, scores: { innovation: 20, feasibility: 18.5 }, commentSha256: sha256(''), notes: [1, '二', null, true] },
      at: '2025-09-01T08:00:00.000Z',
      prevHash: SCORE_LOG_GENESIS,
    };
    expect(scoreLogCanonical(entry)).toBe(
      '{"actorId":"a1b2c3d4-0000-4000-8000-000000000001","actorName":"张三（E0001）","at":"2025-09-01T08:00:00.000Z","kind":"SCORE_SUBMITTED",' +
        '"payload":{"commentSha256":"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855","notes":[1,"二",null,true],"scores":{"feasibility":18.5,"innovation":20},"total":38.5},' +
        '"prevHash":"0000000000000000000000000000000000000000000000000000000000000000","round":"PRELIMINARY","seq":1,"subjectId":"5b0c8f4e-2d7a-4c51-9a43-0f6e1d2c3b4a","subjectType":"prelim_doc"}',
    );
    expect(scoreLogHash(entry)).toBe('2553b1c154b0deb9fc819b69c1db5e0f2a27fba79376dba2d0985f0317ece618');
    expect(canonicalJson({ b: undefined, a: [undefined, 1e21, 0.1 + 0.2, -0] })).toBe('{"a":[null,1e+21,0.30000000000000004,0]}');
    expect(() => canonicalJson({ a: Number.NaN })).toThrow();
  });

  it('a stored payload recomputes to its hash after the round trip through jsonb (floats, big numbers, Unicode, key order)', async () => {
    const before = await lastSeq();
    const payload = { z: 1, a: { y: [0.1 + 0.2, 1e21, 5e-324, -0, 123456789.125], x: '引号"反斜杠\\换行\n😀\u2028' }, date: new Date('2025-01-02T03:04:05.678Z'), gone: undefined };
    const row = await db().transaction((tx) => appendScoreLog(tx, { kind: 'PUBLICATION', round: null, subjectType: 'test', subjectId: 'jsonb', actor: null, payload }));
    expect(row).toMatchObject({ seq: before + 1, actorId: null, actorName: '', round: null });
    expect(row.payload).toEqual({ z: 1, a: { y: [0.30000000000000004, 1e21, 5e-324, 0, 123456789.125], x: '引号"反斜杠\\换行\n😀\u2028' }, date: '2025-01-02T03:04:05.678Z' });
    const [stored] = await db().select().from(scoreLog).where(eq(scoreLog.seq, row.seq));
    expect(stored!.hash).toBe(row.hash);
    expect(await verifyScoreLog(db())).toMatchObject({ ok: true, lastSeq: row.seq, lastHash: row.hash });
  });
});

describe('appends from the review flow', () => {
  let experts: SeededExpert[];
  let extra: SeededExpert;
  let p1: string;
  let p2: string;
  const comment = '创新点突出，落地路径清晰。';
  const scores = { innovation: 20, feasibility: 18.5, value: 25, completeness: 15 };

  const submit = (e: SeededExpert, id: string, body: unknown) => api(t, 'POST', `/api/expert/review/prelim/${id}/sheet/submit`, { headers: e.headers, body });
  const sheetOf = async (prelimId: string, expertId: string) =>
    (await db().select().from(scoreSheets).where(sql`${scoreSheets.prelimId} = ${prelimId} and ${scoreSheets.expertId} = ${expertId}`))[0]!;
  const newEntries = async (after: number) => (await entries()).filter((e) => e.seq > after);

  beforeAll(async () => {
    [p1, p2] = await seedProjects(t, [{ projectName: '存证-智能审核' }, { projectName: '存证-医保画像' }]) as [string, string];
    experts = await seedExperts(t, 2);
    [extra] = await seedExperts(t, 1) as [SeededExpert];
    await seedGroup(t, 'PRELIMINARY', experts.map((e) => e.accountId), [p1, p2]);
  });

  it('a submit appends SCORE_SUBMITTED with the scores, the total and the comment digest (never the text); a draft appends nothing', async () => {
    const before = await lastSeq();
    expect((await api(t, 'PUT', `/api/expert/review/prelim/${p1}/sheet`, { headers: experts[0]!.headers, body: { scores: { innovation: 10 }, comment: '草稿' } })).statusCode).toBe(200);
    expect(await newEntries(before)).toEqual([]);
    // A refused submit (no comment) writes nothing either.
    expect((await submit(experts[0]!, p1, { scores, comment: ' ' })).statusCode).toBe(400);
    expect(await newEntries(before)).toEqual([]);

    expect((await submit(experts[0]!, p1, { scores, comment })).statusCode).toBe(200);
    const sheet = await sheetOf(p1, experts[0]!.accountId);
    const [entry, ...rest] = await newEntries(before);
    expect(rest).toEqual([]);
    expect(entry).toMatchObject({
      seq: before + 1,
      kind: 'SCORE_SUBMITTED',
      round: 'PRELIMINARY',
      subjectType: 'prelim_doc',
      subjectId: p1,
      actorId: experts[0]!.accountId,
      actorName: `${experts[0]!.name}（${experts[0]!.code}）`,
      payload: { round: 'PRELIMINARY', projectId: p1, projectName: '存证-智能审核', sheetId: sheet.id, expertId: experts[0]!.accountId, scores, total: 78.5, commentSha256: sha256(comment) },
    });
    expect(JSON.stringify(entry!.payload)).not.toContain('创新点');
    expect(entry!.at.getTime()).toBe(sheet.submittedAt!.getTime());
  });

  it('a return appends SCORE_RETURNED with the reason and the scores it takes back; the resubmission is a new entry', async () => {
    const sheet = await sheetOf(p1, experts[0]!.accountId);
    const before = await lastSeq();
    const res = await api(t, 'POST', `/api/admin/review/prelim/sheets/${sheet.id}/return`, { headers: admin.headers, body: { reason: '评分依据不足', version: sheet.version } });
    expect(res.statusCode).toBe(200);
    const [returned] = await newEntries(before);
    expect(returned).toMatchObject({
      kind: 'SCORE_RETURNED',
      subjectId: p1,
      actorId: admin.accountId,
      actorName: '存证管理员',
      payload: { sheetId: sheet.id, scores, total: 78.5, commentSha256: sha256(comment), reason: '评分依据不足', rereview: false },
    });
    // Returning it again is refused: nothing appended.
    expect((await api(t, 'POST', `/api/admin/review/prelim/sheets/${sheet.id}/return`, { headers: admin.headers, body: { reason: 'x' } })).statusCode).toBe(400);
    expect((await newEntries(before)).length).toBe(1);

    const rescored = { ...scores, innovation: 22 };
    expect((await submit(experts[0]!, p1, { scores: rescored, comment: `${comment}（修改）` })).statusCode).toBe(200);
    const [, again] = await newEntries(before);
    expect(again).toMatchObject({ kind: 'SCORE_SUBMITTED', payload: { scores: rescored, total: 80.5, commentSha256: sha256(`${comment}（修改）`) } });
  });

  it('re-review: adding experts appends REREVIEW; returning all appends one SCORE_RETURNED per sheet, then REREVIEW', async () => {
    expect((await submit(experts[1]!, p1, { scores, comment })).statusCode).toBe(200);
    let before = await lastSeq();
    const rereview = (body: unknown) => api(t, 'POST', `/api/admin/review/prelim/projects/${p1}/rereview`, { headers: admin.headers, body });

    expect((await rereview({ mode: 'ADD_EXPERTS', expertIds: [experts[0]!.accountId], reason: '分歧较大' })).statusCode).toBe(400);
    expect(await newEntries(before)).toEqual([]);
    expect((await rereview({ mode: 'ADD_EXPERTS', expertIds: [extra.accountId], reason: '分歧较大' })).statusCode).toBe(200);
    expect(await newEntries(before)).toMatchObject([
      {
        kind: 'REREVIEW',
        subjectId: p1,
        actorName: '存证管理员',
        payload: { mode: 'ADD_EXPERTS', projectName: '存证-智能审核', addedExperts: [{ expertId: extra.accountId, code: extra.code }], reason: '分歧较大' },
      },
    ]);

    before = await lastSeq();
    expect((await rereview({ mode: 'RETURN_ALL', reason: '申诉复核' })).body).toMatchObject({ status: 200, data: { returned: 2 } });
    const added = await newEntries(before);
    const sheetIds = [(await sheetOf(p1, experts[0]!.accountId)).id, (await sheetOf(p1, experts[1]!.accountId)).id].sort();
    expect(added.map((e) => e.kind)).toEqual(['SCORE_RETURNED', 'SCORE_RETURNED', 'REREVIEW']);
    expect(added.slice(0, 2).map((e) => (e.payload as { sheetId: string }).sheetId).sort()).toEqual(sheetIds);
    expect(added[0]!.payload).toMatchObject({ reason: '申诉复核', rereview: true });
    expect(added[2]!.payload).toMatchObject({ mode: 'RETURN_ALL', returnedSheetIds: sheetIds, reason: '申诉复核' });
  });

  it('a promotion appends PROMOTION with the rule, the promoted ids and the digest of the stored ranking', async () => {
    expect((await submit(experts[0]!, p2, { scores, comment })).statusCode).toBe(200);
    const before = await lastSeq();
    const body = { mode: 'PICKED', ids: [p2] };
    const preview = await api<PromotionPreview>(t, 'POST', '/api/admin/final/promotion/preview', { headers: admin.headers, body });
    expect(preview.statusCode).toBe(200);
    expect(await newEntries(before)).toEqual([]);
    // A stale token is refused: nothing appended.
    expect((await api(t, 'POST', '/api/admin/final/promotion/confirm', { headers: admin.headers, body: { ...body, token: 'f'.repeat(64) } })).statusCode).toBe(400);
    expect(await newEntries(before)).toEqual([]);
    const res = await api<{ promotionId: string }>(t, 'POST', '/api/admin/final/promotion/confirm', { headers: admin.headers, body: { ...body, token: preview.body.data.token } });
    expect(res.statusCode).toBe(200);
    const [stored] = await db().select().from(promotions).where(eq(promotions.id, res.body.data.promotionId));
    expect(await newEntries(before)).toMatchObject([
      {
        kind: 'PROMOTION',
        round: 'PRELIMINARY',
        subjectType: 'promotion',
        subjectId: stored!.id,
        actorId: admin.accountId,
        payload: { promotionId: stored!.id, mode: 'PICKED', n: null, ruleText: '人工选定', promotedIds: [p2], added: 1, already: 0, rankedCount: stored!.ranking.length, rankingSha256: sha256(canonicalJson(stored!.ranking)) },
      },
    ]);
    expect((await newEntries(before))[0]!.at.getTime()).toBe(stored!.createdAt.getTime());
  });

  it('the whole chain verifies, through the call too (with the time it took); the check is an operation record', async () => {
    const rows = await entries();
    expect(rows.map((r) => r.seq)).toEqual(rows.map((_, i) => i + 1));
    const res = await verifyApi();
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ ok: true, count: rows.length, lastSeq: rows.length, lastHash: rows.at(-1)!.hash });
    expect(res.body.data.firstBroken).toBeUndefined();
    expect(res.body.data.tookMs).toBeGreaterThanOrEqual(0);
    expect(Date.parse(res.body.data.checkedAt)).not.toBeNaN();
    const [op] = await db().select().from(operationRecords).where(eq(operationRecords.accountId, viewer.accountId));
    expect(op).toMatchObject({ action: 'score-log:verify', targetType: 'score_log' });
    expect(op!.summary).toContain(`共 ${rows.length} 条，完整`);
  });
});

describe('tampering is found at the first broken entry', () => {
  /** Runs `tamper` on a middle entry, checks what verification answers, then puts the row back. */
  async function tampered(pick: (rows: ScoreLogRow[]) => ScoreLogRow, tamper: (row: ScoreLogRow) => Promise<unknown>, { viaApi = false } = {}) {
    const rows = await entries();
    expect(rows.length).toBeGreaterThanOrEqual(6);
    const row = pick(rows);
    const next = rows.find((r) => r.seq === row.seq + 1)!;
    await tamper(row);
    try {
      const direct = await verifyScoreLog(db());
      // Keyset batches smaller than the chain find the same entry.
      expect(await verifyScoreLog(db(), { batch: 2 })).toEqual(direct);
      // The call answers the same (it is rate-limited to 10 a minute: asked once per kind of break).
      if (viaApi) expect((await verifyApi()).body.data).toMatchObject({ ...direct });
      return { row, next, result: direct, rows };
    } finally {
      await db().delete(scoreLog).where(eq(scoreLog.seq, row.seq));
      await db().insert(scoreLog).values(row);
      expect((await verifyScoreLog(db())).ok).toBe(true);
    }
  }
  const middle = (rows: ScoreLogRow[]) => rows[Math.floor(rows.length / 2)]!;

  it('a changed payload: HASH_MISMATCH at that entry, with the recomputed and the stored hash', async () => {
    const { row, result, rows } = await tampered(middle, (r) => db().execute(sql`update score_log set payload = jsonb_set(payload, '{tampered}', '99') where seq = ${r.seq}`), { viaApi: true });
    expect(result).toMatchObject({ ok: false, count: rows.length, lastSeq: rows.length, lastHash: rows.at(-1)!.hash });
    expect(result.firstBroken).toMatchObject({ seq: row.seq, reason: 'HASH_MISMATCH', found: row.hash });
    expect(result.firstBroken!.expected).toMatch(/^[0-9a-f]{64}$/);
    expect(result.firstBroken!.expected).not.toBe(row.hash);
  });

  it('a changed actor or time is a HASH_MISMATCH too', async () => {
    const a = await tampered(middle, (r) => db().update(scoreLog).set({ actorId: '00000000-0000-4000-8000-0000000000aa' }).where(eq(scoreLog.seq, r.seq)));
    expect(a.result.firstBroken).toMatchObject({ seq: a.row.seq, reason: 'HASH_MISMATCH' });
    const b = await tampered((rows) => rows[1]!, (r) => db().update(scoreLog).set({ at: new Date(r.at.getTime() + 1) }).where(eq(scoreLog.seq, r.seq)));
    expect(b.result.firstBroken).toMatchObject({ seq: 2, reason: 'HASH_MISMATCH' });
  });

  it('a deleted entry: GAP naming the missing seq', async () => {
    const { row, result } = await tampered(middle, (r) => db().delete(scoreLog).where(eq(scoreLog.seq, r.seq)), { viaApi: true });
    expect(result.firstBroken).toEqual({ seq: row.seq, reason: 'GAP', expected: String(row.seq), found: String(row.seq + 1) });
    const first = await tampered((rows) => rows[0]!, (r) => db().delete(scoreLog).where(eq(scoreLog.seq, r.seq)));
    expect(first.result.firstBroken).toEqual({ seq: 1, reason: 'GAP', expected: '1', found: '2' });
  });

  it('a changed prevHash: PREV_MISMATCH at that entry, with the previous hash expected', async () => {
    const { row, result, rows } = await tampered(middle, (r) => db().update(scoreLog).set({ prevHash: 'a'.repeat(64) }).where(eq(scoreLog.seq, r.seq)), { viaApi: true });
    expect(result.firstBroken).toEqual({ seq: row.seq, reason: 'PREV_MISMATCH', expected: rows.find((r) => r.seq === row.seq - 1)!.hash, found: 'a'.repeat(64) });
  });

  it('an entry rewritten with a recomputed hash breaks the link of the next one', async () => {
    const { next, result } = await tampered(middle, async (r) => {
      const payload = { ...r.payload, total: 100 };
      const hash = scoreLogHash({ ...r, payload, at: r.at.toISOString() });
      await db().update(scoreLog).set({ payload, hash }).where(eq(scoreLog.seq, r.seq));
    });
    expect(result.firstBroken).toMatchObject({ seq: next.seq, reason: 'PREV_MISMATCH', expected: expect.not.stringMatching(next.prevHash), found: next.prevHash });
  });

  it('the first of two breaks is named', async () => {
    const rows = await entries();
    const [early, late] = [rows[2]!, rows.at(-2)!];
    await db().update(scoreLog).set({ subjectId: 'x' }).where(eq(scoreLog.seq, late.seq));
    await db().update(scoreLog).set({ prevHash: 'b'.repeat(64) }).where(eq(scoreLog.seq, early.seq));
    try {
      expect((await verifyScoreLog(db(), { batch: 3 })).firstBroken).toMatchObject({ seq: early.seq, reason: 'PREV_MISMATCH' });
    } finally {
      await db().update(scoreLog).set({ subjectId: late.subjectId }).where(eq(scoreLog.seq, late.seq));
      await db().update(scoreLog).set({ prevHash: early.prevHash }).where(eq(scoreLog.seq, early.seq));
    }
    expect((await verifyScoreLog(db())).ok).toBe(true);
  });
});

describe('concurrency and rollback', () => {
  it('20 appends in parallel transactions make a linear chain with no gap', async () => {
    const before = await lastSeq();
    const rows = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db().transaction(async (tx) => {
          // Some work before the append, so the transactions overlap.
          await tx.execute(sql`select pg_sleep(${(i % 5) * 0.005})`);
          return appendScoreLog(tx, { kind: 'APPEAL_DECIDED', round: 'FINAL', subjectType: 'test', subjectId: `race-${i}`, actor: null, payload: { i } });
        }),
      ),
    );
    expect(rows.map((r) => r.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => before + i + 1));
    const chain = (await entries()).filter((e) => e.seq > before);
    chain.forEach((e, i) => expect(e.prevHash).toBe(i === 0 ? (chain[0]!.prevHash) : chain[i - 1]!.hash));
    expect(new Set(chain.map((e) => e.prevHash)).size).toBe(20);
    expect(await verifyScoreLog(db())).toMatchObject({ ok: true, lastSeq: before + 20 });
  });

  it('a rolled-back transaction leaves no entry and no gap', async () => {
    const before = await lastSeq();
    await expect(
      db().transaction(async (tx) => {
        await appendScoreLog(tx, { kind: 'PUBLICATION', round: 'PRELIMINARY', subjectType: 'test', subjectId: 'rolled-back', actor: null, payload: {} });
        throw new Error('the fact failed');
      }),
    ).rejects.toThrow('the fact failed');
    expect(await lastSeq()).toBe(before);
    const next = await db().transaction((tx) => appendScoreLog(tx, { kind: 'PUBLICATION', round: 'PRELIMINARY', subjectType: 'test', subjectId: 'kept', actor: { id: admin.accountId, name: 'A' }, payload: {} }));
    expect(next.seq).toBe(before + 1);
    expect((await verifyScoreLog(db())).ok).toBe(true);
  });
});

describe('the list call', () => {
  it('pages newest first, filters by kind, round, seq, subject, keyword and time', async () => {
    // One entry dated in 2024 (Beijing 2024-06-01 12:00), appended last like any other.
    await db().transaction((tx) => appendScoreLog(tx, { kind: 'PUBLICATION', round: 'FINAL', subjectType: 'test', subjectId: 'dated', actor: null, payload: {}, at: new Date('2024-06-01T04:00:00Z') }));
    const total = await lastSeq();
    const page = await listApi('size=5');
    expect(page.statusCode).toBe(200);
    expect(page.body.data).toMatchObject({ page: 1, size: 5, total });
    expect(page.body.data.list.map((e) => e.seq)).toEqual([total, total - 1, total - 2, total - 3, total - 4]);
    const oldest = await listApi('size=2&sort=seq&order=asc');
    expect(oldest.body.data.list.map((e) => e.seq)).toEqual([1, 2]);
    const first = oldest.body.data.list[0]!;
    expect(first).toMatchObject({ prevHash: SCORE_LOG_GENESIS });
    expect(first.hash).toMatch(/^[0-9a-f]{64}$/);

    const promotionsOnly = await listApi('kind=PROMOTION');
    expect(promotionsOnly.body.data.list.map((e) => e.kind)).toEqual(['PROMOTION']);
    expect((await listApi('kind=REREVIEW&round=FINAL')).body.data.total).toBe(0);
    expect((await listApi('kind=REREVIEW&round=PRELIMINARY')).body.data.total).toBe(2);
    expect((await listApi('seq=3')).body.data.list.map((e) => e.seq)).toEqual([3]);
    expect((await listApi('subjectId=race-7')).body.data.list).toMatchObject([{ subjectId: 'race-7', payload: { i: 7 } }]);
    // Keyword: in the payload's text (a project name, a reason), the actor or the subject.
    expect((await listApi(`keyword=${encodeURIComponent('申诉复核')}`)).body.data.total).toBe(3);
    expect((await listApi(`keyword=${encodeURIComponent('存证管理员')}&kind=SCORE_RETURNED`)).body.data.total).toBe(3);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect((await listApi(`from=${today}&to=${today}`)).body.data.total).toBe(total - 1);
    expect((await listApi('from=2024-06-01 12:00:00&to=2024-06-01 12:00:00')).body.data.list.map((e) => e.subjectId)).toEqual(['dated']);
    expect((await listApi('from=2024-06-01 12:00:01&to=2024-06-02')).body.data.total).toBe(0);
  });

  it.each([
    ['kind=BAD', M.kindInvalid],
    ['round=SEMI', M.roundInvalid],
    ['seq=0', M.seqInvalid],
    ['seq=abc', M.seqInvalid],
    [`subjectId=${'x'.repeat(101)}`, M.subjectIdTooLong],
    [`keyword=${'x'.repeat(51)}`, ADMIN_MSG.keywordTooLong],
    ['from=2025-13-01', ADMIN_MSG.dateTimeInvalid],
    ['from=2025-10-02&to=2025-10-01', ADMIN_MSG.dateRangeInvalid],
    ['size=101', ADMIN_MSG.sizeInvalid],
    ['sort=hash', '排序字段不正确'],
  ])('refuses %s with its message', async (q, message) => {
    const res = await listApi(q);
    expect(res.body).toMatchObject({ status: 400, message });
  });
});

describe('access', () => {
  it.each(['/api/admin/score-log', '/api/admin/score-log/verify', '/api/admin/score-log/export'])('%s: 401 for anonymous, participants and experts; 403 for an admin without the menu', async (url) => {
    const user = await signIn(t, { realm: 'USER' });
    const [expert] = await seedExperts(t, 1);
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['score:return'] });
    const before = await db().select().from(operationRecords);
    expect((await api(t, 'GET', url)).statusCode).toBe(401);
    expect((await api(t, 'GET', url, { headers: user.headers })).statusCode).toBe(401);
    expect((await api(t, 'GET', url, { headers: expert!.headers })).statusCode).toBe(401);
    expect((await api(t, 'GET', url, { headers: other.headers })).statusCode).toBe(403);
    expect((await db().select().from(operationRecords)).length).toBe(before.length);
  });

  it('the menu reads and verifies, the export needs its button', async () => {
    expect((await listApi('', viewer)).statusCode).toBe(200);
    expect((await verifyApi(viewer)).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/admin/score-log/export', { headers: viewer.headers })).statusCode).toBe(403);
  });
});

describe('export', () => {
  it('.xlsx: every field with both hashes, in chain order; the export is an operation record', async () => {
    const rows = await entries();
    const res = await api(t, 'GET', '/api/admin/score-log/export', { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(res.headers['content-disposition'])).toContain(`filename*=UTF-8''${encodeURIComponent('评分存证-')}`);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.raw as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const cells = (n: number) => (sheet.getRow(n).values as unknown[]).slice(1);
    expect(cells(1)).toEqual(['序号', '时间（北京时间）', '时间（UTC，参与哈希）', '类型', '类型代码', '轮次', '对象类型', '对象编号', '操作人编号', '操作人', '内容（规范 JSON）', '前序哈希', '哈希', '规范格式版本']);
    expect(sheet.rowCount).toBe(rows.length + 1);
    const promotion = rows.find((r) => r.kind === 'PROMOTION')!;
    const line = cells(promotion.seq + 1);
    expect(line[0]).toBe(promotion.seq);
    expect(line[2]).toBe(promotion.at.toISOString());
    expect(line.slice(3, 6)).toEqual(['晋级决赛', 'PROMOTION', '初赛']);
    expect(line[8]).toBe(admin.accountId);
    expect(line[10]).toBe(canonicalJson(promotion.payload));
    expect(line.slice(11)).toEqual([promotion.prevHash, promotion.hash, 2]);
    // What the sheet holds is enough to recompute the hash.
    const fromSheet = scoreLogHash({
      v: line[13] as number,
      seq: line[0] as number,
      kind: line[4] as string,
      round: 'PRELIMINARY',
      subjectType: line[6] as string,
      subjectId: line[7] as string,
      actorId: (line[8] as string) || null,
      actorName: line[9] as string,
      payload: JSON.parse(line[10] as string),
      at: line[2] as string,
      prevHash: line[11] as string,
    });
    expect(fromSheet).toBe(promotion.hash);
    const [op] = await db().select().from(operationRecords).where(eq(operationRecords.accountId, admin.accountId)).orderBy(sql`${operationRecords.createdAt} desc`).limit(1);
    expect(op).toMatchObject({ action: 'score-log:export', targetType: 'score_log' });
    expect(op!.summary).toContain(`xlsx）${rows.length} 条`);
  });

  it('.jsonl: one canonical line per entry; without its hash each line hashes to it, and the lines chain', async () => {
    const rows = await entries();
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/score-log/export?format=jsonl', headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('.jsonl'));
    const lines = res.body.trimEnd().split('\n');
    expect(lines.length).toBe(rows.length);
    let prev = SCORE_LOG_GENESIS;
    lines.forEach((text, i) => {
      const { hash, ...rest } = JSON.parse(text) as { hash: string; seq: number; prevHash: string };
      // Independent of our code: drop `"hash":"…",` from the line and hash the rest.
      expect(sha256(text.replace(`"hash":"${hash}",`, ''))).toBe(hash);
      expect(canonicalJson({ ...rest, hash })).toBe(text);
      expect(rest.seq).toBe(i + 1);
      expect(rest.prevHash).toBe(prev);
      prev = hash;
    });
  });

  it('filters apply; bad ones are refused', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/score-log/export?format=jsonl&kind=PROMOTION', headers: admin.headers });
    expect(res.body.trimEnd().split('\n').map((l) => JSON.parse(l).kind)).toEqual(['PROMOTION']);
    const empty = await t.app.inject({ method: 'GET', url: '/api/admin/score-log/export?format=jsonl&subjectId=none', headers: admin.headers });
    expect(empty.body).toBe('');
    expect((await api(t, 'GET', '/api/admin/score-log/export?format=csv', { headers: admin.headers })).body).toMatchObject({ status: 400, message: M.formatInvalid });
    expect((await api(t, 'GET', '/api/admin/score-log/export?kind=X', { headers: admin.headers })).body).toMatchObject({ status: 400, message: M.kindInvalid });
  });
});

describe('npm run verify-score-log', () => {
  const SERVER_DIR = fileURLToPath(new URL('../../..', import.meta.url));
  // The command as deployments run it: a fresh bundle of the current sources (build.mjs, about a
  // second), started with plain node. Seven starts under tsx, which compiles the whole graph each
  // time, took most of a minute on the 2-core CI machine.
  let bundle = '';
  let CLI = '';
  beforeAll(async () => {
    // Under apps/server/node_modules: inside the repository, so node finds the external packages.
    const cache = join(SERVER_DIR, 'node_modules', '.cache');
    mkdirSync(cache, { recursive: true });
    bundle = mkdtempSync(join(cache, 'verify-cli-'));
    CLI = join(bundle, 'verify-score-log-cli.js');
    await promisify(execFile)(process.execPath, ['build.mjs', '--outdir', bundle], { cwd: SERVER_DIR });
  }, 60_000);
  afterAll(() => rmSync(bundle, { recursive: true, force: true }));

  function run(env: Record<string, string>, args: string[] = []): Promise<{ code: number | null; out: string; err: string }> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [CLI, ...args], { cwd: SERVER_DIR, env: { ...process.env, REDIS_URL: '', LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      child.on('exit', (code) => resolve({ code, out, err }));
    });
  }

  it('exits 0 on an intact chain, 1 naming the first broken entry, 2 when it cannot run', async () => {
    const postgres = process.env.DATABASE_URL?.startsWith('postgres') ? process.env.DATABASE_URL : undefined;
    const dataDir = mkdtempSync(join(tmpdir(), 'contest-score-log-'));
    const name = postgres ? await createPostgresDatabase(postgres, undefined) : undefined;
    const env = postgres ? { DATABASE_URL: withDatabaseName(postgres, name!), DATA_DIR: dataDir } : { DATABASE_URL: '', DATA_DIR: dataDir };
    const open = () => openDatabase({ databaseUrl: env.DATABASE_URL || undefined, dataDir });
    try {
      // Before any migration: no score_log table.
      const none = await run(env);
      expect(none.code).toBe(2);
      expect(none.err).toContain('No score log in this database');

      let database = await open();
      await runMigrations(database);
      for (let i = 0; i < 3; i++) await database.db.transaction((tx) => appendScoreLog(tx, { kind: 'SCORE_SUBMITTED', round: 'PRELIMINARY', subjectType: 'test', subjectId: `cli-${i}`, actor: null, payload: { i } }));
      const last = (await database.db.select().from(scoreLog).orderBy(asc(scoreLog.seq))).at(-1)!;
      await database.close();

      const good = await run(env);
      expect(good.code).toBe(0);
      expect(good.out).toContain('3 entries, last seq 3');
      expect(good.out).toContain(last.hash);
      expect(good.out).toContain('OK: the chain is intact');
      const asJson = await run(env, ['--json']);
      expect(asJson.code).toBe(0);
      expect(JSON.parse(asJson.out)).toMatchObject({ ok: true, count: 3, lastSeq: 3, lastHash: last.hash });

      database = await open();
      await database.db.execute(sql`update score_log set payload = '{"i": 5}' where seq = 2`);
      await database.close();
      const bad = await run(env);
      expect(bad.code).toBe(1);
      expect(bad.out).toContain('BROKEN at seq 2: HASH_MISMATCH');
      expect(JSON.parse((await run(env, ['--json', '--batch', '1'])).out).firstBroken).toMatchObject({ seq: 2, reason: 'HASH_MISMATCH' });

      // The chain put back, but a published head that no longer matches and a submitted sheet
      // with no entry (docs/security.md): both named.
      database = await open();
      await database.db.execute(sql`update score_log set payload = '{"i": 1}' where seq = 2`);
      const [owner, expert] = await database.db
        .insert(accounts)
        .values([
          { realm: 'USER', username: 'cli-owner', roleCode: 'USER', passwordHash: 'x' },
          { realm: 'EXPERT', username: 'cli-expert', code: 'E0042', roleCode: 'EXPERT', passwordHash: 'x' },
        ])
        .returning();
      const [team] = await database.db.insert(teams).values({ ownerId: owner!.id, status: 'APPROVED', teamName: 'CLI队' }).returning();
      const [doc] = await database.db.insert(prelimDocs).values({ teamId: team!.id, ownerId: owner!.id, status: 'APPROVED', projectName: 'CLI项目' }).returning();
      const [sheet] = await database.db
        .insert(scoreSheets)
        .values({ round: 'PRELIMINARY', prelimId: doc!.id, expertId: expert!.id, status: 'SUBMITTED', scores: { innovation: 20 }, total: 40, submittedAt: new Date() })
        .returning();
      await database.db.insert(scoreLogAnchors).values({ round: 'PRELIMINARY', resultVersionId: doc!.id, version: 1, seq: 3, headHash: 'f'.repeat(64), merkleRoot: 'e'.repeat(64), publishedAt: new Date() });
      await database.close();
      const differs = await run(env);
      expect(differs.code).toBe(1);
      expect(differs.out).not.toContain('BROKEN at seq');
      expect(differs.out).toContain('PUBLISHED HEAD PRELIMINARY version 1 (seq 3): ANCHOR_HEAD_MISMATCH');
      expect(differs.out).toContain(`LIVE DATA DIFFERS: SHEET_NOT_LOGGED`);
      expect(differs.out).toContain(`sheet ${sheet!.id}, project ${doc!.id} (CLI项目), expert E0042, field entry`);
      const differsJson = JSON.parse((await run(env, ['--json'])).out) as ScoreLogVerifyAnswer;
      expect(differsJson).toMatchObject({ ok: false, anchors: { count: 1, firstMismatch: { reason: 'ANCHOR_HEAD_MISMATCH', seq: 3 } }, live: { sheets: 1, firstDifference: { reason: 'SHEET_NOT_LOGGED', sheetId: sheet!.id, expertCode: 'E0042' } } });

      expect((await run({ ...env, PORT: 'x' })).code).toBe(2);
    } finally {
      if (name) await dropPostgresDatabase(postgres!, name);
    }
  }, 240_000);
});
