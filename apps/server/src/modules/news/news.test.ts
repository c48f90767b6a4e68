import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { CONTENT_MSG, SITE_CONTENT_KEYS, type NewsDetail, type NewsListItem, type Page, type SiteBlock } from '@contest/shared';
import { news, siteContent } from '../../db/schema.js';
import { createContentTestApp } from '../../../test/content-app.js';
import type { TestApp } from '../../../test/helpers.js';
import { signIn } from '../../../test/sign-in.js';
import { createSiteContentRepository } from '../site-content/site-content.repository.js';
import { createNewsRepository, type NewsRow } from './news.repository.js';
import { beijingDate } from './news.service.js';

let t: TestApp;
const day = 86_400_000;
const base = Date.UTC(2025, 5, 1, 2, 0, 0);
const ids: Record<string, string> = {};

const get = async <T>(url: string, headers: Record<string, string> = {}) => {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.json() as { code: string; message: string; data: T } };
};

beforeAll(async () => {
  t = await createContentTestApp();
  const repo = createNewsRepository(t.database.db);
  const add = async (key: string, values: Partial<NewsRow> & { category: NewsRow['category'] }) => {
    const row = await repo.insert(t.database.db, { title: key, summary: `${key} summary`, body: `<p>${key}</p>`, status: 'PUBLISHED', ...values });
    ids[key] = row.id;
  };
  // CONTEST_DYNAMIC, list order: pinnedOld, d3, d2, d1 (newest first after pinned).
  await add('d1', { category: 'CONTEST_DYNAMIC', publishAt: new Date(base) });
  await add('d2', { category: 'CONTEST_DYNAMIC', publishAt: new Date(base + day) });
  await add('d3', { category: 'CONTEST_DYNAMIC', publishAt: new Date(base + 2 * day), coverPath: '/api/attachment/stream/AAAAAAAAAAAAAAAAAAAAAA', source: '组委会' });
  await add('pinnedOld', { category: 'CONTEST_DYNAMIC', publishAt: new Date(base - 10 * day), pinned: true });
  await add('draft', { category: 'CONTEST_DYNAMIC', status: 'DRAFT', publishAt: new Date(base + 3 * day) });
  await add('offline', { category: 'CONTEST_DYNAMIC', status: 'OFFLINE', publishAt: new Date(base + 3 * day) });
  await add('future', { category: 'CONTEST_DYNAMIC', publishAt: new Date(Date.now() + 30 * day) });
  await add('m1', { category: 'MEDICAL_INSURANCE', publishAt: new Date(base), body: '<p onclick="x()">医保<script>alert(1)</script><img src=x onerror=alert(1)></p>' });
});

afterAll(async () => {
  await t?.close();
});

describe('GET /api/news', () => {
  it('lists published articles of a category: pinned first, then newest', async () => {
    const { status, body } = await get<Page<NewsListItem>>('/api/news?category=CONTEST_DYNAMIC');
    expect(status).toBe(200);
    expect(body.data.list.map((n) => n.title)).toEqual(['pinnedOld', 'd3', 'd2', 'd1']);
    expect(body.data).toMatchObject({ page: 1, size: 10, total: 4 });
    const d3 = body.data.list[1]!;
    expect(d3).toEqual({
      id: ids.d3,
      category: 'CONTEST_DYNAMIC',
      title: 'd3',
      summary: 'd3 summary',
      coverPath: '/api/attachment/stream/AAAAAAAAAAAAAAAAAAAAAA',
      source: '组委会',
      pinned: false,
      publishAt: new Date(base + 2 * day).toISOString(),
      date: '2025-06-03',
    });
    expect(d3).not.toHaveProperty('body');
  });

  it('pages without overlap', async () => {
    const first = await get<Page<NewsListItem>>('/api/news?category=CONTEST_DYNAMIC&page=1&size=3');
    const second = await get<Page<NewsListItem>>('/api/news?category=CONTEST_DYNAMIC&page=2&size=3');
    expect(first.body.data.list.map((n) => n.title)).toEqual(['pinnedOld', 'd3', 'd2']);
    expect(second.body.data.list.map((n) => n.title)).toEqual(['d1']);
    expect(second.body.data).toMatchObject({ page: 2, size: 3, total: 4 });
  });

  it('without a category lists both; an empty category means none', async () => {
    const all = await get<Page<NewsListItem>>('/api/news?size=100&category=');
    expect(all.body.data.total).toBe(5);
    expect(all.body.data.list.filter((n) => n.category === 'MEDICAL_INSURANCE').map((n) => n.title)).toEqual(['m1']);
  });

  it('refuses a bad category or paging with the message', async () => {
    const bad = await get('/api/news?category=SPORTS');
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(CONTENT_MSG.newsCategoryInvalid);
    expect((await get('/api/news?size=1000')).status).toBe(400);
    expect((await get('/api/news?page=0')).status).toBe(400);
  });
});

