import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { ADMIN_MSG, creditCodeCheckChar, maskCreditCode, maskEmail, maskPhone, type PiiReveal } from '@contest/shared';
import { api, operationsBy } from '../../../../test/admin-helpers.js';
import { createTestApp, type TestApp } from '../../../../test/helpers.js';
import { seedGroup } from '../../../../test/review-helpers.js';
import { signIn, type SignedIn } from '../../../../test/sign-in.js';
import { accounts, feedback, finalEntries, loginRecords, prelimDocs, teams } from '../../../db/schema.js';
import { seedAtStartup } from '../../../startup.js';

/**
 * Personal information in the console (docs/rules/admin.md; China's Personal Information Protection Law): phones, e-mails and credit
 * codes of participants, experts and operators leave the console's answers masked; the full
 * values come only from the reveal call (button pii:view, recorded) and from exports of a role
 * holding pii:view; every export records its filter, row count and whether it held them in full.
 */

let t: TestApp;
const tag = `p${Date.now().toString(36).slice(-5)}`;
const codeOf = (first17: string) => `${first17}${creditCodeCheckChar(first17)}`;

// One participant with a team, a project and a feedback; one expert; one operator account.
const P = {
  phone: '13800000005',
  email: `zhangsan${tag}@example.com`,
  creditCode: '91350100M000100Y43',
  leader: { name: '张明', phone: '13800000001', email: 'zhang@example.com', title: 'SENIOR' },
  member: { name: '李华', organization: '示例医院', title: 'INTERMEDIATE', phone: '13800000002', email: 'li@example.com', role: 'DEVELOPER' },
  advisor: { name: '王老师', organization: '示例大学', title: 'SENIOR', phone: '13800000003', email: 'wang@example.com' },
  contact: '13900000009',
};
const X = { phone: '13700000007', orgCreditCode: codeOf('91110000MA0000001'), declared: codeOf('12100000MB0000002') };
const OP = { phone: '13600000006', email: `op${tag}@example.com` };
/** Every full value: none may appear in a JSON answer of the console. */
const FULL = [P.phone, P.email, P.creditCode, P.leader.phone, P.leader.email, P.member.phone, P.member.email, P.advisor.phone, P.advisor.email, P.contact, X.phone, X.orgCreditCode, X.declared, OP.phone, OP.email];

let participant: SignedIn;
let teamId: string;
let prelimId: string;
let feedbackId: string;
let expertId: string;
let operatorId: string;
/** Reads every page and exports, without pii:view. */
let plain: SignedIn;
/** The same, with pii:view. */
let holder: SignedIn;
/** pii:view without any page that shows these records. */
let bare: SignedIn;

// file:read: editing an expert needs what an expert reads (docs/security.md "Accounts and reach").
const BUTTONS = ['user:view', 'user:export', 'qualification:view', 'qualification:export', 'preliminary:view', 'preliminary:export', 'final:export', 'expert:edit', 'expert:export', 'feedback:reply', 'account:edit', 'file:read'];
const MENUS = ['databaseExpert', 'UserFeedback', 'preliminaryAdminSearch', 'systemManage', 'scoringMonitoringExpert', 'qualificationDraft', 'UserManage'];

let ip = 0;
/** Exports are limited per client address: each call comes from its own. */
async function download(who: SignedIn, url: string) {
  const res = await t.app.inject({ method: 'GET', url, headers: who.headers, remoteAddress: `10.14.11.${++ip}` });
  expect(res.statusCode, res.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
  const cells: string[] = [];
  workbook.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => cells.push(String(cell.value ?? '')))));
  return cells.join('\n');
}

const jsonOf = async (who: SignedIn, url: string) => {
  const res = await api(t, 'GET', url, { headers: who.headers });
  expect(res.statusCode, `${url} ${JSON.stringify(res.body)}`).toBe(200);
  return res.body.data;
};

const expectNoFullValue = (what: string, answer: unknown) => {
  const text = JSON.stringify(answer);
  for (const value of FULL) expect(text.includes(value), `${what} carries ${value}`).toBe(false);
};

const lastOperation = async (who: SignedIn, action: string) => (await operationsBy(t, who.accountId)).find((r) => r.action === action);

