import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG, SETTINGS_MSG, type ContestSettings } from '@contest/shared';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { api } from '../../../test/admin-helpers.js';
import { signIn } from '../../../test/sign-in.js';

/**
 * Sign-in hardening (docs/security.md, "V2 Authentication") through the real wiring (buildApp): the login limits per account and per address
 * (finding 10) and the bare token in the Authorization header on every guard (finding 9).
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
});

let seq = 0;
const attempt = (url: string, username: string, remoteAddress: string) =>
  t.app.inject({ method: 'POST', url, payload: { username, password: 'Wrong@1234' }, remoteAddress });

describe('login limits: per account and per address', () => {
  it('31 logins from one address for different accounts are not blocked below the ceiling', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++) statuses.push((await attempt('/api/login', `shared${++seq}`, '10.60.0.1')).statusCode);
    expect(statuses).toEqual(Array(31).fill(400));
  }, 120_000);

  it('11 attempts a minute for one account are refused from the 11th, whatever the address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await attempt('/api/login', 'oneaccount', `10.61.0.${i + 1}`)).statusCode);
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(400));
    expect(statuses[10]).toBe(429);
    const refused = await attempt('/api/login', 'oneaccount', '10.61.1.1');
    expect(refused.json()).toEqual({ status: 429, code: 'RATE_LIMITED', message: MSG.tooManyRequests, data: null });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another account from the same addresses is unaffected; so is the same name in another realm.
    expect((await attempt('/api/login', 'otheraccount', '10.61.0.1')).statusCode).toBe(400);
    expect((await attempt('/api/admin/login', 'oneaccount', '10.61.0.2')).statusCode).toBe(400);
  }, 120_000);

  it('the staff consoles have the per-account limit too', async () => {
    for (const url of ['/api/admin/login', '/api/expert/login']) {
      const statuses: number[] = [];
      for (let i = 0; i < 11; i++) statuses.push((await attempt(url, 'staffname', `10.62.${url.length}.${i + 1}`)).statusCode);
      expect(statuses.slice(0, 10), url).toEqual(Array(10).fill(400));
      expect(statuses[10], url).toBe(429);
    }
  }, 120_000);

  it('the per-address ceiling is a contest setting (default 300) that takes effect at once', async () => {
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const current = (await api<ContestSettings>(t, 'GET', '/api/admin/settings', { headers: admin.headers })).body.data;
    expect(current.security).toEqual({ loginPerIpPerMinute: 300 });

    for (const bad of [0, 29, 100_001, 1.5, '300', null]) {
      const res = await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: { ...current, security: { loginPerIpPerMinute: bad } } });
      expect(res.body, String(bad)).toMatchObject({ status: 400, message: SETTINGS_MSG.loginPerIpInvalid });
    }

    const saved = await api<ContestSettings>(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: { ...current, security: { loginPerIpPerMinute: 40 } } });
    expect(saved.statusCode).toBe(200);
    expect(saved.body.data.security.loginPerIpPerMinute).toBe(40);
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await attempt('/api/login', `ceiling${++seq}`, '10.63.0.1')).statusCode);
    expect(statuses.slice(0, 40)).toEqual(Array(40).fill(400));
    expect(statuses[40]).toBe(429);
    // Other addresses keep their own count.
    expect((await attempt('/api/login', `ceiling${++seq}`, '10.63.0.2')).statusCode).toBe(400);
    await api(t, 'PUT', '/api/admin/settings', { headers: admin.headers, body: current });
  }, 120_000);
});

describe('a bare token in the Authorization header opens every guard', () => {
  it('participant, admin and expert calls accept both forms', async () => {
    const user = await signIn(t, { realm: 'USER' });
    const admin = await signIn(t, { realm: 'ADMIN', roleCode: 'SUPER_ADMIN' });
    const expert = await signIn(t, { realm: 'EXPERT' });
    const calls: Array<[string, string]> = [
      ['/api/team/my', user.token],
      ['/api/user/account', user.token],
      ['/api/admin/role/list', admin.token],
      ['/api/admin/user/account', admin.token],
      ['/api/expert/review/overview', expert.token],
      ['/api/admin/user/account', expert.token],
    ];
    for (const [url, token] of calls) {
      for (const authorization of [`Bearer ${token}`, token]) {
        const res = await t.app.inject({ method: 'GET', url, headers: { authorization } });
        expect(res.statusCode, `${url} ${authorization.slice(0, 8)}`).toBe(200);
      }
      expect((await t.app.inject({ method: 'GET', url, headers: { authorization: `Basic ${token}` } })).statusCode, url).toBe(401);
    }
  });
});