describe('GET /api/news/{id}', () => {
  it('answers a published article with its neighbours in list order', async () => {
    const { status, body } = await get<NewsDetail>(`/api/news/${ids.d2}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: ids.d2, title: 'd2', body: '<p>d2</p>', status: 'PUBLISHED' });
    expect(body.data.previous).toEqual({ id: ids.d3, title: 'd3' });
    expect(body.data.next).toEqual({ id: ids.d1, title: 'd1' });
    const top = await get<NewsDetail>(`/api/news/${ids.pinnedOld}`);
    expect(top.body.data.previous).toBeNull();
    expect(top.body.data.next).toEqual({ id: ids.d3, title: 'd3' });
    const last = await get<NewsDetail>(`/api/news/${ids.d1}`);
    expect(last.body.data.next).toBeNull();
  });

  it('stores and serves only allow-listed HTML', async () => {
    const [row] = await t.database.db.select().from(news).where(eq(news.id, ids.m1!));
    expect(row!.body).toBe('<p>医保</p>');
    // A row written around the repository is cleaned on the way out too.
    await t.database.db.update(news).set({ body: '<p>ok</p><script>alert(1)</script><a href="javascript:alert(1)">x</a>' }).where(eq(news.id, ids.m1!));
    const { body } = await get<NewsDetail>(`/api/news/${ids.m1}`);
    expect(body.data.body).toBe('<p>ok</p><a>x</a>');
  });

  it('is 404 for drafts, offline, future and unknown articles', async () => {
    for (const key of ['draft', 'offline', 'future']) {
      const res = await get(`/api/news/${ids[key]}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe(CONTENT_MSG.newsNotFound);
    }
    expect((await get('/api/news/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await get('/api/news/not-a-uuid')).status).toBe(400);
  });
});

describe('GET /api/admin/news/{id}/preview', () => {
  it('shows any status to an admin holding news:edit', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: ['news:edit'] });
    const { status, body } = await get<NewsDetail>(`/api/admin/news/${ids.draft}/preview`, admin.headers);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: ids.draft, status: 'DRAFT', previous: null, next: null });
  });

  it('refuses others: anonymous 401, participant 401, admin without the button 403', async () => {
    expect((await get(`/api/admin/news/${ids.draft}/preview`)).status).toBe(401);
    const user = await signIn(t, { realm: 'USER' });
    expect((await get(`/api/admin/news/${ids.draft}/preview`, user.headers)).status).toBe(401);
    const other = await signIn(t, { realm: 'ADMIN', buttons: ['doc:edit'] });
    expect((await get(`/api/admin/news/${ids.draft}/preview`, other.headers)).status).toBe(403);
    // Authentication comes before validation.
    expect((await get('/api/admin/news/bad/preview')).status).toBe(401);
  });
});

describe('site content', () => {
  it('answers a stored block sanitised, and an empty one for a known key never written', async () => {
    await createSiteContentRepository(t.database.db).upsert(t.database.db, { key: 'sign-guide', title: '报名指南', body: '<h3>一</h3><p onmouseover="x()">步骤</p><iframe src="//x"></iframe>' });
    const guide = await get<SiteBlock>('/api/site/content/sign-guide');
    expect(guide.status).toBe(200);
    expect(guide.body.data).toMatchObject({ key: 'sign-guide', title: '报名指南', body: '<h3>一</h3><p>步骤</p>' });
    expect(guide.body.data.updatedAt).toEqual(expect.any(String));
    await t.database.db.delete(siteContent).where(eq(siteContent.key, 'home-contact'));
    const empty = await get<SiteBlock>('/api/site/content/home-contact');
    expect(empty.body.data).toEqual({ key: 'home-contact', title: '', body: '', updatedAt: null });
  });

  it('answers several blocks in one call', async () => {
    const { status, body } = await get<Record<string, SiteBlock>>('/api/site/content?keys=home-intro,sign-guide');
    expect(status).toBe(200);
    expect(Object.keys(body.data).sort()).toEqual(['home-intro', 'sign-guide']);
    expect(body.data['sign-guide']!.title).toBe('报名指南');
  });

  it('refuses unknown keys', async () => {
    const res = await get('/api/site/content/admin-secrets');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(CONTENT_MSG.siteKeyInvalid);
    expect((await get('/api/site/content?keys=home-intro,nope')).status).toBe(400);
    expect((await get('/api/site/content')).status).toBe(400);
    expect(SITE_CONTENT_KEYS).toContain('sign-guide');
  });
});

describe('beijingDate', () => {
  it('uses the Beijing day', () => {
    expect(beijingDate(new Date('2025-06-01T16:30:00Z'))).toBe('2025-06-02');
    expect(beijingDate(new Date('2025-06-01T15:59:59Z'))).toBe('2025-06-01');
  });
});
