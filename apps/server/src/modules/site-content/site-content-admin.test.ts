import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, eq } from 'drizzle-orm';
import { CONTENT_MSG, DOCUMENT_MSG as D, SITE_CONTENT_KEYS, type SiteBlock, type SiteBlockAdmin } from '@contest/shared';
import { api, operationsBy } from '../../../test/admin-helpers.js';
import { createContentTestApp } from '../../../test/content-app.js';
import type { TestApp } from '../../../test/helpers.js';
import { signIn, type SignedIn } from '../../../test/sign-in.js';
import { operationRecords, siteContent } from '../../db/schema.js';

let t: TestApp;
/** news:edit (and so the siteContentManagement menu). */
let editor: SignedIn;
/** The news menu only: reads the blocks, writes none. */
let viewer: SignedIn;
/** Documents only: neither reads nor writes the blocks. */
let stranger: SignedIn;

beforeAll(async () => {
  t = await createContentTestApp();
  editor = await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'], name: '内容编辑' });
  viewer = await signIn(t, { realm: 'ADMIN', buttons: [], menus: ['siteContentManagement'] });
  stranger = await signIn(t, { realm: 'ADMIN', buttons: ['doc:edit'] });
});
afterAll(async () => t?.close());

const put = (key: string, body: unknown, who: SignedIn = editor) => api<SiteBlockAdmin>(t, 'PUT', `/api/admin/site-content/${key}`, { headers: who.headers, body });
const blocks = async () => (await api<SiteBlockAdmin[]>(t, 'GET', '/api/admin/site-content', { headers: viewer.headers })).body.data;
const rowCount = async () => (await t.database.db.select({ n: count() }).from(siteContent))[0]!.n;
const recordCount = async () => (await t.database.db.select({ n: count() }).from(operationRecords))[0]!.n;

describe('access', () => {
  it('401 without an admin session; 403 without the news menu (read) or news:edit (write)', async () => {
    const user = await signIn(t, { realm: 'USER' });
    for (const headers of [{}, user.headers]) {
      expect((await api(t, 'GET', '/api/admin/site-content', { headers })).statusCode).toBe(401);
      expect((await api(t, 'PUT', '/api/admin/site-content/home-intro', { headers, body: { title: 'x' } })).statusCode).toBe(401);
    }
    expect((await api(t, 'GET', '/api/admin/site-content', { headers: stranger.headers })).statusCode).toBe(403);
    expect((await put('home-intro', { title: 'x' }, stranger)).statusCode).toBe(403);
    expect((await put('home-intro', { title: 'x' }, viewer)).statusCode).toBe(403);
    expect((await api(t, 'GET', '/api/admin/site-content', { headers: viewer.headers })).statusCode).toBe(200);
    expect(await rowCount()).toBe(0);
  });
});

describe('GET /api/admin/site-content', () => {
  it('lists every known block in order, empty when nobody wrote it', async () => {
    const list = await blocks();
    expect(list.map((b) => b.key)).toEqual([...SITE_CONTENT_KEYS]);
    expect(list[0]).toEqual({ key: 'home-intro', title: '', body: '', titleEn: null, bodyEn: null, updatedAt: null, updatedBy: null });
  });
});