beforeAll(async () => {
  t = await createTestApp();
  await seedAtStartup(t.app, false);
  const db = t.database.db;
  const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
  plain = await signIn(t, { realm: 'ADMIN', buttons: BUTTONS, menus: MENUS });
  holder = await signIn(t, { realm: 'ADMIN', buttons: [...BUTTONS, 'pii:view'], menus: MENUS });
  bare = await signIn(t, { realm: 'ADMIN', buttons: ['pii:view'] });

  participant = await signIn(t, { realm: 'USER', username: `${tag}user` });
  await db.update(accounts).set({ phone: P.phone, email: P.email }).where(eq(accounts.id, participant.accountId));
  const [team] = await db
    .insert(teams)
    .values({
      ownerId: participant.accountId,
      status: 'APPROVED',
      orgName: `示例科技${tag}`,
      orgType: 'ENTERPRISE',
      creditCode: P.creditCode,
      teamName: `智审${tag}`,
      track: 'SMART_SUPERVISION',
      leader: P.leader,
      members: [P.member],
      advisor: P.advisor,
      submittedAt: new Date(),
    })
    .returning({ id: teams.id });
  teamId = team!.id;
  const [doc] = await db
    .insert(prelimDocs)
    .values({ teamId, ownerId: participant.accountId, status: 'APPROVED', projectName: `项目${tag}`, track: 'SMART_SUPERVISION', summary: '简介', keywords: ['医保'], submittedAt: new Date() })
    .returning({ id: prelimDocs.id });
  prelimId = doc!.id;
  await db.insert(finalEntries).values({ prelimId, status: 'IN' });
  const [item] = await db.insert(feedback).values({ ownerId: participant.accountId, type: 'BUG', content: `页面报错${tag}`, contact: P.contact }).returning({ id: feedback.id });
  feedbackId = item!.id;

  const created = await api(t, 'POST', '/api/admin/expert', {
    headers: admin.headers,
    body: { name: `专家${tag}`, phone: X.phone, organization: '示例大学附属医院', orgCreditCode: X.orgCreditCode, title: '主任医师', tracks: ['SMART_SUPERVISION'], declaredOrgs: [{ name: '某某数据', creditCode: X.declared }] },
  });
  expect(created.statusCode, JSON.stringify(created.body)).toBe(200);
  expertId = created.body.data.id;
  await seedGroup(t, 'PRELIMINARY', [expertId], [prelimId]);

  // An SMS sign-in: the login record holds the phone as typed.
  await db.insert(loginRecords).values({ realm: 'USER', accountId: participant.accountId, identifier: P.phone, method: 'SMS', result: 'SUCCESS' });

  const op = await signIn(t, { realm: 'ADMIN', buttons: [], username: `${tag}op` });
  operatorId = op.accountId;
  await db.update(accounts).set({ phone: OP.phone, email: OP.email }).where(eq(accounts.id, operatorId));
});

afterAll(async () => t?.close());

