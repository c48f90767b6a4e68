import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MSG, type UploadedFile } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { expectHiddenDocumentsIgnoreRedirect, fakeFile, multipart } from '../../../test/files-helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { attachments, documents } from '../../db/schema.js';
import { createStorage } from '../../lib/storage/create-storage.js';
import { contentDisposition } from './files.http.js';
import { eq } from 'drizzle-orm';
import { projectCodeOf } from '@contest/shared';
import { prelimDocs } from '../../db/schema.js';
import { createSessionService } from '../auth/session.service.js';
import { makePdf, pdfPageTexts } from '../../../test/blind-helpers.js';
import { setSetting, upload } from '../../../test/contest-helpers.js';
import { seedExperts, seedGroup, seedProjects } from '../../../test/review-helpers.js';

/**
 * Downloads with STORAGE_DRIVER=s3 (s3rver on loopback, the whole app): `?redirect=1` answers 302
 * to a presigned link that serves the same bytes, after the same access checks as the stream.
 */
let s3rver: S3rver;
let s3Port = 0;
let t: TestApp;
let owner: SignedIn;
let pdf: UploadedFile;
const content = fakeFile.pdf(70_000);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

beforeAll(async () => {
  s3rver = new S3rver({ port: 0, address: '127.0.0.1', directory: mkdtempSync(join(tmpdir(), 'download-s3rver-')), silent: true, configureBuckets: [{ name: 'contest-files' }] });
  ({ port: s3Port } = await s3rver.run());
  t = await createTestApp({
    STORAGE_DRIVER: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${s3Port}`,
    S3_BUCKET: 'contest-files',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_KEY_PREFIX: 'portal/',
    S3_PRESIGN_TTL_SECONDS: '120',
    FILE_LINK_SECRET: 'a-test-secret-of-at-least-32-characters',
  });
  owner = await signIn(t, { realm: 'USER' });
  const body = multipart({ origin: 'PRELIM', name: '项目 计划书.pdf' }, { name: 'x', content });
  const res = await t.app.inject({ method: 'POST', url: '/api/attachment/upload/public', payload: body.payload, headers: { ...body.headers, ...owner.headers } });
  expect(res.statusCode, res.body).toBe(200);
  pdf = res.json().data;
});

afterAll(async () => {
  await t?.close();
  await s3rver?.close();
});

/** The presigned link a 302 points to: on the store, short-lived, never cached. */
function locationOf(res: { statusCode: number; headers: Record<string, unknown> }): string {
  expect(res.statusCode).toBe(302);
  expect(res.headers['cache-control']).toBe('private, no-store');
  const location = String(res.headers.location);
  expect(location.startsWith(`http://127.0.0.1:${s3Port}/contest-files/portal/`)).toBe(true);
  expect(location).toMatch(/X-Amz-Expires=120(&|$)/);
  return location;
}

describe('downloads from S3 with ?redirect=1', () => {
  it('answers 302 to a presigned link serving the same bytes, name and type, ranges included', async () => {
    const location = locationOf(await get(`${pdf.filePath}?redirect=1`, owner.headers));
    const whole = await fetch(location);
    expect(whole.status).toBe(200);
    expect(sha256(Buffer.from(await whole.arrayBuffer()))).toBe(sha256(content));
    expect(whole.headers.get('content-type')).toBe('application/pdf');
    // The very header the stream route sends.
    const streamed = await get(pdf.filePath, owner.headers);
    expect(whole.headers.get('content-disposition')).toBe(streamed.headers['content-disposition']);
    expect(whole.headers.get('content-disposition')).toBe(contentDisposition('attachment', '项目 计划书.pdf'));

    const part = await fetch(location, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(Buffer.from(await part.arrayBuffer()).equals(content.subarray(1000, 2000))).toBe(true);

    // A Range on the request itself does not change the answer: the store serves the range.
    expect((await get(`${pdf.filePath}?redirect=1`, { ...owner.headers, range: 'bytes=0-9' })).statusCode).toBe(302);
  });

  it('opens previewable files inline with preview=1, as the stream does', async () => {
    const location = locationOf(await get(`${pdf.filePath}?redirect=1&preview=1`, owner.headers));
    expect((await fetch(location)).headers.get('content-disposition')).toMatch(/^inline; /);
  });

  it('redirects a signed link (for <a href>, <video src>) without any Authorization header', async () => {
    const link = (await get(`/api/attachment/accessUrl?filePath=${encodeURIComponent(pdf.filePath)}`, owner.headers)).json().data;
    const location = locationOf(await get(`${link.url}&redirect=1`));
    expect(sha256(Buffer.from(await (await fetch(location)).arrayBuffer()))).toBe(sha256(content));
  });

  it('streams as before without redirect=1 (the web app reads files through fetch)', async () => {
    const res = await get(pdf.filePath, owner.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();
    expect(res.rawPayload.equals(content)).toBe(true);
  });

  it('runs every access check first: 401, 403 and 404 exactly as the stream answers them', async () => {
    const link = (await get(`/api/attachment/accessUrl?filePath=${encodeURIComponent(pdf.filePath)}`, owner.headers)).json().data;
    const cases: Array<[string, string, Record<string, string>, number]> = [
      ['anonymous', pdf.filePath, {}, 404],
      ['another participant', pdf.filePath, (await signIn(t, { realm: 'USER' })).headers, 404],
      ['an expert not assigned', pdf.filePath, (await signIn(t, { realm: 'EXPERT' })).headers, 404],
      ['a forged token', pdf.filePath, { authorization: 'Bearer expired-or-forged' }, 401],
      ['a tampered link', link.url.replace(/sig=[^&]+/, 'sig=AAAA'), {}, 403],
      ['a missing file', `/api/attachment/stream/${'A'.repeat(22)}`, owner.headers, 404],
    ];
    for (const [who, url, headers, status] of cases) {
      const plain = await get(url, headers);
      const redirected = await get(`${url}${url.includes('?') ? '&' : '?'}redirect=1`, headers);
      expect(redirected.statusCode, who).toBe(status);
      expect(redirected.headers.location, who).toBeUndefined();
      expect(redirected.body, who).toBe(plain.body);
    }
    const tampered = await get(`${link.url.replace(/sig=[^&]+/, 'sig=AAAA')}&redirect=1`);
    expect(tampered.json()).toMatchObject({ status: 403, message: UPLOAD_MSG.linkExpired });
  });
});

describe('documents from S3 with ?redirect=1', () => {
  const docContent = Buffer.from('%PDF-1.4\nmember guide\n');
  const sheet = Buffer.from('PK\u0003\u0004 a spreadsheet, not previewable\n');
  const ids: Record<string, string> = {};

  /** A document on the store: the row points at an object put there directly. */
  async function addDocument(key: string, file: { name: string; mimeType: string; content: Buffer }, doc: { audience: 'PUBLIC' | 'PARTICIPANT' | 'APPROVED'; enabled?: boolean }) {
    const storage = createStorage(t.config.files.storage);
    const attachmentId = randomUUID();
    const storageKey = `2025/06/${attachmentId}`;
    await storage.put(storageKey, Readable.from([file.content]), { size: file.content.length, sha256: sha256(file.content), contentType: file.mimeType });
    await t.database.db.insert(attachments).values({
      id: attachmentId, uniqueNo: randomBytes(16).toString('base64url'), origin: 'DOC', originalName: file.name, extension: file.name.split('.').pop()!,
      mimeType: file.mimeType, size: file.content.length, sha256: sha256(file.content), storageKey, isPublic: doc.audience === 'PUBLIC',
    });
    const [row] = await t.database.db
      .insert(documents)
      .values({ title: key, attachmentId, category: 'GUIDE', audience: doc.audience, enabled: doc.enabled ?? true })
      .returning({ id: documents.id });
    ids[key] = row!.id;
  }

  beforeAll(async () => {
    await addDocument('member', { name: '参赛指南.pdf', mimeType: 'application/pdf', content: docContent }, { audience: 'PARTICIPANT' });
    await addDocument('public-sheet', { name: '评分 表.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', content: sheet }, { audience: 'PUBLIC' });
    await addDocument('withdrawn', { name: 'old.pdf', mimeType: 'application/pdf', content: docContent }, { audience: 'PUBLIC', enabled: false });
  });

  it('redirects a participant to the document on the store; others still get 404', async () => {
    const location = locationOf(await get(`/api/documents/${ids.member}/file?redirect=1&preview=1`, owner.headers));
    const res = await fetch(location);
    expect(Buffer.from(await res.arrayBuffer()).equals(docContent)).toBe(true);
    expect(res.headers.get('content-disposition')).toBe(contentDisposition('inline', '参赛指南.pdf'));

    const anonymous = await get(`/api/documents/${ids.member}/file?redirect=1`);
    expect(anonymous.statusCode).toBe(404);
    expect(anonymous.headers.location).toBeUndefined();
    // Without redirect=1 the bytes come through the server, as before.
    expect((await get(`/api/documents/${ids.member}/file`, owner.headers)).rawPayload.equals(docContent)).toBe(true);
  });

  it('names a public document as the stream does, and never opens a type that is not previewable inline', async () => {
    const streamed = await get(`/api/documents/${ids['public-sheet']}/file`);
    expect(streamed.statusCode).toBe(200);
    for (const query of ['redirect=1', 'redirect=1&preview=1']) {
      const res = await fetch(locationOf(await get(`/api/documents/${ids['public-sheet']}/file?${query}`)));
      expect(res.status, query).toBe(200);
      expect(Buffer.from(await res.arrayBuffer()).equals(sheet), query).toBe(true);
      expect(res.headers.get('content-type'), query).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
      expect(res.headers.get('content-disposition'), query).toBe(contentDisposition('attachment', '评分 表.xlsx'));
      expect(res.headers.get('content-disposition'), query).toBe(streamed.headers['content-disposition']);
    }
  });

  it('answers a hidden document exactly as without redirect=1: same 404, same body, no Location', async () => {
    const cases: Array<[string, string, Record<string, string>]> = [
      ['participant-only, anonymous', ids.member!, {}],
      ['participant-only, an expert', ids.member!, (await signIn(t, { realm: 'EXPERT' })).headers],
      ['disabled', ids.withdrawn!, owner.headers],
      ['unknown', randomUUID(), owner.headers],
    ];
    await expectHiddenDocumentsIgnoreRedirect(get, cases);
  });
});

describe('an expert on S3 (blind review, docs/security.md)', () => {
  it('a PDF is never a redirect to the stored object; an image redirects under its neutral name; a stamped download streams', async () => {
    const TEAM = 'Zhishen Pioneers';
    const [prelimId] = await seedProjects(t, 1);
    const [expert] = await seedExperts(t, 1);
    await seedGroup(t, 'PRELIMINARY', [expert!.accountId], [prelimId!]);
    const [doc] = await t.database.db.select({ ownerId: prelimDocs.ownerId }).from(prelimDocs).where(eq(prelimDocs.id, prelimId!));
    const session = await createSessionService(t.database.db).create({ accountId: doc!.ownerId, realm: 'USER' });
    const team: SignedIn = { token: session.token, accountId: doc!.ownerId, username: '', headers: { authorization: `Bearer ${session.token}` } };
    const stored = await makePdf(['plan'], { author: TEAM, title: TEAM });
    const pdfNo = await upload(t, team, 'PRELIM', '智审先锋队申报书.pdf', stored);
    const pngNo = await upload(t, team, 'PRELIM', '智审先锋队合影.png', fakeFile.png(5000));
    const idOf = async (uniqueNo: string) => (await t.database.db.select({ id: attachments.id }).from(attachments).where(eq(attachments.uniqueNo, uniqueNo)))[0]!.id;
    await t.database.db.update(prelimDocs).set({ applicationFileId: await idOf(pdfNo), otherFileIds: [await idOf(pngNo)] }).where(eq(prelimDocs.id, prelimId!));
    const code = projectCodeOf(prelimId!);

    const pdfPreview = await get(`/api/attachment/stream/${pdfNo}?preview=1&redirect=1`, expert!.headers);
    expect(pdfPreview.statusCode).toBe(200);
    expect(pdfPreview.headers.location).toBeUndefined();
    expect(pdfPreview.rawPayload.toString('latin1')).not.toContain(TEAM);
    expect(pdfPreview.headers['content-disposition']).toBe(contentDisposition('inline', `${code}-申报书.pdf`));

    const location = locationOf(await get(`/api/attachment/stream/${pngNo}?preview=1&redirect=1`, expert!.headers));
    expect(decodeURIComponent(location)).not.toContain('智审先锋队');
    const served = await fetch(location);
    expect(served.headers.get('content-disposition')).toBe(contentDisposition('inline', `${code}-附件1.png`));

    await setSetting(t, 'review.expertDownload', 'pdf');
    try {
      const download = await get(`/api/attachment/stream/${pdfNo}?redirect=1`, expert!.headers);
      expect(download.statusCode).toBe(200);
      expect((await pdfPageTexts(download.rawPayload, { wholePlane: true }))[0]).toContain(expert!.code);
      // The team still gets its own file from the store.
      const own = await fetch(locationOf(await get(`/api/attachment/stream/${pdfNo}?redirect=1`, team.headers)));
      expect(Buffer.from(await own.arrayBuffer()).equals(stored)).toBe(true);
      expect(own.headers.get('content-disposition')).toBe(contentDisposition('attachment', '智审先锋队申报书.pdf'));
    } finally {
      await setSetting(t, 'review.expertDownload', undefined);
    }
  });
});
