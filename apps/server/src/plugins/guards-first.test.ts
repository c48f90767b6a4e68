import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.js';
import { guardsFirst } from './guards-first.js';

/**
 * Every guarded route identifies its caller before it looks at the input: an anonymous call
 * with a malformed body or query answers 401, never a 400 that describes the route's schema.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.ready();
}, 60_000);
afterAll(async () => t?.close());

const isGuard = (h: unknown) => (h as { guard?: unknown }).guard !== undefined;

describe('guards run before validation', () => {
  it('moves tagged guards from preHandler to the end of onRequest, keeping the other hooks in order', () => {
    const admit = () => undefined;
    const limit = () => undefined;
    const guard = Object.assign(() => undefined, { guard: { kind: 'realm', realms: ['USER'] } });
    const route = { method: 'POST', url: '/x', handler: () => undefined, onRequest: admit, preHandler: [guard, limit] } as never;
    guardsFirst(route);
    expect((route as { onRequest: unknown[] }).onRequest).toEqual([admit, guard]);
    expect((route as { preHandler: unknown[] }).preHandler).toEqual([limit]);
  });

  it('answers 401 to an anonymous malformed call on every guarded API route', async () => {
    const guarded = t.app.routeTable.filter((r) => r.url.startsWith('/api') && r.onRequest.some(isGuard));
    expect(guarded.length).toBeGreaterThan(100);
    // Participant and expert routes too, whose guards are written as preHandlers.
    for (const url of ['/api/user/account', '/api/attachment/piece/upload', '/api/expert/review/overview']) expect(guarded.map((r) => r.url), url).toContain(url);
    const wrong: string[] = [];
    for (const route of guarded) {
      for (const method of (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'HEAD')) {
        const url = route.url.replace(/:(\w+)/g, 'x%00').concat('?page=-1&pageSize=abc');
        const body = method === 'GET' || method === 'DELETE' ? {} : { payload: '{"broken": ', headers: { 'content-type': 'application/json' } };
        const res = await t.app.inject({ method: method as 'POST', url, ...body });
        if (res.statusCode !== 401) wrong.push(`${method} ${route.url}: ${res.statusCode}`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
