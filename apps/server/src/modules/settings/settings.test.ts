import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, inArray } from 'drizzle-orm';
import {
  CONTEST_MSG,
  REVIEW_MSG,
  SETTINGS_DEFAULTS,
  SETTINGS_MSG as M,
  SETTING_KEY_LIST,
  type ContestSettings,
} from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { api, operationsBy } from '../../../test/admin-helpers.js';
import { operationRecords, roleButtons, roleMenus, roles, scoreSheets, settings } from '../../db/schema.js';
import { seedExperts, seedProjects } from '../../../test/review-helpers.js';
import { seedAtStartup } from '../../startup.js';
import { createSettingsReader } from './settings.service.js';

let t: TestApp;
let editor: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  editor = await signIn(t, { realm: 'ADMIN', buttons: ['settings:edit'], name: '设置管理员' });
});
afterAll(async () => t?.close());

const DAY = 86_400_000;
const clone = (s: ContestSettings): ContestSettings => structuredClone(s);
const stored = async () =>
  Object.fromEntries((await t.database.db.select().from(settings).where(inArray(settings.key, [...SETTING_KEY_LIST]))).map((r) => [r.key, r.value]));
const settingsOps = () => t.database.db.select().from(operationRecords).where(eq(operationRecords.action, 'settings:edit'));
const current = async (): Promise<ContestSettings> => (await api<ContestSettings>(t, 'GET', '/api/admin/settings', { headers: editor.headers })).body.data;
const put = (body: unknown, who: SignedIn = editor) => api<ContestSettings>(t, 'PUT', '/api/admin/settings', { headers: who.headers, body });

