import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDictionary, withContest } from './contest-helpers.js';
import { createTestApp, type TestApp } from './helpers.js';
import { signIn, type SignedIn } from './sign-in.js';

/**
 * A public call must answer a signed-in staff member (admin or expert token) as it
 * answers an anonymous caller; a token of another realm is no reason to refuse what the public
 * may read. Walked over the whole route table, so a new public call is checked too.
 */
let t: TestApp;
let callers: Record<string, Record<string, string>>;

beforeAll(async () => {
  t = await createTestApp();
  await withContest(t);
  await seedDictionary(t);
  await t.app.ready();
  const who: Record<string, SignedIn> = {
    admin: await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' }),
    expert: await signIn(t, { realm: 'EXPERT' }),
    participant: await signIn(t, { realm: 'USER' }),
  };
  callers = Object.fromEntries(Object.entries(who).map(([name, s]) => [name, s.headers]));
});
afterAll(async () => t?.close());

/** Every GET of the API, path parameters filled with an id that names nothing. */
const apiGets = () =>
  t.app.routeTable
    .filter((r) => (Array.isArray(r.method) ? r.method : [r.method]).includes('GET'))
    .filter((r) => r.url.startsWith('/api/') && !r.url.includes('*'))
    .map((r) => r.url.replace(/:[A-Za-z]+/g, randomUUID()));

describe('public calls and staff tokens', () => {
  it('finds the calls', () => {
    const urls = apiGets();
    expect(urls.length).toBeGreaterThan(50);
    expect(urls).toContain('/api/documents');
    expect(urls).toContain('/api/news');
  });

  it('answers every realm\'s token as it answers nobody, on every public GET', async () => {
    const differing: string[] = [];
    for (const url of apiGets()) {
      const anonymous = await t.app.inject({ method: 'GET', url });
      // Not public (signed-in callers only): nothing to compare.
      if (anonymous.statusCode === 401 || anonymous.statusCode === 403) continue;
      for (const [name, headers] of Object.entries(callers)) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        if (res.statusCode !== anonymous.statusCode) differing.push(`${url} ${name}: ${res.statusCode} (anonymous ${anonymous.statusCode})`);
      }
    }
    expect(differing).toEqual([]);
  });
});
