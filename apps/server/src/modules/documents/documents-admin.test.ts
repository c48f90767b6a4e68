import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import {
  ADMIN_MSG,
  CONTENT_MSG,
  DOCUMENT_MSG as D,
  LIST_QUERY_MSG,
  type DocumentAdminRow,
  type DocumentItem,
  type Page,
  type UploadedFile,
} from '@contest/shared';
import { api, operationsBy } from '../../../test/admin-helpers.js';
import { fakeFile, multipart } from '../../../test/files-helpers.js';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { attachments, documents, operationRecords, teams } from '../../db/schema.js';

let t: TestApp;
/** doc:edit and doc:delete (and so the docManage menu). */
let editor: SignedIn;
/** The docManage menu only: reads the list, writes nothing. */
let viewer: SignedIn;
/** doc:edit only: edits, but deletes nothing. */
let writer: SignedIn;
/** An admin without the menu. */
let stranger: SignedIn;

beforeAll(async () => {
  // The whole app: the files module reads document files through the documents' rule as app.ts wires it.
  t = await createTestApp();
  editor = await signIn(t, { realm: 'ADMIN', buttons: ['doc:edit', 'doc:delete'] });
  viewer = await signIn(t, { realm: 'ADMIN', buttons: [], menus: ['docManage'] });
  writer = await signIn(t, { realm: 'ADMIN', buttons: ['doc:edit'] });
  stranger = await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] });
});
afterAll(async () => t?.close());

// ------------------------------------------------------------------ helpers