describe('contest settings: read and save', () => {
  it('reads the defaults when nothing is stored, through the API and the reader', async () => {
    const res = await api(t, 'GET', '/api/admin/settings', { headers: editor.headers });
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toEqual(SETTINGS_DEFAULTS);
    expect(await createSettingsReader(t.database.db).get()).toEqual(SETTINGS_DEFAULTS);
  });

  it('saves changed keys only, one operation record each with the old and new value', async () => {
    const next = clone(SETTINGS_DEFAULTS);
    next.name = '  2026全国智慧医保大赛  ';
    next.notify.sms = true;
    next.prelim.maxApplicationChars = 30_000;
    next.prelim.fileMaxBytes.video = 300 * 1024 * 1024;
    next.review.rules.FINAL = { aggregate: 'ZSCORE', minScoresForTrim: 7, tieBreak: ['CRITERIA', 'RAW_MEAN'] };
    next.phases = {
      signUp: { start: '2026-05-01 00:00:00', end: '2026-07-31 23:59:59' },
      prelimSubmission: { start: '2026-06-01T00:00:00+08:00', end: '2026-08-31T15:59:59Z' },
      prelimReview: { start: '2026-09-01 00:00:00', end: '2026-09-30 23:59:59' },
      finalReview: null,
    };
    const res = await put(next);
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe('保存成功');
    const expected: ContestSettings = {
      ...next,
      name: '2026全国智慧医保大赛',
      phases: {
        signUp: { start: '2026-04-30T16:00:00.000Z', end: '2026-07-31T15:59:59.000Z' },
        prelimSubmission: { start: '2026-05-31T16:00:00.000Z', end: '2026-08-31T15:59:59.000Z' },
        prelimReview: { start: '2026-08-31T16:00:00.000Z', end: '2026-09-30T15:59:59.000Z' },
        finalReview: null,
      },
    };
    expect(res.body.data).toEqual(expected);
    expect(await current()).toEqual(expected);

    const rows = await stored();
    expect(Object.keys(rows).sort()).toEqual(
      ['contest.name', 'contest.phases', 'notify.sms', 'prelim.maxApplicationChars', 'prelim.fileMaxBytes', 'review.rules'].sort(),
    );
    expect(rows['contest.name']).toBe('2026全国智慧医保大赛');

    const ops = await operationsBy(t, editor.accountId);
    expect(ops.map((o) => o.targetId).sort()).toEqual(Object.keys(rows).sort());
    expect(ops.every((o) => o.action === 'settings:edit' && o.targetType === 'settings' && o.result === 'SUCCESS')).toBe(true);
    const nameOp = ops.find((o) => o.targetId === 'contest.name')!;
    expect(nameOp.summary).toBe('修改大赛名称（contest.name）："2025全国智慧医保大赛" -> "2026全国智慧医保大赛"');
    const smsOp = ops.find((o) => o.targetId === 'notify.sms')!;
    expect(smsOp.summary).toBe('修改短信通知（notify.sms）：false -> true');
    expect(ops.find((o) => o.targetId === 'prelim.fileMaxBytes')!.summary).toContain('"video":524288000');
    expect(ops.find((o) => o.targetId === 'prelim.fileMaxBytes')!.summary).toContain('"video":314572800');

    // Saving the same object again writes nothing.
    expect((await put(expected)).statusCode).toBe(200);
    expect(await operationsBy(t, editor.accountId)).toHaveLength(ops.length);

    // "No cap" is stored as the key's absence.
    const uncapped = clone(expected);
    uncapped.prelim.maxApplicationChars = null;
    expect((await put(uncapped)).body.data.prelim.maxApplicationChars).toBeNull();
    expect('prelim.maxApplicationChars' in (await stored())).toBe(false);
    const [last] = await operationsBy(t, editor.accountId);
    expect(last!.summary).toBe('修改申报书字数上限（prelim.maxApplicationChars）：30000 -> null');
  });

  it('refuses each bad value with its message and field, writing nothing', async () => {
    const base = await current();
    const before = await stored();
    const opsBefore = (await settingsOps()).length;
    const cases: Array<[string, (s: any) => void, string, string]> = [
      ['blank name', (s) => (s.name = '   '), M.nameRequired, 'name'],
      ['long name', (s) => (s.name = '赛'.repeat(51)), M.nameTooLong, 'name'],
      ['no name', (s) => delete s.name, M.nameRequired, 'name'],
      ['blank English name', (s) => (s.nameEn = ' '), M.nameEnRequired, 'nameEn'],
      ['long English name', (s) => (s.nameEn = 'a'.repeat(101)), M.nameEnTooLong, 'nameEn'],
      ['bad time', (s) => (s.phases.signUp.start = '2026-13-01 00:00:00'), M.phaseTimeInvalid, 'phases.signUp.start'],
      ['rolled-over date', (s) => (s.phases.signUp.start = '2026-02-30 00:00:00'), M.phaseTimeInvalid, 'phases.signUp.start'],
      ['time without zone', (s) => (s.phases.signUp.start = '2026-05-01T00:00:00'), M.phaseTimeInvalid, 'phases.signUp.start'],
      ['start after end', (s) => (s.phases.signUp.end = '2026-04-01 00:00:00'), M.phaseStartAfterEnd, 'phases.signUp.end'],
      ['start equal to end', (s) => (s.phases.signUp.end = s.phases.signUp.start), M.phaseStartAfterEnd, 'phases.signUp.end'],
      ['phase not an object', (s) => (s.phases.finalReview = 'soon'), M.phaseInvalid, 'phases.finalReview'],
      ['submission starts before sign-up', (s) => (s.phases.prelimSubmission.start = '2026-04-01 00:00:00'), M.phaseOutOfOrder, 'phases.prelimSubmission.start'],
      ['submission ends before sign-up', (s) => (s.phases.prelimSubmission.end = '2026-07-01 00:00:00'), M.phaseOutOfOrder, 'phases.prelimSubmission.end'],
      ['review overlaps submission', (s) => (s.phases.prelimReview.start = '2026-08-15 00:00:00'), M.reviewOverlaps, 'phases.prelimReview.start'],
      ['review with open start', (s) => (s.phases.prelimReview.start = null), M.reviewOverlaps, 'phases.prelimReview.start'],
      ['submission with open end', (s) => (s.phases.prelimSubmission.end = null), M.reviewOverlaps, 'phases.prelimReview.start'],
      ['final review before preliminary review', (s) => (s.phases.finalReview = { start: '2026-09-15 00:00:00', end: '2026-10-01 00:00:00' }), M.reviewOverlaps, 'phases.finalReview.start'],
      ['sms not a boolean', (s) => (s.notify.sms = 'yes'), M.switchInvalid, 'notify.sms'],
      ['no notify group', (s) => delete s.notify, M.settingsInvalid, 'notify'],
      ['cap zero', (s) => (s.prelim.maxApplicationChars = 0), M.maxCharsInvalid, 'prelim.maxApplicationChars'],
      ['cap fraction', (s) => (s.prelim.maxApplicationChars = 10.5), M.maxCharsInvalid, 'prelim.maxApplicationChars'],
      ['file too small', (s) => (s.prelim.fileMaxBytes.application = 1000), M.fileMaxBytesInvalid, 'prelim.fileMaxBytes.application'],
      ['file over the upload ceiling', (s) => (s.prelim.fileMaxBytes.video = 2 * 1024 ** 3), M.fileMaxBytesInvalid, 'prelim.fileMaxBytes.video'],
      ['file size missing', (s) => delete s.prelim.fileMaxBytes.other, M.fileMaxBytesInvalid, 'prelim.fileMaxBytes.other'],
      ['blank menu name', (s) => (s.dataDocMenuName = ''), M.dataDocMenuNameRequired, 'dataDocMenuName'],
      ['long menu name', (s) => (s.dataDocMenuName = '数'.repeat(21)), M.dataDocMenuNameTooLong, 'dataDocMenuName'],
      ['blind not a boolean', (s) => (s.review.blind = 1), M.switchInvalid, 'review.blind'],
      ['unknown aggregate', (s) => (s.review.rules.PRELIMINARY.aggregate = 'MAX'), M.aggregateInvalid, 'review.rules.PRELIMINARY.aggregate'],
      ['trim minimum too low', (s) => (s.review.rules.FINAL.minScoresForTrim = 2), M.minScoresInvalid, 'review.rules.FINAL.minScoresForTrim'],
      ['unknown tie-break', (s) => (s.review.rules.FINAL.tieBreak = ['COIN']), M.tieBreakInvalid, 'review.rules.FINAL.tieBreak.0'],
      ['repeated tie-break', (s) => (s.review.rules.FINAL.tieBreak = ['RAW_MEAN', 'RAW_MEAN']), M.tieBreakDuplicate, 'review.rules.FINAL.tieBreak'],
      ['threshold over 100', (s) => (s.review.divergenceThreshold = 101), M.divergenceInvalid, 'review.divergenceThreshold'],
      ['threshold negative', (s) => (s.review.divergenceThreshold = -1), M.divergenceInvalid, 'review.divergenceThreshold'],
      ['no experts', (s) => (s.review.minExpertsPerProject = 0), M.minExpertsInvalid, 'review.minExpertsPerProject'],
      ['publicity 31 days', (s) => (s.publicity.days = 31), M.publicityDaysInvalid, 'publicity.days'],
      ['appeal 0 days', (s) => (s.appeal.windowDays = 0), M.appealDaysInvalid, 'appeal.windowDays'],
      ['appeal longer than publicity', (s) => ((s.publicity.days = 5), (s.appeal.windowDays = 6)), M.appealExceedsPublicity, 'appeal.windowDays'],
    ];
    for (const [label, change, message, field] of cases) {
      const body = clone(base) as any;
      change(body);
      const res = await put(body);
      expect(res.statusCode, label).toBe(400);
      expect(res.body, label).toMatchObject({ code: 'VALIDATION_FAILED', message, data: { field } });
    }
    expect((await put([])).body).toMatchObject({ status: 400, message: M.settingsInvalid });
    expect(await stored()).toEqual(before);
    expect(await settingsOps()).toHaveLength(opsBefore);
  });

  it('accepts open-ended sides and overlapping sign-up and submission', async () => {
    const body = clone(await current());
    body.phases = {
      signUp: { start: null, end: '2026-07-31 23:59:59' },
      prelimSubmission: { start: '2026-06-01 00:00:00', end: '2026-08-31 23:59:59' },
      prelimReview: null,
      finalReview: { start: '2026-10-15 00:00:00', end: null },
    };
    body.publicity.days = 7;
    body.appeal.windowDays = 7;
    const res = await put(body);
    expect(res.statusCode).toBe(200);
    expect(res.body.data.phases.signUp).toEqual({ start: null, end: '2026-07-31T15:59:59.000Z' });
    expect(res.body.data.phases.finalReview).toEqual({ start: '2026-10-14T16:00:00.000Z', end: null });
    expect(res.body.data.appeal.windowDays).toBe(7);
  });
});

