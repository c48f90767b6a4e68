import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '@contest/shared';
import { seedDictionary, setSetting, withContest } from './contest-helpers.js';
import { createTestApp, type TestApp } from './helpers.js';
import { signIn, type SignedIn } from './sign-in.js';

/**
 * Many people behind one address (docs/security.md, "Limits behind one address"): a hospital
 * or university puts hundreds of participants behind one NAT address. Page files never count,
 * signed-in API calls count per account, only anonymous ones per address.
 */
const HOSPITAL = '203.0.113.7';
const PARTICIPANTS = 200;
const PER_ACCOUNT = 40;
const INDEX = '<!doctype html><html lang="zh-cn"><body><div id="root"></div></body></html>';
const ASSETS = ['/assets/index-Ab12Cd.js', '/assets/index-Ef34Gh.css', '/assets/participant-Ij56Kl.js'];

let t: TestApp;
let people: SignedIn[];

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), INDEX);
  for (const asset of ASSETS) writeFileSync(join(dist, asset), 'x'.repeat(2000));
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // The per-address ceiling as shipped (1200 a minute); a small per-account limit so the test can reach it.
  t = await createTestApp({ WEB_DIST_DIR: dist, RATE_LIMIT_PER_MINUTE: '1200', RATE_LIMIT_PER_ACCOUNT_PER_MINUTE: String(PER_ACCOUNT) });
  await withContest(t);
  await seedDictionary(t);
  people = [];
  for (let i = 0; i < PARTICIPANTS; i++) people.push(await signIn(t, { realm: 'USER' }));
}, 120_000);
afterAll(async () => t?.close());

const get = (url: string, who?: SignedIn) => t.app.inject({ method: 'GET', url, remoteAddress: HOSPITAL, headers: who?.headers });

/** One page load of the participant area: the shell, its files, and the calls the page makes. */
async function loadPage(who: SignedIn, page: string): Promise<number[]> {
  const shell = await Promise.all([get(page), get('/favicon.svg'), ...ASSETS.map((a) => get(a))]);
  const calls = await Promise.all(['/api/contest/public', '/api/user/account', '/api/messages/summary', '/api/team/my'].map((url) => get(url, who)));
  return [...shell, ...calls].map((r) => r.statusCode);
}

describe('many participants behind one address', () => {
  it(`${PARTICIPANTS} signed-in participants load pages and save drafts at once: no refusal`, async () => {
    const statuses = await Promise.all(
      people.map(async (who, i) => {
        const out: number[] = [];
        for (const page of ['/my-sign', '/my-sign', '/messages']) out.push(...(await loadPage(who, page)));
        for (const draft of [1, 2]) {
          const save = await t.app.inject({ method: 'PUT', url: '/api/team/my', remoteAddress: HOSPITAL, headers: who.headers, payload: { teamName: `团队${i}-${draft}` } });
          out.push(save.statusCode);
        }
        return out;
      }),
    );
    const all = statuses.flat();
    // 200 x (3 x 9 + 2) = 5,800 requests from one address in well under a minute.
    expect(all).toHaveLength(PARTICIPANTS * 29);
    expect(all.filter((s) => s === 429)).toHaveLength(0);
    expect(all.every((s) => s === 200)).toBe(true);
  }, 180_000);

  it('the per-account limit refuses one busy account only, with the message', async () => {
    const [busy, other] = [people[0]!, people[1]!];
    let refused: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < PER_ACCOUNT + 5 && !refused; i++) {
      const res = await get('/api/user/account', busy);
      if (res.statusCode === 429) refused = res;
    }
    expect(refused?.json()).toMatchObject({ status: 429, code: 'RATE_LIMITED', message: MSG.tooManyRequests });
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
    // Same address, another account; and the page itself: both still served.
    expect((await get('/api/user/account', other)).statusCode).toBe(200);
    expect((await get('/my-sign')).statusCode).toBe(200);
    expect((await get(ASSETS[0]!)).statusCode).toBe(200);
  });

  it('page files never count, however many loads one address makes', async () => {
    const loads = await Promise.all(Array.from({ length: 1500 }, (_, i) => get(i % 2 ? '/' : ASSETS[i % ASSETS.length]!)));
    expect(loads.filter((r) => r.statusCode !== 200)).toHaveLength(0);
  });

  it('a made-up token does not dodge the per-address login ceiling', async () => {
    await setSetting(t, 'security.loginPerIpPerMinute', 30);
    const login = (i: number) =>
      t.app.inject({ method: 'POST', url: '/api/login', remoteAddress: '198.51.100.9', headers: { authorization: `Bearer ${'x'.repeat(42)}${i % 10}` }, payload: { username: `nobody${i}`, password: 'Wrong@2025' } });
    const answers: number[] = [];
    for (let i = 0; i < 40; i++) answers.push((await login(i)).statusCode);
    // Ten different tokens, four attempts each: counted per session they would never reach 30.
    expect(answers.slice(0, 30).filter((s) => s === 429)).toHaveLength(0);
    expect(answers.slice(30).filter((s) => s === 429)).toHaveLength(10);
  }, 60_000);
});