describe('the console answers carry personal information masked, whatever the role', () => {
  it('registered users: list and detail', async () => {
    for (const who of [plain, holder]) {
      const list = await jsonOf(who, `/api/admin/user/list?username=${tag}user`);
      expect(list.list[0]).toMatchObject({ phone: '138****0005', email: `z***@example.com` });
      const detail = await jsonOf(who, `/api/admin/user/detail/${participant.accountId}`);
      expect(detail).toMatchObject({ phone: '138****0005', team: { creditCode: '9135**********0Y43', leaderPhone: '138****0001' } });
      expectNoFullValue('user list', list);
      expectNoFullValue('user detail', detail);
    }
  });

  it('sign-ups: list, detail, audit queue', async () => {
    const list = await jsonOf(holder, `/api/admin/team/list?teamName=${tag}`);
    expect(list.list[0]).toMatchObject({ leaderPhone: '138****0001' });
    const detail = await jsonOf(holder, `/api/admin/team/${teamId}`);
    expect(detail).toMatchObject({
      creditCode: maskCreditCode(P.creditCode),
      leader: { phone: '138****0001', email: 'z***@example.com' },
      members: [{ phone: '138****0002', email: 'l***@example.com' }],
      advisor: { phone: '138****0003', email: 'w***@example.com' },
      owner: { phone: '138****0005' },
    });
    expectNoFullValue('team list', list);
    expectNoFullValue('team detail', detail);
  });

  it('projects: preliminary and final details', async () => {
    const prelim = await jsonOf(holder, `/api/admin/prelim-doc/${prelimId}`);
    expect(prelim.owner).toMatchObject({ phone: '138****0005' });
    expectNoFullValue('prelim detail', prelim);
    expectNoFullValue('final detail', await jsonOf(holder, `/api/admin/final/${prelimId}`));
  });

  it('experts: list, detail, monitor', async () => {
    const list = await jsonOf(holder, `/api/admin/expert/list?keyword=${encodeURIComponent(`专家${tag}`)}`);
    expect(list.list[0]).toMatchObject({ phone: '137****0007', orgCreditCode: maskCreditCode(X.orgCreditCode), declaredOrgs: [{ creditCode: maskCreditCode(X.declared) }] });
    expectNoFullValue('expert list', list);
    expectNoFullValue('expert detail', await jsonOf(holder, `/api/admin/expert/${expertId}`));
    const monitor = await jsonOf(holder, `/api/admin/review/prelim/monitor/experts/${expertId}`);
    expect(monitor.expert.phone).toBe('137****0007');
    expectNoFullValue('monitor detail', monitor);
  });

  it('feedback: list and detail', async () => {
    const list = await jsonOf(holder, `/api/admin/feedback?keyword=${encodeURIComponent(`页面报错${tag}`)}`);
    expect(list.list[0]).toMatchObject({ contact: '139****0009', owner: { phone: '138****0005' } });
    expectNoFullValue('feedback list', list);
    expectNoFullValue('feedback detail', await jsonOf(holder, `/api/admin/feedback/${feedbackId}`));
  });

  it('system accounts: list and detail; one’s own profile stays in full', async () => {
    const list = await jsonOf(holder, `/api/admin/system/account?username=${tag}op`);
    expect(list.list[0]).toMatchObject({ phone: '136****0006', email: maskEmail(OP.email) });
    expectNoFullValue('account list', list);
    expectNoFullValue('account detail', await jsonOf(holder, `/api/admin/system/account/${operatorId}`));
    const op = await signIn(t, { realm: 'ADMIN', buttons: [] });
    await t.database.db.update(accounts).set({ phone: '13500000004' }).where(eq(accounts.id, op.accountId));
    expect((await jsonOf(op, '/api/admin/account/profile')).phone).toBe('13500000004');
  });

  it('login records: a phone typed at sign-in', async () => {
    const records = await jsonOf(holder, `/api/admin/audit/login-records?realm=USER&username=${P.phone}`);
    expect(records.list.map((r: { identifier: string }) => r.identifier)).toEqual(['138****0005']);
    expectNoFullValue('login records', records);
  });

  it('participants still read their own sign-up in full', async () => {
    const mine = await jsonOf(participant, '/api/team/my');
    expect(mine).toMatchObject({ creditCode: P.creditCode, leader: { phone: P.leader.phone, email: P.leader.email }, members: [{ phone: P.member.phone }] });
  });
});

describe('searching personal information', () => {
  it('part of a phone finds nothing without pii:view; the whole number does', async () => {
    const users = async (who: SignedIn, phone: string) => (await jsonOf(who, `/api/admin/user/list?username=${tag}user&phone=${phone}`)).total;
    expect(await users(plain, '1380000')).toBe(0);
    expect(await users(plain, P.phone)).toBe(1);
    expect(await users(holder, '1380000')).toBe(1);

    const experts = async (who: SignedIn, keyword: string) => (await jsonOf(who, `/api/admin/expert/list?keyword=${keyword}`)).list.filter((e: { id: string }) => e.id === expertId).length;
    expect(await experts(plain, '1370000')).toBe(0);
    expect(await experts(plain, X.phone)).toBe(1);
    expect(await experts(holder, '1370000')).toBe(1);

    const feedbacks = async (who: SignedIn, keyword: string) => (await jsonOf(who, `/api/admin/feedback?keyword=${keyword}`)).list.filter((f: { id: string }) => f.id === feedbackId).length;
    expect(await feedbacks(plain, '1390000')).toBe(0);
    expect(await feedbacks(plain, P.contact)).toBe(1);
    expect(await feedbacks(holder, '1390000')).toBe(1);

    const logins = async (who: SignedIn, digits: string) => (await jsonOf(who, `/api/admin/audit/login-records?realm=USER&username=${digits}`)).total;
    expect(await logins(plain, '1380000')).toBe(0);
    expect(await logins(plain, P.phone)).toBe(1);
    expect(await logins(holder, '1380000')).toBe(1);

    const staff = async (who: SignedIn, phone: string) => (await jsonOf(who, `/api/admin/system/account?phone=${phone}`)).total;
    expect(await staff(plain, '1360000')).toBe(0);
    expect(await staff(plain, OP.phone)).toBe(1);
    expect(await staff(holder, '1360000')).toBe(1);
  });
});