describe('contest settings: who may call', () => {
  it('answers 401 to anonymous callers and to participant and expert tokens, before validation', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    for (const headers of [undefined, user.headers, expert.headers]) {
      expect((await api(t, 'GET', '/api/admin/settings', { headers })).statusCode).toBe(401);
      expect((await api(t, 'PUT', '/api/admin/settings', { headers, body: { name: '' } })).statusCode).toBe(401);
    }
  });

  it('needs the menu to read and the button to save (403 otherwise), writing nothing', async () => {
    const before = await stored();
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['dict:edit'] });
    expect((await api(t, 'GET', '/api/admin/settings', { headers: other.headers })).statusCode).toBe(403);
    expect((await put(await current(), other)).statusCode).toBe(403);

    // A role with the page but not the button reads, and cannot save.
    const reader = await signIn(t, { realm: 'ADMIN', buttons: [] });
    const [role] = await t.database.db.select({ id: roles.id }).from(roles).where(eq(roles.name, `Role ${reader.username.slice(6)}`));
    await t.database.db.insert(roleMenus).values([{ roleId: role!.id, menuCode: 'system' }, { roleId: role!.id, menuCode: 'systemSettings' }]);
    const read = await api(t, 'GET', '/api/admin/settings', { headers: reader.headers });
    expect(read.statusCode).toBe(200);
    const changed = { ...read.body.data, name: '无权修改' };
    expect((await put(changed, reader)).statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });
});

