import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, count, eq, inArray } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { AUTH_MSG, CONTEST_MSG, EXPERT_IMPORT_COLUMNS, EXPERT_IMPORT_MAX_ROWS, MSG, REVIEW_MSG as M, maskPhone, type ExpertBody, type ExpertCredentials, type ExpertRow } from '@contest/shared';
import { api, operationsBy } from '../../../test/admin-helpers.js';
import { seedDictionary } from '../../../test/contest-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { seedExperts, seedGroup } from '../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { accounts, expertConflicts, expertProfiles, operationRecords, sessions } from '../../db/schema.js';
import { verifyPassword } from '../../lib/password.js';
import { EXAMPLE_NAME } from './experts-import.js';
import { createExpertsRepository } from './experts.repository.js';
import { createExpertsService, nextCodes } from './experts.service.js';

let t: TestApp;
let admin: SignedIn;

// An expert reads projects and their files: managing experts needs those codes too (EXPERT_ACCOUNT_HOLDS).
const EXPERT_REACH = { buttons: ['preliminary:view', 'file:read'], menus: ['preliminaryAdminSearch'] };
const ALL_BUTTONS = ['expert:edit', 'expert:import', 'expert:disable', 'expert:reset-password', 'expert:export', ...EXPERT_REACH.buttons];

beforeAll(async () => {
  t = await createTestApp();
  await seedDictionary(t);
  admin = await signIn(t, { realm: 'ADMIN', buttons: ALL_BUTTONS, menus: EXPERT_REACH.menus });
});
afterAll(async () => t?.close());

// ------------------------------------------------------------------ helpers

const phone = () => `139${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}`;
let codeSeq = 0;
/** A code of its own per call (8 digits, far from the generated E0001-style range). */
const freshCode = () => `E${String(70_000_000 + (randomBytes(3).readUIntBE(0, 3) % 1_000_000) * 10 + (codeSeq++ % 10)).padStart(8, '0')}`;

const body = (over: Record<string, unknown> = {}) => ({
  name: '王专家',
  phone: phone(),
  organization: '示例大学附属医院',
  orgCreditCode: null,
  title: '主任医师',
  tracks: ['SMART_SUPERVISION', 'PAYMENT_REFORM'],
  declaredOrgs: [{ name: '示例科技有限公司', creditCode: '91350100M000100Y43' }],
  ...over,
});

let ip = 0;
/** A different client address per call: the import and export routes have per-address limits. */
const nextIp = () => `10.9.${Math.floor(++ip / 250)}.${ip % 250}`;

const expertCount = async () => (await t.database.db.select({ n: count() }).from(accounts).where(eq(accounts.realm, 'EXPERT')))[0]!.n;

async function create(over: Record<string, unknown> = {}, who: SignedIn = admin) {
  return api<ExpertCredentials>(t, 'POST', '/api/admin/expert', { headers: who.headers, body: body(over) });
}

async function createOk(over: Record<string, unknown> = {}) {
  const res = await create(over);
  expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const expertLogin = (username: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/expert/login', payload: { username, password }, remoteAddress: nextIp() });

/** An .xlsx workbook with the template's header and these rows (cells in column order). */
async function sheet(rows: Array<Array<string | number | null>>, header: readonly string[] = EXPERT_IMPORT_COLUMNS): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('专家信息');
  ws.addRow([...header]);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

function multipartBody(file: { name: string; content: Buffer; field?: string }) {
  const boundary = `----experts${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: application/vnd.openxmlformats-officedocument.spreadsheetml.sheet\r\n\r\n`,
    ),
    file.content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function importFile(content: Buffer, opts: { name?: string; field?: string; who?: SignedIn } = {}) {
  const { payload, headers } = multipartBody({ name: opts.name ?? '专家.xlsx', content, field: opts.field });
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/expert/import',
    payload,
    headers: { ...headers, ...(opts.who ?? admin).headers },
    remoteAddress: nextIp(),
  });
  return { statusCode: res.statusCode, body: res.json() };
}

async function download(url: string, who: SignedIn = admin) {
  return t.app.inject({ method: 'GET', url, headers: who.headers, remoteAddress: nextIp() });
}

async function readXlsx(raw: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(raw as unknown as ArrayBuffer);
  return wb;
}

const rowsOf = (ws: ExcelJS.Worksheet) => {
  const out: string[][] = [];
  ws.eachRow((row) => out.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v)))));
  return out;
};

// ------------------------------------------------------------------ access