/** Uploads a file as the console does (origin DOC unless told otherwise). */
async function upload(name = 'guide.pdf', origin = 'DOC', who: SignedIn = editor): Promise<UploadedFile> {
  const body = multipart({ origin, name }, { name, content: fakeFile.pdf(300) });
  const res = await t.app.inject({ method: 'POST', url: '/api/attachment/upload/public', payload: body.payload, headers: { ...body.headers, ...who.headers } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as UploadedFile;
}

let seq = 0;
const uniqueTitle = (prefix = '文档') => `${prefix}-${++seq}-${randomUUID().slice(0, 6)}`;
const uniqueCode = () => `T_${randomUUID().replace(/-/g, '').slice(0, 12).toUpperCase()}`;

async function body(over: Record<string, unknown> = {}) {
  return {
    title: uniqueTitle(),
    titleEn: null,
    file: (await upload()).uniqueNo,
    code: null,
    category: 'GUIDE',
    audience: 'PUBLIC',
    sort: 5,
    enabled: true,
    ...over,
  };
}

const create = async (payload: unknown, who: SignedIn = editor) => api<DocumentAdminRow>(t, 'POST', '/api/admin/documents', { headers: who.headers, body: payload });

async function createOk(over: Record<string, unknown> = {}): Promise<DocumentAdminRow> {
  const res = await create(await body(over));
  expect(res.statusCode, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const publicTitles = async (query = '', headers: Record<string, string> = {}) =>
  (await api<DocumentItem[]>(t, 'GET', `/api/documents${query}`, { headers })).body.data.map((d) => d.title);

const isPublicFile = async (uniqueNo: string) =>
  (await t.database.db.select({ p: attachments.isPublic }).from(attachments).where(eq(attachments.uniqueNo, uniqueNo)))[0]!.p;

const anonymousStream = async (uniqueNo: string) => (await api(t, 'GET', `/api/attachment/stream/${uniqueNo}`)).statusCode;

const docCount = async () => (await t.database.db.select({ n: count() }).from(documents))[0]!.n;
const recordCount = async () => (await t.database.db.select({ n: count() }).from(operationRecords))[0]!.n;

async function participant(teamStatus: 'APPROVED' | 'SUBMITTED' | null): Promise<SignedIn> {
  const user = await signIn(t, { realm: 'USER' });
  if (teamStatus) await t.database.db.insert(teams).values({ ownerId: user.accountId, status: teamStatus });
  return user;
}

// ------------------------------------------------------------------ access

describe('access', () => {
  it('401 without a session or with a participant token; 403 without the menu or the button', async () => {
    const doc = await createOk();
    const user = await participant(null);
    const valid = await body();
    const calls: Array<[string, string, unknown?]> = [
      ['GET', '/api/admin/documents'],
      ['GET', `/api/admin/documents/${doc.id}`],
      ['POST', '/api/admin/documents', valid],
      ['PUT', `/api/admin/documents/${doc.id}`, valid],
      ['PUT', `/api/admin/documents/${doc.id}/enabled`, { enabled: false }],
      ['DELETE', `/api/admin/documents/${doc.id}`],
    ];
    for (const [method, url, payload] of calls) {
      for (const headers of [{}, user.headers]) {
        const res = await api(t, method as 'GET', url, { headers, body: payload });
        expect(res.statusCode, `${method} ${url}`).toBe(401);
      }
      expect((await api(t, method as 'GET', url, { headers: stranger.headers, body: payload })).statusCode, `${method} ${url}`).toBe(403);
    }
    // The menu reads; writing needs doc:edit, deleting doc:delete.
    expect((await api(t, 'GET', '/api/admin/documents', { headers: viewer.headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', `/api/admin/documents/${doc.id}`, { headers: viewer.headers })).statusCode).toBe(200);
    for (const [method, url, payload] of calls.slice(2)) {
      expect((await api(t, method as 'GET', url, { headers: viewer.headers, body: payload })).statusCode, `${method} ${url}`).toBe(403);
    }
    expect((await api(t, 'DELETE', `/api/admin/documents/${doc.id}`, { headers: writer.headers })).statusCode).toBe(403);
    // Refused calls changed nothing.
    expect((await api<DocumentAdminRow>(t, 'GET', `/api/admin/documents/${doc.id}`, { headers: viewer.headers })).body.data).toEqual(doc);
  });

  it('answers 404 for an unknown document and 400 for a malformed id', async () => {
    const missing = randomUUID();
    const valid = await body();
    for (const [method, url, payload] of [
      ['GET', `/api/admin/documents/${missing}`],
      ['PUT', `/api/admin/documents/${missing}`, valid],
      ['PUT', `/api/admin/documents/${missing}/enabled`, { enabled: true }],
      ['DELETE', `/api/admin/documents/${missing}`],
    ] as const) {
      const res = await api(t, method, url, { headers: editor.headers, body: payload });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body.message).toBe(CONTENT_MSG.documentNotFound);
    }
    const bad = await api(t, 'GET', '/api/admin/documents/not-an-id', { headers: editor.headers });
    expect(bad.statusCode).toBe(400);
    expect(bad.body.message).toBe(ADMIN_MSG.idInvalid);
  });
});

// ------------------------------------------------------------------ create

describe('POST /api/admin/documents', () => {
  it('creates a document, records the operation and shows it on the public list at once', async () => {
    const file = await upload('报名指南.pdf');
    const title = uniqueTitle('报名指南');
    const res = await create({ title, titleEn: ' Sign-up guide ', file: file.uniqueNo, code: null, category: 'GUIDE', audience: 'PUBLIC', sort: 3, enabled: true });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(D.docCreated);
    const row = res.body.data;
    expect(row).toMatchObject({
      title,
      titleEn: 'Sign-up guide',
      code: null,
      category: 'GUIDE',
      audience: 'PUBLIC',
      sort: 3,
      enabled: true,
      file: { uniqueNo: file.uniqueNo, name: '报名指南.pdf', size: 300, filePath: `/api/attachment/stream/${file.uniqueNo}` },
    });
    expect((await api(t, 'GET', `/api/admin/documents/${row.id}`, { headers: viewer.headers })).body.data).toEqual(row);

    const [record] = await operationsBy(t, editor.accountId);
    expect(record).toMatchObject({ action: 'doc:edit', targetType: 'document', targetId: row.id });
    expect(record!.summary).toContain(`新增文档「${title}」`);
    expect(record!.summary).toContain('可见范围 所有人');

    const listed = (await api<DocumentItem[]>(t, 'GET', '/api/documents?category=GUIDE')).body.data.find((d) => d.id === row.id);
    expect(listed).toMatchObject({ title, file: { name: '报名指南.pdf' } });
    expect(await isPublicFile(file.uniqueNo)).toBe(true);
  });

  it('English pages get the English title (lang, else Accept-Language), falling back to the Chinese', async () => {
    const both = await createOk({ title: uniqueTitle('双语'), titleEn: 'Bilingual guide' });
    const chineseOnly = await createOk({ title: uniqueTitle('中文') });
    const titlesOf = async (query: string, headers: Record<string, string> = {}) => {
      const res = await api<DocumentItem[]>(t, 'GET', `/api/documents?category=GUIDE${query}`, { headers });
      expect(res.headers.vary).toContain('Accept-Language');
      const byId = new Map(res.body.data.map((d) => [d.id, d.title]));
      return [byId.get(both.id), byId.get(chineseOnly.id)];
    };
    expect(await titlesOf('&lang=en')).toEqual(['Bilingual guide', chineseOnly.title]);
    expect(await titlesOf('', { 'accept-language': 'en-US,en;q=0.9' })).toEqual(['Bilingual guide', chineseOnly.title]);
    expect(await titlesOf('&lang=zh-cn', { 'accept-language': 'en-US' })).toEqual([both.title, chineseOnly.title]);
    expect(await titlesOf('')).toEqual([both.title, chineseOnly.title]);
  });

  it('defaults sort to 0 and enabled to true, and stores blank English titles and codes as none', async () => {
    const { sort: _s, enabled: _e, ...rest } = await body({ titleEn: '   ', code: '  ' });
    const res = await create(rest);
    expect(res.statusCode).toBe(200);
    expect(res.body.data).toMatchObject({ sort: 0, enabled: true, titleEn: null, code: null });
  });

  it('refuses each bad field with its text, and writes nothing', async () => {
    const newsFile = await upload('news.pdf', 'NEWS', await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] }));
    const valid = await body();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ title: undefined }, D.docTitleRequired],
      [{ title: '   ' }, D.docTitleRequired],
      [{ title: 'x'.repeat(101) }, D.docTitleTooLong],
      [{ titleEn: 'x'.repeat(101) }, D.docTitleEnTooLong],
      [{ file: undefined }, D.docFileRequired],
      [{ file: '' }, D.docFileRequired],
      [{ file: 'no-such-file' }, D.docFileInvalid],
      [{ file: newsFile.uniqueNo }, D.docFileInvalid],
      [{ code: 'lower_case' }, CONTENT_MSG.docCodeInvalid],
      [{ code: '../x' }, CONTENT_MSG.docCodeInvalid],
      [{ code: 12 }, CONTENT_MSG.docCodeInvalid],
      [{ category: undefined }, D.docCategoryRequired],
      [{ category: 'SECRET' }, CONTENT_MSG.docCategoryInvalid],
      [{ audience: undefined }, D.docAudienceRequired],
      [{ audience: 'EVERYONE' }, D.docAudienceInvalid],
      [{ sort: -1 }, D.docSortInvalid],
      [{ sort: 1.5 }, D.docSortInvalid],
      [{ sort: 10000 }, D.docSortInvalid],
      [{ sort: '3' }, D.docSortInvalid],
      [{ enabled: 'yes' }, ADMIN_MSG.enabledInvalid],
    ];
    const [docsBefore, recordsBefore] = [await docCount(), await recordCount()];
    for (const [over, message] of cases) {
      const res = await create({ ...valid, ...over });
      expect(res.statusCode, JSON.stringify(over)).toBe(400);
      expect(res.body.message, JSON.stringify(over)).toBe(message);
    }
    expect(await docCount()).toBe(docsBefore);
    expect(await recordCount()).toBe(recordsBefore);
    // The refused file kept its own flag (a news file stays public).
    expect(await isPublicFile(newsFile.uniqueNo)).toBe(true);
  });

  it('refuses a code another document uses', async () => {
    const code = uniqueCode();
    await createOk({ code });
    const before = await docCount();
    const res = await create(await body({ code }));
    expect(res.statusCode).toBe(400);
    expect(res.body.message).toBe(D.docCodeTaken);
    expect(res.body.data).toEqual({ field: 'code' });
    expect(await docCount()).toBe(before);
  });

  it('two creates with one new code at once: one is created, the other refused', async () => {
    const code = uniqueCode();
    const [a, b] = await Promise.all([body({ code }), body({ code })]);
    const results = await Promise.all([create(a), create(b)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.statusCode === 400)!.body.message).toBe(D.docCodeTaken);
    expect(await t.database.db.select().from(documents).where(eq(documents.code, code))).toHaveLength(1);
  });
});

// ------------------------------------------------------------------ list

describe('GET /api/admin/documents', () => {
  it('lists every document (disabled too) by category then sort, filters and pages', async () => {
    const tag = randomUUID().slice(0, 8);
    const a = await createOk({ title: `${tag}-指南B`, category: 'GUIDE', sort: 2 });
    const b = await createOk({ title: `${tag}-指南A`, category: 'GUIDE', sort: 1, enabled: false, audience: 'PARTICIPANT' });
    const c = await createOk({ title: `${tag}-数据`, category: 'DATA', sort: 9, audience: 'APPROVED', titleEn: `${tag} data` });
    const list = async (query: string) => (await api<Page<DocumentAdminRow>>(t, 'GET', `/api/admin/documents?keyword=${tag}${query}`, { headers: viewer.headers })).body.data;

    const all = await list('');
    expect(all.total).toBe(3);
    expect(all.list.map((r) => r.id)).toEqual([c.id, b.id, a.id]); // DATA before GUIDE, then sort
    expect((await list('&category=GUIDE')).list.map((r) => r.id)).toEqual([b.id, a.id]);
    expect((await list('&audience=APPROVED')).list.map((r) => r.id)).toEqual([c.id]);
    expect((await list('&enabled=false')).list.map((r) => r.id)).toEqual([b.id]);
    expect((await list('&sort=sort&order=desc')).list.map((r) => r.id)).toEqual([c.id, a.id, b.id]);
    const second = await list('&size=2&page=2');
    expect(second).toMatchObject({ page: 2, size: 2, total: 3 });
    expect(second.list.map((r) => r.id)).toEqual([a.id]);
    // The keyword also finds English titles, codes and file names.
    expect((await api<Page<DocumentAdminRow>>(t, 'GET', `/api/admin/documents?keyword=${encodeURIComponent(`${tag} data`)}`, { headers: viewer.headers })).body.data.total).toBe(1);
  });

  it('refuses bad filters with their texts', async () => {
    for (const [query, message] of [
      ['category=SECRET', CONTENT_MSG.docCategoryInvalid],
      ['audience=ALL', D.docAudienceInvalid],
      ['enabled=yes', ADMIN_MSG.enabledInvalid],
      ['sort=code', LIST_QUERY_MSG.sortInvalid],
      ['page=0', ADMIN_MSG.pageInvalid],
    ] as const) {
      const res = await api(t, 'GET', `/api/admin/documents?${query}`, { headers: viewer.headers });
      expect(res.statusCode, query).toBe(400);
      expect(res.body.message, query).toBe(message);
    }
  });
});

// ------------------------------------------------------------------ edit, enable, delete

describe('PUT /api/admin/documents/{id}', () => {
  it('edits every field; a public file moved to participants stops being a public link', async () => {
    const doc = await createOk({ category: 'GUIDE', audience: 'PUBLIC' });
    expect(await anonymousStream(doc.file.uniqueNo)).toBe(200);
    const code = uniqueCode();
    const res = await api<DocumentAdminRow>(t, 'PUT', `/api/admin/documents/${doc.id}`, {
      headers: writer.headers,
      body: { title: '参赛须知', titleEn: 'Notes', file: doc.file.uniqueNo, code, category: 'TEMPLATE', audience: 'PARTICIPANT', sort: 7, enabled: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(D.docSaved);
    expect(res.body.data).toMatchObject({ title: '参赛须知', titleEn: 'Notes', code, category: 'TEMPLATE', audience: 'PARTICIPANT', sort: 7 });
    expect(Date.parse(res.body.data.updatedAt)).toBeGreaterThanOrEqual(Date.parse(doc.updatedAt));

    expect(await isPublicFile(doc.file.uniqueNo)).toBe(false);
    expect(await anonymousStream(doc.file.uniqueNo)).toBe(404);
    expect(await publicTitles('?category=TEMPLATE')).not.toContain('参赛须知');
    // Participants see it, and may read its file.
    const user = await participant(null);
    expect(await publicTitles('?category=TEMPLATE', user.headers)).toContain('参赛须知');
    expect((await api(t, 'GET', `/api/attachment/stream/${doc.file.uniqueNo}`, { headers: user.headers })).statusCode).toBe(200);
    // /template/public serves public documents only.
    expect((await api(t, 'GET', `/api/template/public?code=${code}`)).statusCode).toBe(404);

    const [record] = await operationsBy(t, writer.accountId);
    expect(record).toMatchObject({ action: 'doc:edit', targetId: doc.id });
    expect(record!.summary).toContain(`标题 ${doc.title} -> 参赛须知`);
    expect(record!.summary).toContain('可见范围 所有人 -> 已登录参赛者');
    expect(record!.summary).toContain('类别 指南 -> 模板');
  });

  it('replacing the file takes the old one off the public links', async () => {
    const doc = await createOk();
    const next = await upload('v2.pdf');
    const res = await api<DocumentAdminRow>(t, 'PUT', `/api/admin/documents/${doc.id}`, { headers: editor.headers, body: await body({ title: doc.title, file: next.uniqueNo }) });
    expect(res.statusCode).toBe(200);
    expect(res.body.data.file).toMatchObject({ uniqueNo: next.uniqueNo, name: 'v2.pdf' });
    expect(await isPublicFile(doc.file.uniqueNo)).toBe(false);
    expect(await isPublicFile(next.uniqueNo)).toBe(true);
    expect((await operationsBy(t, editor.accountId))[0]!.summary).toContain('文件 guide.pdf -> v2.pdf');
  });

  it('keeps its own code, refuses another document’s code, and checks the body like create', async () => {
    const code = uniqueCode();
    const mine = await createOk({ code });
    const other = await createOk({ code: uniqueCode() });
    const same = await api(t, 'PUT', `/api/admin/documents/${mine.id}`, { headers: editor.headers, body: await body({ code }) });
    expect(same.statusCode).toBe(200);
    const taken = await api(t, 'PUT', `/api/admin/documents/${other.id}`, { headers: editor.headers, body: await body({ code }) });
    expect(taken.statusCode).toBe(400);
    expect(taken.body.message).toBe(D.docCodeTaken);
    const bad = await api(t, 'PUT', `/api/admin/documents/${other.id}`, { headers: editor.headers, body: await body({ title: '' }) });
    expect(bad.body.message).toBe(D.docTitleRequired);
    expect((await api<DocumentAdminRow>(t, 'GET', `/api/admin/documents/${other.id}`, { headers: editor.headers })).body.data).toEqual(other);
  });
});

describe('PUT /api/admin/documents/{id}/enabled', () => {
  it('a disabled document leaves /documents and /template/public at once, and comes back when enabled', async () => {
    const code = uniqueCode();
    const doc = await createOk({ code, category: 'TEMPLATE', audience: 'PUBLIC', title: uniqueTitle('承诺书') });
    const template = await api(t, 'GET', `/api/template/public?code=${code}`);
    expect(template.statusCode).toBe(200);
    expect(template.raw.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await publicTitles('?category=TEMPLATE')).toContain(doc.title);

    const off = await api<DocumentAdminRow>(t, 'PUT', `/api/admin/documents/${doc.id}/enabled`, { headers: editor.headers, body: { enabled: false } });
    expect(off.statusCode).toBe(200);
    expect(off.body.message).toBe(D.docDisabled);
    expect(off.body.data.enabled).toBe(false);
    expect(await publicTitles('?category=TEMPLATE')).not.toContain(doc.title);
    expect(await publicTitles('?category=TEMPLATE', (await participant('APPROVED')).headers)).not.toContain(doc.title);
    const gone = await api(t, 'GET', `/api/template/public?code=${code}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.body.message).toBe(CONTENT_MSG.templateNotFound);
    expect((await api(t, 'GET', `/api/documents/${doc.id}/file`)).statusCode).toBe(404);
    expect(await anonymousStream(doc.file.uniqueNo)).toBe(404);
    expect((await operationsBy(t, editor.accountId))[0]!.summary).toBe(`禁用文档「${doc.title}」（${code}）`);

    const on = await api<DocumentAdminRow>(t, 'PUT', `/api/admin/documents/${doc.id}/enabled`, { headers: editor.headers, body: { enabled: true } });
    expect(on.body.message).toBe(D.docEnabled);
    expect((await api(t, 'GET', `/api/template/public?code=${code}`)).statusCode).toBe(200);
    expect(await publicTitles('?category=TEMPLATE')).toContain(doc.title);
  });

  it('refuses a missing or non-boolean value', async () => {
    const doc = await createOk();
    for (const payload of [{}, { enabled: 'false' }]) {
      const res = await api(t, 'PUT', `/api/admin/documents/${doc.id}/enabled`, { headers: editor.headers, body: payload });
      expect(res.statusCode).toBe(400);
      expect(res.body.message).toBe(ADMIN_MSG.enabledInvalid);
    }
  });
});

describe('DELETE /api/admin/documents/{id}', () => {
  it('deletes once (two at once: one 404), records it and takes the file off the public links', async () => {
    const doc = await createOk();
    const results = await Promise.all([
      api(t, 'DELETE', `/api/admin/documents/${doc.id}`, { headers: editor.headers }),
      api(t, 'DELETE', `/api/admin/documents/${doc.id}`, { headers: editor.headers }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 404]);
    expect(results.find((r) => r.statusCode === 200)!.body.message).toBe(D.docDeleted);
    expect((await api(t, 'GET', `/api/admin/documents/${doc.id}`, { headers: editor.headers })).statusCode).toBe(404);
    expect(await publicTitles()).not.toContain(doc.title);
    expect(await isPublicFile(doc.file.uniqueNo)).toBe(false);
    const deletes = (await operationsBy(t, editor.accountId)).filter((r) => r.action === 'doc:delete' && r.targetId === doc.id);
    expect(deletes).toHaveLength(1);
    expect(deletes[0]!.summary).toContain(`删除文档「${doc.title}」`);
  });

  it('a file two documents share stays public while one public document still uses it', async () => {
    const file = await upload('shared.pdf');
    const a = await createOk({ file: file.uniqueNo });
    await createOk({ file: file.uniqueNo, audience: 'PARTICIPANT' });
    await api(t, 'DELETE', `/api/admin/documents/${a.id}`, { headers: editor.headers });
    expect(await isPublicFile(file.uniqueNo)).toBe(false);
    const c = await createOk({ file: file.uniqueNo, audience: 'PUBLIC' });
    expect(await isPublicFile(file.uniqueNo)).toBe(true);
    await api(t, 'PUT', `/api/admin/documents/${c.id}/enabled`, { headers: editor.headers, body: { enabled: false } });
    expect(await isPublicFile(file.uniqueNo)).toBe(false);
  });
});

// ------------------------------------------------------------------ audiences

describe('audiences of documents written here', () => {
  it('data documents reach approved teams only (the /module list), participant ones any signed-in participant', async () => {
    const data = await createOk({ category: 'DATA', audience: 'APPROVED', title: uniqueTitle('数据') });
    const members = await createOk({ category: 'GUIDE', audience: 'PARTICIPANT', title: uniqueTitle('成员') });
    const approved = await participant('APPROVED');
    const pending = await participant('SUBMITTED');

    expect(await publicTitles('?category=DATA', approved.headers)).toContain(data.title);
    expect(await publicTitles('?category=DATA', pending.headers)).not.toContain(data.title);
    expect(await publicTitles('?category=DATA')).not.toContain(data.title);
    expect(await publicTitles('?category=GUIDE', pending.headers)).toContain(members.title);
    expect(await publicTitles('?category=GUIDE')).not.toContain(members.title);

    // The files follow: only the approved team reads the data document's file.
    expect((await api(t, 'GET', `/api/attachment/stream/${data.file.uniqueNo}`, { headers: approved.headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', `/api/attachment/stream/${data.file.uniqueNo}`, { headers: pending.headers })).statusCode).toBe(404);
    expect(await anonymousStream(data.file.uniqueNo)).toBe(404);
    expect((await api(t, 'GET', `/api/documents/${data.id}/file`, { headers: approved.headers })).statusCode).toBe(200);
    expect((await api(t, 'GET', `/api/documents/${data.id}/file`, { headers: pending.headers })).statusCode).toBe(404);
  });
});