describe('contest settings: take effect at once', () => {
  it('renames the contest and closes sign-up for the next request', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const body = clone(await current());
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    const before = (await api(t, 'GET', '/api/contest/public')).body.data;
    expect(before.nameEn).toBe('2025 National Smart Medical-Insurance Competition');
    expect(body.nameEn).toBe('2025 National Smart Medical-Insurance Competition');
    body.name = '立即生效大赛';
    body.nameEn = '  Immediate Smart Insurance Cup  ';
    body.dataDocMenuName = '赛题数据';
    body.phases = {
      signUp: { start: iso(now - 2 * DAY), end: iso(now + 2 * DAY) },
      prelimSubmission: { start: iso(now - 2 * DAY), end: iso(now + 3 * DAY) },
      prelimReview: null,
      finalReview: null,
    };
    expect((await put(body)).statusCode).toBe(200);
    const pub = (await api(t, 'GET', '/api/contest/public')).body.data;
    expect(pub.name).toBe('立即生效大赛');
    expect(pub.nameEn).toBe('Immediate Smart Insurance Cup');
    expect(pub.phases[0]).toMatchObject({ key: 'signUp', state: 'OPEN' });
    expect((await api(t, 'GET', '/api/user/account', { headers: user.headers })).body.data.dataDocMenuName).toBe('赛题数据');
    expect((await api(t, 'PUT', '/api/team/my', { headers: user.headers, body: { teamName: '生效测试队' } })).statusCode).toBe(200);

    body.phases.signUp = { start: iso(now - 2 * DAY), end: iso(now - DAY) };
    expect((await put(body)).statusCode).toBe(200);
    expect((await api(t, 'GET', '/api/contest/public')).body.data.phases[0]).toMatchObject({ key: 'signUp', state: 'ENDED' });
    const refused = await api(t, 'PUT', '/api/team/my', { headers: user.headers, body: { teamName: '生效测试队' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.body.message).toBe(CONTEST_MSG.signUpClosed);
    expect(refused.body.message).toBe('当前不在报名时间内');
  });

  it('keeps two concurrent saves consistent: the final state is one whole save, the log a chain', async () => {
    const base = clone(await current());
    const a = { ...clone(base), name: '并发甲', publicity: { days: 10 }, appeal: { windowDays: 3 } };
    const b = { ...clone(base), name: '并发乙', publicity: { days: 12 }, appeal: { windowDays: 4 } };
    const [ra, rb] = await Promise.all([put(a), put(b)]);
    expect([ra.statusCode, rb.statusCode]).toEqual([200, 200]);
    const final = await current();
    expect(['并发甲', '并发乙']).toContain(final.name);
    const [winner, loser] = final.name === a.name ? [a, b] : [b, a];
    // Never a mix of the two saves.
    expect(final.publicity).toEqual(winner.publicity);
    expect(final.appeal).toEqual(winner.appeal);

    // The saves ran one after the other: the second one's old value is the first one's new value.
    const summaries = (await settingsOps()).filter((o) => o.targetId === 'contest.name' && o.summary.includes('并发')).map((o) => o.summary);
    expect(summaries.sort()).toEqual(
      [`修改大赛名称（contest.name）："${base.name}" -> "${loser.name}"`, `修改大赛名称（contest.name）："${loser.name}" -> "${winner.name}"`].sort(),
    );
  });
});

describe('contest settings: stored values and seeding', () => {
  it('keeps a name that reads as a number a string: saved "2025", read "2025" (not 2025)', async () => {
    const next = clone(await current());
    next.name = '2025';
    next.dataDocMenuName = '123';
    expect((await put(next)).statusCode).toBe(200);
    const again = await current();
    expect(again.name).toBe('2025');
    expect(again.dataDocMenuName).toBe('123');
    const rows = await stored();
    expect(Object.values(rows)).toContain('2025');
  });

  it('reads malformed stored values as their defaults', async () => {
    const db = t.database.db;
    const store = (key: string, value: unknown) => db.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
    await store('notify.email', 'yes');
    await store('review.rules', { PRELIMINARY: { aggregate: 'MEDIAN', minScoresForTrim: 99 }, FINAL: 'x' });
    await store('review.divergenceThreshold', 500);
    await store('publicity.days', 3);
    await store('appeal.windowDays', 9);
    await store('prelim.fileMaxBytes', { video: -1, other: 1234 });
    const s = await createSettingsReader(db).get();
    expect(s.notify.email).toBe(false);
    expect(s.review.rules.PRELIMINARY).toEqual({ ...SETTINGS_DEFAULTS.review.rules.PRELIMINARY, aggregate: 'MEDIAN' });
    expect(s.review.rules.FINAL).toEqual(SETTINGS_DEFAULTS.review.rules.FINAL);
    expect(s.review.divergenceThreshold).toBe(20);
    expect(s.publicity.days).toBe(3);
    expect(s.appeal.windowDays).toBe(3);
    expect(s.prelim.fileMaxBytes).toEqual({ ...SETTINGS_DEFAULTS.prelim.fileMaxBytes, other: 1234 });
  });

  it('seeds the menu, moves settings:edit under it, and gives roles holding the button its menu', async () => {
    const db = t.database.db;
    // A role as an earlier release stored it: the button under the system menu only.
    const [role] = await db.insert(roles).values({ code: 'OLD_SETTINGS', name: '旧设置角色' }).returning({ id: roles.id });
    await db.insert(roleMenus).values({ roleId: role!.id, menuCode: 'system' });
    await db.insert(roleButtons).values({ roleId: role!.id, buttonCode: 'settings:edit' });
    await seedAtStartup(t.app, false);
    const menus = (await db.select().from(roleMenus).where(eq(roleMenus.roleId, role!.id))).map((r) => r.menuCode).sort();
    expect(menus).toEqual(['system', 'systemSettings']);
    const superRole = (await db.select().from(roles).where(eq(roles.code, 'SUPER_ADMIN')))[0]!;
    expect(await db.select().from(roleMenus).where(and(eq(roleMenus.roleId, superRole.id), eq(roleMenus.menuCode, 'systemSettings')))).toHaveLength(1);
  });
});

describe('contest settings: scoring rules of a scored round are fixed', () => {
  it('refuses a change of a round\'s rule once it has a sheet (400 rubricLocked), writing nothing; other rounds and keys still save', async () => {
    const db = t.database.db;
    // From a valid whole (an earlier test leaves a malformed stored value behind).
    expect((await put(clone(SETTINGS_DEFAULTS))).statusCode).toBe(200);
    const [project] = await seedProjects(t, 1);
    const [expert] = await seedExperts(t, 1);
    const [sheet] = await db.insert(scoreSheets).values({ round: 'PRELIMINARY', prelimId: project!, expertId: expert!.accountId, status: 'DRAFT', scores: {} }).returning({ id: scoreSheets.id });
    try {
      const base = clone(await current());
      const before = await stored();
      const opsBefore = (await settingsOps()).length;
      const changed = clone(base);
      changed.review.rules.PRELIMINARY = { aggregate: 'MEDIAN', minScoresForTrim: 3, tieBreak: ['RAW_MEAN'] };
      changed.name = '锁定时一起修改的名称';
      const refused = await put(changed);
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toMatchObject({ message: REVIEW_MSG.rubricLocked, data: { reason: 'LOCKED', round: 'PRELIMINARY' } });
      expect(await stored()).toEqual(before);
      expect(await settingsOps()).toHaveLength(opsBefore);

      // The final round has no sheet: its rule still changes; so do other keys with the locked rule as it is.
      const finalOnly = clone(base);
      finalOnly.review.rules.FINAL = { aggregate: 'MEAN', minScoresForTrim: 6, tieBreak: ['CRITERIA'] };
      finalOnly.name = '决赛规则可改';
      const saved = await put(finalOnly);
      expect(saved.statusCode).toBe(200);
      expect(saved.body.data.review.rules).toEqual({ PRELIMINARY: base.review.rules.PRELIMINARY, FINAL: finalOnly.review.rules.FINAL });
      expect(saved.body.data.name).toBe('决赛规则可改');
    } finally {
      await db.delete(scoreSheets).where(eq(scoreSheets.id, sheet!.id));
    }
  });
});
