import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MSG, VALIDATION_MSG, splitQueryArray } from '@contest/shared';
import { createTestApp, type TestApp } from '../test/helpers.js';
import { badRequest, sessionReplaced } from './lib/errors.js';
import { ok } from './plugins/envelope.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ BODY_LIMIT_BYTES: '2048' });
  // Probe routes that exercise the shared HTTP conventions; registered before the first inject.
  t.app.post(
    '/api/_probe/validate',
    { schema: { body: z.object({ name: z.string().min(2), phone: z.string().min(1, VALIDATION_MSG.phoneRequired) }) } },
    async (request) => ok(request.body),
  );
  t.app.get('/api/_probe/query', async (request) => {
    const q = request.query as Record<string, string>;
    return ok({ ids: splitQueryArray(q.ids), name: q.name });
  });
  t.app.get('/api/_probe/crash', async () => {
    throw new Error('secret internal detail: password=hunter2 at /srv/app.js:1');
  });
  t.app.get('/api/_probe/business', async () => {
    throw badRequest('当前不在报名时间内', { phase: 'signUp' });
  });
  t.app.get('/api/_probe/replaced', async () => {
    throw sessionReplaced();
  });
  t.app.get('/api/_probe/big', async () => ok('x'.repeat(20_000)));
});

afterAll(async () => {
  await t.close();
});

describe('GET /api/health', () => {
  it('answers 200 with the envelope after checking the database', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 200, code: 'OK', data: { ok: true, database: 'ok' } });
    expect(body.data.redis).toBe(t.config.redisUrl ? 'ok' : 'disabled');
  });

  it('answers 503 when the database is down', async () => {
    const original = t.database.ping;
    t.database.ping = async () => {
      throw new Error('connection refused');
    };
    try {
      const res = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', data: { database: 'down' } });
    } finally {
      t.database.ping = original;
    }
  });
});

describe('envelope and errors', () => {
  it('unknown /api path is a JSON 404 envelope', async () => {
    for (const method of ['GET', 'POST', 'DELETE'] as const) {
      const res = await t.app.inject({ method, url: '/api/does-not-exist' });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(res.json()).toEqual({ status: 404, code: 'NOT_FOUND', message: MSG.notFound, data: null });
    }
  });

  it('validation failure is 400 naming the missing field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/validate', payload: { phone: '1' } });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'VALIDATION_FAILED', message: '缺少参数 name', data: { field: 'name' } });
  });

  it('validation failure names an invalid field', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/validate', payload: { name: 'x', phone: '1' } });
    expect(res.json()).toMatchObject({ status: 400, message: '参数 name 不合法', data: { field: 'name' } });
  });

  it('a schema message written for people is shown as is', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/validate', payload: { name: 'ok', phone: '' } });
    expect(res.json()).toMatchObject({ status: 400, message: VALIDATION_MSG.phoneRequired, data: { field: 'phone' } });
  });

  it('valid input reaches the handler parsed', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/validate', payload: { name: '张三', phone: '13800000000' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({ name: '张三', phone: '13800000000' });
  });

  it('malformed JSON is a 400 envelope', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/_probe/validate',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: VALIDATION_MSG.malformedBody });
  });

  it('an oversized body is 413', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/_probe/validate', payload: { name: 'x'.repeat(5000), phone: '1' } });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('an unsupported content type is 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/_probe/validate',
      headers: { 'content-type': 'application/x-unknown' },
      payload: 'x',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('an unexpected error is 500 without internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_probe/crash' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ status: 500, code: 'INTERNAL', message: MSG.internal, data: null });
    expect(res.body).not.toMatch(/hunter2|secret|app\.js|stack/);
  });

  it('a business error keeps its status, code, message and data', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_probe/business' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ status: 400, code: 'BAD_REQUEST', message: '当前不在报名时间内', data: { phase: 'signUp' } });
    const replaced = await t.app.inject({ method: 'GET', url: '/api/_probe/replaced' });
    expect(replaced.statusCode).toBe(409);
    expect(replaced.json()).toMatchObject({ status: 409, code: 'SESSION_REPLACED', message: MSG.sessionReplaced });
  });
});

describe('HTTP conventions', () => {
  it('query arrays are comma-separated; repeated keys join the same way', async () => {
    const a = await t.app.inject({ method: 'GET', url: '/api/_probe/query?ids=1,2,3&name=%E5%BC%A0' });
    expect(a.json().data).toEqual({ ids: ['1', '2', '3'], name: '张' });
    const b = await t.app.inject({ method: 'GET', url: '/api/_probe/query?ids=1&ids=2' });
    expect(b.json().data.ids).toEqual(['1', '2']);
  });

  it('sends a request id, echoing the caller\'s when given', async () => {
    const fresh = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(fresh.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const echoed = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'trace-42' } });
    expect(echoed.headers['x-request-id']).toBe('trace-42');
  });

  it.each([
    ['8 KB long', 'a'.repeat(8192)],
    ['65 characters', 'a'.repeat(65)],
    ['markup', '<script>alert(1)</script>'],
    ['a log line break', 'ok\r\nforged: 1'],
    ['spaces', 'trace 42'],
  ])('replaces a caller request id with %s by its own', async (_what, id) => {
    // The id is the log lines' reqId too (request.id), so it must not carry the caller's bytes there.
    const res = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': id } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers with a strict CSP and no caching of API answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("frame-ancestors 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('compresses large answers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/_probe/big', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.rawPayload.length).toBeLessThan(2000);
  });
});