describe('experts: who may call', () => {
  it('401 without a session, with a participant or an expert token; 403 without the menu or the button', async () => {
    const participant = await signIn(t, { realm: 'USER' });
    const [expert] = await seedExperts(t, 1);
    const someone = await createOk();
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/expert/list'],
      ['GET', `/api/admin/expert/${someone.id}`],
      ['POST', '/api/admin/expert', body()],
      ['PUT', `/api/admin/expert/${someone.id}`, body()],
      ['PUT', `/api/admin/expert/${someone.id}/enabled`, { enabled: false }],
      ['POST', `/api/admin/expert/${someone.id}/reset-password`],
      ['GET', '/api/admin/expert/import-template'],
      ['POST', '/api/admin/expert/import'],
      ['GET', '/api/admin/expert/export'],
    ];
    for (const [method, url, payload] of calls) {
      for (const headers of [undefined, participant.headers, expert!.headers]) {
        const res = await api(t, method as 'GET', url, { headers, body: payload });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
    }

    // Another menu only: nothing here.
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['preliminary:view'] });
    for (const [method, url, payload] of calls) {
      expect((await api(t, method as 'GET', url, { headers: other.headers, body: payload })).statusCode, `${method} ${url}`).toBe(403);
    }
    // The page but no buttons: reading only.
    const reader = await signIn(t, { realm: 'ADMIN', menus: ['databaseExpert'] });
    expect((await api(t, 'GET', '/api/admin/expert/list', { headers: reader.headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', `/api/admin/expert/${someone.id}`, { headers: reader.headers })).statusCode).toBe(200);
    for (const [method, url, payload] of calls.slice(2)) {
      expect((await api(t, method as 'GET', url, { headers: reader.headers, body: payload })).statusCode, `${method} ${url}`).toBe(403);
    }
    // The review pages pick experts: their menus read the list (and nothing else here).
    const grouper = await signIn(t, { realm: 'ADMIN', buttons: ['final-group:edit'] });
    expect((await api(t, 'GET', '/api/admin/expert/list', { headers: grouper.headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', `/api/admin/expert/${someone.id}`, { headers: grouper.headers })).statusCode).toBe(403);
    // Each button opens exactly its call.
    const editor = await signIn(t, { realm: 'ADMIN', buttons: ['expert:edit', ...EXPERT_REACH.buttons], menus: EXPERT_REACH.menus });
    expect((await create({}, editor)).statusCode).toBe(200);
    expect((await api(t, 'PUT', `/api/admin/expert/${someone.id}/enabled`, { headers: editor.headers, body: { enabled: true } })).statusCode).toBe(403);
    expect((await api(t, 'POST', `/api/admin/expert/${someone.id}/reset-password`, { headers: editor.headers })).statusCode).toBe(403);
    expect((await download('/api/admin/expert/export', editor)).statusCode).toBe(403);
    expect((await download('/api/admin/expert/import-template', editor)).statusCode).toBe(403);
  });

  it('404 for an unknown id on every call that takes one', async () => {
    const id = randomUUID();
    expect((await api(t, 'GET', `/api/admin/expert/${id}`, { headers: admin.headers })).body.message).toBe(M.expertNotFound);
    for (const [method, url, payload] of [
      ['GET', `/api/admin/expert/${id}`],
      ['PUT', `/api/admin/expert/${id}`, body()],
      ['PUT', `/api/admin/expert/${id}/enabled`, { enabled: false }],
      ['POST', `/api/admin/expert/${id}/reset-password`],
    ] as const) {
      const res = await api(t, method, url, { headers: admin.headers, body: payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body.message).toBe(M.expertNotFound);
    }
    // An admin account's id is not an expert either.
    expect((await api(t, 'GET', `/api/admin/expert/${admin.accountId}`, { headers: admin.headers })).statusCode).toBe(404);
  });
});

// ------------------------------------------------------------------ create

describe('experts: create', () => {
  it('creates an expert with the next free code and a password shown once that signs in with the code or the phone', async () => {
    const p = phone();
    const res = await create({ phone: p, orgCreditCode: ' 91350100m000100y43 ' });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.expertCreated);
    const cred = res.body.data;
    expect(cred.code).toMatch(/^E\d{4}$/);
    expect(cred.username).toBe(cred.code.toLowerCase());
    expect(cred.password).toMatch(/^(?=.*[A-Za-z])(?=.*\d)(?=.*[@$!%*?&]).{8,16}$/);

    const [row] = await t.database.db.select().from(accounts).where(eq(accounts.id, cred.id));
    expect(row).toMatchObject({ realm: 'EXPERT', roleCode: 'EXPERT', username: cred.username, code: cred.code, phone: p, name: '王专家', enabled: true });
    expect(await verifyPassword(row!.passwordHash, cred.password)).toBe(true);
    const [profile] = await t.database.db.select().from(expertProfiles).where(eq(expertProfiles.accountId, cred.id));
    expect(profile).toMatchObject({ organization: '示例大学附属医院', title: '主任医师', tracks: ['SMART_SUPERVISION', 'PAYMENT_REFORM'] });
    const [conflicts] = await t.database.db.select().from(expertConflicts).where(eq(expertConflicts.accountId, cred.id));
    expect(conflicts).toMatchObject({ orgCreditCode: '91350100M000100Y43', declaredOrgs: [{ name: '示例科技有限公司', creditCode: '91350100M000100Y43' }] });

    const detail = await api<ExpertRow>(t, 'GET', `/api/admin/expert/${cred.id}`, { headers: admin.headers });
    expect(detail.body.data).toMatchObject({
      id: cred.id,
      code: cred.code,
      username: cred.username,
      // The console reads phone and credit codes masked (docs/rules/admin.md, "Personal information"); stored in full above.
      phone: maskPhone(p),
      organization: '示例大学附属医院',
      orgCreditCode: '9135**********0Y43',
      tracks: ['SMART_SUPERVISION', 'PAYMENT_REFORM'],
      declaredOrgs: [{ name: '示例科技有限公司', creditCode: '9135**********0Y43' }],
      enabled: true,
      agreed: false,
      groups: { PRELIMINARY: null, FINAL: null },
      lastLoginAt: null,
    });

    // The expert console signs in with the code as shown, in lower case, or the phone.
    for (const username of [cred.code, cred.username, p]) {
      const login = await expertLogin(username, cred.password);
      expect(login.statusCode, username).toBe(200);
    }
    expect((await expertLogin(cred.code, 'Wrong@pass1')).statusCode).toBe(400);
    // An admin login with the expert's code finds nobody.
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/login', payload: { username: cred.code, password: cred.password }, remoteAddress: nextIp() })).statusCode).toBe(400);

    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'expert:edit', targetType: 'expert', targetId: cred.id });
    expect(op!.summary).toContain(cred.code);
    expect(op!.summary).not.toContain(cred.password);
  });

  it('numbers generated codes one after another and keeps a given code', async () => {
    const a = await createOk();
    const b = await createOk();
    expect(Number(b.code.slice(1))).toBe(Number(a.code.slice(1)) + 1);
    const code = freshCode();
    expect((await createOk({ code })).code).toBe(code);
    // Given codes of another shape do not move the counter.
    const c = await createOk();
    expect(Number(c.code.slice(1))).toBe(Number(b.code.slice(1)) + 1);
  });

  it('nextCodes skips codes in use and passes E9999', () => {
    expect(nextCodes(new Set(), 2)).toEqual(['E0001', 'E0002']);
    expect(nextCodes(new Set(['E0001', 'E0003', 'E12345678']), 2)).toEqual(['E0004', 'E0005']);
    expect(nextCodes(new Set(['E9999']), 2)).toEqual(['E10000', 'E10001']);
  });

  it('refuses bad input with its message and writes nothing', async () => {
    const existing = await createOk({ code: freshCode() });
    const existingPhone = (await t.database.db.select().from(accounts).where(eq(accounts.id, existing.id)))[0]!.phone;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, M.expertNameRequired],
      [{ name: 'x'.repeat(51) }, M.expertNameTooLong],
      [{ phone: '' }, M.expertPhoneRequired],
      [{ phone: '1234' }, M.expertPhoneInvalid],
      [{ organization: ' ' }, M.expertOrgRequired],
      [{ organization: 'x'.repeat(101) }, M.expertOrgTooLong],
      [{ title: 'x'.repeat(51) }, M.expertTitleTooLong],
      [{ tracks: [] }, M.expertTracksRequired],
      [{ tracks: ['NO_SUCH_TRACK'] }, M.expertTrackInvalid],
      [{ code: 'X0001' }, M.expertCodeInvalid],
      [{ code: 'E12' }, M.expertCodeInvalid],
      [{ code: existing.code }, M.expertCodeTaken],
      [{ phone: existingPhone }, M.expertPhoneTaken],
      [{ orgCreditCode: '91350100M000100Y4' }, CONTEST_MSG.creditCodeLength],
      [{ orgCreditCode: '91350100M000100Y44' }, CONTEST_MSG.creditCodeInvalid],
      [{ declaredOrgs: [{ name: '', creditCode: null }] }, M.expertOrgRequired],
      [{ declaredOrgs: [{ name: '某公司', creditCode: '91350100M000100Y44' }] }, CONTEST_MSG.creditCodeInvalid],
      [{ declaredOrgs: Array.from({ length: 21 }, (_, i) => ({ name: `单位${i}`, creditCode: null })) }, M.expertDeclaredTooMany],
    ];
    const before = await expertCount();
    for (const [over, message] of cases) {
      const res = await create(over);
      expect(res.statusCode, JSON.stringify(over).slice(0, 80)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await expertCount()).toBe(before);
  });

  it('a code held by an account of another realm is taken too', async () => {
    const code = freshCode();
    await t.database.db.update(accounts).set({ code }).where(eq(accounts.id, (await signIn(t, { realm: 'ADMIN' })).accountId));
    const res = await create({ code });
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(M.expertCodeTaken);
  });

  it('two creates with the same phone at once: one expert, one 400', async () => {
    const p = phone();
    const results = await Promise.all([create({ phone: p }), create({ phone: p })]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.body.message).toBe(M.expertPhoneTaken);
    const rows = await t.database.db.select().from(accounts).where(and(eq(accounts.realm, 'EXPERT'), eq(accounts.phone, p)));
    expect(rows).toHaveLength(1);
  });

  it('when a pre-check is overtaken, the unique indexes answer the same 400s', async () => {
    const db = t.database.db;
    const repo = createExpertsRepository(db);
    // A repository whose pre-check sees nothing: as if the other write committed just after it.
    const blind = { ...repo, taken: async () => ({ codes: new Set<string>(), phones: new Set<string>() }) };
    const service = createExpertsService({ db, repo: blind, revokeAll: async () => {}, now: () => new Date() });
    const actor = { auth: { accountId: admin.accountId, realm: 'ADMIN' as const, username: admin.username, roleCode: 'SYSTEM' as const, sessionId: '' } };
    const first = await createOk({ code: freshCode() });
    const firstPhone = (await db.select().from(accounts).where(eq(accounts.id, first.id)))[0]!.phone!;
    const before = await expertCount();
    await expect(service.create(actor, { ...body({ phone: firstPhone }), declaredOrgs: [] } as ExpertBody)).rejects.toMatchObject({ status: 400, message: M.expertPhoneTaken });
    await expect(service.create(actor, { ...body({ code: first.code }), declaredOrgs: [] } as ExpertBody)).rejects.toMatchObject({ status: 400, message: M.expertCodeTaken });
    expect(await expertCount()).toBe(before);
  });

  it('two creates with generated codes at once get different codes', async () => {
    const [a, b] = await Promise.all([create(), create()]);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(a.body.data.code).not.toBe(b.body.data.code);
  });
});

// ------------------------------------------------------------------ list and detail

describe('experts: list and detail', () => {
  it('filters by keyword, track and status; shows groups, agreement and track codes', async () => {
    const tag = randomBytes(3).toString('hex');
    const a = await createOk({ name: `A甲${tag}`, organization: `甲单位${tag}`, tracks: ['PUBLIC_SERVICE'] });
    const b = await createOk({ name: `B乙${tag}`, organization: `乙单位${tag}`, tracks: ['DATA_GOVERNANCE', 'PUBLIC_SERVICE'] });
    await api(t, 'PUT', `/api/admin/expert/${b.id}/enabled`, { headers: admin.headers, body: { enabled: false } });
    await t.database.db.update(accounts).set({ agreedAt: new Date() }).where(eq(accounts.id, a.id));
    const groupName = `初审组${tag}`;
    await seedGroup(t, 'PRELIMINARY', [a.id], [], groupName);

    const list = async (query: string) => {
      const res = await api<{ list: ExpertRow[]; total: number }>(t, 'GET', `/api/admin/expert/list?${query}`, { headers: admin.headers });
      expect(res.statusCode, query).toBe(200);
      return res.body.data;
    };
    const byKeyword = await list(`keyword=${encodeURIComponent(tag)}`);
    expect(byKeyword.total).toBe(2);
    expect(byKeyword.list.map((r) => r.id).sort()).toEqual([a.id, b.id].sort());
    const rowA = byKeyword.list.find((r) => r.id === a.id)!;
    expect(rowA).toMatchObject({ agreed: true, enabled: true, groups: { PRELIMINARY: groupName, FINAL: null }, tracks: ['PUBLIC_SERVICE'] });
    expect((await list(`keyword=${encodeURIComponent(`乙单位${tag}`)}`)).list.map((r) => r.id)).toEqual([b.id]);
    expect((await list(`keyword=${a.code}`)).list.map((r) => r.id)).toEqual([a.id]);
    expect((await list(`keyword=${encodeURIComponent(tag)}&track=DATA_GOVERNANCE`)).list.map((r) => r.id)).toEqual([b.id]);
    expect((await list(`keyword=${encodeURIComponent(tag)}&enabled=false`)).list.map((r) => r.id)).toEqual([b.id]);
    expect((await list(`keyword=${encodeURIComponent(tag)}&enabled=true`)).list.map((r) => r.id)).toEqual([a.id]);
    const sorted = await list(`keyword=${encodeURIComponent(tag)}&sort=name&order=desc`);
    expect(sorted.list.map((r) => r.id)).toEqual([b.id, a.id]);
    const paged = await list(`keyword=${encodeURIComponent(tag)}&page=2&size=1&sort=name&order=asc`);
    expect(paged.total).toBe(2);
    expect(paged.list.map((r) => r.id)).toEqual([b.id]);

    const detail = await api<ExpertRow>(t, 'GET', `/api/admin/expert/${a.id}`, { headers: admin.headers });
    expect(detail.body.data.groups).toEqual({ PRELIMINARY: groupName, FINAL: null });
  });
});

// ------------------------------------------------------------------ edit

describe('experts: edit', () => {
  it('saves every field; a new free code becomes the login', async () => {
    const created = await createOk();
    const code = freshCode();
    const p = phone();
    const res = await api<ExpertRow>(t, 'PUT', `/api/admin/expert/${created.id}`, {
      headers: admin.headers,
      body: body({ code, name: '李专家', phone: p, organization: '新单位', orgCreditCode: '', title: '', tracks: ['OTHER_INNOVATION'], declaredOrgs: [] }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.expertSaved);
    expect(res.body.data).toMatchObject({ code, username: code.toLowerCase(), name: '李专家', phone: maskPhone(p), organization: '新单位', orgCreditCode: null, title: null, tracks: ['OTHER_INNOVATION'], declaredOrgs: [] });
    expect((await expertLogin(code, created.password)).statusCode).toBe(200);
    expect((await expertLogin(created.code, created.password)).statusCode).toBe(400);
    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'expert:edit', targetType: 'expert', targetId: created.id });
    expect(op!.summary).toContain(`编号 ${created.code} -> ${code}`);
  });

  it('without a code keeps the code; refuses a taken code or phone and changes nothing', async () => {
    const a = await createOk();
    const b = await createOk();
    const kept = await api<ExpertRow>(t, 'PUT', `/api/admin/expert/${a.id}`, { headers: admin.headers, body: body({ name: '改名' }) });
    expect(kept.body.data).toMatchObject({ code: a.code, name: '改名' });
    const bPhone = (await t.database.db.select().from(accounts).where(eq(accounts.id, b.id)))[0]!.phone;
    const before = (await t.database.db.select().from(accounts).where(eq(accounts.id, a.id)))[0]!;
    for (const [over, message] of [
      [{ code: b.code }, M.expertCodeTaken],
      [{ phone: bPhone }, M.expertPhoneTaken],
      [{ tracks: ['NOPE'] }, M.expertTrackInvalid],
    ] as const) {
      const res = await api(t, 'PUT', `/api/admin/expert/${a.id}`, { headers: admin.headers, body: body({ ...over, name: '不该保存' }) });
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(message);
    }
    const after = (await t.database.db.select().from(accounts).where(eq(accounts.id, a.id)))[0]!;
    expect(after).toMatchObject({ code: before.code, phone: before.phone, name: '改名' });
  });
});

// ------------------------------------------------------------------ enable, disable, reset

describe('experts: enable, disable and reset password', () => {
  it('disabling ends the sessions and blocks sign-in; enabling lets them back', async () => {
    const cred = await createOk();
    const login = await expertLogin(cred.code, cred.password);
    const token = login.json().data.accessToken as string;
    const auth = { authorization: `Bearer ${token}` };
    expect((await api(t, 'GET', '/api/admin/user/account', { headers: auth })).statusCode).toBe(200);

    const off = await api<ExpertRow>(t, 'PUT', `/api/admin/expert/${cred.id}/enabled`, { headers: admin.headers, body: { enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(off.body.message).toBe(M.expertDisabled);
    expect(off.body.data.enabled).toBe(false);
    const live = await t.database.db.select().from(sessions).where(eq(sessions.accountId, cred.id));
    expect(live.every((s) => s.revokeReason === 'DISABLED' || s.revokeReason === 'REPLACED')).toBe(true);
    expect((await api(t, 'GET', '/api/admin/user/account', { headers: auth })).statusCode).toBe(401);
    const refused = await expertLogin(cred.code, cred.password);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(AUTH_MSG.disabled);

    const on = await api<ExpertRow>(t, 'PUT', `/api/admin/expert/${cred.id}/enabled`, { headers: admin.headers, body: { enabled: true } });
    expect(on.body.message).toBe(M.expertEnabled);
    expect((await expertLogin(cred.code, cred.password)).statusCode).toBe(200);
    const ops = (await operationsBy(t, admin.accountId)).filter((o) => o.targetId === cred.id && o.action === 'expert:disable');
    expect(ops.map((o) => o.summary.slice(0, 2))).toEqual(['启用', '禁用']);
  });

  it('reset gives a new password once, ends the sessions and the old password', async () => {
    const cred = await createOk();
    const token = (await expertLogin(cred.code, cred.password)).json().data.accessToken as string;
    const res = await api<ExpertCredentials>(t, 'POST', `/api/admin/expert/${cred.id}/reset-password`, { headers: admin.headers });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(M.expertPasswordReset);
    expect(res.body.data).toMatchObject({ id: cred.id, code: cred.code, username: cred.username });
    expect(res.body.data.password).not.toBe(cred.password);
    expect((await api(t, 'GET', '/api/admin/user/account', { headers: { authorization: `Bearer ${token}` } })).statusCode).toBe(401);
    const [s] = await t.database.db.select().from(sessions).where(eq(sessions.accountId, cred.id));
    expect(s!.revokeReason).toBe('PASSWORD_CHANGED');
    // The new one first: a failed attempt makes the next sign-in ask for the captcha.
    expect((await expertLogin(cred.code, res.body.data.password)).statusCode).toBe(200);
    expect((await expertLogin(cred.code, cred.password)).statusCode).toBe(400);
    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'expert:reset-password', targetType: 'expert', targetId: cred.id });
    expect(op!.summary).not.toContain(res.body.data.password);
  });
});

// ------------------------------------------------------------------ template, import, export

describe('experts: import template', () => {
  it('is an .xlsx with the header, an example row, the track list and notes', async () => {
    const res = await download('/api/admin/expert/import-template');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('spreadsheetml');
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('专家导入模板.xlsx'));
    const wb = await readXlsx(res.rawPayload);
    const [main, tracks] = wb.worksheets;
    const rows = rowsOf(main!);
    expect(rows[0]).toEqual([...EXPERT_IMPORT_COLUMNS]);
    expect(rows[1]![1]).toBe(EXAMPLE_NAME);
    expect(rows[1]![6]).toBe('智能监管与基金安全；支付方式改革');
    const trackRows = rowsOf(tracks!);
    expect(trackRows[0]).toEqual(['代码', '名称']);
    expect(trackRows).toContainEqual(['SMART_SUPERVISION', '智能监管与基金安全']);
    expect(trackRows).toHaveLength(7);
  });

  it('the template itself, filled in below the example, imports', async () => {
    const template = await readXlsx((await download('/api/admin/expert/import-template')).rawPayload);
    const ws = template.worksheets[0]!;
    const p = phone();
    ws.addRow(['', '模板专家', p, '模板单位', '', '', '医保便民服务', '']);
    const res = await importFile(Buffer.from(await template.xlsx.writeBuffer()));
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data.imported).toBe(1);
    expect(res.body.data.credentials[0].name).toBe('模板专家');
  });
});

describe('experts: import', () => {
  it('a clean sheet imports every row at once, with working logins and one operation record', async () => {
    const phones = [phone(), phone(), phone()];
    const code = freshCode();
    const content = await sheet([
      [code, '导入甲', phones[0]!, '甲医院', '91350100M000100Y43', '教授', '智能监管与基金安全；PAYMENT_REFORM', '甲公司；乙公司'],
      [null, '导入乙', Number(phones[1]), '乙医院', null, null, 'public_service;医保数据治理与应用', null],
      ['', '导入丙', phones[2]!, '丙医院', '', '', '其他创新应用、智能监管与基金安全', '丙公司、丁公司'],
      [null, null, null, null, null, null, null, null],
    ]);
    const before = await expertCount();
    const res = await importFile(content);
    expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
    expect(res.body.message).toBe(M.importDone);
    const result = res.body.data as { imported: number; credentials: ExpertCredentials[] };
    expect(result.imported).toBe(3);
    expect(result.credentials.map((c) => c.name)).toEqual(['导入甲', '导入乙', '导入丙']);
    expect(result.credentials[0]!.code).toBe(code);
    expect(result.credentials[1]!.code).toMatch(/^E\d{4}$/);
    expect(Number(result.credentials[2]!.code.slice(1))).toBe(Number(result.credentials[1]!.code.slice(1)) + 1);
    expect(await expertCount()).toBe(before + 3);

    const ids = result.credentials.map((c) => c.id);
    const rows = await t.database.db
      .select({ id: accounts.id, phone: accounts.phone, username: accounts.username, tracks: expertProfiles.tracks, declared: expertConflicts.declaredOrgs, credit: expertConflicts.orgCreditCode })
      .from(accounts)
      .innerJoin(expertProfiles, eq(expertProfiles.accountId, accounts.id))
      .innerJoin(expertConflicts, eq(expertConflicts.accountId, accounts.id))
      .where(inArray(accounts.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids[0]!)).toMatchObject({ phone: phones[0], username: code.toLowerCase(), tracks: ['SMART_SUPERVISION', 'PAYMENT_REFORM'], credit: '91350100M000100Y43' });
    expect(byId.get(ids[0]!)!.declared).toEqual([
      { name: '甲公司', creditCode: null },
      { name: '乙公司', creditCode: null },
    ]);
    expect(byId.get(ids[1]!)).toMatchObject({ phone: phones[1], tracks: ['PUBLIC_SERVICE', 'DATA_GOVERNANCE'], credit: null, declared: [] });
    expect(byId.get(ids[2]!)!.tracks).toEqual(['OTHER_INNOVATION', 'SMART_SUPERVISION']);

    // Sign in through the real login call with a shown password.
    const login = await expertLogin(phones[2]!, result.credentials[2]!.password);
    expect(login.statusCode).toBe(200);
    expect((await expertLogin(result.credentials[0]!.code, result.credentials[0]!.password)).statusCode).toBe(200);

    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'expert:import', targetType: 'expert' });
    expect(op!.summary).toContain('导入专家 3 名');
    for (const c of result.credentials) expect(op!.summary).not.toContain(c.password);
  });

  it('a bad sheet reports every bad row (row, column, reason) and writes nothing', async () => {
    const existing = await createOk({ code: freshCode() });
    const existingPhone = (await t.database.db.select().from(accounts).where(eq(accounts.id, existing.id)))[0]!.phone!;
    const dup = phone();
    const good = phone();
    const content = await sheet([
      [null, '好行', good, '单位', null, null, '智能监管与基金安全', null], // row 2: fine
      ['X1', '', '123', '', '91350100M000100Y44', 'x'.repeat(51), '', null], // row 3: many problems
      [null, '重复甲', dup, '单位', null, null, '不存在的方向；支付方式改革', null], // row 4
      [null, '重复乙', dup, '单位', null, null, '支付方式改革', null], // row 5: phone repeats row 4
      [existing.code, '已存在', existingPhone, '单位', null, null, '支付方式改革', null], // row 6: both taken
      [null, '长单位', phone(), 'x'.repeat(101), null, null, '支付方式改革', Array.from({ length: 21 }, (_, i) => `回避${i}`).join('；')], // row 7
    ]);
    const before = await expertCount();
    const opsBefore = (await t.database.db.select({ n: count() }).from(operationRecords))[0]!.n;
    const res = await importFile(content);
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(M.importHasErrors);
    expect(res.body.data.rows).toEqual([
      { row: 3, column: '专家编号', reason: M.expertCodeInvalid },
      { row: 3, column: '姓名', reason: M.expertNameRequired },
      { row: 3, column: '手机号', reason: M.expertPhoneInvalid },
      { row: 3, column: '所在单位', reason: M.expertOrgRequired },
      { row: 3, column: '单位统一社会信用代码', reason: CONTEST_MSG.creditCodeInvalid },
      { row: 3, column: '职称', reason: M.expertTitleTooLong },
      { row: 3, column: '擅长方向', reason: M.expertTracksRequired },
      { row: 4, column: '擅长方向', reason: '擅长方向“不存在的方向”不存在，请填写“擅长方向”表中的名称或代码' },
      { row: 5, column: '手机号', reason: '与第 4 行重复' },
      { row: 6, column: '专家编号', reason: M.expertCodeTaken },
      { row: 6, column: '手机号', reason: M.expertPhoneTaken },
      { row: 7, column: '所在单位', reason: M.expertOrgTooLong },
      { row: 7, column: '回避单位', reason: M.expertDeclaredTooMany },
    ]);
    expect(await expertCount()).toBe(before);
    expect((await t.database.db.select().from(accounts).where(eq(accounts.phone, good))).length).toBe(0);
    expect((await t.database.db.select({ n: count() }).from(operationRecords))[0]!.n).toBe(opsBefore);
  });

  it('two imports of one sheet at once: one imports, the other reports the rows as taken', async () => {
    const p = phone();
    const content = await sheet([[null, '并发', p, '单位', null, null, '支付方式改革', null]]);
    const results = await Promise.all([importFile(content), importFile(content)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    const loser = results.find((r) => r.statusCode === 400)!;
    expect(loser.body.message).toBe(M.importHasErrors);
    expect(loser.body.data.rows).toEqual([{ row: 2, column: '手机号', reason: M.expertPhoneTaken }]);
    expect(await t.database.db.select().from(accounts).where(and(eq(accounts.realm, 'EXPERT'), eq(accounts.phone, p)))).toHaveLength(1);
  });

  it('refuses a missing, non-.xlsx, empty or oversized sheet', async () => {
    const cases: Array<[Promise<{ statusCode: number; body: { message: string } }>, number, string]> = [
      [importFile(await sheet([[null, '甲', phone(), '单位', null, null, '支付方式改革', null]]), { field: 'other' }), 400, M.importFileRequired],
      [importFile(Buffer.from('code,name\nE0001,张三\n'), { name: '专家.csv' }), 400, M.importFileInvalid],
      [importFile(Buffer.from('not a zip at all'), { name: '专家.xlsx' }), 400, M.importFileInvalid],
      [importFile(Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), randomBytes(200)]), { name: '专家.xlsx' }), 400, M.importFileInvalid],
      [importFile(await sheet([[null, '甲', phone(), '单位', null, null, '支付方式改革', null]], ['随便', '什么', '表头'])), 400, M.importFileInvalid],
      [importFile(await sheet([])), 400, M.importEmpty],
      [importFile(await sheet([[null, EXAMPLE_NAME, '13800000000', '示例大学附属医院', null, '主任医师', '支付方式改革', null]])), 400, M.importEmpty],
      [importFile(randomBytes(5 * 1024 * 1024 + 10)), 413, MSG.payloadTooLarge],
    ];
    for (const [call, status, message] of cases) {
      const res = await call;
      expect(res.statusCode, message).toBe(status);
      expect(res.body.message).toBe(message);
    }
    const json = await api(t, 'POST', '/api/admin/expert/import', { headers: admin.headers, body: {} });
    expect(json.statusCode).toBe(400);
    expect(json.body.message).toBe(M.importFileRequired);
  });

  it(`more than ${EXPERT_IMPORT_MAX_ROWS} rows: importTooMany, nothing written`, async () => {
    const rows = Array.from({ length: EXPERT_IMPORT_MAX_ROWS + 1 }, (_, i) => [null, `专家${i}`, `137${String(i).padStart(8, '0')}`, '单位', null, null, '支付方式改革', null]);
    const before = await expertCount();
    const res = await importFile(await sheet(rows));
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(M.importTooMany);
    expect(await expertCount()).toBe(before);
  });
});

