import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH, apiMarkdown, operationsOf, type OpenApiDocument } from '../src/plugins/openapi.js';
import { createTestApp, type TestApp } from './helpers.js';
import { signIn } from './sign-in.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
});
afterAll(async () => t?.close());

const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

describe('GET /api/admin/openapi.json', () => {
  it('is refused to strangers, participants and experts with the 401 envelope', async () => {
    const participant = await signIn(t, { realm: 'USER' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    for (const headers of [{}, participant.headers, expert.headers, { authorization: 'Bearer nonsense' }]) {
      const res = await get(OPENAPI_PATH, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ status: 401, code: 'UNAUTHORIZED', data: null });
      expect(res.body).not.toContain('openapi');
    }
  });

  it('is not served anywhere else (no swagger-ui or /documentation routes)', async () => {
    for (const url of ['/documentation/json', '/documentation', '/openapi.json', '/api/openapi.json']) {
      const res = await get(url);
      expect(res.body, url).not.toContain('"openapi"');
    }
  });

  it('answers any signed-in admin, even one holding no menu or button, with the OpenAPI 3.1 description', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', buttons: [] });
    const res = await get(OPENAPI_PATH, admin.headers);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    const doc = res.json() as OpenApiDocument;
    expect(doc.openapi).toBe('3.1.0');
    expect(operationsOf(doc).length).toBeGreaterThan(200);
  });
});

describe('the API description', () => {
  let doc: OpenApiDocument;
  beforeAll(async () => {
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    doc = (await get(OPENAPI_PATH, admin.headers)).json() as OpenApiDocument;
  });
  const op = (method: string, path: string) => doc.paths[path]![method]!;

  it('lists every /api route of the route table, and nothing outside /api', () => {
    const described = new Set(operationsOf(doc).map((o) => `${o.method} ${o.path}`));
    const routes = t.app.routeTable
      .flatMap((r) => (Array.isArray(r.method) ? r.method : [r.method]).map((m) => `${m} ${r.url.replace(/:(\w+)/g, '{$1}')}`))
      .filter((r) => !r.startsWith('HEAD ') && r.includes(' /api/'));
    expect(routes.filter((r) => !described.has(r))).toEqual([]);
    expect([...described].filter((d) => !d.includes(' /api/'))).toEqual([]);
  });

  it('turns the zod schemas into JSON Schema for path, query and body', () => {
    const put = op('put', '/api/admin/news/{id}');
    expect(put.parameters).toEqual([expect.objectContaining({ in: 'path', name: 'id', required: true })]);
    const body = put.requestBody?.content['application/json']?.schema as { properties: Record<string, unknown> };
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['title', 'category']));
    const list = op('get', '/api/admin/user/list');
    expect(list.parameters?.some((p) => p.in === 'query')).toBe(true);
  });

  it('says who may call each operation and which audit action it records', () => {
    expect(op('post', '/api/admin/news')['x-guard']).toEqual({ realms: ['ADMIN'], button: 'news:edit' });
    expect(op('post', '/api/admin/news')['x-audit']).toBe('news:edit');
    expect(op('get', '/api/admin/news')['x-guard']).toMatchObject({ realms: ['ADMIN'], menus: expect.any(Array) });
    expect(op('get', OPENAPI_PATH)['x-guard']).toEqual({ realms: ['ADMIN'], button: null });
    expect(op('put', '/api/team/my')['x-guard']).toEqual({ realms: ['USER'] });
    expect(op('get', '/api/expert/review/overview')['x-guard']).toEqual({ realms: ['EXPERT'] });
    expect(op('put', '/api/expert/review/prelim/{id}/sheet')['x-guard']).toEqual({ realms: ['EXPERT'], agreement: true });
    expect(op('put', '/api/expert/review/prelim/{id}/sheet')['x-audit']).toBe('review:save');
    expect(op('get', '/api/news')['x-guard']).toBeUndefined();
    expect(op('get', '/api/news').tags).toEqual(['public']);
  });

  it('guards every console and expert call, and gives every console write an audit action', () => {
    const OPEN = new Set(['/api/admin/login', '/api/expert/login']);
    const ops = operationsOf(doc).filter((o) => /^\/api\/(admin|expert)\//.test(o.path) && !OPEN.has(o.path));
    expect(ops.filter((o) => !o.op['x-guard']).map((o) => `${o.method} ${o.path}`)).toEqual([]);
    const writes = ops.filter((o) => o.method !== 'GET' && o.path.startsWith('/api/admin/'));
    expect(writes.filter((o) => !o.op['x-audit']).map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it('describes the error envelope once and points every operation at it', () => {
    const components = doc.components as { schemas: Record<string, { required: string[] }>; responses: Record<string, unknown> };
    expect(components.schemas.Envelope!.required).toEqual(['status', 'code', 'message', 'data']);
    for (const { op: o } of operationsOf(doc)) {
      expect(o).toMatchObject({ responses: { 200: expect.anything(), 400: expect.anything(), default: { $ref: '#/components/responses/Error' } } });
    }
  });

  it('renders docs/api.md as one table row per operation', () => {
    const md = apiMarkdown(doc);
    expect(md).toContain('| POST | `/api/admin/news` | admin with button news:edit | news:edit |');
    expect(md).toContain('| PUT | `/api/expert/review/prelim/{id}/sheet` | expert (review agreement accepted) | review:save |');
    expect(md.split('\n').filter((l) => /^\| (GET|POST|PUT|DELETE|PATCH) /.test(l))).toHaveLength(operationsOf(doc).length);
  });
});