describe('PUT /api/admin/site-content/{key}', () => {
  it('saves a sanitised block, records it, and the public calls show it at once in both languages', async () => {
    const res = await put('sign-guide', {
      title: ' 报名指南 ',
      body: '<h3>一、注册</h3><p onclick="steal()">点击<a href="javascript:alert(1)">这里</a></p><script>alert(1)</script>',
      titleEn: 'Sign-up guide',
      bodyEn: '<p>Register first.</p><img src=x onerror="alert(1)">',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.message).toBe(D.siteSaved);
    const saved = res.body.data;
    expect(saved).toMatchObject({ key: 'sign-guide', title: '报名指南', titleEn: 'Sign-up guide', updatedBy: '内容编辑' });
    expect(saved.body).toContain('<h3>一、注册</h3>');
    for (const text of [saved.body, saved.bodyEn!]) {
      expect(text).not.toMatch(/script|onclick|onerror|javascript:/i);
    }
    expect(saved.bodyEn).toContain('<p>Register first.</p>');
    expect(saved.updatedAt).not.toBeNull();

    const pub = (await api<SiteBlock>(t, 'GET', '/api/site/content/sign-guide')).body.data;
    expect(pub).toMatchObject({ key: 'sign-guide', title: '报名指南', body: saved.body });
    const english = await api<SiteBlock>(t, 'GET', '/api/site/content/sign-guide?lang=en');
    expect(english.body.data).toMatchObject({ title: 'Sign-up guide', body: saved.bodyEn });
    expect(english.headers.vary).toContain('Accept-Language');
    const byHeader = (await api<SiteBlock>(t, 'GET', '/api/site/content/sign-guide', { headers: { 'accept-language': 'en' } })).body.data;
    expect(byHeader.title).toBe('Sign-up guide');
    const batch = (await api<Record<string, SiteBlock>>(t, 'GET', '/api/site/content?keys=sign-guide,home-intro&lang=en')).body.data;
    expect(batch['sign-guide']!.body).toBe(saved.bodyEn);
    expect(batch['home-intro']).toMatchObject({ title: '', body: '' });

    expect((await blocks()).find((b) => b.key === 'sign-guide')).toEqual(saved);
    const [record] = await operationsBy(t, editor.accountId);
    expect(record).toMatchObject({ action: 'news:edit', targetType: 'site_content', targetId: 'sign-guide' });
    expect(record!.summary).toContain('标题 无 -> 报名指南');
    expect(record!.summary).toContain('正文已修改');
  });

  it('blank English texts are stored as none: English pages then show the Chinese', async () => {
    await put('home-contact', { title: '联系我们', body: '<p>电话</p>', titleEn: 'Contact', bodyEn: '<p>Phone</p>' });
    const res = await put('home-contact', { title: '联系我们', body: '<p>电话</p>', titleEn: '  ', bodyEn: '' });
    expect(res.body.data).toMatchObject({ titleEn: null, bodyEn: null });
    const english = (await api<SiteBlock>(t, 'GET', '/api/site/content/home-contact?lang=en')).body.data;
    expect(english).toMatchObject({ title: '联系我们', body: '<p>电话</p>' });
    expect((await operationsBy(t, editor.accountId))[0]!.summary).toContain('英文标题 Contact -> 无');
  });

  it('an unknown block is 404 and writes nothing', async () => {
    const [rows, records] = [await rowCount(), await recordCount()];
    const res = await put('home-secret', { title: 'x', body: '<p>x</p>' });
    expect(res.statusCode).toBe(404);
    expect(res.body.message).toBe(CONTENT_MSG.siteContentNotFound);
    expect(await rowCount()).toBe(rows);
    expect(await recordCount()).toBe(records);
  });

  it('refuses each bad field with its text, and writes nothing', async () => {
    await put('home-tracks', { title: '赛道', body: '<p>原文</p>' });
    const [rows, records] = [await rowCount(), await recordCount()];
    for (const [payload, message] of [
      [{ title: 'x'.repeat(101) }, D.siteTitleTooLong],
      [{ titleEn: 'x'.repeat(101) }, D.siteTitleEnTooLong],
      [{ body: 'x'.repeat(100_001) }, D.siteBodyTooLong],
      [{ bodyEn: 'x'.repeat(100_001) }, D.siteBodyEnTooLong],
      [{ body: 12 }, D.siteFieldInvalid],
      [{ title: ['a'] }, D.siteFieldInvalid],
    ] as const) {
      const res = await put('home-tracks', payload);
      expect(res.statusCode, JSON.stringify(payload).slice(0, 40)).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(await rowCount()).toBe(rows);
    expect(await recordCount()).toBe(records);
    const [row] = await t.database.db.select().from(siteContent).where(eq(siteContent.key, 'home-tracks'));
    expect(row!.body).toBe('<p>原文</p>');
  });

  it('two saves of one block at once: both succeed, one wins whole, each is recorded', async () => {
    const before = (await operationsBy(t, editor.accountId)).length;
    const results = await Promise.all([
      put('home-schedule', { title: '日程甲', body: '<p>甲</p>' }),
      put('home-schedule', { title: '日程乙', body: '<p>乙</p>' }),
    ]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200]);
    const [row] = await t.database.db.select().from(siteContent).where(eq(siteContent.key, 'home-schedule'));
    expect([['日程甲', '<p>甲</p>'], ['日程乙', '<p>乙</p>']]).toContainEqual([row!.title, row!.body]);
    expect((await operationsBy(t, editor.accountId)).length).toBe(before + 2);
  });
});