describe('experts: export', () => {
  it('exports the filtered list with track names, groups and status, and records it', async () => {
    const tag = randomBytes(3).toString('hex');
    const a = await createOk({ name: `导出甲${tag}`, tracks: ['SMART_SUPERVISION', 'PUBLIC_SERVICE'] });
    const b = await createOk({ name: `导出乙${tag}`, declaredOrgs: [] });
    await api(t, 'PUT', `/api/admin/expert/${b.id}/enabled`, { headers: admin.headers, body: { enabled: false } });
    await seedGroup(t, 'FINAL', [a.id], [], `决赛组${tag}`);
    await createOk({ name: '别人' });

    const res = await download(`/api/admin/expert/export?keyword=${encodeURIComponent(tag)}`);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-disposition'])).toContain(encodeURIComponent('专家库-'));
    const rows = rowsOf((await readXlsx(res.rawPayload)).worksheets[0]!);
    expect(rows[0]).toEqual(['专家编号', '姓名', '手机号', '所在单位', '单位统一社会信用代码', '职称', '擅长方向', '回避单位', '初赛评审组', '决赛评审组', '已签署评审协议', '状态', '最后登录时间', '创建时间']);
    const data = rows.slice(1);
    expect(data).toHaveLength(2);
    const rowA = data.find((r) => r[1] === `导出甲${tag}`)!;
    expect(rowA[0]).toBe(a.code);
    expect(rowA[6]).toBe('智能监管与基金安全；医保便民服务');
    // The exporting role does not hold pii:view: credit codes masked (docs/rules/admin.md, "Personal information").
    expect(rowA[7]).toBe('示例科技有限公司（9135**********0Y43）');
    expect(rowA[9]).toBe(`决赛组${tag}`);
    expect(rowA[10]).toBe('否');
    expect(rowA[11]).toBe('启用');
    expect(data.find((r) => r[1] === `导出乙${tag}`)![11]).toBe('禁用');

    const disabledOnly = rowsOf((await readXlsx((await download(`/api/admin/expert/export?keyword=${encodeURIComponent(tag)}&enabled=false`)).rawPayload)).worksheets[0]!);
    expect(disabledOnly.slice(1).map((r) => r[1])).toEqual([`导出乙${tag}`]);

    const [op] = await operationsBy(t, admin.accountId);
    expect(op).toMatchObject({ action: 'expert:export', targetType: 'expert' });
    expect(op!.summary).toContain('导出专家 1 名');
  });
});
