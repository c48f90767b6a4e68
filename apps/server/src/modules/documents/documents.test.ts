import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { CONTENT_MSG, TEMPLATE_CODES, type DocAudience, type DocCategory, type DocumentItem } from '@contest/shared';
import { accounts, attachments, documents, messageRecipients, messages, siteContent, teams } from '../../db/schema.js';
import { seedContent } from '../../seed/seed-content.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import type { Storage } from '../../lib/storage/storage.js';
import { createContentTestApp } from '../../../test/content-app.js';
import type { TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import type { ContentServices } from '../content/content.module.js';
import { expectHiddenDocumentsIgnoreRedirect } from '../../../test/files-helpers.js';

let t: TestApp & { content: ContentServices };
let storage: Storage;
const created: Record<string, { id: string; attachmentId: string; uniqueNo: string }> = {};

async function addDocument(key: string, values: { category: DocCategory; audience: DocAudience; enabled?: boolean; code?: string; sort?: number }) {
  const content = Buffer.from(`%PDF-1.4\n${key}\n`);
  const attachmentId = randomUUID();
  const storageKey = `2025/06/${attachmentId}`;
  const sha256 = createHash('sha256').update(content).digest('hex');
  await storage.put(storageKey, Readable.from([content]), { size: content.length, sha256, contentType: 'application/pdf' });
  const uniqueNo = randomBytes(16).toString('base64url');
  await t.database.db.insert(attachments).values({
    id: attachmentId, uniqueNo, origin: 'DOC', originalName: `${key}.pdf`, extension: 'pdf', mimeType: 'application/pdf',
    size: content.length, sha256, storageKey, isPublic: values.audience === 'PUBLIC',
  });
  const [doc] = await t.database.db
    .insert(documents)
    .values({ title: key, attachmentId, category: values.category, audience: values.audience, enabled: values.enabled ?? true, code: values.code ?? null, sort: values.sort ?? 0 })
    .returning({ id: documents.id });
  created[key] = { id: doc!.id, attachmentId, uniqueNo };
}

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
const titles = (res: { json(): unknown }) => (res.json() as { data: DocumentItem[] }).data.map((d) => d.title);

async function participantWithTeam(status: 'APPROVED' | 'SUBMITTED' | null): Promise<SignedIn> {
  const user = await signIn(t, { realm: 'USER' });
  if (status) await t.database.db.insert(teams).values({ ownerId: user.accountId, status });
  return user;
}

beforeAll(async () => {
  t = await createContentTestApp();
  storage = createStorage(t.config.files.storage);
  await addDocument('pub-guide', { category: 'GUIDE', audience: 'PUBLIC', sort: 2 });
  await addDocument('member-guide', { category: 'GUIDE', audience: 'PARTICIPANT', sort: 1 });
  await addDocument('data-doc', { category: 'DATA', audience: 'APPROVED', code: 'SECRET_DATA' });
  await addDocument('disabled-doc', { category: 'GUIDE', audience: 'PUBLIC', enabled: false, code: 'OLD_TEMPLATE' });
});

afterAll(async () => {
  await t?.close();
});

describe('seedContent', () => {
  it('adds the site blocks and the public templates once, whatever the number of runs', async () => {
    await seedContent(t.database.db, storage, { demo: false });
    await seedContent(t.database.db, storage, { demo: false });
    const templates = await t.database.db.select().from(documents).where(eq(documents.category, 'TEMPLATE'));
    expect(templates.map((d) => d.code).sort()).toEqual([TEMPLATE_CODES.applicationForm, TEMPLATE_CODES.commitmentLetter].sort());
    expect(templates.every((d) => d.audience === 'PUBLIC')).toBe(true);
    const [{ n }] = (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(siteContent)) as [{ n: number }];
    expect(n).toBe(6);
    const [guide] = await t.database.db.select().from(siteContent).where(eq(siteContent.key, 'sign-guide'));
    expect(guide!.body).toContain('参赛承诺书');
  });

  it('keeps a block an admin edited', async () => {
    await t.database.db.update(siteContent).set({ body: '<p>edited</p>' }).where(eq(siteContent.key, 'home-intro'));
    await seedContent(t.database.db, storage, { demo: false });
    const [intro] = await t.database.db.select().from(siteContent).where(eq(siteContent.key, 'home-intro'));
    expect(intro!.body).toBe('<p>edited</p>');
  });

  it('with demo data adds a data document for approved teams and messages for demo1..demo5, once', async () => {
    const demo: string[] = [];
    for (const username of ['demo1', 'demo2']) {
      const [a] = await t.database.db
        .insert(accounts)
        .values({ realm: 'USER', username, name: username, roleCode: 'USER', passwordHash: 'x', phone: `1380000000${username.slice(-1)}` })
        .returning({ id: accounts.id });
      demo.push(a!.id);
    }
    await seedContent(t.database.db, storage, { demo: true });
    await seedContent(t.database.db, storage, { demo: true });
    const [data] = await t.database.db.select().from(documents).where(eq(documents.code, 'DEMO_DATA_GUIDE'));
    expect(data).toMatchObject({ category: 'DATA', audience: 'APPROVED' });
    const [file] = await t.database.db.select().from(attachments).where(eq(attachments.id, data!.attachmentId));
    expect(file!.isPublic).toBe(false);
    const inbox1 = await t.database.db.select().from(messageRecipients).where(eq(messageRecipients.accountId, demo[0]!));
    const inbox2 = await t.database.db.select().from(messageRecipients).where(eq(messageRecipients.accountId, demo[1]!));
    expect(inbox1).toHaveLength(2); // welcome + data documents open (demo1 is the approved demo team)
    expect(inbox2).toHaveLength(1);
    const [welcome] = await t.database.db.select().from(messages).where(eq(messages.id, inbox2[0]!.messageId));
    expect(welcome!.title).toContain('欢迎参加');
  });
});

describe('GET /api/template/public', () => {
  it('streams the commitment letter PDF with its name', async () => {
    const res = await get(`/api/template/public?code=${TEMPLATE_CODES.commitmentLetter}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="_____.pdf"; filename*=UTF-8''${encodeURIComponent('参赛承诺书.pdf')}`);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    // The text is real PDF text (UTF-16 in a CJK font), so the character count can read it.
    expect(res.rawPayload.toString('latin1')).toContain('/Encoding /UniGB-UCS2-H');
  });

  it('refuses a missing or malformed code with the message', async () => {
    const missing = await get('/api/template/public');
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(CONTENT_MSG.docCodeRequired);
    const bad = await get('/api/template/public?code=../../etc');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(CONTENT_MSG.docCodeInvalid);
  });

  it('is 404 for unknown codes, disabled documents and documents that are not public', async () => {
    for (const code of ['NOPE', 'OLD_TEMPLATE', 'SECRET_DATA']) {
      const res = await get(`/api/template/public?code=${code}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(CONTENT_MSG.templateNotFound);
    }
  });
});

describe('GET /api/documents', () => {
  it('shows anonymous callers public documents only, in order', async () => {
    const res = await get('/api/documents?category=GUIDE');
    expect(res.statusCode).toBe(200);
    expect(titles(res)).toEqual(['pub-guide']);
    const item = (res.json() as { data: DocumentItem[] }).data[0]!;
    expect(item).toMatchObject({
      id: created['pub-guide']!.id,
      category: 'GUIDE',
      audience: 'PUBLIC',
      file: { uniqueNo: created['pub-guide']!.uniqueNo, name: 'pub-guide.pdf', filePath: `/api/attachment/stream/${created['pub-guide']!.uniqueNo}` },
      downloadPath: `/api/documents/${created['pub-guide']!.id}/file`,
    });
  });

  it('adds participant documents for a signed-in participant, but not the approved-only ones', async () => {
    const user = await participantWithTeam('SUBMITTED');
    expect(titles(await get('/api/documents?category=GUIDE', user.headers))).toEqual(['member-guide', 'pub-guide']);
    expect(titles(await get('/api/documents?category=DATA', user.headers))).toEqual([]);
  });

  it('lists data documents to participants whose team is approved', async () => {
    const user = await participantWithTeam('APPROVED');
    const data = titles(await get('/api/documents?category=DATA', user.headers));
    expect(data).toContain('data-doc');
    const all = titles(await get('/api/documents', user.headers));
    expect(all).toEqual(expect.arrayContaining(['pub-guide', 'member-guide', 'data-doc', '参赛承诺书（模板）']));
    expect(all).not.toContain('disabled-doc');
  });

  it('shows staff, and callers with a bad or expired token, what the public sees', async () => {
    const publicTitles = titles(await get('/api/documents'));
    const admin = await signIn(t, { realm: 'ADMIN', buttons: [] });
    const expert = await signIn(t, { realm: 'EXPERT' });
    for (const headers of [admin.headers, expert.headers, { authorization: 'Bearer nope' }, { authorization: 'Basic abc' }]) {
      const res = await get('/api/documents', headers);
      expect(res.statusCode, JSON.stringify(headers)).toBe(200);
      expect(titles(res)).toEqual(publicTitles);
      expect((await get(`/api/documents/${created['pub-guide']!.id}/file`, headers)).statusCode).toBe(200);
      expect((await get(`/api/documents/${created['member-guide']!.id}/file`, headers)).statusCode).toBe(404);
    }
  });

  it('refuses a bad category (400)', async () => {
    const bad = await get('/api/documents?category=SECRET');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(CONTENT_MSG.docCategoryInvalid);
  });
});

describe('GET /api/documents/{id}/file', () => {
  it('streams a data document to an approved team and 404s everyone else', async () => {
    const id = created['data-doc']!.id;
    const approved = await participantWithTeam('APPROVED');
    const ok = await get(`/api/documents/${id}/file`, approved.headers);
    expect(ok.statusCode).toBe(200);
    expect(ok.rawPayload.toString()).toBe('%PDF-1.4\ndata-doc\n');
    expect(ok.headers['content-disposition']).toContain('attachment;');
    expect((await get(`/api/documents/${id}/file?preview=1`, approved.headers)).headers['content-disposition']).toContain('inline;');

    const pending = await participantWithTeam('SUBMITTED');
    const noTeam = await participantWithTeam(null);
    for (const headers of [pending.headers, noTeam.headers, {}]) {
      const res = await get(`/api/documents/${id}/file`, headers);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(CONTENT_MSG.documentNotFound);
    }
    expect((await get(`/api/documents/${created['disabled-doc']!.id}/file`)).statusCode).toBe(404);
    expect((await get(`/api/documents/${created['pub-guide']!.id}/file`)).statusCode).toBe(200);
  });
});

describe('GET /api/documents/{id}/file?redirect=1 on local disk', () => {
  it('streams as without it: disk has no links of its own, so no 302', async () => {
    const approved = await participantWithTeam('APPROVED');
    for (const query of ['redirect=1', 'redirect=1&preview=1']) {
      const res = await get(`/api/documents/${created['data-doc']!.id}/file?${query}`, approved.headers);
      expect(res.statusCode, query).toBe(200);
      expect(res.headers.location, query).toBeUndefined();
      expect(res.rawPayload.toString(), query).toBe('%PDF-1.4\ndata-doc\n');
      expect(res.headers['content-disposition'], query).toMatch(query.includes('preview') ? /^inline; / : /^attachment; /);
    }
  });

  it('refuses a hidden document exactly as without it (404 with the same body, no Location)', async () => {
    const pending = await participantWithTeam('SUBMITTED');
    const cases: Array<[string, string, Record<string, string>]> = [
      ['approved-only, pending team', created['data-doc']!.id, pending.headers],
      ['approved-only, anonymous', created['data-doc']!.id, {}],
      ['participant-only, anonymous', created['member-guide']!.id, {}],
      ['disabled', created['disabled-doc']!.id, pending.headers],
      ['unknown', randomUUID(), {}],
    ];
    await expectHiddenDocumentsIgnoreRedirect(get, cases);
  });
});

describe('canReadDocumentFile', () => {
  it('admits a participant to a document file exactly when the document is visible to them', async () => {
    const approved = await participantWithTeam('APPROVED');
    const pending = await participantWithTeam('SUBMITTED');
    const can = t.content.documents.canReadDocumentFile;
    expect(await can(approved.accountId, created['data-doc']!.attachmentId)).toBe(true);
    expect(await can(pending.accountId, created['data-doc']!.attachmentId)).toBe(false);
    expect(await can(pending.accountId, created['member-guide']!.attachmentId)).toBe(true);
    expect(await can(approved.accountId, created['disabled-doc']!.attachmentId)).toBe(false);
    expect(await can(approved.accountId, randomUUID())).toBe(false);
  });
});