describe('GET /api/admin/pii/:kind/:id reveals one record, and records that it did', () => {
  const reveal = (who: SignedIn, kind: string, id: string) => api<PiiReveal>(t, 'GET', `/api/admin/pii/${kind}/${id}`, { headers: who.headers });

  it('answers each kind in full, keyed by where the masked value sits', async () => {
    const cases: Array<[string, string, Record<string, string>]> = [
      ['user', participant.accountId, { phone: P.phone, email: P.email, 'team.creditCode': P.creditCode, 'team.leaderPhone': P.leader.phone }],
      [
        'team',
        teamId,
        {
          creditCode: P.creditCode,
          leaderPhone: P.leader.phone,
          'leader.phone': P.leader.phone,
          'leader.email': P.leader.email,
          'members.0.phone': P.member.phone,
          'members.0.email': P.member.email,
          'advisor.phone': P.advisor.phone,
          'advisor.email': P.advisor.email,
          'owner.phone': P.phone,
        },
      ],
      ['prelim', prelimId, { 'owner.phone': P.phone }],
      ['expert', expertId, { phone: X.phone, orgCreditCode: X.orgCreditCode, 'declaredOrgs.0.creditCode': X.declared }],
      ['feedback', feedbackId, { contact: P.contact, 'owner.phone': P.phone }],
      ['account', operatorId, { phone: OP.phone, email: OP.email }],
    ];
    for (const [kind, id, values] of cases) {
      const res = await reveal(holder, kind, id);
      expect(res.statusCode, `${kind} ${JSON.stringify(res.body)}`).toBe(200);
      expect(res.body.data).toEqual({ kind, id, values });
    }
  });

  it('records who saw which record and which fields', async () => {
    await reveal(holder, 'team', teamId);
    const record = await lastOperation(holder, 'pii:view');
    expect(record).toMatchObject({ realm: 'ADMIN', username: holder.username, targetType: 'team', targetId: teamId, result: 'SUCCESS' });
    expect(record!.summary).toContain(`智审${tag}`);
    expect(record!.summary).toContain('统一社会信用代码');
    expect(record!.summary).toContain('负责人手机号');
    // The record names the fields, never their values.
    for (const value of FULL) expect(record!.summary).not.toContain(value);
  });

  it('refuses a role without pii:view, or without the page of that record; nothing is recorded', async () => {
    expect((await reveal(plain, 'team', teamId)).statusCode).toBe(403);
    expect((await reveal(bare, 'team', teamId)).statusCode).toBe(403);
    expect((await reveal(bare, 'account', operatorId)).statusCode).toBe(403);
    expect(await lastOperation(plain, 'pii:view')).toBeUndefined();
    expect(await lastOperation(bare, 'pii:view')).toBeUndefined();
  });

  it('400 for an unknown kind or id shape, 404 for a record that does not exist (or of another kind)', async () => {
    expect((await reveal(holder, 'passport', teamId)).body).toMatchObject({ status: 400, message: ADMIN_MSG.piiKindInvalid });
    expect((await reveal(holder, 'team', 'nope')).body).toMatchObject({ status: 400, message: ADMIN_MSG.idInvalid });
    expect((await reveal(holder, 'team', '00000000-0000-4000-8000-000000000000')).body).toMatchObject({ status: 404, message: ADMIN_MSG.piiRecordNotFound });
    // A participant's id is not an operator account, nor an expert.
    expect((await reveal(holder, 'account', participant.accountId)).statusCode).toBe(404);
    expect((await reveal(holder, 'expert', participant.accountId)).statusCode).toBe(404);
    expect((await reveal(holder, 'user', expertId)).statusCode).toBe(404);
  });
});

describe('exports hold personal information in full only for pii:view, and record filter and rows', () => {
  const cases: Array<{ url: string; action: string; full: string[]; masked: string[] }> = [
    { url: `/api/admin/user/export?username=${tag}user`, action: 'user:export', full: [P.phone, P.email], masked: [maskPhone(P.phone), maskEmail(P.email)] },
    {
      url: `/api/admin/team/export?teamName=${tag}`,
      action: 'qualification:export',
      full: [P.creditCode, P.leader.phone, P.leader.email, P.member.phone, P.member.email, P.advisor.phone],
      masked: [maskCreditCode(P.creditCode), maskPhone(P.leader.phone), maskEmail(P.leader.email), maskPhone(P.member.phone), maskEmail(P.member.email), maskPhone(P.advisor.phone)],
    },
    {
      url: `/api/admin/expert/export?keyword=${encodeURIComponent(`专家${tag}`)}`,
      action: 'expert:export',
      full: [X.phone, X.orgCreditCode, X.declared],
      masked: [maskPhone(X.phone), maskCreditCode(X.orgCreditCode), maskCreditCode(X.declared)],
    },
  ];

  it('masked without pii:view; recorded with the filter, the row count and 个人信息已脱敏', async () => {
    for (const c of cases) {
      const text = await download(plain, c.url);
      for (const v of c.masked) expect(text, c.url).toContain(v);
      for (const v of FULL) expect(text.includes(v), `${c.url} holds ${v}`).toBe(false);
      const record = await lastOperation(plain, c.action);
      expect(record!.summary, c.action).toMatch(/ 1 (条|名)，筛选条件：.*，个人信息已脱敏$/);
    }
  });

  it('in full with pii:view; recorded with the filter, the row count and 含完整个人信息', async () => {
    for (const c of cases) {
      const text = await download(holder, c.url);
      for (const v of c.full) expect(text, c.url).toContain(v);
      const record = await lastOperation(holder, c.action);
      expect(record!.summary, c.action).toMatch(/ 1 (条|名)，筛选条件：.*，含完整个人信息$/);
      expect(record!.summary).toContain(tag);
    }
  });
});

describe('forms that send a masked value back keep the stored one', () => {
  it('an expert saved with its masked phone and credit codes keeps them; an edited mask is refused', async () => {
    const row = await jsonOf(plain, `/api/admin/expert/${expertId}`);
    const body = { name: row.name, phone: row.phone, organization: row.organization, orgCreditCode: row.orgCreditCode, title: row.title, tracks: row.tracks, declaredOrgs: row.declaredOrgs };
    const saved = await api(t, 'PUT', `/api/admin/expert/${expertId}`, { headers: plain.headers, body: { ...body, title: '教授' } });
    expect(saved.statusCode, JSON.stringify(saved.body)).toBe(200);
    const full = (await reveal(expertId)).values;
    expect(full).toMatchObject({ phone: X.phone, orgCreditCode: X.orgCreditCode, 'declaredOrgs.0.creditCode': X.declared });
    // The edit's record says what changed, without the values in full.
    const record = await lastOperation(plain, 'expert:edit');
    expect(record!.summary).toContain('职称');
    for (const value of FULL) expect(record!.summary).not.toContain(value);

    for (const [field, over] of [
      ['phone', { phone: '137****9999' }],
      ['orgCreditCode', { orgCreditCode: '9111**********0000' }],
      ['declaredOrgs.0.creditCode', { declaredOrgs: [{ name: '某某数据', creditCode: '1210**********0000' }] }],
    ] as const) {
      const res = await api(t, 'PUT', `/api/admin/expert/${expertId}`, { headers: plain.headers, body: { ...body, ...over } });
      expect(res.body, field).toMatchObject({ status: 400, message: ADMIN_MSG.piiMaskedValue, data: { field } });
    }
    const create = await api(t, 'POST', '/api/admin/expert', { headers: plain.headers, body: { ...body, phone: '137****0007', declaredOrgs: [] } });
    expect(create.body).toMatchObject({ status: 400, message: ADMIN_MSG.piiMaskedValue, data: { field: 'phone' } });
    expect((await reveal(expertId)).values.phone).toBe(X.phone);
  });

  it('a system account saved with its masked phone and e-mail keeps them', async () => {
    const row = await jsonOf(plain, `/api/admin/system/account/${operatorId}`);
    const body = { name: '改名', phone: row.phone, email: row.email, roleIds: row.roles.map((r: { id: string }) => r.id) };
    const saved = await api(t, 'PUT', `/api/admin/system/account/${operatorId}`, { headers: plain.headers, body });
    expect(saved.statusCode, JSON.stringify(saved.body)).toBe(200);
    const [stored] = await t.database.db.select().from(accounts).where(and(eq(accounts.id, operatorId)));
    expect(stored).toMatchObject({ name: '改名', phone: OP.phone, email: OP.email });
    const edited = await api(t, 'PUT', `/api/admin/system/account/${operatorId}`, { headers: plain.headers, body: { ...body, email: 'x***@example.com' } });
    expect(edited.body).toMatchObject({ status: 400, message: ADMIN_MSG.piiMaskedValue, data: { field: 'email' } });
  });

  async function reveal(id: string) {
    return (await api<PiiReveal>(t, 'GET', `/api/admin/pii/expert/${id}`, { headers: holder.headers })).body.data;
  }
});
